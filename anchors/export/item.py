"""What an export holds: one anchor with what is known about it; the formats it is written in."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from enum import Enum

__all__ = ["ExportFormat", "ExportItem"]


class ExportFormat(str, Enum):
    MARKDOWN = "markdown"
    BIBTEX = "bibtex"
    CSL_JSON = "csl-json"


@dataclass(frozen=True, slots=True)
class ExportItem:
    """One anchor with what is known about it; `meta` is the cached resolution (may be {})."""

    key: str
    cite_key: str
    kind: str
    anchor: str
    url: str
    #: the bibliographic title: the resolved one, else one a briefing wrote (never a heading's)
    title: str | None
    authors: tuple[str, ...]
    published: str | None
    #: a DOI's journal or proceedings, with its volume, issue and pages (Crossref's)
    container: str | None
    doi: str | None
    arxiv_id: str | None
    version: int | None
    first_anchored: date | None
    status: str | None
    section: str | None
    cited_in: tuple[date, ...]
    archived: tuple[str, str] | None = None
    meta: dict[str, object] = field(default_factory=dict)
    #: the registry line of the entry
    line: int = 0
    #: (the key this entry would have had, the line of the entry that has it), when two met
    clash: tuple[str, int] | None = None
    #: arXiv's journal reference, as the authors wrote it (free text, not a container title)
    journal_ref: str | None = None
    volume: str | None = None
    issue: str | None = None
    pages: str | None = None
    #: what the DOI's agency says the work is, in CSL's words (`article-journal`,
    #: `paper-conference`...); None when unknown
    work_type: str | None = None
    #: why `check` last found it gone (`dead-link`, `not-found`), for the warning export gives
    gone: str | None = None
    #: the arXiv ID of this published work's preprint, when both are registered (`same-work`)
    eprint: str | None = None

    @property
    def year(self) -> str | None:
        return self.published[:4] if self.published else None
