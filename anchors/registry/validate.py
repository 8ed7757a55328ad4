"""Offline checks: everything that can be said about a registry without the network."""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import date

from ..findings import Code, Finding, Severity, State, Unchecked, state_of, summary
from ..ids.model import AnchorKind, is_future, issued_after
from .model import Registry

__all__ = ["CheckResult", "check_offline", "combine", "offline", "only"]


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
        found: dict[tuple[str, int], list[Finding]] = {}
        for f in self.findings:
            if f.line is not None:
                found.setdefault((f.file, f.line), []).append(f)
        states, why = dict.fromkeys(State, 0), dict.fromkeys(Unchecked, 0)
        for at in self.entries:
            if at in found:
                states[state_of(found[at])] += 1
            elif at in self.unchecked:
                states[State.NOT_CHECKED] += 1
                why[self.unchecked[at]] += 1
            else:
                states[State.OK] += 1
        return states, why

    def narrow(self, codes: frozenset[Code] | None) -> None:
        """Keep only the findings of `codes` (`--only`): an anchor whose warnings or errors all
        go is `not-checked` (filtered), never OK; one with only notes stays OK."""
        if codes is None:
            return
        kept = only(self.findings, codes)
        shown = {(f.file, f.line) for f in kept}
        for f in self.findings:
            at = (f.file, f.line)
            if f.line is not None and f.severity is not Severity.INFO and at not in shown:
                self.unchecked.setdefault((f.file, f.line), Unchecked.FILTERED)
        self.findings = kept


def combine(results: list[CheckResult]) -> CheckResult:
    """One result for several registries (a pre-commit hook passes every file it touched).

    Each finding already names its file, so the findings are simply concatenated in order.
    """
    if len(results) == 1:
        return results[0]
    return CheckResult(
        ", ".join(r.registry for r in results),
        results[0].today,
        sum(r.anchors for r in results),
        [f for r in results for f in r.findings],
        online=any(r.online for r in results),
        checked=sum(r.checked for r in results),
        cached=sum(r.cached for r in results),
        skipped=sum(r.skipped for r in results),
        excluded=sum(r.excluded for r in results),
        elapsed=sum(r.elapsed for r in results),
        registries=[r.registry for r in results],
        entries=[at for r in results for at in r.entries],
        unchecked={at: why for r in results for at, why in r.unchecked.items()},
    )


def only(findings: Iterable[Finding], codes: frozenset[Code] | None) -> list[Finding]:
    return [f for f in findings if codes is None or f.code in codes]


def check_offline(reg: Registry, today: date) -> CheckResult:
    start = time.monotonic()
    result = CheckResult(
        reg.path,
        today,
        len(reg.anchors),
        list(offline(reg, today)),
        entries=[(reg.path, a.line) for a in reg.anchors],
    )
    result.elapsed = time.monotonic() - start
    return result


def offline(reg: Registry, today: date) -> Iterator[Finding]:
    """Load problems, then future IDs, cross-form duplicates and IDs newer than their anchoring."""
    yield from reg.problems
    seen: dict[str, int] = {}
    for a in reg.anchors:
        key = a.key
        if key is None:
            continue
        if key.key in seen:
            yield Finding(
                Code.DUPLICATE,
                a.label,
                reg.path,
                a.line,
                f"same anchor as the entry on line {seen[key.key]} ({key.key}); "
                "merge the two entries",
                {"first_line": seen[key.key]},
            )
            continue
        seen[key.key] = a.line
        if key.kind is not AnchorKind.ARXIV:
            continue
        if is_future(key, today):
            yield Finding(
                Code.FUTURE_ID,
                a.label,
                reg.path,
                a.line,
                f"{key.yymm} is later than today ({today:%Y-%m}): arXiv has not "
                "issued this ID yet; check for a typo",
            )
        elif a.first_anchored and issued_after(key, a.first_anchored):
            yield Finding(
                Code.LATER_THAN_BRIEFING,
                a.label,
                reg.path,
                a.line,
                f"{key.yymm} is later than its first_anchored month "
                f"({a.first_anchored:%Y-%m}); the ID or the date is wrong",
            )
