"""What a briefing claimed about an anchor, as the registry keeps it: one record per briefing.

A claim is about the day it was written. `anchors add` stores each briefing's claims in the
entry with the briefing's date (`said_on`) and where it was written (`at`, never read again),
so a plain `anchors check` compares them with the live facts without the briefing at hand:
the briefing may have moved, been edited or never been committed, and the claim still stands
as it was made. In the file each record is one flow mapping:

    claims:
      - {said_on: 2026-09-24, state: open, words: "仍 open", at: "briefings/e1.md:30"}
      - {said_on: 2026-09-24, submitted: 2026-09-19, venue: "HPDC 2026", at: "briefings/e1.md:196"}
      - {said_on: 2026-09-24, figure: "~70%", by: line, at: "briefings/e1.md:34"}

A figure or quote the briefing attributes to the anchor is a record of its own (`figure` or
`quote`, as written, and `by`: `line` or `block`), so the check can read the source for it.
"""

from __future__ import annotations

import datetime
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from datetime import date
from enum import Enum
from typing import TypeVar

from ..figures.model import Attribution

_V = TypeVar("_V")

__all__ = [
    "CLAIM_FIELDS",
    "Claims",
    "StateClaim",
    "Venue",
    "claim_yaml",
    "latest",
    "record_of",
    "written_at",
]


class StateClaim(str, Enum):
    """What a briefing says a GitHub issue or PR is."""

    OPEN = "open"
    CLOSED = "closed"
    MERGED = "merged"
    FIXED = "fixed"


@dataclass(frozen=True, slots=True)
class Venue:
    name: str
    year: int | None = None

    def __str__(self) -> str:
        return f"{self.name} {self.year}" if self.year else self.name

    @classmethod
    def parse(cls, text: str) -> Venue:
        """`HPDC 2026` back from the registry (a name alone has no year)."""
        name, _, year = text.strip().rpartition(" ")
        if name and year.isdigit() and len(year) == 4:
            return cls(name, int(year))
        return cls(text.strip())


@dataclass(frozen=True, slots=True)
class Claims:
    """Every claim one citation carries; None means the briefing is silent on it."""

    title: str | None = None
    state: StateClaim | None = None
    #: the words that made the state claim, as written ("仍 open")
    state_text: str | None = None
    #: a submission date written next to an arXiv ID
    date: date | None = None
    venue: Venue | None = None
    version: int | None = None
    #: where the claims were read: (file, line)
    path: str = ""
    line: int | None = None
    #: the date of the briefing that made them (None: undated, e.g. the entry's own notes)
    said_on: datetime.date | None = None
    #: a figure the briefing attributes to the anchor, as written (`~70%`, `近七成`)
    figure: str | None = None
    #: a quote it attributes to the anchor, without its quote marks
    quote: str | None = None
    #: how the figure or quote is attributed: on its line, or by its increment's sources
    by: Attribution | None = None

    @property
    def attributed(self) -> bool:
        """True for a figure or quote record (the other records claim facts about the anchor)."""
        return self.figure is not None or self.quote is not None

    @property
    def empty(self) -> bool:
        """True when it claims nothing a check can compare."""
        return all(getattr(self, k) is None for k in _VALUES)

    def same_claims(self, other: Claims) -> bool:
        """The same day and the same values (where they were written aside)."""
        return self.said_on == other.said_on and all(
            getattr(self, k) == getattr(other, k) for k in _VALUES
        )


_VALUES = ("title", "state", "state_text", "date", "venue", "version", "figure", "quote", "by")
#: the names a record's fields have in the registry, in the order they are written
CLAIM_FIELDS = (
    "said_on",
    "state",
    "words",
    "submitted",
    "venue",
    "version",
    "title",
    "figure",
    "quote",
    "by",
    "at",
)


def latest(records: Iterable[Claims]) -> Claims | None:
    """The claims in force: for each value, the one the latest briefing wrote (a later record
    of one day wins). A state keeps its own day and place, since time decides what it means.
    Figure and quote records are not claims of this kind: they are checked one by one."""
    dated = sorted(
        enumerate(r for r in records if not r.attributed),
        key=lambda ir: (ir[1].said_on or date.min, ir[0]),
        reverse=True,
    )
    if not dated:
        return None
    out = dated[0][1]
    stated = next((c for _, c in dated if c.state is not None), None)
    if stated is not None:
        out = replace(
            out,
            state=stated.state,
            state_text=stated.state_text,
            said_on=stated.said_on,
            path=stated.path,
            line=stated.line,
        )
    # each value the latest briefing that wrote one wrote (`out` is the latest record)
    newest = [c for _, c in dated]
    return replace(
        out,
        title=_first(newest, lambda c: c.title),
        date=_first(newest, lambda c: c.date),
        venue=_first(newest, lambda c: c.venue),
        version=_first(newest, lambda c: c.version),
    )


def _first(records: Iterable[Claims], value: Callable[[Claims], _V | None]) -> _V | None:
    """The first of the records' values that is not None."""
    return next((v for c in records if (v := value(c)) is not None), None)


def claim_yaml(claims: Claims, quote: Callable[[str], str]) -> str:
    """One record as a YAML flow mapping; `quote` is the store's scalar quoting."""
    parts = []
    if claims.said_on is not None:
        parts.append(f"said_on: {claims.said_on.isoformat()}")
    if claims.state is not None:
        parts.append(f"state: {claims.state.value}")
    if claims.state_text:
        parts.append(f"words: {quote(claims.state_text)}")
    if claims.date is not None:
        parts.append(f"submitted: {claims.date.isoformat()}")
    if claims.venue is not None:
        parts.append(f"venue: {quote(str(claims.venue))}")
    if claims.version is not None:
        parts.append(f"version: {claims.version}")
    if claims.title:
        parts.append(f"title: {quote(claims.title)}")
    if claims.figure is not None:
        parts.append(f"figure: {quote(claims.figure)}")
    if claims.quote is not None:
        parts.append(f"quote: {quote(claims.quote)}")
    if claims.by is not None:
        parts.append(f"by: {claims.by.value}")
    if claims.path:
        parts.append(f"at: {quote(f'{claims.path}:{claims.line}' if claims.line else claims.path)}")
    return "{" + ", ".join(parts) + "}"


def record_of(
    said: Iterable[Claims],
    said_on: date,
    at: tuple[str, int | None],
    title: str | None,
    version: int | None,
    held: Iterable[Claims] = (),
) -> Claims | None:
    """The record a briefing of `said_on` adds for one anchor: what its citations claim (the
    first word on each value), less what the entry already says (`title`, `version`); None
    when that is nothing, or when a record of the same day already says the same."""
    said = list(said)
    line = next(
        (cite.line for cite in said if cite.state is not None), at[1]
    )  # where the words are
    out = Claims(  # the first word on each value
        title=_first(said, lambda cite: cite.title),
        state=_first(said, lambda cite: cite.state),
        state_text=_first(said, lambda cite: cite.state_text),
        date=_first(said, lambda cite: cite.date),
        venue=_first(said, lambda cite: cite.venue),
        version=_first(said, lambda cite: cite.version),
        path=at[0],
        line=line,
        said_on=said_on,
        figure=_first(said, lambda cite: cite.figure),
        quote=_first(said, lambda cite: cite.quote),
        by=_first(said, lambda cite: cite.by),
    )
    if out.state is None:
        out = replace(out, state_text=None)
    from ..titles import same_title  # its patterns compile at import: only `add` gets here

    if out.title is not None and (title is None or same_title(out.title, title)):
        out = replace(out, title=None)
    if out.version == version:
        out = replace(out, version=None)
    if out.empty or any(out.same_claims(h) for h in held):
        return None
    return out


def written_at(path: str, registry: str) -> str:
    """The briefing's path from the registry's folder, for a person to find where the claim
    was written (anchors never reads it again); a briefing outside that folder is named as
    given when relative, by its file name when absolute (no machine path in the registry)."""
    if not path:
        return path
    try:
        rel = os.path.relpath(os.path.abspath(path), os.path.dirname(os.path.abspath(registry)))
    except ValueError:  # another drive
        rel = ".."
    if not rel.startswith(".."):
        return rel.replace(os.sep, "/")
    return os.path.basename(path) if os.path.isabs(path) else path.replace(os.sep, "/")
