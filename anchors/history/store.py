"""Check history in SQLite: one observation per URL or anchor per run, for `anchors report`.

WAL mode and a bounded, announced wait for the write lock let two checks write at once; rows
are committed in small batches, so a check that is interrupted keeps what it finished. The file
carries an application id and a schema version: a foreign or corrupt file, or one from a newer
anchors, is an error, never silently reset.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from ..errors import HistoryError, StorageError
from ..findings import Outcome
from ..ids.model import AnchorKey, AnchorKind, InvalidId, WebUrl, key_from_text
from ..state import STATE_DIR, ensure, untrusted
from .facts import Facts, facts_from_json, facts_to_json
from .observation import Observation

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

APPLICATION_ID = 0x616E6368  # "anch"
SCHEMA_VERSION = 2
_MIGRATIONS: dict[int, tuple[str, ...]] = {
    1: (
        (
            "CREATE TABLE runs (id INTEGER PRIMARY KEY, started_at REAL NOT NULL, "
            "finished_at REAL, registry TEXT NOT NULL, complete INTEGER NOT NULL DEFAULT 0)"
        ),
        (
            "CREATE TABLE results (run_id INTEGER NOT NULL REFERENCES runs(id), "
            "checked_at REAL NOT NULL, target TEXT NOT NULL, anchor TEXT NOT NULL, "
            "kind TEXT NOT NULL, outcome TEXT NOT NULL, status INTEGER, final_url TEXT, "
            "error TEXT, elapsed_ms INTEGER)"
        ),
        "CREATE INDEX results_by_target ON results (target, checked_at)",
        "CREATE INDEX runs_by_time ON runs (started_at)",
    ),
    # 2: the resolved facts of each observation (JSON), for the report's transitions
    2: ("ALTER TABLE results ADD COLUMN facts TEXT",),
}


@dataclass(frozen=True, slots=True)
class Run:
    id: int
    started_at: float
    finished_at: float | None
    complete: bool


#: Longest wait for another writer (a concurrent check) before the history is given up on.
LOCK_TIMEOUT = 15.0
_TABLES = frozenset({"runs", "results"})
#: sqlite errors that mean the environment refused (not a damaged or foreign file)
_ENVIRONMENT = (
    "unable to open",
    "readonly",
    "read-only",
    "disk i/o",
    "full",
    "locked",
    "no such file",
    "permission",
)


def history_home(history: str | os.PathLike[str]) -> Path:
    """The folder a history belongs to: the one holding `.anchors/` for `.anchors/history.sqlite`,
    else the history file's own folder (real paths)."""
    folder = Path(os.path.realpath(history)).parent
    return folder.parent if folder.name == STATE_DIR else folder


def registry_id(registry: str | os.PathLike[str], home: Path) -> str:
    """How a run names its registry: its real path (`..` and symlinks resolved), relative to the
    history's `home` when it lies under it, else absolute.

    Every registry in a folder shares that folder's history, so a reader must tell their runs
    apart, and `a.yaml`, `./a.yaml`, its absolute path and a symlink to it are one registry.
    Relative to the home, the name still holds when the checkout is copied or renamed, or the
    history is downloaded elsewhere (see `_recorded` for how names are read back).
    """
    real = Path(os.path.realpath(registry))
    return real.relative_to(home).as_posix() if real.is_relative_to(home) else str(real)


def _recorded(name: str, home: Path) -> set[str]:
    """The real paths a recorded name may mean: a relative name is the home's (as new runs
    write it) or, from an older anchors that stored it as typed, the folder the check ran in,
    which is the home or the current folder as often as not."""
    if os.path.isabs(name):
        return {os.path.realpath(name)}
    return {os.path.realpath(home / name), os.path.realpath(name)}


def _trusted(path: Path) -> None:
    """A history that is a symlink or committed to the repository is not used (`state`)."""
    why = untrusted(path)
    if why is not None:
        raise StorageError(str(path), f"{why}; not used")


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
    ) -> None:
        self.path = path
        self.clock = clock
        self.lock_timeout = LOCK_TIMEOUT if lock_timeout is None else lock_timeout
        self.on_wait = on_wait
        self._sleep, self._monotonic = sleep, monotonic
        #: why the history stopped being written during this run, if it did
        self.problem: str | None = None
        _trusted(path)
        ensure(path.parent)
        try:
            self.db = sqlite3.connect(path, isolation_level=None, timeout=0)
            self._patiently(self._prepare)
        except sqlite3.Error as exc:
            self._close_quietly()
            raise self._error(exc) from None
        except BaseException:
            self._close_quietly()
            raise

    @classmethod
    def read_only(cls, path: Path) -> History:
        """A private in-memory copy, for `report`: the file is opened read-only and is never
        created, migrated or locked, so reading works in a read-only checkout, on an older
        schema, and while a check is writing."""
        _trusted(path)
        self = cls.__new__(cls)
        self.path, self.clock, self.problem = path, time.time, None
        self.lock_timeout, self.on_wait = 0.0, None
        self._sleep, self._monotonic = time.sleep, time.monotonic
        self.db = sqlite3.connect(":memory:", isolation_level=None)
        try:
            self._copy_from(path)
            self._prepare()
        except sqlite3.Error as exc:
            self.db.close()
            raise self._error(exc) from None
        return self

    def _copy_from(self, path: Path) -> None:
        uri = path.resolve().as_uri()
        # NOTE: a WAL file in a read-only folder cannot get its -shm; `immutable` reads it as is.
        for query in ("?mode=ro", "?mode=ro&immutable=1"):
            src = sqlite3.connect(uri + query, uri=True)
            try:
                src.backup(self.db)
                return
            except sqlite3.OperationalError:
                if query.endswith("immutable=1"):
                    raise
            finally:
                src.close()

    def _error(self, exc: sqlite3.Error) -> Exception:
        text = str(exc)
        if isinstance(exc, sqlite3.OperationalError) and any(
            w in text.lower() for w in _ENVIRONMENT
        ):
            return StorageError(str(self.path), f"cannot use the history: {text}")
        return HistoryError(str(self.path), f"not an anchors history database ({text})")

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
        except (sqlite3.Error, StorageError) as exc:
            why = exc.message if isinstance(exc, StorageError) else str(exc)
            self.problem = f"{self.path}: history not written ({why}); findings are unaffected"
            return default

    def _close_quietly(self) -> None:
        db = getattr(self, "db", None)
        if db is not None:
            db.close()

    def _check_owner(self) -> int:
        """Refuse foreign, newer or damaged files; returns the schema version found.

        One statement reads all three facts, so a concurrent first run that is creating the
        schema is seen either before or after its commit, never half-way.
        """
        app, version, tables = self.db.execute(
            "SELECT (SELECT application_id FROM pragma_application_id), "
            "(SELECT user_version FROM pragma_user_version), "
            "(SELECT group_concat(name) FROM sqlite_master WHERE type='table')"
        ).fetchone()
        names = set((tables or "").split(",")) - {""}
        if app not in (0, APPLICATION_ID) or (app == 0 and names):
            raise HistoryError(
                str(self.path),
                "this SQLite file belongs to another program; pass --history with another path",
            )
        if version > SCHEMA_VERSION:
            raise HistoryError(
                str(self.path),
                f"made by a newer anchors (schema {version}); upgrade anchors to read it",
            )
        if version and not _TABLES <= names:
            missing = ", ".join(sorted(_TABLES - names))
            raise HistoryError(
                str(self.path),
                f"damaged: its table {missing} is missing; move "
                "the file away to start a new history",
            )
        return int(version)

    def _prepare(self) -> None:
        db = self.db
        version = self._check_owner()
        db.execute("PRAGMA journal_mode=WAL")
        # NOTE: in WAL mode NORMAL keeps the file consistent through a crash of the process
        # (the case that matters for an interrupted check) without an fsync per commit.
        db.execute("PRAGMA synchronous=NORMAL")
        if version < SCHEMA_VERSION:
            db.execute("BEGIN IMMEDIATE")
            try:
                version = self._check_owner()  # again, now that no one else can write
                for v in range(version + 1, SCHEMA_VERSION + 1):
                    for stmt in _MIGRATIONS[v]:
                        db.execute(stmt)
                db.execute(f"PRAGMA application_id={APPLICATION_ID}")
                db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
                db.execute("COMMIT")
            except BaseException:
                _rollback(db)
                raise

    def close(self) -> None:
        self.db.close()

    def start_run(self, registry: str, started_at: float | None = None) -> int:
        at = self.clock() if started_at is None else started_at
        return self._write(
            lambda: int(
                self.db.execute(
                    "INSERT INTO runs (started_at, registry) VALUES (?, ?)",
                    (at, registry_id(registry, history_home(self.path))),
                ).lastrowid
                or 0
            ),
            0,
        )

    def record(self, run_id: int, observations: Iterable[Observation]) -> None:
        now = self.clock()
        data = [
            (
                run_id,
                o.checked_at or now,
                o.target,
                o.anchor,
                o.kind.value,
                o.outcome.value,
                o.status,
                o.final_url,
                o.error,
                o.elapsed_ms,
                _dump(o.facts),
            )
            for o in observations
        ]
        if data:
            self._write(lambda: self._insert(data), None)

    def _insert(self, data: Sequence[tuple[object, ...]]) -> None:
        self.db.execute("BEGIN IMMEDIATE")
        try:
            self.db.executemany(
                "INSERT INTO results (run_id, checked_at, target, anchor, kind, outcome, status, "
                "final_url, error, elapsed_ms, facts) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                data,
            )
            self.db.execute("COMMIT")
        except BaseException:
            _rollback(self.db)
            raise

    def finish_run(self, run_id: int, complete: bool, finished_at: float | None = None) -> None:
        at = self.clock() if finished_at is None else finished_at
        self._write(
            lambda: self.db.execute(
                "UPDATE runs SET finished_at=?, complete=? WHERE id=?", (at, int(complete), run_id)
            ),
            None,
        )

    def runs(self, since: float, until: float) -> list[Run]:
        q = (
            "SELECT id, started_at, finished_at, complete FROM runs WHERE started_at >= ? "
            "AND started_at <= ? ORDER BY started_at"
        )
        return [Run(i, s, f, bool(c)) for i, s, f, c in self.db.execute(q, (since, until))]

    def rows(
        self, until: float, registry: str | os.PathLike[str] | None = None
    ) -> Iterator[Observation]:
        """Every observation up to `until`, oldest first (the report needs history before the
        window); with `registry`, only the results of that registry's runs (see `registry_id`).

        A recorded name that means `registry` (see `_recorded`) picks its runs. When none does
        but every run is of one registry (all names resolve to one file in the home), the
        history was moved or copied with it (another checkout, a CI artifact) and is all of
        it; only a history that holds several registries is filtered."""
        q = (
            "SELECT r.target, r.anchor, r.kind, r.outcome, r.status, r.final_url, r.error, "
            "r.elapsed_ms, r.checked_at, r.run_id, r.facts FROM results r "
            "JOIN runs u ON u.id = r.run_id WHERE u.started_at <= ?"
        )
        args: list[object] = [until]
        if registry is not None:
            home, want = history_home(self.path), os.path.realpath(registry)
            recorded = [n for (n,) in self.db.execute("SELECT DISTINCT registry FROM runs")]
            names = [n for n in recorded if want in _recorded(n, home)]
            if names or len({os.path.realpath(home / n) for n in recorded}) > 1:
                q += f" AND u.registry IN ({', '.join('?' * len(names)) or 'NULL'})"
                args += names
        for t in self.db.execute(q + " ORDER BY u.started_at, r.checked_at", args):
            target, anchor, kind, outcome, status, final, error, ms, at, run, facts = t
            read = _read(kind, target, outcome, facts)
            if read is not None:
                key, verdict, known = read
                yield Observation(key, anchor, verdict, status, final, error, ms, at, run, known)


def _rollback(db: sqlite3.Connection) -> None:
    if db.in_transaction:
        db.execute("ROLLBACK")


def _dump(facts: Facts | None) -> str | None:
    data = facts_to_json(facts) if facts is not None else None
    return json.dumps(data, ensure_ascii=False, sort_keys=True) if data else None


def _read(
    kind: str, target: str, outcome: str, facts: str | None
) -> tuple[AnchorKey, Outcome, Facts | None] | None:
    """A stored observation's key, outcome and facts, parsed once; None for one this anchors
    cannot read (an unknown kind or outcome, a damaged key): it says nothing.

    A page's target is its URL, anything else's its key. Facts of schema-1 rows, and
    unreadable JSON, are None (never an error).
    """
    try:
        kind_ = AnchorKind(kind)
        verdict = Outcome(outcome)
        key = WebUrl(target) if kind_ is AnchorKind.URL else key_from_text(target)
    except (ValueError, InvalidId):
        return None
    if key.kind is not kind_:
        return None
    return key, verdict, _load(kind_, facts)


def _load(kind: AnchorKind, text: str | None) -> Facts | None:
    if not text:
        return None
    try:
        got = json.loads(text)
    except ValueError:
        return None
    return facts_from_json(kind, got) if isinstance(got, dict) and got else None
