"""Check history in SQLite: one row per URL or anchor per run, for `anchors report`.

WAL mode and a busy timeout let two checks write at once; rows are committed in small batches,
so a check that is interrupted keeps what it finished. The file carries an application id and a
schema version: a foreign or corrupt file, or one from a newer anchors, is an error, never
silently reset.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import HistoryError

__all__ = ["APPLICATION_ID", "SCHEMA_VERSION", "History", "Row", "Run"]

APPLICATION_ID = 0x616E6368  # "anch"
SCHEMA_VERSION = 2
_MIGRATIONS: dict[int, tuple[str, ...]] = {
    1: (
        ("CREATE TABLE runs (id INTEGER PRIMARY KEY, started_at REAL NOT NULL, "
        "finished_at REAL, registry TEXT NOT NULL, complete INTEGER NOT NULL DEFAULT 0)"),
        ("CREATE TABLE results (run_id INTEGER NOT NULL REFERENCES runs(id), "
        "checked_at REAL NOT NULL, target TEXT NOT NULL, anchor TEXT NOT NULL, kind TEXT NOT NULL, "
        "outcome TEXT NOT NULL, status INTEGER, final_url TEXT, error TEXT, elapsed_ms INTEGER)"),
        "CREATE INDEX results_by_target ON results (target, checked_at)",
        "CREATE INDEX runs_by_time ON runs (started_at)",
    ),
    # 2: the resolved facts of each observation (JSON), for the report's transitions
    2: ("ALTER TABLE results ADD COLUMN facts TEXT",),
}


@dataclass(frozen=True, slots=True)
class Row:
    target: str
    anchor: str
    kind: str
    outcome: str
    status: int | None = None
    final_url: str | None = None
    error: str | None = None
    elapsed_ms: int | None = None
    checked_at: float = 0.0
    run_id: int = 0
    #: what the lookup found (GitHub state, arXiv version and title...); see `facts.py`
    facts: Mapping[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class Run:
    id: int
    started_at: float
    finished_at: float | None
    complete: bool


class History:
    def __init__(self, path: Path, clock: Callable[[], float] = time.time) -> None:
        self.path = path
        self.clock = clock
        path.parent.mkdir(parents=True, exist_ok=True)
        deadline = time.monotonic() + 30.0
        while True:
            try:
                self.db = sqlite3.connect(path, timeout=30.0, isolation_level=None)
                self._prepare()
                return
            except sqlite3.OperationalError as exc:
                # NOTE: switching a new file to WAL can fail with "locked" without waiting on the
                # busy handler when another process creates it at the same moment.
                self._close_quietly()
                if "locked" not in str(exc) or time.monotonic() > deadline:
                    raise HistoryError(str(path), f"cannot open history ({exc})") from None
                time.sleep(0.05)
            except sqlite3.DatabaseError as exc:
                self._close_quietly()
                raise HistoryError(str(path), f"not an anchors history database ({exc})") from None

    def _close_quietly(self) -> None:
        db = getattr(self, "db", None)
        if db is not None:
            db.close()

    def _check_owner(self) -> int:
        """Refuse foreign or newer files; returns the schema version found.

        One statement reads all three facts, so a concurrent first run that is creating the
        schema is seen either before or after its commit, never half-way.
        """
        app, version, tables = self.db.execute(
            "SELECT (SELECT application_id FROM pragma_application_id), "
            "(SELECT user_version FROM pragma_user_version), "
            "(SELECT count(*) FROM sqlite_master WHERE type='table')").fetchone()
        if app not in (0, APPLICATION_ID) or (app == 0 and tables):
            raise HistoryError(str(self.path), "this SQLite file belongs to another program; "
                               "pass --history with another path")
        if version > SCHEMA_VERSION:
            raise HistoryError(str(self.path), f"made by a newer anchors (schema {version}); "
                               "upgrade anchors to read it")
        return int(version)

    def _prepare(self) -> None:
        db = self.db
        version = self._check_owner()
        db.execute("PRAGMA journal_mode=WAL")
        # NOTE: in WAL mode NORMAL keeps the file consistent through a crash of the process
        # (the case that matters for an interrupted check) without an fsync per commit.
        db.execute("PRAGMA synchronous=NORMAL")
        db.execute("PRAGMA busy_timeout=30000")
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
                db.execute("ROLLBACK")
                raise

    def close(self) -> None:
        self.db.close()

    def start_run(self, registry: str, started_at: float | None = None) -> int:
        cur = self.db.execute("INSERT INTO runs (started_at, registry) VALUES (?, ?)",
                              (self.clock() if started_at is None else started_at, registry))
        return int(cur.lastrowid or 0)

    def record(self, run_id: int, rows: Iterable[Row]) -> None:
        now = self.clock()
        data = [(run_id, r.checked_at or now, r.target, r.anchor, r.kind, r.outcome, r.status,
                 r.final_url, r.error, r.elapsed_ms, _dump(r.facts)) for r in rows]
        if not data:
            return
        self.db.execute("BEGIN IMMEDIATE")
        try:
            self.db.executemany(
                "INSERT INTO results (run_id, checked_at, target, anchor, kind, outcome, status, "
                "final_url, error, elapsed_ms, facts) VALUES (?,?,?,?,?,?,?,?,?,?,?)", data)
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise

    def finish_run(self, run_id: int, complete: bool, finished_at: float | None = None) -> None:
        self.db.execute("UPDATE runs SET finished_at=?, complete=? WHERE id=?",
                        (self.clock() if finished_at is None else finished_at, int(complete),
                         run_id))

    def runs(self, since: float, until: float) -> list[Run]:
        q = "SELECT id, started_at, finished_at, complete FROM runs WHERE started_at >= ? " \
            "AND started_at <= ? ORDER BY started_at"
        return [Run(i, s, f, bool(c)) for i, s, f, c in self.db.execute(q, (since, until))]

    def rows(self, until: float) -> Iterator[Row]:
        """Every result up to `until`, oldest first (the report needs history before the window)."""
        q = ("SELECT r.target, r.anchor, r.kind, r.outcome, r.status, r.final_url, r.error, "
             "r.elapsed_ms, r.checked_at, r.run_id, r.facts FROM results r "
             "JOIN runs u ON u.id = r.run_id "
             "WHERE u.started_at <= ? ORDER BY u.started_at, r.checked_at")
        for t in self.db.execute(q, (until,)):
            target, anchor, kind, outcome, status, final, error, ms, at, run, facts = t
            yield Row(target, anchor, kind, outcome, status, final, error, ms, at, run,
                      _load(facts))


def _dump(facts: Mapping[str, Any] | None) -> str | None:
    return json.dumps(dict(facts), ensure_ascii=False, sort_keys=True) if facts else None


def _load(text: str | None) -> Mapping[str, Any] | None:
    """Facts of a row; rows from schema 1, or unreadable JSON, have none (never an error)."""
    if not text:
        return None
    try:
        got = json.loads(text)
    except ValueError:
        return None
    return got if isinstance(got, dict) else None
