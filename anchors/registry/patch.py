"""A registry edit as a unified diff: what `anchors fix` prints for review (and `--dry-run`)."""

from __future__ import annotations

import difflib

from .model import Registry

__all__ = ["unified_diff"]


def unified_diff(reg: Registry, text: str, name: str) -> str:
    """The change as a diff `patch` and `git apply` take to give exactly the file written.

    Lines are split at LF only, as those tools split them (a CR stays at the end of its line,
    a NEL or U+2028 inside it), a last line without a newline is marked so, and a BOM
    is part of the first line, as it is in the file.
    """
    bom = "\ufeff" if reg.bom else ""
    out = []
    for line in difflib.unified_diff(
        _lf_lines(bom + reg.text), _lf_lines(bom + text), f"a/{name}", f"b/{name}"
    ):
        out.append(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")
    return "".join(out)


def _lf_lines(text: str) -> list[str]:
    lines = text.split("\n")
    return [ln + "\n" for ln in lines[:-1]] + ([lines[-1]] if lines[-1] else [])
