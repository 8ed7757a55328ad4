"""What a check found: the findings, and each anchor counted in one state; every renderer's
input. Beside `findings`, below every command that makes or reads one."""

from __future__ import annotations

import bisect
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date
from typing import TYPE_CHECKING

from .findings import Code, Finding, Severity, State, Unchecked, state_of, summary

if TYPE_CHECKING:
    from .figures.checked import ClaimCheck

__all__ = ["Assessed", "CheckResult", "Cited", "combine", "only"]


@dataclass(frozen=True, slots=True)
class Cited:
    """An anchor as written where it is checked (a registry entry, a living document's
    citation): what a JUnit test case is named, and where it points (what its host is)."""

    #: the anchor as cited (ID or URL)
    anchor: str
    #: its kind (`arxiv`, `doi`, `github`, `url`); "" for an identifier that is not valid
    kind: str = ""
    #: the address it names (an ID's canonical page); "" for an identifier that is not valid
    url: str = ""


@dataclass(frozen=True, slots=True)
class Assessed:
    """One entry of a check: its findings, the state they put it in, and why it was not
    checked (when it was not)."""

    state: State
    findings: tuple[Finding, ...] = ()
    unchecked: Unchecked | None = None


@dataclass(slots=True)
class CheckResult:
    """What a check found; the renderers' input."""

    registry: str
    today: date
    anchors: int
    findings: list[Finding] = field(default_factory=list)
    online: bool = False
    checked: int = 0
    cached: int = 0
    #: entries marked `check: skip`, and those left out by `--changed-since`
    skipped: int = 0
    #: URLs matching an `exclude` pattern
    excluded: int = 0
    #: wall-clock seconds the check took
    elapsed: float = 0.0
    #: every registry checked, as named; `registry` joins them when there are several
    registries: list[str] = field(default_factory=list)
    #: each entry's place (file, line), in registry order: what `states` counts
    entries: list[tuple[str, int]] = field(default_factory=list)
    #: the entries this run did not look at, and why
    unchecked: dict[tuple[str, int], Unchecked] = field(default_factory=dict)
    #: what the run could not do that the user should hear of (a rate limit that left anchors
    #: not checked, and when it resets); told as warnings
    notes: list[str] = field(default_factory=list)
    #: each entry's anchor as written, by place; a living document's citations too
    cited: dict[tuple[str, int], Cited] = field(default_factory=dict)
    #: milliseconds the link check of an entry took, where this run asked the network
    answer_ms: dict[tuple[str, int], int] = field(default_factory=dict)
    #: the living documents compared (`--document`), as named
    documents: list[str] = field(default_factory=list)
    #: why this online run could not judge its anchors (too many got no answer at all,
    #: `check.silence`): the CLI says it and exits 2 after showing what was found
    cannot_judge: str | None = None
    #: every figure and quote the entries keep, as this online run judged it
    claims: list[ClaimCheck] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.registries:
            self.registries = [self.registry]

    # The counts every output shows, defined here once so the JSON summary and the stderr
    # line can never disagree.
    def counts(self) -> dict[str, int]:
        """Findings by severity: `{"error": n, "warning": n, "info": n}`."""
        return summary(self.findings)

    def states(self) -> dict[State, int]:
        """Anchors by state: each entry in exactly one, so they sum to the entries."""
        return self._tally()[0]

    def not_checked(self) -> dict[Unchecked, int]:
        """The `not-checked` anchors by why."""
        return self._tally()[1]

    def _tally(self) -> tuple[dict[State, int], dict[Unchecked, int]]:
        states, why = dict.fromkeys(State, 0), dict.fromkeys(Unchecked, 0)
        for one in self.assess()[0].values():
            states[one.state] += 1
            if one.unchecked is not None:
                why[one.unchecked] += 1
        return states, why

    def assess(self) -> tuple[dict[tuple[str, int], Assessed], list[Finding]]:
        """Each entry (in registry order) with its findings and state, and the findings about
        no entry (the file itself, a briefing, a living document's line): what the counts
        and every per-anchor output (JUnit, the hosts) are built from, so they agree."""
        found: dict[tuple[str, int], list[Finding]] = {}
        loose: list[Finding] = []
        starts = self._starts()
        for finding in self.findings:
            at = _entry_of(finding, starts)
            if at is None:
                loose.append(finding)
            else:
                found.setdefault(at, []).append(finding)
        out: dict[tuple[str, int], Assessed] = {}
        for at in self.entries:
            mine = tuple(found.get(at, ()))
            state = state_of(mine)
            if state is State.OK and at in self.unchecked:
                # notes alone do not make an anchor that was not (all) checked OK
                out[at] = Assessed(State.NOT_CHECKED, mine, self.unchecked[at])
            else:
                out[at] = Assessed(state, mine)
        return out, loose

    def entry_states(self) -> dict[tuple[str, int], State]:
        """Each entry's one state, by its place (`assess` without the findings)."""
        return {at: one.state for at, one in self.assess()[0].items()}

    def narrow(self, codes: frozenset[Code] | None) -> None:
        """Keep only the findings of `codes` (`--only`): an anchor whose warnings or errors all
        go is `not-checked` (filtered), never OK; one with only notes stays OK."""
        if codes is None:
            return
        kept, starts = only(self.findings, codes), self._starts()
        shown = {_entry_of(f, starts) for f in kept}
        for finding in self.findings:
            at = _entry_of(finding, starts)
            if at is not None and finding.severity is not Severity.INFO and at not in shown:
                self.unchecked.setdefault(at, Unchecked.FILTERED)
        self.findings = kept

    def _starts(self) -> dict[str, list[int]]:
        """Each file's entry lines, in order (as the registry lists them)."""
        starts: dict[str, list[int]] = {}
        for file, line in self.entries:
            starts.setdefault(file, []).append(line)
        return starts


def _entry_of(finding: Finding, starts: dict[str, list[int]]) -> tuple[str, int] | None:
    """The entry a finding is about: the last one starting at or before its line (a schema
    problem points at the field's line, inside its entry); None for the file itself."""
    lines = starts.get(finding.file)
    if finding.line is None or not finding.anchor or not lines:
        return None
    i = bisect.bisect_right(lines, finding.line) - 1
    return (finding.file, lines[i]) if i >= 0 else None


def combine(results: list[CheckResult]) -> CheckResult:
    """One result for several registries (a pre-commit hook passes every file it touched).

    Each finding already names its file, so the findings are simply concatenated in order.
    """
    if len(results) == 1:
        return results[0]
    return CheckResult(
        ", ".join(one.registry for one in results),
        results[0].today,
        sum(one.anchors for one in results),
        [f for one in results for f in one.findings],
        online=any(one.online for one in results),
        checked=sum(one.checked for one in results),
        cached=sum(one.cached for one in results),
        skipped=sum(one.skipped for one in results),
        excluded=sum(one.excluded for one in results),
        elapsed=sum(one.elapsed for one in results),
        registries=[one.registry for one in results],
        entries=[at for one in results for at in one.entries],
        unchecked={at: why for one in results for at, why in one.unchecked.items()},
        notes=[n for one in results for n in one.notes],
        cited={at: c for one in results for at, c in one.cited.items()},
        answer_ms={at: ms for one in results for at, ms in one.answer_ms.items()},
        documents=list(dict.fromkeys(d for one in results for d in one.documents)),
        claims=[c for one in results for c in one.claims],
        cannot_judge="; ".join(
            f"{one.registry}: {one.cannot_judge}" for one in results if one.cannot_judge
        )
        or None,
    )


def only(findings: Iterable[Finding], codes: frozenset[Code] | None) -> list[Finding]:
    return [f for f in findings if codes is None or f.code in codes]
