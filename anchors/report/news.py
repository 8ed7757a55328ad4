"""Claim news: a dated claim that a later change overtook, told once in "What changed".

A claim is about the day it was written. An issue a 2026-09-24 briefing called open and that
closed on 2026-09-28 was not misreported: it is news ("the 2026-09-24 briefing said open;
closed 2026-09-28"), told at the observation that first shows the change, while `check` only
warns about a change before the briefing's day (`stale-claim`). The day of the change is
GitHub's (a close or merge date) where it gives one, else the day of the first run that saw
it (a reopening). Pure: the registry's dated claims and one entry's observations in.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime

from ..history.facts import IssueFacts
from ..history.issuestate import change_day, contradicts, is_news
from ..history.observation import Observation
from ..registry.claims import Claims, StateClaim, latest

__all__ = ["ClaimNews", "claim_news"]


@dataclass(frozen=True, slots=True)
class ClaimNews:
    """The claim a change overtook, and the change."""

    said_on: date
    claimed: StateClaim
    #: the words that made the claim, as written ("仍 open"), and where ("b.md:30")
    words: str | None
    written_at: str | None
    #: what happened: closed, merged or reopened, and on which day (None: not known)
    change: str
    changed_on: date | None

    def __str__(self) -> str:
        when = f" {self.changed_on.isoformat()}" if self.changed_on else ""
        said = f"the {self.said_on.isoformat()} briefing said {self.claimed.value}"
        verb, how, why = self.change.partition(" (")  # the day next to the verb, the reason last
        return f"{said}; {verb}{when}{how}{why}"

    @property
    def as_facts(self) -> IssueFacts:
        """The state the claim gave, as facts a change is measured from."""
        return IssueFacts(state="open" if self.claimed is StateClaim.OPEN else "closed")


def _day(at: float) -> date:
    return datetime.fromtimestamp(at, UTC).date()


def _in_force(claims: Sequence[Claims], day: date) -> Claims | None:
    """The state claim of the latest briefing written by `day` (a later one was not yet)."""
    said = latest(c for c in claims if c.said_on is not None and c.said_on <= day)
    return said if said is not None and said.state is not None else None


def _change(facts: IssueFacts) -> str:
    if facts.merged:
        return "merged"
    if facts.state == "closed":
        return f"closed ({facts.state_reason})" if facts.state_reason else "closed"
    return "reopened"


def claim_news(claims: Sequence[Claims], rows: Sequence[Observation]) -> dict[int, ClaimNews]:
    """The news in one entry's observations (oldest first), by the index of the observation
    that first shows each change: each time the state claim in force, contradicted by the
    facts before (or by none), is contradicted by a change on or after its day."""
    out: dict[int, ClaimNews] = {}
    was: tuple[Claims, bool] | None = None  # the claim in force, and whether it was contradicted
    for i, seen in enumerate(rows if claims else ()):
        if not isinstance(seen.facts, IssueFacts):
            continue
        said = _in_force(claims, _day(seen.checked_at))
        if said is None or said.state is None:
            was = None
            continue
        against = contradicts(said.state, seen.facts)
        first = was is None or was[0] != said or not was[1]
        if (
            against
            and first
            and is_news(said.state, said.said_on, seen.facts, _day(seen.checked_at))
        ):
            assert said.said_on is not None  # is_news holds only for a dated claim
            where = f"{said.path}:{said.line}" if said.path and said.line else said.path or None
            out[i] = ClaimNews(
                said.said_on,
                said.state,
                said.state_text,
                where,
                _change(seen.facts),
                change_day(said.state, seen.facts, _day(seen.checked_at)),
            )
        was = (said, against)
    return out
