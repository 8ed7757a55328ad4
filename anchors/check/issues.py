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


def _f(code: Code, path: str, a: Anchor, message: str, details: Details) -> Finding:
    return Finding(code, a.label, path, a.line, message, details)


def _said(c: Claims) -> str:
    words = c.state_text or (c.state.value if c.state else "")
    if c.said_on is None:
        return f"cited as {words!r}"
    return f"the {c.said_on:%Y-%m-%d} briefing says {words!r}"


def _dates(r: IssueFacts) -> tuple[str | None, str | None, str | None, str | None]:
    """The live state as `StaleClaim` keeps it: state, reason, closed and merged days."""
    return r.state, r.state_reason, r.closed_at, r.merged_at


def state_findings(
    path: str, a: Anchor, r: IssueFacts, c: Claims, earlier: IssueFacts | None = None
) -> list[Finding]:
    """A claim its own day contradicts is `stale-claim` on every run; a close or merge is the
    `issue-state` note once, in the run that first sees it (`earlier`: the facts the last
    run learnt), and after that only in the weekly report's "What changed"."""
    out: list[Finding] = []
    where = f"{c.path}:{c.line}" if c.path and c.line else c.path or None
    said_on = c.said_on.isoformat() if c.said_on else None
    news = c.state is not None and is_news(c.state, c.said_on, r, None)
    told = earlier is not None and earlier.state == "closed"
    if c.state and r.state and contradicts(c.state, r) and not news:
        live = live_state(r)
        stale = StaleClaim(c.state.value, live, said_on, where, *_dates(r))
        out.append(_f(Code.STALE_CLAIM, path, a, f"{_said(c)}, but it is {live}", stale))
    elif r.state == "closed" and not told:
        kind = "pull request" if r.is_pull else "issue"
        later = f" (after the {said_on} briefing that said {c.state_text!r})" if news else ""
        out.append(
            _f(
                Code.ISSUE_STATE,
                path,
                a,
                f"the {kind} is {live_state(r)}, not open{later}",
                IssueClosed(
                    r.state,
                    r.state_reason,
                    r.merged,
                    c.state.value if news and c.state else None,
                    said_on if news else None,
                ),
            )
        )
    if r.moved_to:
        out.append(_f(Code.REDIRECT, path, a, f"moved to {r.moved_to}", Moved(r.moved_to)))
    return out


def target_findings(path: str, a: Anchor, r: IssueFacts, c: Claims) -> list[Finding]:
    """`wrong-target`: the title the briefing writes shares no word with the live one, in any
    of its forms, and both are long enough to judge (see `words.py`)."""
    ref = a.key
    if not c.title or not r.title or ref is None or ref.kind is not AnchorKind.GITHUB:
        return []
    ignore = {ref.owner, ref.repo, *ref.repo.split("-")}
    if not names_another(c.title, r.title, ignore):
        return []
    return [
        _f(
            Code.WRONG_TARGET,
            path,
            a,
            f"the briefing calls it {c.title!r}, but #{ref.number} is {r.title!r}",
            WrongTarget(c.title, r.title),
        )
    ]
