"""One figure or quote as a check judged it: the verdict, and where the claim is written.

The record every output of a check reads (`check --format json`'s `claims`, `--verbose`, the
findings): the registry entry that keeps the claim, the briefing line that wrote it (`at`,
as `add` kept it), how it is attributed, and the verdict with its evidence. A source the check
does not read (a DOI, a blog, a PDF) is one record for the anchor, its claims listed in
`claims`: said once per anchor, not once per figure.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from .model import Attribution
from .verdict import Verdict, VerdictKind

__all__ = ["ClaimCheck", "Place"]


@dataclass(frozen=True, slots=True)
class Place:
    """The briefing line a claim came from, found in the checked repository (as a person
    opens it: relative to the working folder)."""

    file: str
    line: int


@dataclass(frozen=True, slots=True)
class ClaimCheck:
    """A figure or quote of one registry entry, judged against the entry's source."""

    #: the anchor as the registry writes it, and its key
    anchor: str
    key: str
    #: the registry file and the entry's line
    file: str
    line: int
    verdict: Verdict
    #: how the briefing attributes it; None for a source not read (one record per anchor)
    by: Attribution | None = None
    said_on: date | None = None
    #: where the briefing wrote it, as `add` kept it (`briefings/e1.md:30`; "" if not kept)
    at: str = ""
    #: the briefing line in the repository, when the briefing is there
    place: Place | None = None
    #: a block's sources, every one searched (the anchor is the one that holds it, if one does)
    sources: tuple[str, ...] = ()
    #: a source not read: the figures and quotes its entry keeps, as written
    claims: tuple[str, ...] = ()

    @property
    def warning(self) -> bool:
        return self.verdict.kind.warning

    @property
    def briefing_line(self) -> int | None:
        """The line of the briefing `at` names (None when `add` kept no line)."""
        _, sep, tail = self.at.rpartition(":")
        return int(tail) if sep and tail.isdigit() else None

    @property
    def not_read(self) -> bool:
        """True for the one record of an anchor whose source this version does not read."""
        return self.by is None and self.verdict.kind is VerdictKind.UNVERIFIABLE
