"""What changed this week: transitions between consecutive observations, and a per-run trend.

Pure, like `report.build`: history rows in, `Transition`s and `TrendPoint`s out. A transition is
reported when an observation inside the window differs from the same target's previous one
(which may be older than the window): an issue closed or reopened, a PR merged, a new arXiv
version or title, a preprint published (a venue DOI or journal reference appeared), a
repository archived or renamed, a new permanent redirect, a link that died or recovered.
Facts are compared with the last observation that had facts, a link's outcome with its last
definite one (worked, moved or dead: `DEFINITE`), and a move (`move_of`, the one rule `fix`
applies too) with the last observation that told where the anchor was, so a failed or
skipped check in between (which learns nothing) neither hides nor invents a change.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from enum import Enum

from ..findings import Outcome
from ..history.facts import ArxivFacts, DoiFacts, Facts, IssueFacts, RepoFacts
from ..history.observation import (
    DEFINITE,
    NEUTRAL,
    SUCCESS,
    MoveKind,
    Observation,
    move_of,
    tells_place,
)
from ..ids.model import AnchorKind
from ..registry.model import Anchor
from ..sections import section_order
from ..titles import same_title
from .news import ClaimNews, claim_news

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
    #: a figure or quote a briefing attributes to the anchor, newly not in it, or no longer
    FIGURE_NOT_FOUND = "figure-not-found"
    QUOTE_NOT_FOUND = "quote-not-found"
    SOURCE_CHANGED = "source-changed"

    @property
    def label(self) -> str:
        return self.value.replace("-", " ")


@dataclass(frozen=True, slots=True)
class Transition:
    change: Change
    target: str
    anchor: str
    kind: AnchorKind
    at: float
    before: str | None = None
    after: str | None = None
    registry_section: str | None = None
    title: str | None = None
    cited_in: tuple[str, ...] = ()
    line: int | None = None
    #: the dated claim this change overtook (`news`): "the 2026-09-24 briefing said open"
    news: ClaimNews | None = None


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


#: one change an observation shows: (what, was, is)
Found = tuple[Change, str | None, str | None]


def _github_state(before: IssueFacts, after: IssueFacts) -> list[Found]:
    before_state, after_state = before.state, after.state
    if after.merged and not before.merged:
        return [(Change.PR_MERGED, before_state, "merged")]
    if before_state == "open" and after_state == "closed":
        why = f"closed ({after.state_reason})" if after.state_reason else "closed"
        return [(Change.ISSUE_CLOSED, before_state, why)]
    if before_state == "closed" and after_state == "open":
        return [(Change.ISSUE_REOPENED, before_state, after_state)]
    return []


def _retitled(before: str | None, after: str | None) -> list[Found]:
    if before and after and before != after and not same_title(before, after):
        return [(Change.RETITLED, before, after)]  # equal strings are one title
    return []


def _published(before: Sequence[str | None], after: Sequence[str | None]) -> list[Found]:
    """The first venue fact (a DOI, a journal reference) that appeared."""
    new = next((a for b, a in zip(before, after, strict=True) if a and not b), None)
    return [(Change.PUBLISHED, None, new)] if new else []


def fact_changes(before: Facts, after: Facts) -> list[Found]:
    """What differs between two observations' facts (of one anchor: of one kind).

    A move is not a fact change but the one rule `move_of`; a repository's `title` is its full
    name, which a rename changes too, not a title (`retitled` is for papers and issues).
    """
    if isinstance(after, IssueFacts) and isinstance(before, IssueFacts):
        return _github_state(before, after) + _retitled(before.title, after.title)
    if isinstance(after, ArxivFacts) and isinstance(before, ArxivFacts):
        bv, av = before.version, after.version
        newer = [(Change.NEW_VERSION, f"v{bv}", f"v{av}")] if bv and av and av > bv else []
        return (
            newer
            + _retitled(before.title, after.title)
            + _published((before.doi, before.journal_ref), (after.doi, after.journal_ref))
        )
    if isinstance(after, DoiFacts) and isinstance(before, DoiFacts):
        return _retitled(before.title, after.title) + _published(
            (before.journal_ref,), (after.journal_ref,)
        )
    if isinstance(after, RepoFacts) and isinstance(before, RepoFacts):
        archived = after.archived and not before.archived
        return [(Change.ARCHIVED_REPO, None, "archived")] if archived else []
    return []


def _link_changes(prev: Observation, cur: Observation) -> list[Found]:
    """What changed between two definite observations of a link: it died or recovered."""
    if prev.outcome in SUCCESS and cur.outcome is Outcome.DEAD:
        return [(Change.DIED, prev.outcome.value, cur.error or cur.outcome.value)]
    if prev.outcome is Outcome.DEAD and cur.outcome in SUCCESS:
        return [(Change.RECOVERED, prev.error or prev.outcome.value, cur.outcome.value)]
    return []


def _moved(prev: Observation, cur: Observation) -> list[Found]:
    """A move (`move_of`) that the previous observation telling the anchor's place had not."""
    was, now = move_of(prev), move_of(cur)
    if now is None or (was is not None and was.to == now.to):
        return []
    change = Change.REDIRECTED if now.kind is MoveKind.REDIRECT else Change.RENAMED
    return [(change, was.to if was else None, now.to)]


@dataclass(slots=True)
class _Last:
    """A target's observations so far that a change is measured from."""

    #: the latest definite one (worked, moved or dead)
    definite: Observation | None = None
    #: the latest facts
    facts: Facts | None = None
    #: the latest one that told where the anchor is (`tells_place`)
    place: Observation | None = None

    def changes(self, cur: Observation) -> list[Found]:
        """The changes `cur` shows, each once."""
        found: list[Found] = []
        if self.definite is not None and cur.outcome in DEFINITE:
            found += _link_changes(self.definite, cur)
        if self.facts is not None and cur.facts is not None:
            found += fact_changes(self.facts, cur.facts)
        if self.place is not None and tells_place(cur):
            found += _moved(self.place, cur)
        return found

    def saw(self, cur: Observation) -> None:
        self.definite = cur if cur.outcome in DEFINITE else self.definite
        self.facts = cur.facts or self.facts
        self.place = cur if tells_place(cur) else self.place


def _target(row: Observation) -> str:
    return row.target


#: the changes of an issue's state, which a dated claim may have said otherwise (`news`)
_STATE = frozenset([Change.ISSUE_CLOSED, Change.ISSUE_REOPENED, Change.PR_MERGED])


def transitions(
    rows: Iterable[Observation],
    start: float,
    now: float,
    anchor_of: Callable[[Observation], Anchor | None] | None = None,
    entry_of: Callable[[Observation], str | None] = _target,
) -> list[Transition]:
    """Every transition at an observation in [start, now], grouped by registry section.

    `anchor_of(row)` returns the registry entry of a row's target (or None), for its section,
    title and citing briefings. `entry_of(row)` says which rows are one thing observed (a
    moved entry's old and new URL are one; None: not tracked); by default each target.
    """
    per: dict[str, list[Observation]] = {}
    for seen in rows:
        entry = entry_of(seen)
        if seen.checked_at <= now and entry is not None:
            per.setdefault(entry, []).append(seen)
    ordered = (sorted(hist, key=lambda seen: seen.checked_at) for hist in per.values())
    out = [t for hist in ordered for t in _of_one(hist, start, anchor_of)]
    out.sort(
        key=lambda transition: (
            section_order(transition.registry_section),
            transition.at,
            transition.target,
            transition.change.value,
        )
    )
    return out


def _of_one(
    hist: list[Observation], start: float, anchor_of: Callable[[Observation], Anchor | None] | None
) -> Iterator[Transition]:
    """The transitions of one thing observed, from its observations oldest first."""
    last = _Last()
    held = anchor_of(hist[-1]) if anchor_of else None
    told = claim_news(held.claims if held else (), hist)
    for i, cur in enumerate(hist):
        found, news = (last.changes(cur), told.get(i)) if cur.checked_at >= start else ([], None)
        if news is not None and isinstance(cur.facts, IssueFacts):  # the change, as news
            found = [f for f in found if f[0] not in _STATE] + _github_state(
                news.as_facts, cur.facts
            )
        last.saw(cur)
        entry = anchor_of(cur) if anchor_of and found else None
        for change, before, after in found:
            yield Transition(
                change=change,
                target=cur.target,
                anchor=cur.anchor,
                kind=cur.kind,
                at=cur.checked_at,
                before=before or None,
                after=after or None,
                registry_section=entry.section if entry else None,
                title=entry.work_title if entry else None,
                cited_in=tuple(d.isoformat() for d in entry.cited_in) if entry else (),
                line=entry.line if entry else None,
                news=news if change in _STATE else None,
            )


def trend(
    rows: Sequence[Observation],
    now: float,
    span: float = TREND_SPAN,
    points: int = TREND_POINTS,
    entry_of: Callable[[Observation], str | None] = _target,
) -> list[TrendPoint]:
    """Per run of the last `span` seconds (at most `points`, the latest): OK, flaky, dead.

    Each tracked thing (`entry_of`, as in `transitions`: the registry's entries, a moved
    entry's old URL counting as the entry) counts with its latest checked outcome by that run;
    a run that did not look at it (`NEUTRAL`) changes nothing.
    """
    state: dict[str, Outcome] = {}
    out: list[TrendPoint] = []
    ordered = sorted(
        ((r, e) for r in rows if r.checked_at <= now and (e := entry_of(r)) is not None),
        key=lambda pair: pair[0].checked_at,
    )
    by_run: dict[int, list[tuple[Observation, str]]] = {}
    for seen, e in ordered:
        by_run.setdefault(seen.run_id, []).append((seen, e))
    for run_id, run_rows in sorted(by_run.items(), key=lambda kv: kv[1][0][0].checked_at):
        for seen, entry in run_rows:
            if seen.outcome not in NEUTRAL:
                state[entry] = seen.outcome
        at = run_rows[0][0].checked_at
        if at < now - span:
            continue
        dead = sum(1 for o in state.values() if o is Outcome.DEAD)
        ok = sum(1 for o in state.values() if o in SUCCESS)
        out.append(TrendPoint(run_id, at, ok, len(state) - ok - dead, dead))
    return out[-points:]
