"""What extraction gives: a briefing's citations, each with its place and claims, and the ones
that could not be read. Its own module, so the readers that fill a `Citation` in (`claims`,
`citations`) and those that use one import the record without importing each other."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from ..figures.model import Attribution
from ..figures.verdict import ClaimKind
from ..ids.model import AnchorKey
from ..registry.claims import Claims
from ..registry.model import Status
from .docrefs import DocumentRef
from .titling import TitleSource

__all__ = ["Attributed", "Briefing", "Citation", "InvalidCitation"]


@dataclass(frozen=True, slots=True)
class Citation:
    """One valid citation as written in a briefing."""

    key: AnchorKey
    raw: str
    path: str
    line: int
    #: True in a citation-bearing place: a table row's first cell, a `URL：` line, a list item
    primary: bool = False
    title: str | None = None
    section: str | None = None
    claim: Status | None = None
    claimed_date: date | None = None
    #: None when there is no title
    title_source: TitleSource | None = None
    #: what the briefing claims about it (state, dates, venue, version, title), dated
    claims: Claims | None = None

    @property
    def written_title(self) -> str | None:
        """The title if the author wrote it for this citation (not inferred from a heading)."""
        return self.title if self.title_source is not None and self.title_source.written else None


@dataclass(frozen=True, slots=True)
class InvalidCitation:
    raw: str
    path: str
    line: int
    reason: str


@dataclass(frozen=True, slots=True)
class Attributed:
    """A figure or quote a briefing attributes to one anchor (extract/attributed.py)."""

    #: the anchor's key (`arxiv:2609.18063`, `github:vllm-project/vllm#8242`)
    anchor: str
    what: ClaimKind
    #: the figure or quote as written (`~70%`, `近七成`; a quote without its marks)
    words: str
    by: Attribution
    path: str
    line: int


@dataclass(slots=True)
class Briefing:
    path: str
    date: date
    citations: list[Citation] = field(default_factory=list)
    invalid: list[InvalidCitation] = field(default_factory=list)
    #: what it says the living document holds (`inference.md §1.1 已有 …`)
    refs: list[DocumentRef] = field(default_factory=list)
    #: the figures and quotes it attributes to its citations
    figures: list[Attributed] = field(default_factory=list)
    #: the file holds nothing but white space: said as such, never asked for a date
    empty: bool = False
