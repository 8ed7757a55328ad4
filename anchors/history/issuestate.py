"""An issue's live state against what a briefing said of it on its day: contradicted, since
when, and whether that makes it news or a claim that was wrong when written.

One rule, read by the check (`stale-claim`, the `issue-state` note) and by the weekly report's
"What changed", so the two never tell one change two ways.
"""

from __future__ import annotations

from datetime import date

from ..registry.claims import StateClaim
from .facts import IssueFacts

__all__ = ["change_day", "contradicts", "is_news", "live_state"]


def live_state(facts: IssueFacts) -> str:
    """The state now, as people say it: `merged on 2024-09-19`, `closed (not_planned)`."""
    if facts.merged:
        return f"merged on {facts.merged_at}" if facts.merged_at else "merged"
    if facts.state == "closed":
        how = f" ({facts.state_reason})" if facts.state_reason else ""
        return f"closed{how} on {facts.closed_at}" if facts.closed_at else f"closed{how}"
    return "open"


def contradicts(claim: StateClaim, facts: IssueFacts) -> bool:
    closed = facts.state == "closed"
    if claim is StateClaim.OPEN:
        return closed
    if claim is StateClaim.CLOSED:
        return not closed
    if claim is StateClaim.MERGED:
        return not facts.merged
    return not closed or (facts.state_reason == "not_planned" and not facts.merged)  # fixed


def change_day(claim: StateClaim, facts: IssueFacts, seen_on: date | None) -> date | None:
    """The day of the change that contradicts `claim`: GitHub's date for a close or a merge
    (an "open" claim), else the day a run first saw it (`seen_on`; None: not known)."""
    if claim is StateClaim.OPEN and (when := facts.merged_at or facts.closed_at):
        try:
            return date.fromisoformat(when[:10])
        except ValueError:
            pass
    return seen_on


def is_news(
    claim: StateClaim, said_on: date | None, facts: IssueFacts, seen_on: date | None
) -> bool:
    """True when the claim held on its day and a change since contradicts it: news, not an
    error. Only "open" can be overtaken by a close or merge, and "closed" by a reopening; a
    change on the briefing's own day, or on a day not known, gets the benefit of the doubt.
    "Merged" or "fixed" never turns false later: contradicted, it was wrong on its day."""
    if said_on is None or not contradicts(claim, facts):
        return False
    reopened = facts.state == "open" and facts.state_reason == "reopened"
    if claim is not StateClaim.OPEN and not (claim is StateClaim.CLOSED and reopened):
        return False
    when = change_day(claim, facts, seen_on)
    return when is None or when >= said_on
