"""What an online run writes to the history, and what the network's silence keeps out of it.

A failure without an answer (no such name, refused, timed out) says something about a link only
when the network demonstrably works in the same run; otherwise it says this machine is offline,
or its resolver is. So:

- a result with an answer (an HTTP status), or one the guard decided (`blocked-url`), is
  recorded as it arrives, in small transactions, so an interrupted run keeps what it learnt;
- a failure without an answer waits for the end of the run, and is recorded only if some host
  answered in this run; an unknown name (NXDOMAIN) is recorded as dead only if the resolver
  demonstrably works (`witness`: a public name resolved to public addresses), else as the
  `unreachable` the check reports, so `report` counts every anchor `check` counted;
- a run that concluded the network is down (`NetworkDown`), or in which no host answered,
  records none of its waiting failures.

The run itself is written with its first row, so a run that recorded nothing leaves no trace
for `report` to count. Failures kept out are returned with the reason, so the check reports
them as `unreachable` instead of dead.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from ..findings import Outcome
from ..history import History, Observation
from ..net.answers import Silence
from ..net.links import LinkChecker, LinkResult

__all__ = ["NO_ANSWER", "NO_NAME_RESOLVED", "Recorder", "unproven"]

#: History flushes after this many rows, so an interrupted run loses at most these.
FLUSH_EVERY = 50
#: why a failure is not evidence: nothing answered / no name resolved in this run
NO_ANSWER = "but no host answered in this run (is this machine offline?): not counted as dead"
NO_NAME_RESOLVED = (
    "but no public name resolved to a public address in this run (is the resolver down?): "
    "not counted as dead"
)


@dataclass(slots=True)
class _Waiting:
    key: str
    row: Observation
    silence: Silence | None


@dataclass(slots=True)
class Recorder:
    """Buffers a run's history rows; `finish` decides what the waiting failures were worth."""

    history: History | None
    registry: str
    #: the run's link checker: its answers and its guard's resolved names are the witnesses
    checker: LinkChecker | None = None
    rows: list[Observation] = field(default_factory=list)
    waiting: list[_Waiting] = field(default_factory=list)
    #: a row with an answer arrived (an API or a link host answered)
    answered: bool = False
    run_id: int = 0
    started_at: float = 0.0

    def __post_init__(self) -> None:
        if self.history is not None:
            self.started_at = self.history.clock()

    def add(self, key: str, row: Observation, silence: Silence | None = None) -> None:
        """One result as it arrives; `silence` is why a link got no answer, if it did not.

        Failures are judged even without a history: the check reports what they were worth."""
        outcome = row.outcome
        if row.status is None and outcome.failed and outcome is not Outcome.BLOCKED:
            self.waiting.append(_Waiting(key, row, silence))
            return
        self.answered = self.answered or outcome is not Outcome.BLOCKED
        if self.history is not None:
            self.rows.append(row)
            if len(self.rows) >= FLUSH_EVERY:
                self.flush()

    def flush(self) -> None:
        if self.history is None or not self.rows:
            return
        if not self.run_id:
            self.run_id = self.history.start_run(self.registry, self.started_at)
        self.history.record(self.run_id, self.rows)
        self.rows = []

    def finish(self, complete: bool, *, network_down: bool = False) -> dict[str, str]:
        """Write what is evidence; return the keys kept out, each with why.

        `complete` is False for an interrupted run (it keeps what it learnt); `network_down`
        is True when the run concluded the network is down (it records no waiting failure).
        """
        kept_out: dict[str, str] = {}
        spoke = self._network_spoke()
        for waiting in self.waiting:
            why = self._why_not(waiting, spoke, network_down)
            if why is not None:
                kept_out[waiting.key] = why
            if self.history is not None and why is None:
                self.rows.append(waiting.row)
            elif self.history is not None and why is NO_NAME_RESOLVED:  # the network spoke
                self.rows.append(_unproven_row(waiting.row, why))
        self.waiting = []
        if self.history is not None:
            self.flush()
            if self.run_id:
                self.history.finish_run(self.run_id, complete)
        return kept_out

    def _network_spoke(self) -> bool:
        return self.answered or (self.checker is not None and self.checker.stats.responses > 0)

    def _why_not(self, waiting: _Waiting, spoke: bool, network_down: bool) -> str | None:
        if network_down or not spoke:
            return NO_ANSWER
        if waiting.silence is Silence.NO_NAME and not self._names_resolve():
            return NO_NAME_RESOLVED
        return None

    def _names_resolve(self) -> bool:
        return self.checker is not None and self.checker.guard.witness.resolver_works


def _unproven_row(row: Observation, why: str) -> Observation:
    """A failure the network's silence alone would have made dead, recorded as unreachable."""
    return dataclasses.replace(row, outcome=Outcome.UNREACHABLE, error=f"{row.error}, {why}")


def unproven(link: LinkResult, why: str) -> LinkResult:
    """A dead verdict that rested on the network's silence alone, as the `unreachable` it is."""
    if link.outcome is not Outcome.DEAD or link.silence is None:
        return link
    return dataclasses.replace(link, outcome=Outcome.UNREACHABLE, error=f"{link.error}, {why}")
