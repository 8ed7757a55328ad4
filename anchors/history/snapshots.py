"""Dated archive snapshots (Wayback) of the anchors' pages, kept in the history for `fix`.

`check --archive` finds them; `fix --only archive` writes them into the registry. They live in
the history, not the cache, so the cache stays disposable (`check --archive --no-cache` loses
nothing) and `fix` reads them where it reads every other thing a check learnt. One row per
target: the snapshot found last replaces the one before.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date

from ..ids.model import AnchorKey

__all__ = ["SNAPSHOTS_TABLE", "Snapshot", "keep", "registries", "snapshots"]

#: schema 4's one addition (`{s}`: "main." or "temp.")
SNAPSHOTS_TABLE = (
    "CREATE TABLE IF NOT EXISTS {s}snapshots (target_id INTEGER PRIMARY KEY, url TEXT NOT NULL, "
    "date TEXT NOT NULL, found_at REAL NOT NULL)"
)


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A verified capture of a page: its address on the archive and the capture's day."""

    url: str
    #: YYYY-MM-DD of the capture
    date: str

    @classmethod
    def parse(cls, url: object, day: object) -> Snapshot | None:
        """A stored snapshot if both parts are what they claim: the history is a file, and a
        tampered one must not put anything else into the registry."""
        if not isinstance(url, str) or not url.startswith(("https://", "http://")):
            return None
        try:
            return cls(url, date.fromisoformat(str(day)).isoformat())
        except ValueError:
            return None

    def as_dict(self) -> dict[str, object]:
        return {"url": self.url, "date": self.date}


def keep(db: sqlite3.Connection, found: Iterable[tuple[int, Snapshot]], now: float) -> None:
    """Each target's (by id) snapshot, replacing the one it had (in the caller's transaction)."""
    db.executemany(
        "INSERT OR REPLACE INTO snapshots (target_id, url, date, found_at) VALUES (?, ?, ?, ?)",
        ((tid, s.url, s.date, now) for tid, s in found),
    )


def snapshots(
    db: sqlite3.Connection, targets: Mapping[int, AnchorKey], since: float
) -> dict[str, Snapshot]:
    """The snapshots of `targets` found at or after `since`, by anchor key; a row that is not a
    snapshot (edited by hand) says nothing."""
    out = {}
    for tid, url, day in db.execute(
        "SELECT target_id, url, date FROM snapshots WHERE found_at >= ?", (since,)
    ):
        key = targets.get(tid)
        snap = Snapshot.parse(url, day) if key is not None else None
        if key is not None and snap is not None:
            out[key.key] = snap
    return out


def registries(db: sqlite3.Connection) -> list[str]:
    """The registries named by runs or by snapshots (an archive's finds may outlive the runs)."""
    sql = (
        "SELECT registry FROM runs UNION SELECT t.registry FROM targets t "
        "JOIN snapshots s ON s.target_id = t.id"
    )
    return [n for (n,) in db.execute(sql) if isinstance(n, str)]
