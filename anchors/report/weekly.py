"""The weekly report: the check history of a window, sorted into what an editor must fix.

Pure: `build` takes history rows, the registry and a time window, and returns a `Report`.
Each target (a URL, or an API-checked anchor) lands in at most one section; the rule, and the
invariant that no failing link is ever left out, are in `classify`. Each registry entry is also
counted once in `check`'s states (`tally`). A run that did not finish (interrupted, or still
running) keeps what it learnt for the sections and the states, but it is no point of the trend
and no "what changed": half a run is not the state of the registry.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, date, datetime
from pathlib import Path

from ..config import Settings
from ..defaults import DEFAULT_PENDING_DAYS
from ..document import LivingDocument, read_documents
from ..errors import HistoryError
from ..figures.verdict import VerdictKind
from ..findings import Outcome
from ..history import Observation
from ..history.claims import ClaimSeen
from ..history.window import read_window
from ..ids.landing import soft_404
from ..ids.model import AnchorKind
from ..registry.loader import load
from ..registry.model import Anchor, Registry
from ..registry.pipes import is_stream
from .claimchanges import claim_transitions
from .classify import FAILING, SUCCESS, Section, checked, classify, current_stretch
from .model import Report, ReportRow
from .tally import tally
from .transitions import TREND_SPAN, Transition, section_order, transitions, trend
from .waiting import waiting

__all__ = ["FAILING", "Report", "ReportRow", "Section", "build", "for_registry", "from_history"]

DEFAULT_WINDOW = 7 * 86400.0
#: what a report with nothing behind it asks for: only an online check is recorded
_ONLINE_FIRST = "run `anchors check` online first (`check --offline` records nothing)"


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
            entry = index.get(row.key.key)
            got = seen[row.key.key] = (
                entry,
                entry.key.key if entry is not None and entry.key else None,
            )
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
    partial: frozenset[int] = frozenset(),
    claims: Sequence[tuple[ClaimSeen, VerdictKind | None]] = (),
    *,
    documents: Sequence[LivingDocument] = (),
    pending_days: int = DEFAULT_PENDING_DAYS,
) -> Report:
    """The report of the window ending at `now`; with `registry`, of its entries only.
    `partial` are the runs that did not finish (kept out of the trend and "what changed");
    `claims` the figures' and quotes' verdict changes in the window (`history.claimread`);
    `documents` the living documents whose waiting anchors it lists (`--document`)."""
    start = now - since
    index = _registry_index(registry)
    anchor_of, entry_of = _lookups(registry, index)
    per: dict[str, list[Observation]] = defaultdict(list)
    kept: list[Observation] = []
    runs: set[int] = set()
    for seen in rows:
        entry = entry_of(seen)
        if seen.checked_at > now or entry is None:
            continue
        kept.append(seen)
        per[entry].append(seen)
        if seen.checked_at >= start:
            runs.add(seen.run_id)
    report = Report(now, since, len(runs), len(per), partial_runs=len(runs & partial))
    for hist in per.values():
        hist.sort(key=lambda seen: seen.checked_at)
        section = classify(hist, start)
        if section is not None:
            report.rows.append(_row(section, hist, start, anchor_of))
    order = list(Section)
    report.rows.sort(key=lambda row: (order.index(row.section), row.target))
    whole = [r for r in kept if r.run_id not in partial] if partial else kept
    report.transitions = transitions(whole, start, now, anchor_of, entry_of)
    if claims:
        told = claim_transitions(claims, index.get if registry is not None else None)
        report.transitions = sorted([*report.transitions, *told], key=_transition_order)
    report.trend = trend(whole, now, entry_of=entry_of)
    day = datetime.fromtimestamp(now, UTC).date()
    if registry is not None:
        report.states = tally(registry, {e: hist[-1] for e, hist in per.items()}, day)
    if documents:
        _waiting(report, registry, documents, day, pending_days)
    return report


def _waiting(
    report: Report,
    registry: Registry | None,
    documents: Sequence[LivingDocument],
    day: date,
    pending_days: int,
) -> None:
    """What waits for the living documents: the anchors registered for their sections."""
    report.documents = tuple(d.path for d in documents)
    report.pending_days = pending_days
    if registry is not None:
        report.waiting = waiting(registry, documents, day, pending_days)


def _transition_order(transition: Transition) -> tuple[object, ...]:
    return (
        section_order(transition.registry_section),
        transition.at,
        transition.target,
        transition.change.value,
    )


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
    return ReportRow(
        section=section,
        last=last,
        shown=shown,
        runs=len(window),
        failing_runs=len(fails),
        first_failure=first_fail,
        last_success=max((r.checked_at for r in rows if r.outcome in SUCCESS), default=None),
        entry=anchor_of(last),
        dead_since=dead_since,
        soft_404=_gone(section, last),
    )


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


def from_history(
    db: Path,
    now: float,
    since: float = DEFAULT_WINDOW,
    registry: Registry | None = None,
    *,
    runs_of: str | Path | None = None,
    chosen: bool = False,
    documents: Sequence[LivingDocument] = (),
    pending_days: int = DEFAULT_PENDING_DAYS,
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
            f"nothing to report from: no check history here; {_ONLINE_FIRST}",
        )
    # the window, and the trend's weeks, after where each target stood before them
    seen = read_window(db, now - max(since, TREND_SPAN), now - since, now, runs_of, chosen)
    rep = build(
        seen.observations,
        now,
        since,
        registry,
        seen.partial,
        seen.claims,
        documents=documents,
        pending_days=pending_days,
    )
    if rep.runs == 0:
        of = f" of {runs_of}" if runs_of is not None else ""
        raise HistoryError(
            str(db),
            f"nothing to report from: no check{of} recorded between "
            f"{_utc(now - since)} and {_utc(now)}; {_ONLINE_FIRST}",
        )
    return rep


def for_registry(
    registry: Path, settings: Settings, now: float, since: float = DEFAULT_WINDOW
) -> Report:
    """`anchors report`: the runs of `registry` in the history the settings place beside it;
    the registry, when it exists, adds each target's anchor, section and line; the living
    documents the settings name add what waits for them. Each input is read once, then the
    history, then the report is built from them."""
    docs = read_documents(settings.document)
    reg = load(registry, stream_ok=True) if is_stream(registry) or registry.exists() else None
    return from_history(
        settings.history_path(registry),
        now,
        since,
        reg,
        runs_of=registry,
        chosen=settings.chose_history,
        documents=docs,
        pending_days=settings.pending_days,
    )


def _utc(at: float) -> str:
    return datetime.fromtimestamp(at, UTC).strftime("%Y-%m-%d %H:%M UTC")
