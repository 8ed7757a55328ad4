"""The report's one rule: which failing section a target's check history puts it in.

The invariant it keeps (pinned by a property test): every target whose latest *checked* outcome
in the window is a failure lands in exactly one failing section (flaky, newly dead, dead, not
dead), and a target whose current failing stretch holds a definite dead answer is dead or newly
dead, so the report exits 1. In order:

- Only checked outcomes count. A run that did not look at the target (blocked: a run without
  `--allow-private`) says nothing about the link, so it counts neither as a success nor as a
  failure, and does not split a failing stretch; skipped, excluded and cached anchors are not
  recorded at all. How each outcome reads is `history.observation.reading`.
- flaky: two or more separate failing stretches in the window, so it also succeeded in between.
- The *current failing stretch* is the trailing run of failures (it may begin before the window).
  If it holds a definite dead answer (404/410, NXDOMAIN, refused, a loop: outcome `dead`), 5xx,
  timeouts or 429s around it do not wash it out: the target is dead.
  - newly dead: the stretch began in the window: it worked before, or this is its first check
    (dead in its only run is newly dead, not "wait for the next run").
  - dead: the stretch began before the window.
- not dead: failing now, but never with a definite dead answer in this stretch (rate-limited,
  unreachable, unverifiable, a TLS problem).
- recovered: failed in the window, fine in the latest checked run.
- redirected: fine, and the latest checked run found a permanent redirect.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum
from typing import Protocol, TypeVar

from ..findings import Outcome
from ..history.observation import DEFINITE, NEUTRAL, SUCCESS

__all__ = [
    "DEFINITE",
    "FAILING",
    "NEUTRAL",
    "SUCCESS",
    "Section",
    "checked",
    "classify",
    "current_stretch",
]


class Section(str, Enum):
    NEWLY_DEAD = "newly-dead"
    DEAD = "dead"
    FLAKY = "flaky"
    NOT_DEAD = "not-dead"
    RECOVERED = "recovered"
    REDIRECTED = "redirected"

    @property
    def heading(self) -> str:
        return {
            "newly-dead": "Newly dead",
            "dead": "Dead",
            "flaky": "Flaky",
            "not-dead": "Rate-limited, unreachable or unverifiable (not dead)",
            "recovered": "Recovered",
            "redirected": "Redirected",
        }[self.value]


#: the sections a target whose latest checked outcome is a failure can be in
FAILING = frozenset({Section.FLAKY, Section.NEWLY_DEAD, Section.DEAD, Section.NOT_DEAD})


class _Checked(Protocol):
    @property
    def outcome(self) -> Outcome: ...

    @property
    def checked_at(self) -> float: ...


C = TypeVar("C", bound=_Checked)


def checked(history: Sequence[C]) -> list[C]:
    """The rows of runs that actually looked at the target, in the order given."""
    return [r for r in history if r.outcome not in NEUTRAL]


def current_stretch(rows: Sequence[C]) -> Sequence[C]:
    """The trailing failures of checked rows (empty when the latest one succeeded)."""
    i = len(rows)
    while i > 0 and rows[i - 1].outcome not in SUCCESS:
        i -= 1
    return rows[i:]


def _streaks(failed: list[bool]) -> int:
    """How many separate failing stretches a run of (failed?) flags holds."""
    return sum(1 for i, f in enumerate(failed) if f and (i == 0 or not failed[i - 1]))


def classify(history: Sequence[_Checked], start: float) -> Section | None:
    """The section for one target's history (oldest first), or None when nothing is to say."""
    rows = checked(history)
    window = [r for r in rows if r.checked_at >= start]
    if not window:
        return None
    failed = [r.outcome not in SUCCESS for r in window]
    if _streaks(failed) >= 2:
        return Section.FLAKY
    latest = window[-1]
    if latest.outcome not in SUCCESS:
        stretch = current_stretch(rows)
        if any(r.outcome is Outcome.DEAD for r in stretch):
            return Section.NEWLY_DEAD if stretch[0].checked_at >= start else Section.DEAD
        return Section.NOT_DEAD
    if any(failed):
        return Section.RECOVERED
    if latest.outcome is Outcome.REDIRECT:
        return Section.REDIRECTED
    return None
