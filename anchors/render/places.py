"""Where a finding points a person: the briefing line a figure or quote came from, when the
check found that briefing in the repository (`details["briefing_at"]`), else its registry line.

A figure is fixed in the briefing that wrote it, so SARIF, annotations, JUnit and GitLab put it
there, and name the registry entry beside it. One figure's finding is told from another's of
the same anchor by `identity` (the claim and its briefing), which fingerprints use.
"""

from __future__ import annotations

from ..findings import Finding

__all__ = ["identity", "primary"]


def primary(f: Finding) -> tuple[str, int | None, bool]:
    """(file, line) the finding is shown at, and whether that is a briefing's line."""
    at = f.details.get("briefing_at")
    if isinstance(at, dict) and isinstance(at.get("file"), str) and isinstance(at.get("line"), int):
        return at["file"], at["line"], True
    return f.file, f.line, False


def identity(f: Finding) -> str:
    """What makes the finding itself among its anchor's: a figure's words and where written."""
    claim = f.details.get("claim")
    if not isinstance(claim, str):
        return ""
    return f"{claim}\0{f.details.get('at') or ''}"
