"""Retention: keeping a history to the days asked for, without losing what its readers need.

Older observations go, except those that say where each target stood when the kept days begin
(`Reader.before`'s choice: its last success, the first failure and first death of its failing
stretch, its last definite outcome, its last facts...). So a report over the kept days, its
trend and `fix` read what they read before the pruning, and a link dead for years is still
"dead since" the day it died. Runs left without observations go too, and so do details no
observation points at; the file is then compacted. Logged figure verdicts go too, but each
claim's latest.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from .claims import prune_claims
from .read import Reader

__all__ = ["Pruned", "prune"]

DAY = 86400.0


@dataclass(frozen=True, slots=True)
class Pruned:
    observations: int
    runs: int


def prune(db: sqlite3.Connection, cutoff: float) -> Pruned:
    """Drop what lies before `cutoff` but the observations that say where targets stood then
    (inside the caller's transaction); a history with nothing that old is not touched."""
    oldest = db.execute("SELECT MIN(checked_at) FROM observations").fetchone()[0]
    if oldest is None or oldest >= cutoff:
        return Pruned(0, 0)
    reader = Reader(db)
    dropped = 0
    for tid, key in reader.targets(None).items():
        keep = sorted(reader.standing(tid, key, cutoff))
        marks = ", ".join("?" * len(keep)) or "NULL"
        dropped += db.execute(
            "DELETE FROM observations WHERE target_id = ? AND checked_at < ? "
            f"AND checked_at NOT IN ({marks})",
            (tid, cutoff, *keep),
        ).rowcount
    runs = db.execute(
        "DELETE FROM runs WHERE started_at < ? AND id NOT IN "
        "(SELECT DISTINCT run_id FROM observations)",
        (cutoff,),
    ).rowcount
    db.execute("DELETE FROM details WHERE id NOT IN (SELECT DISTINCT detail_id FROM observations)")
    prune_claims(db, cutoff)
    return Pruned(dropped, runs)
