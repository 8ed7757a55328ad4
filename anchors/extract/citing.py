"""Where a dead URL is cited: the briefing lines in the repository, beside the registry line.

A dead link is fixed in the briefing as much as in the registry, so annotations and SARIF point
at both. Only Markdown files inside the registry's repository (the folder holding `.git`, else
the registry's folder) are read, each at most once, and only when there is a dead link at all.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator
from pathlib import Path

from ..findings import Code, Finding

__all__ = ["add_citing_lines", "repository_root"]

#: Codes whose anchor is a URL a briefing may cite word for word.
_CODES = frozenset({Code.DEAD_LINK})
_MAX_FILES = 5000
_MAX_BYTES = 4 << 20
_SKIP_DIRS = frozenset({".git", ".anchors", "node_modules", ".venv", "venv", "__pycache__"})


def repository_root(registry: str | Path) -> Path:
    start = Path(os.path.realpath(registry)).parent
    return next((d for d in (start, *start.parents) if (d / ".git").exists()), start)


def _markdown_files(root: Path) -> Iterator[Path]:
    count = 0
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in _SKIP_DIRS and not d.startswith("."))
        for name in sorted(files):
            if name.endswith(".md"):
                count += 1
                if count > _MAX_FILES:
                    return
                yield Path(folder) / name


def _shown(p: Path) -> str:
    try:
        return os.path.relpath(p)
    except ValueError:
        return str(p)


def add_citing_lines(findings: Iterable[Finding]) -> None:
    """Set `details["cited_at"] = [{"file", "line"}, …]` on dead-link findings (in place).

    Each finding's repository is its own registry file's.
    """
    by_registry: dict[str, list[Finding]] = {}
    for f in findings:
        if f.code in _CODES and f.anchor:
            by_registry.setdefault(f.file, []).append(f)
    for registry, group in by_registry.items():
        _annotate(registry, {f.anchor: f for f in group})


def _annotate(registry: str, wanted: dict[str, Finding]) -> None:
    # A URL ends where URL characters end: .../a must not match .../ab
    pattern = re.compile("|".join(f"(?:{re.escape(u)})(?![\\w/~%?#&=+.-])" for u in
                                  sorted(wanted, key=len, reverse=True)))
    hits: dict[str, list[dict[str, object]]] = {u: [] for u in wanted}
    for path in _markdown_files(repository_root(registry)):
        try:
            if path.stat().st_size > _MAX_BYTES:
                continue
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        if not any(u in text for u in wanted):
            continue
        for n, line in enumerate(text.splitlines(), 1):
            for m in pattern.finditer(line):
                hits[m.group(0)].append({"file": _shown(path), "line": n})
    for url, where in hits.items():
        if where:
            wanted[url].details["cited_at"] = where
