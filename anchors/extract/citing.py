"""Where a dead URL is cited: the briefing lines in the repository, beside the registry line.

A dead link is fixed in the briefing as much as in the registry, so annotations and SARIF point
at both. Only Markdown files inside the registry's repository (the folder holding `.git`, else
the registry's folder) are read, each at most once, and only when there is a dead link at all;
each as every file the repository names is read (`files.repo`): a regular file, never through a
link out of the repository (`notes.md -> /dev/zero`), and at most 4 MiB of it.
A line cites the URL when the briefing extractor finds it there under the same key, so the
match is the one `anchors add` makes (as cited, tracking parameters aside), not a text search:
`cited_keys` is the extractor's own walk (the same lines, table cells, hits and ignored
anchors) without the titles, claims and figures a citation also gets, half its cost.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from urllib.parse import urlsplit

from ..details import Answer, Details, Line, details_of
from ..files.repo import RepoFileError, read_text, repository_root
from ..findings import CITED_IN_BRIEFINGS, Finding
from ..ids import InvalidId, parse_anchor
from .layout import cells, ignored_anchors, is_separator, skipped_lines, without_comments
from .scan import DIGIT_RE, scan

__all__ = ["add_citing_lines", "cited_keys"]

_MAX_FILES = 5000
_MAX_BYTES = 4 << 20
_SKIP_DIRS = frozenset({".git", ".anchors", "node_modules", ".venv", "venv", "__pycache__"})


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


def _shown(path: Path) -> str:
    try:
        return os.path.relpath(path)
    except ValueError:
        return str(path)


def add_citing_lines(findings: Sequence[Finding]) -> list[Finding]:
    """The findings, each dead-link one with `Answer.cited_at` (its briefing lines) when a
    briefing cites its URL. Each finding's repository is its own registry file's."""
    by_registry: dict[str, set[str]] = {}
    for f in findings:
        if f.code in CITED_IN_BRIEFINGS and f.anchor:
            by_registry.setdefault(f.file, set()).add(f.anchor)
    cited = {
        (registry, anchor): where
        for registry, anchors in by_registry.items()
        for anchor, where in _citing(registry, anchors).items()
    }
    return [
        replace(f, details=_cited(f.details, where))
        if f.code in CITED_IN_BRIEFINGS
        and (where := _elsewhere(f, cited.get((f.file, f.anchor), [])))
        else f
        for f in findings
    ]


def _elsewhere(f: Finding, where: list[Line]) -> tuple[Line, ...]:
    """The citing lines but the finding's own (a living document's link is reported at its
    line already)."""
    own = (os.path.realpath(f.file), f.line)
    return tuple(w for w in where if (os.path.realpath(w.file), w.line) != own)


def _cited(details: Details, where: tuple[Line, ...]) -> Details:
    """The finding's details with the lines that cite it."""
    if isinstance(details, Answer):
        return replace(details, cited_at=where)
    if not details:
        return Answer(cited_at=where)
    return details_of({**details.as_json(), "cited_at": [w.as_json() for w in where]})


def _citing(registry: str, wanted: set[str]) -> dict[str, list[Line]]:
    """Where the briefings of `registry`'s repository cite each of the `wanted` URLs."""
    keys: dict[str, str] = {}
    for url in wanted:
        try:
            keys[parse_anchor(url).key] = url
        except InvalidId:
            continue
    # a file that does not name a dead URL's host cannot cite it: skip it unparsed
    hosts = {urlsplit(u).hostname or u for u in wanted}
    hits: dict[str, list[Line]] = {k: [] for k in keys}
    root = repository_root(Path(os.path.realpath(registry)).parent)
    for path in _markdown_files(root):
        try:
            text = read_text(path, root, _MAX_BYTES)
        except RepoFileError:
            continue
        if not any(h in text for h in hosts):
            continue
        for key, line in cited_keys(text):
            if key in hits:
                hits[key].append(Line(_shown(path), line))
    return {keys[key]: where for key, where in hits.items() if where}


def cited_keys(text: str) -> Iterator[tuple[str, int]]:
    """(key, line) of each citation `extract` finds in `text`, in its order: a line's prose,
    or a table row's cells (a separator row has none); each key once a line."""
    raw_lines = text.splitlines()
    skipped = skipped_lines(raw_lines)
    lines = without_comments(raw_lines, skipped)
    ignored = ignored_anchors(raw_lines) if "anchors" in text else frozenset()
    for i, line in enumerate(lines):
        if skipped[i] or ("://" not in line and not DIGIT_RE.search(line)):
            continue
        units = [line]
        if line.lstrip().startswith("|"):
            row = cells(line)
            units = [] if is_separator(row) else row
        seen: set[str] = set()
        for unit in units:
            for hit in scan(unit):
                key = hit.key.key if hit.key is not None else None
                if key is not None and key not in ignored and key not in seen:
                    seen.add(key)
                    yield key, i + 1
