"""The registry model and its loader.

`load` composes the YAML with libyaml (never constructing objects, so tags cannot run code and
aliases cannot expand) and walks the node tree once, keeping for every anchor the line and
character span of each field. `store` later splices edits into the original text at those
spans, which is why a merge leaves every other byte of a hand-edited file alone.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from datetime import date
from enum import Enum

from ..findings import Finding
from ..ids import parse_anchor
from ..ids.model import AnchorKey, InvalidId
from .claims import Claims

__all__ = [
    "ANCHOR_FIELDS",
    "ID_FIELDS",
    "MAX_REGISTRY_BYTES",
    "REQUIRED_FIELDS",
    "TOP_FIELDS",
    "Anchor",
    "Entry",
    "Registry",
    "Span",
    "Status",
]

#: Larger files are refused outright: a hand-edited registry of 100k anchors is about 20 MB.
MAX_REGISTRY_BYTES = 32 * 1024 * 1024
ID_FIELDS = ("arxiv", "url", "doi")
ANCHOR_FIELDS = frozenset(
    {
        *ID_FIELDS,
        "version",
        "title",
        "title_from",
        "first_anchored",
        "status",
        "section",
        "cited_in",
        "notes",
        "check",
        "accept",
        "cited_url",
        "archived",
        "claims",
    }
)
_FIELD_NAME = {sys.intern(n): sys.intern(n) for n in ANCHOR_FIELDS}
REQUIRED_FIELDS = ("first_anchored", "status")
TOP_FIELDS = frozenset({"version", "anchors"})
_Y = "tag:yaml.org,2002:"
_STD_TAGS = frozenset(
    _Y + t for t in ("str", "int", "float", "bool", "null", "timestamp", "seq", "map")
)
_ALIAS_HINT = re.compile(r"(?:^|[\s\[{,])[&*][^\s\[\]{},]", re.MULTILINE)


class Status(str, Enum):
    NEW = "new"
    CONTINUED = "continued"


@dataclass(slots=True)
class Span:
    """Where a value sits in the text: character offsets, its line, and how it was written."""

    start: int
    end: int
    line: int
    style: str | None = None  # '"', "'", None (plain), or "flow"/"block" for sequences
    items: list[tuple[int, int, str | None]] | None = None  # block-sequence items


@dataclass(slots=True)
class Anchor:
    """One registry entry. `key` is None when its identifier is invalid (a finding)."""

    line: int
    id_field: str = ""
    raw_id: str = ""
    key: AnchorKey | None = None
    title: str | None = None
    #: `title_from: heading`: `add` took the title from a heading, so it is a guess that never
    #: conflicts with a title an author wrote for the citation
    title_inferred: bool = False
    #: the URL as the briefings cited it, kept by `anchors fix` when it moved the entry
    cited_url: str | None = None
    #: a dated snapshot `{"url": ..., "date": "YYYY-MM-DD"}` (Wayback), added by `anchors fix`
    archived: dict[str, str] | None = None
    first_anchored: date | None = None
    status: Status | None = None
    section: str | None = None
    cited_in: list[date] = field(default_factory=list)
    notes: str | None = None
    skip: bool = False
    accept: frozenset[int] = frozenset()
    version: int | None = None
    #: what each briefing claimed about it, with the briefing's date (`registry.claims`)
    claims: list[Claims] = field(default_factory=list)
    #: spans of the fields as written, for splicing; `_end` is the end of the entry's content
    spans: dict[str, Span] = field(default_factory=dict)
    key_column: int = 4
    #: written as a flow mapping `{arxiv: ..., status: ...}` on one line
    flow: bool = False
    #: where it is written when that is not the registry: a living document's citation that
    #: `check --document` checks too (its findings name this file and `line` in it)
    file: str | None = None

    @property
    def work_title(self) -> str | None:
        """The title of the cited work itself: None when `add` took the title from the heading
        above the citation (`title_from: heading`), which names the briefing's topic, not the
        page; shown as the page's title (a report row, a bibliography) it would read as one."""
        return None if self.title_inferred else self.title

    @property
    def label(self) -> str:
        return self.raw_id or "(entry without an identifier)"

    @property
    def written_url(self) -> str | None:
        """The entry's URL as the registry writes it (a `#fragment`, a trailing slash and the
        query kept), when its identifier is a web URL; None otherwise. What `check` requests and
        `export` links to: the page the briefing pointed at, not the canonical key's spelling."""
        raw = self.raw_id.strip()
        return (
            raw
            if self.id_field == "url" and raw.lower().startswith(("http://", "https://"))
            else None
        )

    @property
    def cited_key(self) -> AnchorKey | None:
        """The key of what its briefings cited: `cited_url` once `fix` moved the entry (when it
        still parses), else the entry's own key."""
        if self.key is not None and self.cited_url:
            try:
                return parse_anchor(self.cited_url)
            except InvalidId:
                pass
        return self.key


@dataclass(slots=True)
class Registry:
    path: str
    text: str
    anchors: list[Anchor]
    #: every problem found while loading, as findings for `check`
    problems: list[Finding]
    #: the subset that makes splicing unsafe, so `add` refuses the file
    unsafe: list[Finding] = field(default_factory=list)
    newline: str = "\n"
    bom: bool = False
    #: span of the `anchors:` value (None when missing), to append new entries
    seq: Span | None = None
    item_indent: int = 2
    #: False for a registry `add` is about to create
    exists: bool = True

    def by_key(self) -> dict[str, Anchor]:
        """First entry per canonical key (later duplicates are findings)."""
        out: dict[str, Anchor] = {}
        for anchor in self.anchors:
            if anchor.key is not None:
                out.setdefault(anchor.key.key, anchor)
        return out

    def by_cited_key(self) -> dict[str, Anchor]:
        """`by_key`, plus each moved entry under the key of the URL its briefings cited.

        After `anchors fix` moves an entry to its new URL, a briefing (old or new) that cites
        the old URL still continues that entry instead of adding a second one.
        """
        out = self.by_key()
        for anchor in self.anchors:
            if anchor.cited_key is not None:
                out.setdefault(anchor.cited_key.key, anchor)
        return out


@dataclass(slots=True)
class Entry:
    """The merged state of one anchor; `existing` is None for an entry to add."""

    key: AnchorKey
    raw_id: str
    first_anchored: date
    cited_in: list[date]
    status: Status
    title: str | None = None
    section: str | None = None
    version: int | None = None
    existing: Anchor | None = None
    #: the title came from a heading (stored as `title_from: heading`)
    title_inferred: bool = False
    #: claims records this merge adds (one per briefing that claims something new)
    claims: list[Claims] = field(default_factory=list)

    @property
    def id_field(self) -> str:
        return self.key.id_field

    def changed_fields(self) -> list[str]:
        """Fields whose merged value differs from the registry's (all fields for a new entry)."""
        was = self.existing
        if was is None:
            return ["new"]
        out = []
        if was.status != self.status:
            out.append("status")
        if was.first_anchored != self.first_anchored:
            out.append("first_anchored")
        if sorted(set(was.cited_in)) != sorted(set(self.cited_in)):
            out.append("cited_in")
        if not was.title and self.title:
            out.append("title")
        if not was.section and self.section:
            out.append("section")
        if self.claims:
            out.append("claims")
        return out
