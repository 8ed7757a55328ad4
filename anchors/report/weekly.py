"""The weekly report: the check history of a window, sorted into what an editor must fix.

Pure: `build` takes history rows, the registry and a time window, and returns a `Report`.
Each target (a URL, or an API-checked anchor) lands in at most one section; the rule, and the
invariant that no failing link is ever left out, are in `classify`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path

from ..config import Settings
from ..defaults import DEFAULT_PENDING_DAYS
from ..errors import HistoryError
from ..findings import Outcome
from ..history import History, Observation
from ..ids.landing import soft_404
from ..ids.model import AnchorKind
from ..registry.model import Anchor, Registry
from .classify import FAILING, SUCCESS, Section, checked, classify, current_stretch
from .transitions import TREND_SPAN, Transition, TrendPoint, transitions, trend
from .waiting import Waiting, waiting

__all__ = ["FAILING", "Report", "ReportRow", "Section", "build", "for_registry", "from_history"]

DEFAULT_WINDOW = 7 * 86400.0


@dataclass(frozen=True, slots=True)
class ReportRow:
    section: Section
    target: str
    anchor: str
    kind: AnchorKind
    runs: int
    failing_runs: int
    first_failure: float | None
    last_success: float | None
    last_outcome: Outcome
    last_status: int | None
    last_error: str | None
    final_url: str | None
    title: str | None = None
    registry_section: str | None = None
    cited_in: tuple[str, ...] = ()
    line: int | None = None
    #: the registry's dated snapshot (`archived: {url, date}`), linked for dead links
    archived: tuple[str, str] | None = None
    #: dead links: the first definite dead answer of the current failing stretch, the moment
    #: "What changed" says it died (a timeout before it only said the check could not tell)
    dead_since: float | None = None
    #: a redirect that means the page is gone (to a login wall, to the home page): why, as
    #: `check` says it (`ids.landing.soft_404`)
    soft_404: str | None = None


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
    #: the living documents compared (`--document`), and what waits for them
    documents: tuple[str, ...] = ()
    waiting: list[Waiting] = field(default_factory=list)
    #: the days after which a waiting anchor is overdue (`--pending-days`)
    pending_days: int = DEFAULT_PENDING_DAYS

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


def _registry_index(reg: Registry | None) -> dict[str, Anchor]:
    return reg.by_cited_key() if reg is not None else {}


def _lookups(
    reg: Registry | None, index: dict[str, Anchor]
) -> tuple[Callable[[Observation], Anchor | None], Callable[[Observation], str | None]]:
    """Which registry anchor, and which entry (its key), a row observed; None for a target
    the registry does not hold (an entry since removed). A moved entry's old URL, kept as
    `cited_url`, is the entry, so its history, count and trend continue. Without a registry
    each target is its own.

    Both are asked of every row by `build`, `transitions` and `trend`: the answer is worked
    out once per key, all that it depends on.
    """
    if reg is None:
        return (lambda row: None), (lambda row: row.target)
    seen: dict[str, tuple[Anchor | None, str | None]] = {}

    def look(row: Observation) -> tuple[Anchor | None, str | None]:
        got = seen.get(row.key.key)
        if got is None:
            a = index.get(row.key.key)
            got = seen[row.key.key] = (a, a.key.key if a is not None and a.key else None)
        return got

    def anchor(row: Observation) -> Anchor | None:
        return look(row)[0]

    def entry(row: Observation) -> str | None:
        return look(row)[1]

    return anchor, entry


def build(
    rows: Iterable[Observation],
    now: float,
    since: float = DEFAULT_WINDOW,
    registry: Registry | None = None,
) -> Report:
    """The report of the window ending at `now`; with `registry`, of its entries only."""
    start = now - since
    index = _registry_index(registry)
    anchor_of, entry_of = _lookups(registry, index)
    per: dict[str, list[Observation]] = defaultdict(list)
    kept: list[Observation] = []
    runs: set[int] = set()
    for r in rows:
        entry = entry_of(r)
        if r.checked_at > now or entry is None:
            continue
        kept.append(r)
        per[entry].append(r)
        if r.checked_at >= start:
            runs.add(r.run_id)
    report = Report(now, since, len(runs), len(per))
    for hist in per.values():
        hist.sort(key=lambda r: r.checked_at)
        section = classify(hist, start)
        if section is not None:
            report.rows.append(_row(section, hist, start, anchor_of))
    order = list(Section)
    report.rows.sort(key=lambda r: (order.index(r.section), r.target))
    report.transitions = transitions(kept, start, now, anchor_of, entry_of)
    report.trend = trend(kept, now, entry_of=entry_of)
    return report


def _row(
    section: Section,
    hist: list[Observation],
    start: float,
    anchor_of: Callable[[Observation], Anchor | None],
) -> ReportRow:
    """One entry's row, named by the URL it was last checked at: counts and the failure shown
    are over checked rows only."""
    rows = checked(hist)
    window = [r for r in rows if r.checked_at >= start]
    fails = [r for r in window if r.outcome not in SUCCESS]
    last = rows[-1]
    # a recovered or flaky link is described by its last failure, not by its last success
    shown = fails[-1] if fails and section in (Section.RECOVERED, Section.FLAKY) else last
    first_fail, dead_since = _failing_since(section, rows, fails)
    row = ReportRow(
        section=section,
        target=last.target,
        anchor=last.anchor,
        kind=last.kind,
        runs=len(window),
        failing_runs=len(fails),
        first_failure=first_fail,
        last_success=max((r.checked_at for r in rows if r.outcome in SUCCESS), default=None),
        last_outcome=shown.outcome,
        last_status=shown.status,
        last_error=shown.error,
        final_url=last.final_url,
        dead_since=dead_since,
        soft_404=_gone(section, last),
    )
    return _described(row, anchor_of(last))


def _failing_since(
    section: Section, rows: list[Observation], fails: list[Observation]
) -> tuple[float | None, float | None]:
    """When the failing shown began, and (for a failing target) its first definite death."""
    if section not in (Section.DEAD, Section.NEWLY_DEAD, Section.NOT_DEAD):
        return (fails[0].checked_at if fails else None), None
    stretch = current_stretch(rows)
    dead = next((r.checked_at for r in stretch if r.outcome is Outcome.DEAD), None)
    return stretch[0].checked_at, dead


def _gone(section: Section, last: Observation) -> str | None:
    """Why a redirected page is really gone (`soft_404`), if it is."""
    if section is not Section.REDIRECTED or last.kind is not AnchorKind.URL or not last.final_url:
        return None
    return soft_404(last.target, last.final_url)


def _described(row: ReportRow, a: Anchor | None) -> ReportRow:
    """The row with what its registry entry says: title, section, citing briefings, line and
    the dated snapshot."""
    if a is None:
        return row
    return replace(
        row,
        title=a.title,
        registry_section=a.section,
        cited_in=tuple(d.isoformat() for d in a.cited_in),
        line=a.line,
        archived=(a.archived["url"], a.archived["date"]) if a.archived else None,
    )


def from_history(
    db: Path,
    now: float,
    since: float = DEFAULT_WINDOW,
    registry: Registry | None = None,
    *,
    runs_of: str | Path | None = None,
    chosen: bool = False,
) -> Report:
    """The report from a history file; no file, or no check in the window, is an error.

    With `runs_of` (a registry's path), only that registry's runs are read: the registries
    of one folder share its history, and one's report must not show, count or exit 1 on
    another's links. A weekly job on a fresh clone (or after a week of failed checks) must
    not post "Nothing failed": a report without a single run behind it says nothing, so it
    is exit 2.
    """
    if not db.exists():
        raise HistoryError(
            str(db),
            "nothing to report from: no check history here; run `anchors check` (online) first",
        )
    h = History.read_only(db, chosen)
    try:
        # the window, and the trend's weeks, after where each target stood before them
        read_from = now - max(since, TREND_SPAN)
        rep = build(h.window(read_from, now, runs_of), now, since, registry)
    finally:
        h.close()
    if rep.runs == 0:
        of = f" of {runs_of}" if runs_of is not None else ""
        raise HistoryError(
            str(db),
            f"nothing to report from: no check{of} recorded between "
            f"{_utc(now - since)} and {_utc(now)}; run `anchors check` first",
        )
    return rep


def for_registry(
    registry: Path, settings: Settings, now: float, since: float = DEFAULT_WINDOW
) -> Report:
    """`anchors report`: the runs of `registry` in the history the settings place beside it;
    the registry, when it exists, adds each target's anchor, section and line; the living
    documents the settings name add what waits for them."""
    from ..document import read_documents
    from ..registry.loader import load
    from ..registry.pipes import is_stream

    docs = read_documents(settings.document)
    reg = load(registry, stream_ok=True) if is_stream(registry) or registry.exists() else None
    rep = from_history(
        settings.history_path(registry),
        now,
        since,
        reg,
        runs_of=registry,
        chosen=settings.chose_history,
    )
    if docs:
        rep.documents = tuple(d.path for d in docs)
        rep.pending_days = settings.pending_days
        day = datetime.fromtimestamp(now, UTC).date()
        rep.waiting = waiting(reg, docs, day, settings.pending_days) if reg is not None else []
    return rep


def _utc(t: float) -> str:
    return datetime.fromtimestamp(t, UTC).strftime("%Y-%m-%d %H:%M UTC")
