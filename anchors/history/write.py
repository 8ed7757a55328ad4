"""Writing observations: each target and each distinct detail get an id once."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field

from ..ids.model import AnchorKey
from .facts import Facts, facts_to_json
from .observation import Observation, target_of
from .schema import digest

__all__ = ["Ids"]


@dataclass(slots=True)
class Ids:
    """The ids of targets, details and run names a writer has met, so each is looked up once."""

    db: sqlite3.Connection
    #: each run's registry name, as `runs` holds it
    names: dict[int, str] = field(default_factory=dict)
    _targets: dict[tuple[str, str, str], int] = field(default_factory=dict)
    _details: dict[bytes, int] = field(default_factory=dict)

    def insert(self, run_id: int, rows: list[Observation], now: float) -> None:
        """The rows of one run (inside the caller's transaction); a row without a time is
        `now`, and one already recorded (same target, time and run) is not recorded twice."""
        name = self.names.get(run_id) or self.name(run_id)
        data = [
            (
                self.target(name, o.key),
                o.checked_at or now,
                run_id,
                o.outcome.value,
                o.status,
                o.elapsed_ms,
                self._detail(o.anchor, o.final_url, o.error, _dump(o.facts)),
            )
            for o in rows
        ]
        self.db.executemany(
            "INSERT OR IGNORE INTO observations (target_id, checked_at, run_id, outcome, "
            "status, elapsed_ms, detail_id) VALUES (?,?,?,?,?,?,?)",
            data,
        )

    def forget(self) -> None:
        """After a rollback: the ids made in it are not in the file."""
        self._targets.clear()
        self._details.clear()

    def name(self, run_id: int) -> str:
        row = self.db.execute("SELECT registry FROM runs WHERE id = ?", (run_id,)).fetchone()
        self.names[run_id] = name = str(row[0]) if row else ""
        return name

    def target(self, registry: str, key: AnchorKey) -> int:
        """The id of `key` observed in runs of `registry` (as `runs` names it), made if new."""
        at = (registry, key.kind.value, target_of(key))
        tid = self._targets.get(at)
        if tid is None:
            self.db.execute(
                "INSERT OR IGNORE INTO targets (registry, kind, target) VALUES (?, ?, ?)", at
            )
            tid = _written(
                self.db.execute(
                    "SELECT id FROM targets WHERE registry = ? AND kind = ? AND target = ?", at
                ).fetchone()
            )
            self._targets[at] = tid
        return int(tid)

    def _detail(self, anchor: str, final: str | None, error: str | None, facts: str | None) -> int:
        hashed = digest(anchor, final, error, facts)
        did = self._details.get(hashed)
        if did is None:
            self.db.execute(
                "INSERT OR IGNORE INTO details (digest, anchor, final_url, error, facts) "
                "VALUES (?, ?, ?, ?, ?)",
                (hashed, anchor, final, error, facts),
            )
            did = _written(
                self.db.execute("SELECT id FROM details WHERE digest = ?", (hashed,)).fetchone()
            )
            self._details[hashed] = did
        return int(did)


def _written(row: tuple[object, ...] | None) -> int:
    """The id of the row just written, as the file finds it again: a damaged index may not
    find it, or hand back something else; the history's error, which turns it off for the run
    (`History._write`), never the run's."""
    if row is None or not isinstance(row[0], int):
        raise sqlite3.DatabaseError("damaged: a row just written is not found again")
    return row[0]


def _dump(facts: Facts | None) -> str | None:
    data = facts_to_json(facts) if facts is not None else None
    return json.dumps(data, ensure_ascii=False, sort_keys=True) if data else None
