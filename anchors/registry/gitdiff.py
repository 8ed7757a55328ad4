"""`--changed-since REF`: the anchors a branch adds or edits, compared with a git ref."""

from __future__ import annotations

import subprocess
from pathlib import Path

from ..errors import RegistryError, UsageError
from .loader import parse_text
from .model import Registry

__all__ = ["changed_keys"]


def _entry_texts(reg: Registry) -> dict[str, str]:
    out: dict[str, str] = {}
    starts = [anchor.spans["_end"].start for anchor in reg.anchors]
    for anchor, start in zip(reg.anchors, starts):
        if anchor.key is not None:
            out.setdefault(anchor.key.key, reg.text[start : anchor.spans["_end"].end])
    return out


def changed_keys(reg: Registry, ref: str) -> set[str]:
    """Keys whose entry is new or whose text differs from the registry at `ref`."""
    if ref.startswith("-") or not ref.strip() or any(c in ref for c in "\0\n\r"):
        raise UsageError(f"--changed-since {ref!r} is not a git ref (a ref never starts with '-')")
    path = Path(reg.path).resolve()
    try:
        top = subprocess.run(
            ["git", "--literal-pathspecs", "-C", str(path.parent), "rev-parse", "--show-toplevel"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        rel = path.relative_to(Path(top).resolve()).as_posix()
        # NOTE: --end-of-options (git 2.24+) makes git read what follows as a revision even if
        # it looks like an option; with the check above, user input can never become one.
        old = subprocess.run(
            ["git", "--literal-pathspecs", "-C", top, "show", "--end-of-options", f"{ref}:{rel}"],
            capture_output=True,
            check=False,
        )
    except (OSError, subprocess.CalledProcessError, ValueError):
        raise UsageError(f"--changed-since: {reg.path} is not in a git checkout") from None
    if old.returncode != 0:
        err = old.stderr.decode(errors="replace").strip()
        if "exists on disk, but not in" in err or "does not exist in" in err:
            return {k for k in _entry_texts(reg)}  # the registry is new on this branch
        raise UsageError(f"--changed-since {ref}: {err.splitlines()[0] if err else 'git failed'}")
    try:
        before = _entry_texts(parse_text(old.stdout, f"{ref}:{rel}"))
    except RegistryError:
        before = {}
    return {k for k, text in _entry_texts(reg).items() if before.get(k) != text}
