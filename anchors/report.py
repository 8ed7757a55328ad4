"""The weekly report: the check history of a window, sorted into what an editor must fix.

Pure: `build` takes history rows, the registry and a time window, and returns a `Report`.
Each target (a URL, or an API-checked anchor) lands in at most one section, in this order:

- flaky: failed in two or more separate stretches inside the window
- newly dead: dead now; it worked before its current failing stretch, which began in the window
- dead: dead in every run of the window (at least two runs)
- not dead: rate-limited, unreachable, unverifiable or a TLS problem now (not the same as dead)
- recovered: failed inside the window, fine in the latest run
- redirected: the latest run found a permanent redirect (suggest the new URL)
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from enum import Enum
from pathlib import Path

from .errors import HistoryError
from .findings import Outcome
from .history import History, Row
from .ids import WebUrl
from .registry import Anchor, Registry
from .transitions import Transition, TrendPoint, transitions, trend

__all__ = ["Report", "ReportRow", "Section", "build", "from_history"]

DEFAULT_WINDOW = 7 * 86400.0


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
            "newly-dead": "Newly dead", "dead": "Dead", "flaky": "Flaky",
            "not-dead": "Rate-limited, unreachable or unverifiable (not dead)",
            "recovered": "Recovered", "redirected": "Redirected",
        }[self.value]


@dataclass(frozen=True, slots=True)
class ReportRow:
    section: Section
    target: str
    anchor: str
    kind: str
    runs: int
    failing_runs: int
    first_failure: float | None
    last_success: float | None
    last_outcome: str
    last_status: int | None
    last_error: str | None
    final_url: str | None
    title: str | None = None
    registry_section: str | None = None
    cited_in: tuple[str, ...] = ()
    line: int | None = None


@dataclass(slots=True)
class Report:
    now: float
    since: float
    runs: int
    targets: int
    rows: list[ReportRow] = field(default_factory=list)
    #: what changed inside the window, grouped by registry section (see `transitions`)
    transitions: list[Transition] = field(default_factory=list)
    #: OK/flaky/dead per run over the last weeks
    trend: list[TrendPoint] = field(default_factory=list)

    @property
    def start(self) -> float:
        return self.now - self.since

    def section(self, s: Section) -> list[ReportRow]:
        return [r for r in self.rows if r.section is s]

    def counts(self) -> dict[str, int]:
        return {s.value: len(self.section(s)) for s in Section}

    @property
    def anything_dead(self) -> bool:
        return any(r.section in (Section.DEAD, Section.NEWLY_DEAD) for r in self.rows)


_OK = frozenset({Outcome.OK.value, Outcome.REDIRECT.value})


def _streaks(outcomes: list[bool]) -> int:
    """How many separate failing stretches a run of (failed?) flags holds."""
    return sum(1 for i, f in enumerate(outcomes) if f and (i == 0 or not outcomes[i - 1]))


def _classify(history: list[Row], start: float) -> Section | None:
    window = [r for r in history if r.checked_at >= start]
    if not window:
        return None
    failed = [r.outcome not in _OK for r in window]
    latest = window[-1]
    if _streaks(failed) >= 2:
        return Section.FLAKY
    if latest.outcome == Outcome.DEAD.value:
        i = len(history) - 1
        while i >= 0 and history[i].outcome not in _OK:
            i -= 1
        began_in_window = history[i + 1].checked_at >= start
        if i >= 0 and began_in_window:
            return Section.NEWLY_DEAD
        if all(failed) and len(window) >= 2 and all(r.outcome == Outcome.DEAD.value for r in window):
            return Section.DEAD
        return None  # one dead observation with no earlier success: wait for the next run
    if latest.outcome not in _OK:
        return Section.NOT_DEAD
    if any(failed):
        return Section.RECOVERED
    if latest.outcome == Outcome.REDIRECT.value:
        return Section.REDIRECTED
    return None


def _registry_index(reg: Registry | None) -> dict[str, Anchor]:
    return reg.by_key() if reg is not None else {}


def _anchor_for(index: dict[str, Anchor], row: Row) -> Anchor | None:
    if row.kind == "url":
        try:
            return index.get(WebUrl(row.target).key)
        except ValueError:
            return None
    return index.get(row.target)


def build(rows: Iterable[Row], now: float, since: float = DEFAULT_WINDOW,
          registry: Registry | None = None) -> Report:
    start = now - since
    rows = list(rows)
    per: dict[str, list[Row]] = defaultdict(list)
    runs: set[int] = set()
    for r in rows:
        if r.checked_at > now:
            continue
        per[r.target].append(r)
        if r.checked_at >= start:
            runs.add(r.run_id)
    index = _registry_index(registry)
    report = Report(now, since, len(runs), len(per))
    for target, hist in per.items():
        hist.sort(key=lambda r: r.checked_at)
        section = _classify(hist, start)
        if section is None:
            continue
        window = [r for r in hist if r.checked_at >= start]
        fails = [r for r in window if r.outcome not in _OK]
        successes = [r.checked_at for r in hist if r.outcome in _OK]
        stretch = section in (Section.DEAD, Section.NEWLY_DEAD, Section.NOT_DEAD)
        first_fail = _first_failure(hist) if stretch else (fails[0].checked_at if fails else None)
        last = hist[-1]
        # a recovered or flaky link is described by its last failure, not by its last success
        shown = fails[-1] if fails and section in (Section.RECOVERED, Section.FLAKY) else last
        a = _anchor_for(index, last)
        report.rows.append(ReportRow(
            section, target, last.anchor, last.kind, len(window), len(fails), first_fail,
            successes[-1] if successes else None, shown.outcome, shown.status, shown.error,
            last.final_url, a.title if a else None, a.section if a else None,
            tuple(d.isoformat() for d in a.cited_in) if a else (), a.line if a else None))
    order = list(Section)
    report.rows.sort(key=lambda r: (order.index(r.section), r.target))
    report.transitions = transitions(rows, start, now, lambda r: _anchor_for(index, r))
    report.trend = trend(rows, now)
    return report


def _first_failure(hist: list[Row]) -> float | None:
    """Start of the current failing stretch (or of the last one, if it has ended)."""
    i = len(hist) - 1
    while i >= 0 and hist[i].outcome in _OK:
        i -= 1
    if i < 0:
        return None
    while i > 0 and hist[i - 1].outcome not in _OK:
        i -= 1
    return hist[i].checked_at


def from_history(db: Path, now: float, since: float = DEFAULT_WINDOW,
                 registry: Registry | None = None) -> Report:
    """The report from a history file; no file, or no check in the window, is an error.

    A weekly job on a fresh clone (or after a week of failed checks) must not post "Nothing
    failed": a report without a single run behind it says nothing, so it is exit 2.
    """
    if not db.exists():
        raise HistoryError(str(db), "nothing to report from: no check history here; "
                           "run `anchors check` (online) first")
    h = History(db)
    try:
        rep = build(h.rows(until=now), now, since, registry)
    finally:
        h.close()
    if rep.runs == 0:
        raise HistoryError(str(db), f"nothing to report from: no check recorded between "
                           f"{_utc(now - since)} and {_utc(now)}; run `anchors check` first")
    return rep


def _utc(t: float) -> str:
    return datetime.fromtimestamp(t, timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
