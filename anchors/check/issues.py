"""Claims about a GitHub issue or pull request against its live state: stale or news, and the
wrong target.

A claim is about the day it was written. A contradiction by a change before the briefing's
date means the briefing was wrong when written (`stale-claim`, with both dates); a change on
or after it is news: `check` notes it once, in the run that first sees it, and the weekly report's
"What changed" tells it in its week ("the 2026-09-24 briefing said open; closed 2026-09-28").
"""

from __future__ import annotations

from ..details import Details, IssueClosed, Moved, StaleClaim, WrongTarget
from ..findings import Code, Finding
from ..history.facts import IssueFacts
from ..history.issuestate import contradicts, is_news, live_state
from ..ids.model import AnchorKind
from ..registry.claims import Claims
from ..registry.model import Anchor
from .words import names_another

__all__ = ["state_findings", "target_findings"]


def _f(code: Code, path: str, anchor: Anchor, message: str, details: Details) -> Finding:
    return Finding(code, anchor.label, path, anchor.line, message, details)


def _said(claims: Claims) -> str:
    words = claims.state_text or (claims.state.value if claims.state else "")
    if claims.said_on is None:
        return f"cited as {words!r}"
    return f"the {claims.said_on:%Y-%m-%d} briefing says {words!r}"


def _dates(r: IssueFacts) -> tuple[str | None, str | None, str | None, str | None]:
    """The live state as `StaleClaim` keeps it: state, reason, closed and merged days."""
    return r.state, r.state_reason, r.closed_at, r.merged_at


def state_findings(
    path: str, anchor: Anchor, facts: IssueFacts, claims: Claims, earlier: IssueFacts | None = None
) -> list[Finding]:
    """A claim its own day contradicts is `stale-claim` on every run; a close or merge is the
    `issue-state` note once, in the run that first sees it (`earlier`: the facts the last
    run learnt), and after that only in the weekly report's "What changed"."""
    out: list[Finding] = []
    where = f"{claims.path}:{claims.line}" if claims.path and claims.line else claims.path or None
    said_on = claims.said_on.isoformat() if claims.said_on else None
    news = claims.state is not None and is_news(claims.state, claims.said_on, facts, None)
    told = earlier is not None and earlier.state == "closed"
    if claims.state and facts.state and contradicts(claims.state, facts) and not news:
        live = live_state(facts)
        stale = StaleClaim(claims.state.value, live, said_on, where, *_dates(facts))
        out.append(_f(Code.STALE_CLAIM, path, anchor, f"{_said(claims)}, but it is {live}", stale))
    elif facts.state == "closed" and not told:
        kind = "pull request" if facts.is_pull else "issue"
        later = f" (after the {said_on} briefing that said {claims.state_text!r})" if news else ""
        out.append(
            _f(
                Code.ISSUE_STATE,
                path,
                anchor,
                f"the {kind} is {live_state(facts)}, not open{later}",
                IssueClosed(
                    facts.state,
                    facts.state_reason,
                    facts.merged,
                    claims.state.value if news and claims.state else None,
                    said_on if news else None,
                ),
            )
        )
    if facts.moved_to:
        out.append(
            _f(Code.REDIRECT, path, anchor, f"moved to {facts.moved_to}", Moved(facts.moved_to))
        )
    return out


def target_findings(path: str, anchor: Anchor, facts: IssueFacts, claims: Claims) -> list[Finding]:
    """`wrong-target`: the title the briefing writes shares no word with the live one, in any
    of its forms, and both are long enough to judge (see `words.py`)."""
    ref = anchor.key
    if not claims.title or not facts.title or ref is None or ref.kind is not AnchorKind.GITHUB:
        return []
    ignore = {ref.owner, ref.repo, *ref.repo.split("-")}
    if not names_another(claims.title, facts.title, ignore):
        return []
    return [
        _f(
            Code.WRONG_TARGET,
            path,
            anchor,
            f"the briefing calls it {claims.title!r}, but #{ref.number} is {facts.title!r}",
            WrongTarget(claims.title, facts.title),
        )
    ]
