"""Per-site figures: which sites a check's anchors live on, and which of them fail.

A site that moved or started refusing checkers fails forty anchors at once; grouped by its
registrable domain (`ids.hosts`) it is one line. `of_check` counts each entry of a check once,
in the state the summary line counts it in, so the sites' figures add up to the summary's;
`of_report` groups the weekly report's failing rows.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..findings import Code, State, Unchecked
from ..ids.hosts import site_of
from ..ids.model import AnchorKind, InvalidId, key_from_text
from .classify import Section

if TYPE_CHECKING:
    from ..result import Assessed, CheckResult
    from .weekly import Report, ReportRow

__all__ = ["HostFailures", "HostFigures", "of_check", "of_report"]


@dataclass(frozen=True, slots=True)
class HostFigures:
    """One site's anchors in one check. `host` is None for entries whose identifier is not
    valid (they name no site)."""

    host: str | None
    anchors: int
    #: looked at this run (every anchor but the `not checked` ones)
    checked: int
    failing: int
    unverified: int
    #: a rate limit answered, or a spent one left it unasked
    rate_limited: int
    not_checked: int
    #: the median of the link checks this run sent to the site; None when none was sent (an
    #: API lookup answers many anchors at once and has no time of its own)
    median_ms: float | None


@dataclass(frozen=True, slots=True)
class HostFailures:
    """One site's rows in the weekly report's failing sections."""

    host: str
    #: dead, newly dead or flaky
    failing: int
    #: failing, but never with a definite dead answer (rate-limited, unreachable…)
    unverifiable: int


def _rate_limited(one: Assessed) -> bool:
    return one.unchecked is Unchecked.RATE_LIMIT or any(
        f.code is Code.RATE_LIMITED for f in one.findings
    )


def of_check(result: CheckResult) -> list[HostFigures]:
    """Each site of the check's entries, most failing and unverified first."""
    groups: dict[str | None, list[tuple[tuple[str, int], Assessed]]] = defaultdict(list)
    for at, one in result.assess()[0].items():
        cited = result.cited.get(at)
        groups[site_of(cited.url) if cited and cited.url else None].append((at, one))
    out = []
    for host, members in groups.items():
        states = [one.state for _, one in members]
        times = [result.answer_ms[at] for at, _ in members if at in result.answer_ms]
        not_checked = states.count(State.NOT_CHECKED)
        out.append(
            HostFigures(
                host=host,
                anchors=len(members),
                checked=len(members) - not_checked,
                failing=states.count(State.FAILING),
                unverified=states.count(State.UNVERIFIED),
                rate_limited=sum(_rate_limited(one) for _, one in members),
                not_checked=not_checked,
                median_ms=statistics.median(times) if times else None,
            )
        )
    return sorted(
        out,
        key=lambda figures: (
            -(figures.failing + figures.unverified),
            -figures.anchors,
            figures.host or "",
        ),
    )


_FAILING = (Section.NEWLY_DEAD, Section.DEAD, Section.FLAKY)


def _site(row: ReportRow) -> str | None:
    """A page's site; an ID's, the site of the page it names (`arxiv.org`, `github.com`)."""
    if row.kind is AnchorKind.URL:
        return site_of(row.target)
    try:
        return site_of(key_from_text(row.target).url)
    except InvalidId:
        return None


def of_report(rep: Report) -> list[HostFailures]:
    """The sites of the report's failing rows, most failing or unverifiable first."""
    failing: dict[str, int] = defaultdict(int)
    unverifiable: dict[str, int] = defaultdict(int)
    for row in rep.rows:
        host = _site(row)
        if host is None:
            continue
        if row.section in _FAILING:
            failing[host] += 1
        elif row.section is Section.NOT_DEAD:
            unverifiable[host] += 1
    hosts = [HostFailures(h, failing[h], unverifiable[h]) for h in {*failing, *unverifiable}]
    return sorted(
        hosts,
        key=lambda figures: (
            -(figures.failing + figures.unverifiable),
            -figures.failing,
            figures.host,
        ),
    )
