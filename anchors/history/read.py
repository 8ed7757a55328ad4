"""Reading the history by window: what a report, its trend and `fix` need, by index.

A report over the last week needs that week's observations and, for each target, the few
observations before it that say where the target stood when the week began (`before`): its
last success, the first failure and first definite death of the failing stretch it may be in,
its last definite outcome, its last facts, its last checked and its last observation at all.
With those in front of the window, the report's rules (`report.classify`, the transitions, the
trend) give what they give on the whole history, and the work is the same after three years as
after three months: every question is an index look-up (`schema`), none reads the past.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from ..findings import Outcome
from ..ids.github import repo_of_url
from ..ids.model import AnchorKey, AnchorKind, InvalidId, WebUrl, key_from_text
from ..jsonread import loads
from .facts import Facts, facts_from_json
from .observation import DEFINITE, NEUTRAL, SUCCESS, Observation

__all__ = ["Reader", "Stats"]

_COLUMNS = (
    "SELECT o.target_id, o.checked_at, o.run_id, o.outcome, o.status, o.elapsed_ms, d.id, "
    "d.anchor, d.final_url, d.error, d.facts "
)
#: the observations of the `pick`ed targets, one index range per target (CROSS JOIN keeps
#: that order: the planner would otherwise scan every observation)
_PICKED = _COLUMNS + "FROM temp.picked p CROSS JOIN observations o ON o.target_id = p.id "
_DETAILS = "JOIN details d ON d.id = o.detail_id"
_OUTCOMES = tuple(Outcome)
#: outcomes that fail: a failing stretch is a run of these (neutral ones do not break it)
_FAILING = tuple(o for o in Outcome if o not in SUCCESS and o not in NEUTRAL)


@dataclass(slots=True)
class Stats:
    """What a reader asked of the database: the bound a test holds it to."""

    queries: int = 0
    #: observations read (rows of `observations` returned)
    rows: int = 0


@dataclass(slots=True)
class Reader:
    """Observations of a history's targets, parsed once: each target's key when it is first
    named, each `details` row's facts when first met."""

    db: sqlite3.Connection
    stats: Stats = field(default_factory=Stats)
    _facts: dict[int, Facts | None] = field(default_factory=dict)

    def targets(self, registries: Sequence[str] | None) -> dict[int, AnchorKey]:
        """The targets observed in runs of these registries (as runs name them; None: all),
        each by id; a target this anchors cannot read (an unknown kind, a damaged key) is
        left out: it says nothing."""
        sql, args = "SELECT id, kind, target FROM targets", list(registries or ())
        if registries is not None:
            sql += f" WHERE registry IN ({', '.join('?' * len(args)) or 'NULL'})"
        out = {}
        for tid, kind, target in self._run(sql, args):
            key = _key(kind, target)
            if key is not None:
                out[tid] = key
        return out

    def pick(self, targets: Mapping[int, AnchorKey]) -> None:
        """The targets the next reads are of, in this connection's temporary tables."""
        db = self.db
        db.execute("CREATE TEMP TABLE IF NOT EXISTS picked (id INTEGER PRIMARY KEY)")
        with _batch(db):
            db.execute("DELETE FROM temp.picked")
            db.executemany("INSERT INTO temp.picked (id) VALUES (?)", ((t,) for t in targets))

    def window(
        self, targets: Mapping[int, AnchorKey], since: float, until: float
    ) -> Iterator[Observation]:
        """Every observation of `targets` (`pick`ed) in [since, until]."""
        sql = _PICKED + "AND o.checked_at >= ? AND o.checked_at <= ? " + _DETAILS
        return self._observations(targets, sql, (since, until))

    def all(self, targets: Mapping[int, AnchorKey], until: float) -> Iterator[Observation]:
        """Every observation of `targets` up to `until` (the whole past: for tools and tests)."""
        return self.window(targets, float("-inf"), until)

    def latest(self, targets: Mapping[int, AnchorKey], until: float) -> Iterator[Observation]:
        """Each target's (`pick`ed) latest observation up to `until` (what `fix` applies)."""
        sql = _PICKED + (
            "AND o.checked_at = (SELECT MAX(checked_at) FROM observations "
            "WHERE target_id = p.id AND checked_at <= ?) "
        )
        return self._observations(targets, sql + _DETAILS, (until,))

    def facts_before(
        self, targets: Mapping[int, AnchorKey], keys: set[str], until: float
    ) -> Iterator[Observation]:
        """The latest observation with facts before `until` of each target among `targets`
        whose key is in `keys`: what an earlier check already learnt of it (one statement, read
        backwards by the primary key, one row per target whatever the past holds)."""
        mine = {t: k for t, k in targets.items() if k.key in keys}
        self.pick(mine)
        sql = _PICKED + (
            "AND o.checked_at = (SELECT f.checked_at FROM observations f JOIN details fd "
            "ON fd.id = f.detail_id WHERE f.target_id = p.id AND f.checked_at < ? "
            "AND fd.facts IS NOT NULL ORDER BY f.checked_at DESC LIMIT 1) "
        )
        return self._observations(mine, sql + _DETAILS, (until,))

    def before(self, targets: Mapping[int, AnchorKey], since: float) -> Iterator[Observation]:
        """For each target (`pick`ed), the observations before `since` that say where it stood
        then (see the module's docstring), oldest first; a few per target, whatever the past
        holds."""
        last = ", ".join(
            "(SELECT MAX(checked_at) FROM observations WHERE target_id = p.id AND outcome = ? "
            "AND checked_at < ?)"
            for _ in _OUTCOMES
        )
        args = [x for o in _OUTCOMES for x in (o.value, since)]
        wanted = []
        for tid, *times in self._run(f"SELECT p.id, {last} FROM temp.picked p", args):
            found = {o: at for o, at in zip(_OUTCOMES, times, strict=True) if at is not None}
            wanted += [(tid, at) for at in self._standing(tid, targets[tid], found, since)]
        db = self.db
        db.execute("CREATE TEMP TABLE IF NOT EXISTS wanted (target_id INTEGER, checked_at REAL)")
        with _batch(db):
            db.execute("DELETE FROM temp.wanted")
            db.executemany("INSERT INTO temp.wanted VALUES (?, ?)", wanted)
        sql = (
            _COLUMNS + "FROM temp.wanted w CROSS JOIN observations o ON o.target_id = w.target_id "
            "AND o.checked_at = w.checked_at " + _DETAILS
        )
        return self._observations(targets, sql, ())

    def standing(self, tid: int, key: AnchorKey, since: float) -> set[float]:
        """When the observations of target `tid` before `since` that `before` gives were made."""
        found: dict[Outcome, float] = {}
        for outcome in _OUTCOMES:
            at = self._one(
                "SELECT MAX(checked_at) FROM observations WHERE target_id = ? AND outcome = ? "
                "AND checked_at < ?",
                (tid, outcome.value, since),
            )
            if at is not None:
                found[outcome] = at
        return self._standing(tid, key, found, since)

    def _standing(
        self, tid: int, key: AnchorKey, last: dict[Outcome, float], since: float
    ) -> set[float]:
        """From each outcome's latest time before `since`: the times `before` reads."""
        if not last:
            return set()
        success = _latest(last, SUCCESS)
        checked = _latest(last, frozenset(_OUTCOMES) - NEUTRAL)
        found = [max(last.values()), success, checked, _latest(last, DEFINITE)]
        if success is not None and _has_facts(key):
            found.append(self._last_facts(tid, success))
        if checked is not None and checked != success:  # failing when the window begins
            after = float("-inf") if success is None else success
            for group in (_FAILING, (Outcome.DEAD,)):
                first = [self._first(tid, o, after, since) for o in group]
                found.append(min((at for at in first if at is not None), default=None))
        return {at for at in found if at is not None}

    def _first(self, tid: int, outcome: Outcome, after: float, before: float) -> float | None:
        return self._one(
            "SELECT MIN(checked_at) FROM observations WHERE target_id = ? AND outcome = ? "
            "AND checked_at > ? AND checked_at < ?",
            (tid, outcome.value, after, before),
        )

    def _last_facts(self, tid: int, at_or_before: float) -> float | None:
        """The latest observation with facts at or before a success (itself, unless that
        answer held no metadata)."""
        return self._one(
            "SELECT o.checked_at FROM observations o JOIN details d ON d.id = o.detail_id "
            "WHERE o.target_id = ? AND o.checked_at <= ? AND d.facts IS NOT NULL "
            "ORDER BY o.checked_at DESC LIMIT 1",
            (tid, at_or_before),
        )

    def _one(self, sql: str, args: Sequence[object]) -> float | None:
        row = self._run(sql, args).fetchone()
        return None if row is None else row[0]

    def _run(self, sql: str, args: Iterable[object]) -> sqlite3.Cursor:
        self.stats.queries += 1
        return self.db.execute(sql, tuple(args))

    def _observations(
        self, targets: Mapping[int, AnchorKey], sql: str, args: Sequence[object]
    ) -> Iterator[Observation]:
        for row in self._run(sql, args):
            self.stats.rows += 1
            tid, at, run, outcome, status, ms, did, anchor, final, error, facts = row
            key = targets.get(tid)
            if key is None or not _well_typed(row):
                continue  # a row a damaged or edited file holds says nothing
            try:
                verdict = Outcome(outcome)
            except ValueError:
                continue  # an outcome this anchors does not know says nothing
            if did not in self._facts:
                self._facts[did] = _load(key.kind, facts)
            yield Observation(
                key, anchor, verdict, status, final, error, ms, at, run, self._facts[did]
            )


@contextlib.contextmanager
def _batch(db: sqlite3.Connection) -> Iterator[None]:
    """Writes to the temporary tables as one transaction (unless one is open already)."""
    if db.in_transaction:
        yield
        return
    db.execute("BEGIN")
    try:
        yield
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise


def _latest(last: Mapping[Outcome, float], outcomes: frozenset[Outcome]) -> float | None:
    return max((at for o, at in last.items() if o in outcomes), default=None)


#: the SQLite types of an observation row as a check writes it (SQLite keeps whatever a file
#: holds in any column): target, time, run, outcome, status, elapsed, detail, anchor, final
#: URL, error, facts
_ROW_TYPES: tuple[tuple[type, ...], ...] = (
    (int,),
    (int, float),
    (int,),
    (str,),
    (int, type(None)),
    (int, type(None)),
    (int,),
    (str,),
    (str, type(None)),
    (str, type(None)),
    (str, type(None)),
)


def _well_typed(row: Sequence[object]) -> bool:
    return all(isinstance(v, t) for v, t in zip(row, _ROW_TYPES, strict=True))


def _key(kind: object, target: object) -> AnchorKey | None:
    """A stored target read back: a page by its URL, anything else by its key."""
    if not isinstance(kind, str) or not isinstance(target, str):
        return None
    try:
        kind_ = AnchorKind(kind)
        key = WebUrl(target) if kind_ is AnchorKind.URL else key_from_text(target)
    except (ValueError, InvalidId):
        return None
    return key if key.kind is kind_ else None


def _has_facts(key: AnchorKey) -> bool:
    """Whether a target's lookups learn facts: every ID, and a repository's page."""
    return not isinstance(key, WebUrl) or repo_of_url(key.url) is not None


def _load(kind: AnchorKind, text: str | None) -> Facts | None:
    """Facts stored as JSON; none for schema-1 rows and unreadable JSON (never an error)."""
    if not text:
        return None
    try:
        got = loads(text)  # a history may be a committed or damaged one: depth-bounded
    except ValueError:
        return None
    return facts_from_json(kind, got) if isinstance(got, dict) and got else None
