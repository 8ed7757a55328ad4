"""The check history: what each run observed of each anchor, kept in SQLite for `report`,
its trend and `fix`.

`observation` is the record itself and the rules for reading it, `facts` what a lookup learnt
per kind of anchor, `snapshots` the archive's finds for `fix`, `store` the database.
"""

from __future__ import annotations

from .facts import ArxivFacts, DoiFacts, Facts, IssueFacts, RepoFacts
from .observation import Move, MoveKind, Observation, Reading, move_of, reading
from .snapshots import Snapshot
from .store import (
    APPLICATION_ID,
    LOCK_TIMEOUT,
    SCHEMA_VERSION,
    History,
    Run,
    history_home,
    registry_id,
)

__all__ = [
    "APPLICATION_ID",
    "LOCK_TIMEOUT",
    "SCHEMA_VERSION",
    "ArxivFacts",
    "DoiFacts",
    "Facts",
    "History",
    "IssueFacts",
    "Move",
    "MoveKind",
    "Observation",
    "Reading",
    "RepoFacts",
    "Run",
    "Snapshot",
    "history_home",
    "move_of",
    "reading",
    "registry_id",
]
