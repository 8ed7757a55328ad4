"""What a report holds: a row per failing (or moved, or recovered) target, and the report."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..defaults import DEFAULT_PENDING_DAYS
from ..findings import Outcome, State
from ..ids.model import AnchorKind
from .classify import Section
from .transitions import Transition, TrendPoint
from .waiting import Waiting

__all__ = ["Report", "ReportRow"]


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
    #: each registry entry in one state as last checked, `check`'s states (`tally`); empty
    #: without a registry
    states: dict[State, int] = field(default_factory=dict)
    #: runs of the window that did not finish (interrupted, or still running): their answers
    #: count, but they are neither points of the trend nor the "what changed" of a run
    partial_runs: int = 0

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
