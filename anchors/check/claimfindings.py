"""A judged figure or quote as a finding: `figure-not-found`, `quote-not-found` or
`source-changed`, at its registry entry, with the briefing line it came from.

The finding belongs to the entry (so the anchor is counted as warned), and names the briefing
line as `at` says it; when that briefing is a file of the checked repository (`at` is relative
to the registry's folder, read under the repository's rules: inside it, a regular file, never
opened), `briefing_at` gives its path as a person opens it, and SARIF, annotations, JUnit and
GitLab point there (`render.places`).
"""

from __future__ import annotations

import os
from collections.abc import MutableMapping
from pathlib import Path

from ..details import FigureCheck, Line
from ..figures.checked import ClaimCheck, Place
from ..figures.verdict import ClaimKind, VerdictKind
from ..files.repo import RepoFileError, confine, repository_root
from ..findings import Code, Finding

__all__ = ["finding_of", "place_of"]

_CODES = {
    (VerdictKind.NOT_FOUND, ClaimKind.FIGURE): Code.FIGURE_NOT_FOUND,
    (VerdictKind.NOT_FOUND, ClaimKind.QUOTE): Code.QUOTE_NOT_FOUND,
    (VerdictKind.SOURCE_CHANGED, ClaimKind.FIGURE): Code.SOURCE_CHANGED,
    (VerdictKind.SOURCE_CHANGED, ClaimKind.QUOTE): Code.SOURCE_CHANGED,
}


def place_of(at: str, registry: str, seen: MutableMapping[str, Place | None]) -> Place | None:
    """The briefing line `at` names, when the briefing is a regular file inside the
    registry's repository; None otherwise (it moved, it was never committed, it is outside).
    `seen` keeps each file's answer for the run."""
    path, sep, tail = at.rpartition(":")
    if not sep or not tail.isdigit() or not path:
        return None
    if path not in seen:
        seen[path] = _file(path, registry)
    found = seen[path]
    return Place(found.file, int(tail)) if found is not None else None


def _file(path: str, registry: str) -> Place | None:
    base = Path(os.path.abspath(registry)).parent
    try:
        full = confine(path, base, repository_root(base), "a claim's `at`")
    except RepoFileError:
        return None
    if not full.is_file():
        return None
    try:
        shown = os.path.relpath(full)
    except ValueError:  # another drive
        shown = str(full)
    return Place(shown.replace(os.sep, "/"), 0)


def _message(check: ClaimCheck) -> str:
    verdict = check.verdict
    said = f'{verdict.what.value} "{verdict.claim}"'
    if verdict.kind is VerdictKind.SOURCE_CHANGED:
        parts = [f"{said} is no longer in its source ({verdict.scope}): {verdict.detail}"]
    else:
        parts = [f"{said} is not in what was read of the source ({verdict.scope})"]
        if verdict.nearest:
            parts.append("nearest: " + ", ".join(verdict.nearest))
        if verdict.detail:
            parts.append(verdict.detail)
    when = f" on {check.said_on.isoformat()}" if check.said_on else ""
    if check.at:
        parts.append(f"written at {check.at}{when}")
    return "; ".join(parts) + "; correct it, or cite where it is said"


def finding_of(check: ClaimCheck) -> Finding:
    """The warning for a `not-found` or `source-changed` verdict."""
    verdict = check.verdict
    place = check.place
    details = FigureCheck(
        verdict.claim,
        verdict.what.value,
        verdict.kind.value,
        check.by.value if check.by is not None else None,
        check.said_on.isoformat() if check.said_on else None,
        check.at or None,
        tuple(verdict.nearest),
        verdict.scope,
        Line(place.file, place.line) if place is not None else None,
    )
    return Finding(
        _CODES[verdict.kind, verdict.what],
        check.anchor,
        check.file,
        check.line,
        _message(check),
        details,
    )
