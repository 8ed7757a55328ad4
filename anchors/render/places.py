"""Where a finding points a person: the briefing line a figure or quote came from, when the
check found that briefing in the repository (`FigureCheck.briefing_at`), else its registry line;
and the briefing lines that cite a dead link word for word (`Answer.cited_at`).

A figure is fixed in the briefing that wrote it, so SARIF, annotations, JUnit and GitLab put it
there, and name the registry entry beside it. One figure's finding is told from another's of
the same anchor by `identity` (the claim and its briefing), which fingerprints use.
"""

from __future__ import annotations

from ..details import Answer, FigureCheck, Line
from ..findings import Finding

__all__ = ["cited_lines", "identity", "primary"]


def primary(f: Finding) -> tuple[str, int | None, bool]:
    """(file, line) the finding is shown at, and whether that is a briefing's line."""
    details = f.details
    if isinstance(details, FigureCheck) and details.briefing_at is not None:
        return details.briefing_at.file, details.briefing_at.line, True
    return f.file, f.line, False


def identity(f: Finding) -> str:
    """What makes the finding itself among its anchor's: a figure's words and where written."""
    details = f.details
    if not isinstance(details, FigureCheck):
        return ""
    return f"{details.claim}\0{details.at or ''}"


def cited_lines(f: Finding) -> tuple[Line, ...]:
    """The briefing lines that cite the finding's URL word for word, if a check looked."""
    details = f.details
    return details.cited_at or () if isinstance(details, Answer) else ()
