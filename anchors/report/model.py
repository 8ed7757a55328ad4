"""What a report holds: a row per failing (or moved, or recovered) target, and the report."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..defaults import DEFAULT_PENDING_DAYS
from ..findings import Outcome, State
from ..history.observation import Observation
from ..ids.model import AnchorKind
from ..registry.model import Anchor
from .classify import Section
from .transitions import Transition, TrendPoint
from .waiting import Waiting

__all__ = ["Report", "ReportRow"]


@dataclass(frozen=True, slots=True)
class ReportRow:
    """One target's row: its last observation, the one whose failure is shown, what the window
    counted of it, and its registry entry; the rest is read from those, never copied."""

    section: Section
    #: the target's latest checked observation, which names it
    last: Observation
    #: the observation the row describes: a recovered or flaky link's last failure, else `last`
    shown: Observation
    runs: int
    failing_runs: int
    first_failure: float | None
    last_success: float | None
    #: the registry entry observed (None without a registry, or for a removed entry)
    entry: Anchor | None = None
    #: dead links: the first definite dead answer of the current failing stretch, the moment
    #: "What changed" says it died (a timeout before it only said the check could not tell)
    dead_since: float | None = None
    #: a redirect that means the page is gone (to a login wall, to the home page): why, as
    #: `check` says it (`ids.landing.soft_404`)
    soft_404: str | None = None

    @property
    def target(self) -> str:
        return self.last.target

    @property
    def anchor(self) -> str:
        return self.last.anchor

    @property
    def kind(self) -> AnchorKind:
        return self.last.kind

    @property
    def last_outcome(self) -> Outcome:
        return self.shown.outcome

    @property
    def last_status(self) -> int | None:
        return self.shown.status

    @property
    def last_error(self) -> str | None:
        return self.shown.error

    @property
    def final_url(self) -> str | None:
        return self.last.final_url

    @property
    def title(self) -> str | None:
        return self.entry.work_title if self.entry is not None else None

    @property
    def registry_section(self) -> str | None:
        return self.entry.section if self.entry is not None else None

    @property
    def cited_in(self) -> tuple[str, ...]:
        """The days of the briefings citing it (YYYY-MM-DD)."""
        return tuple(d.isoformat() for d in self.entry.cited_in) if self.entry else ()

    @property
    def line(self) -> int | None:
        return self.entry.line if self.entry is not None else None

    @property
    def archived(self) -> tuple[str, str] | None:
        """The registry's dated snapshot (`archived: {url, date}`), linked for dead links."""
        snapshot = self.entry.archived if self.entry is not None else None
        return (snapshot["url"], snapshot["date"]) if snapshot else None


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

    def section(self, section: Section) -> list[ReportRow]:
        return [r for r in self.rows if r.section is section]

    def counts(self) -> dict[str, int]:
        return {s.value: len(self.section(s)) for s in Section}

    @property
    def anything_dead(self) -> bool:
        return any(r.section in (Section.DEAD, Section.NEWLY_DEAD) for r in self.rows)
