"""Check history in SQLite: one observation per URL or anchor per run, for `anchors report`.

WAL mode and a bounded, announced wait for the write lock let two checks write at once; rows
are committed in small batches, so a check that is interrupted keeps what it finished. The file
carries an application id and a schema version: a foreign or corrupt file, or one from a newer
anchors, is an error, never silently reset.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TypeVar

from ..errors import StorageError
from ..files.state import ensure
from ..ids.model import AnchorKey
from .claims import ClaimSeen, keep_claims
from .facts import Facts
from .names import Run, history_home, registry_id, selected
from .observation import Observation
from .opening import open_read_only, prepare, trusted
from .read import Reader
from .retention import DAY, Pruned, prune
from .schema import APPLICATION_ID, DB_ERRORS, SCHEMA_VERSION, error_for, register
from .snapshots import Snapshot, keep, registries, snapshots
from .write import Ids

T = TypeVar("T")

__all__ = [
    "APPLICATION_ID",
    "LOCK_TIMEOUT",
    "SCHEMA_VERSION",
    "History",
    "Run",
    "history_home",
    "registry_id",
]


#: Longest wait for another writer (a concurrent check) before the history is given up on.
LOCK_TIMEOUT = 15.0


class History:
    """The run history, opened for writing by `check` (see `read_only` for readers).

    The file system may refuse it (a read-only folder, a full disk, a writer that never lets
    go): opening then raises StorageError, and a write that fails during a run turns the
    history off with `problem` set, so the run's findings are never lost to it. A damaged,
    foreign or newer file is a HistoryError: the user must decide, nothing is reset.
    """

    def __init__(
        self,
        path: Path,
        clock: Callable[[], float] = time.time,
        *,
        lock_timeout: float | None = None,
        on_wait: Callable[[str], None] | None = None,
        sleep: Callable[[float], None] = time.sleep,
        monotonic: Callable[[], float] = time.monotonic,
        chosen: bool = False,
    ) -> None:
        self.path = path
        self.clock = clock
        self.lock_timeout = LOCK_TIMEOUT if lock_timeout is None else lock_timeout
        self.on_wait = on_wait
        self._sleep, self._monotonic = sleep, monotonic
        #: why the history stopped being written during this run, if it did
        self.problem: str | None = None
        trusted(path, chosen)
        ensure(path.parent)
        try:
            self.db = sqlite3.connect(path, isolation_level=None, timeout=0)
            register(self.db)
            self._patiently(lambda: prepare(self.db, str(self.path)))
        except DB_ERRORS as exc:
            self._close_quietly()
            raise self._error(exc) from None
        except BaseException:
            self._close_quietly()
            raise
        self.reader = Reader(self.db)
        self._ids = Ids(self.db)

    @classmethod
    def read_only(cls, path: Path, chosen: bool = False) -> History:
        """The file opened read-only, for `report` and `fix`: never created, migrated, written
        or locked, so reading works in a read-only checkout, beside a running check and on an
        older schema (read as the current one through this connection's temporary tables).
        `chosen`: the user named the file's place (`state.untrusted`)."""
        trusted(path, chosen)
        self = cls.__new__(cls)
        self.path, self.clock, self.problem = path, time.time, None
        self.lock_timeout, self.on_wait = 0.0, None
        self._sleep, self._monotonic = time.sleep, time.monotonic
        self.db = open_read_only(path)
        self.reader = Reader(self.db)
        self._ids = Ids(self.db)
        return self

    def _error(self, exc: sqlite3.Error | UnicodeDecodeError) -> Exception:
        return error_for(exc, str(self.path))

    def _patiently(self, write: Callable[[], T]) -> T:
        """Run `write`; while another writer holds the file, say so once and wait, bounded."""
        deadline: float | None = None
        while True:
            try:
                return write()
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) and "busy" not in str(exc):
                    raise
            now = self._monotonic()
            if deadline is None:
                deadline = now + self.lock_timeout
                if self.on_wait is not None:
                    self.on_wait(
                        f"waiting up to {self.lock_timeout:g} s for {self.path}: "
                        "another anchors is writing it"
                    )
            if now >= deadline:
                raise StorageError(
                    str(self.path), f"still locked by another writer after {self.lock_timeout:g} s"
                )
            self._sleep(0.05)

    def _write(self, write: Callable[[], T], default: T) -> T:
        """A write during a run: on any failure the history is turned off, never the run."""
        if self.problem is not None:
            return default
        try:
            return self._patiently(write)
        except (*DB_ERRORS, StorageError) as exc:
            why = exc.message if isinstance(exc, StorageError) else str(exc)
            self.problem = f"{self.path}: history not written ({why}); findings are unaffected"
            return default

    def _close_quietly(self) -> None:
        db = getattr(self, "db", None)
        if db is not None:
            db.close()

    def close(self) -> None:
        self.db.close()

    def start_run(self, registry: str, started_at: float | None = None) -> int:
        at = self.clock() if started_at is None else started_at
        name = registry_id(registry, history_home(self.path))

        def start() -> int:
            run = self.db.execute(
                "INSERT INTO runs (started_at, registry) VALUES (?, ?)", (at, name)
            ).lastrowid
            self._ids.names[run or 0] = name
            return int(run or 0)

        return self._write(start, 0)

    def record(self, run_id: int, observations: Iterable[Observation]) -> None:
        now = self.clock()
        rows = list(observations)
        if rows:
            self._write(lambda: self._insert(run_id, rows, now), None)

    def _insert(self, run_id: int, rows: list[Observation], now: float) -> None:
        self._transaction(lambda: self._ids.insert(run_id, rows, now))

    def _transaction(self, work: Callable[[], T]) -> T:
        """`work` as one write transaction; ids made in one that did not commit are forgotten."""
        self.db.execute("BEGIN IMMEDIATE")
        try:
            done = work()
            self.db.execute("COMMIT")
        except BaseException:
            _rollback(self.db)
            self._ids.forget()
            raise
        return done

    def finish_run(self, run_id: int, complete: bool, finished_at: float | None = None) -> None:
        at = self.clock() if finished_at is None else finished_at
        self._write(
            lambda: self.db.execute(
                "UPDATE runs SET finished_at=?, complete=? WHERE id=?", (at, int(complete), run_id)
            ),
            None,
        )

    def prune(self, days: int, now: float | None = None) -> Pruned:
        """Keep `days` of observations (`retention`); a write like a run's (turned off on
        failure), then the file compacted."""
        cutoff = (self.clock() if now is None else now) - days * DAY

        def drop() -> Pruned:
            done = self._transaction(lambda: prune(self.db, cutoff))
            if done.observations:
                self.db.execute("VACUUM")
            return done

        return self._write(drop, Pruned(0, 0))

    def keep_snapshots(self, registry: str, found: Iterable[tuple[AnchorKey, Snapshot]]) -> None:
        """The archive's finds for `registry`'s targets (a write like a run's)."""
        name, rows, now = registry_id(registry, history_home(self.path)), list(found), self.clock()

        def write() -> None:
            keep(self.db, ((self._ids.target(name, k), snap) for k, snap in rows), now)

        if rows:
            self._write(lambda: self._transaction(write), None)

    def snapshots(
        self, registry: str | os.PathLike[str] | None = None, since: float = float("-inf")
    ) -> dict[str, Snapshot]:
        """The snapshots found for `registry`'s targets at or after `since`, by anchor key."""
        try:
            picked = selected(registries(self.db), history_home(self.path), registry)
            return snapshots(self.db, self.reader.targets(picked), since)
        except DB_ERRORS as exc:
            raise self._error(exc) from None

    def keep_claims(self, registry: str, seen: Iterable[ClaimSeen]) -> None:
        """A check's verdicts on `registry`'s figures and quotes (`claims`; a write like a run's);
        `claimread` reads them."""
        name, rows, now = registry_id(registry, history_home(self.path)), list(seen), self.clock()

        def write() -> None:
            keep_claims(self.db, ((self._ids.target(name, s.key), s) for s in rows), now)

        if rows:
            self._write(lambda: self._transaction(write), None)

    def runs(self, since: float, until: float) -> list[Run]:
        """The runs started in [since, until], oldest first."""
        sql = "SELECT id, started_at, finished_at, complete FROM runs WHERE started_at BETWEEN ?"
        try:
            got = self.db.execute(sql + " AND ? ORDER BY started_at", (since, until)).fetchall()
        except DB_ERRORS as exc:
            raise self._error(exc) from None
        return [
            Run(i, s, f, bool(c))
            for i, s, f, c in got
            if isinstance(i, int)
            and isinstance(s, (int, float))
            and isinstance(f, (int, float, type(None)))
        ]

    def _read(
        self,
        registry: str | os.PathLike[str] | None,
        read: Callable[[dict[int, AnchorKey]], Iterable[Observation]],
    ) -> list[Observation]:
        """`read` of the targets of `registry`'s runs (`names.selected`; None: every run),
        oldest first; a statement that fails is the history's error, never a traceback."""
        try:
            recorded = [
                n
                for (n,) in self.db.execute("SELECT DISTINCT registry FROM runs")
                if isinstance(n, str)
            ]
            targets = self.reader.targets(selected(recorded, history_home(self.path), registry))
            self.reader.pick(targets)
            return sorted(read(targets), key=_order)
        except DB_ERRORS as exc:
            raise self._error(exc) from None

    def rows(
        self, until: float, registry: str | os.PathLike[str] | None = None
    ) -> Iterator[Observation]:
        """Every observation up to `until`, oldest first; with `registry`, only those of that
        registry's runs. The whole past: readers of a window use `window`."""
        return iter(self._read(registry, lambda targets: self.reader.all(targets, until)))

    def window(
        self, since: float, until: float, registry: str | os.PathLike[str] | None = None
    ) -> list[Observation]:
        """The observations in [since, until], after those before `since` that say where each
        target stood then (`Reader.before`), oldest first: what a report of the window needs,
        read by index whatever the history's age."""
        reader = self.reader
        return self._read(
            registry,
            lambda targets: [*reader.before(targets, since), *reader.window(targets, since, until)],
        )

    def facts_before(
        self, keys: Iterable[AnchorKey], until: float, registry: str | os.PathLike[str]
    ) -> dict[str, Facts]:
        """What `registry`'s runs last learnt of each of `keys` before `until`, by key: what a
        check already saw, so news is told once (`Reader.facts_before`)."""
        wanted = {k.key for k in keys}
        got = self._read(registry, lambda targets: self.reader.facts_before(targets, wanted, until))
        return {o.key.key: o.facts for o in got if o.facts is not None}

    def latest(
        self, until: float, registry: str | os.PathLike[str] | None = None
    ) -> list[Observation]:
        """Each target's latest observation up to `until` (what `fix` applies)."""
        return self._read(registry, lambda targets: self.reader.latest(targets, until))


def _order(observation: Observation) -> tuple[float, int]:
    return observation.checked_at, observation.run_id


def _rollback(db: sqlite3.Connection) -> None:
    if db.in_transaction:
        db.execute("ROLLBACK")
