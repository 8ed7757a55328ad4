"""What changed this week: transitions between consecutive observations, and a per-run trend.

Pure, like `report.build`: history rows in, `Transition`s and `TrendPoint`s out. A transition is
reported when an observation inside the window differs from the same target's previous one
(which may be older than the window): an issue closed or reopened, a PR merged, a new arXiv
version or title, a preprint published (a venue DOI or journal reference appeared), a
repository archived or renamed, a new permanent redirect, a link that died or recovered.
Facts are compared with the last observation that had facts, and a link's outcome with its
last definite one (worked, moved or dead: `classify.DEFINITE`), so a failed or skipped check in
between (which learns nothing) neither hides nor invents a change.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from ..check.resolve.github import repo_of_url, repo_under
from ..findings import Outcome
from ..history import Row
from ..registry.model import Anchor
from ..sections import section_order
from ..titles import same_title
from .classify import DEFINITE, NEUTRAL, SUCCESS

__all__ = [
    "TREND_POINTS",
    "TREND_SPAN",
    "Change",
    "Transition",
    "TrendPoint",
    "section_order",
    "transitions",
    "trend",
]

#: the trend covers the runs of the last four weeks, at most this many (the latest)
TREND_SPAN = 28 * 86400.0
TREND_POINTS = 30


class Change(str, Enum):
    ISSUE_CLOSED = "issue-closed"
    ISSUE_REOPENED = "issue-reopened"
    PR_MERGED = "pr-merged"
    NEW_VERSION = "new-version"
    RETITLED = "retitled"
    PUBLISHED = "published"
    ARCHIVED_REPO = "repo-archived"
    RENAMED = "renamed"
    REDIRECTED = "redirected"
    DIED = "died"
    RECOVERED = "recovered"

    @property
    def label(self) -> str:
        return self.value.replace("-", " ")


@dataclass(frozen=True, slots=True)
class Transition:
    change: Change
    target: str
    anchor: str
    kind: str
    at: float
    before: str | None = None
    after: str | None = None
    registry_section: str | None = None
    title: str | None = None
    cited_in: tuple[str, ...] = ()
    line: int | None = None


@dataclass(frozen=True, slots=True)
class TrendPoint:
    """One run: how many tracked targets were OK, failing but not dead ("flaky"), or dead.

    Each target counts with its latest checked observation by that run, so a run that took
    most answers from the cache (or was blocked) still counts every anchor as last seen.
    """

    run_id: int
    at: float
    ok: int
    flaky: int
    dead: int


def _s(v: Any) -> str | None:
    return None if v is None or v == "" else str(v)


def _github_state(
    before: Mapping[str, Any], after: Mapping[str, Any]
) -> list[tuple[Change, Any, Any]]:
    out: list[tuple[Change, Any, Any]] = []
    b, a = before.get("state"), after.get("state")
    if after.get("merged") and not before.get("merged"):
        out.append((Change.PR_MERGED, b, "merged"))
    elif b == "open" and a == "closed":
        out.append(
            (
                Change.ISSUE_CLOSED,
                b,
                f"closed ({after['state_reason']})" if after.get("state_reason") else "closed",
            )
        )
    elif b == "closed" and a == "open":
        out.append((Change.ISSUE_REOPENED, b, a))
    return out


def fact_changes(
    before: Mapping[str, Any], after: Mapping[str, Any]
) -> list[tuple[Change, Any, Any]]:
    """What differs between two observations' facts, as (change, before, after)."""
    out = _github_state(before, after)
    bv, av = before.get("version"), after.get("version")
    if isinstance(bv, int) and isinstance(av, int) and av > bv:
        out.append((Change.NEW_VERSION, f"v{bv}", f"v{av}"))
    bt, at = _s(before.get("title")), _s(after.get("title"))
    if bt and at and bt != at and not same_title(bt, at):  # equal strings are one title
        out.append((Change.RETITLED, bt, at))
    for name in ("doi", "journal_ref"):
        if after.get(name) and not before.get(name):
            out.append((Change.PUBLISHED, None, after[name]))
            break
    if after.get("archived") and not before.get("archived"):
        out.append((Change.ARCHIVED_REPO, None, "archived"))
    for name in ("renamed_to", "moved_to"):
        if after.get(name) and after.get(name) != before.get(name):
            out.append((Change.RENAMED, before.get(name), after[name]))
            break
    return out


def _link_changes(prev: Row, cur: Row) -> list[tuple[Change, Any, Any]]:
    """What changed between two definite observations of a link (worked, moved or dead)."""
    out: list[tuple[Change, Any, Any]] = []
    if prev.outcome in SUCCESS and cur.outcome == Outcome.DEAD.value:
        out.append((Change.DIED, prev.outcome, cur.error or cur.outcome))
    elif prev.outcome == Outcome.DEAD.value and cur.outcome in SUCCESS:
        out.append((Change.RECOVERED, prev.error or prev.outcome, cur.outcome))
    if cur.kind == "url" and cur.outcome == Outcome.REDIRECT.value and cur.final_url:
        was = prev.final_url if prev.outcome == Outcome.REDIRECT.value else None
        if cur.final_url != was:
            old, new = repo_under(cur.target), repo_under(cur.final_url)
            renamed = old is not None and new is not None and old != new
            out.append((Change.RENAMED if renamed else Change.REDIRECTED, was, cur.final_url))
    return out


def _observed(
    prev_definite: Row | None, facts: Mapping[str, Any] | None, cur: Row
) -> list[tuple[Change, Any, Any]]:
    """The changes one observation shows, each once.

    A repository's page is checked through the API and recorded as a link whose rename is a
    redirect with a `moved_to` fact: the move is one change, not a link change plus a fact
    change; and its `title` is the repository's full name, which a rename changes too, not a
    title (`retitled` is for papers and issues).
    """
    found = (
        _link_changes(prev_definite, cur)
        if prev_definite is not None and cur.outcome in DEFINITE
        else []
    )
    if facts and cur.facts:
        repo_page = cur.kind == "url" and repo_of_url(cur.target) is not None
        found += [
            c for c in fact_changes(facts, cur.facts) if not (repo_page and c[0] is Change.RETITLED)
        ]
    out: list[tuple[Change, Any, Any]] = []
    moves: set[Any] = set()
    for change, before, after in found:
        if change in (Change.RENAMED, Change.REDIRECTED):
            if after in moves:
                continue
            moves.add(after)
        out.append((change, before, after))
    return out


def _target(row: Row) -> str:
    return row.target


def transitions(
    rows: Iterable[Row],
    start: float,
    now: float,
    anchor_of: Any = None,
    entry_of: Callable[[Row], str | None] = _target,
) -> list[Transition]:
    """Every transition at an observation in [start, now], grouped by registry section.

    `anchor_of(row)` returns the registry entry of a row's target (or None), for its section,
    title and citing briefings. `entry_of(row)` says which rows are one thing observed (a
    moved entry's old and new URL are one; None: not tracked); by default each target.
    """
    per: dict[str, list[Row]] = {}
    for r in rows:
        entry = entry_of(r)
        if r.checked_at <= now and entry is not None:
            per.setdefault(entry, []).append(r)
    out: list[Transition] = []
    for hist in per.values():
        hist.sort(key=lambda r: r.checked_at)
        definite: Row | None = None
        facts: Mapping[str, Any] | None = None
        for cur in hist:
            found = _observed(definite, facts, cur) if cur.checked_at >= start else []
            definite = cur if cur.outcome in DEFINITE else definite
            facts = cur.facts or facts
            a: Anchor | None = anchor_of(cur) if anchor_of and found else None
            for change, before, after in found:
                out.append(
                    Transition(
                        change,
                        cur.target,
                        cur.anchor,
                        cur.kind,
                        cur.checked_at,
                        _s(before),
                        _s(after),
                        a.section if a else None,
                        a.title if a else None,
                        tuple(d.isoformat() for d in a.cited_in) if a else (),
                        a.line if a else None,
                    )
                )
    out.sort(key=lambda t: (section_order(t.registry_section), t.at, t.target, t.change.value))
    return out


def trend(
    rows: Sequence[Row],
    now: float,
    span: float = TREND_SPAN,
    points: int = TREND_POINTS,
    entry_of: Callable[[Row], str | None] = _target,
) -> list[TrendPoint]:
    """Per run of the last `span` seconds (at most `points`, the latest): OK, flaky, dead.

    Each tracked thing (`entry_of`, as in `transitions`: the registry's entries, a moved
    entry's old URL counting as the entry) counts with its latest checked outcome by that run;
    a run that skipped, blocked or took it from the cache changes nothing (`classify.NEUTRAL`).
    """
    state: dict[str, str] = {}
    out: list[TrendPoint] = []
    ordered = sorted(
        ((r, e) for r in rows if r.checked_at <= now and (e := entry_of(r)) is not None),
        key=lambda x: x[0].checked_at,
    )
    by_run: dict[int, list[tuple[Row, str]]] = {}
    for r, e in ordered:
        by_run.setdefault(r.run_id, []).append((r, e))
    for run_id, run_rows in sorted(by_run.items(), key=lambda kv: kv[1][0][0].checked_at):
        for r, entry in run_rows:
            if r.outcome not in NEUTRAL:
                state[entry] = r.outcome
        at = run_rows[0][0].checked_at
        if at < now - span:
            continue
        dead = sum(1 for o in state.values() if o == Outcome.DEAD.value)
        ok = sum(1 for o in state.values() if o in SUCCESS)
        out.append(TrendPoint(run_id, at, ok, len(state) - ok - dead, dead))
    return out[-points:]
