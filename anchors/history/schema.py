"""The history's SQLite schema: what a file must hold to be ours, and how an older one is read.

Schema 3 keeps each observation small, because a weekly check adds one per anchor for years:
`targets` names each thing observed once (per registry), `details` keeps each distinct
(label, final URL, error, facts) once, and an observation is a few numbers pointing at both,
clustered by target and time, so a reader asks for a window and the last observations before
it by index instead of reading the past. Schemas 1 and 2 kept one wide `results` row per
observation. Schema 4 adds `snapshots` (`snapshots.py`): the archive's finds, for `fix`.
Schema 5 adds `supports` and `claim_verdicts` (`claims.py`): where checks found the figures and
quotes briefings attribute, and their verdicts as they change. `migrate` turns an older file
into schema 5, in the file for a writer and in the connection's
temporary database for a reader (the file is never written, so a read-only checkout, an older
file and a running check can all be read).
"""

from __future__ import annotations

import hashlib
import json
import sqlite3

from ..errors import HistoryError, StorageError
from .claims import CLAIM_TABLES
from .snapshots import SNAPSHOTS_TABLE

__all__ = [
    "APPLICATION_ID",
    "DB_ERRORS",
    "SCHEMA_VERSION",
    "DamagedHistory",
    "NewerHistory",
    "check_owner",
    "digest",
    "error_for",
    "migrate",
    "register",
]

APPLICATION_ID = 0x616E6368  # "anch"
SCHEMA_VERSION = 5

_RUNS = (
    "CREATE TABLE IF NOT EXISTS {s}runs (id INTEGER PRIMARY KEY, started_at REAL NOT NULL, "
    "finished_at REAL, registry TEXT NOT NULL, complete INTEGER NOT NULL DEFAULT 0)"
)
_RUNS_BY_TIME = "CREATE INDEX IF NOT EXISTS runs_by_time ON runs (started_at)"
#: schema 3 in a schema `{s}` ("main." or "temp.")
_TABLES_V3 = (
    (
        "CREATE TABLE {s}targets (id INTEGER PRIMARY KEY, registry TEXT NOT NULL, "
        "kind TEXT NOT NULL, target TEXT NOT NULL, UNIQUE (registry, kind, target))"
    ),
    (
        "CREATE TABLE {s}details (id INTEGER PRIMARY KEY, digest BLOB NOT NULL UNIQUE, "
        "anchor TEXT NOT NULL, final_url TEXT, error TEXT, facts TEXT)"
    ),
    (
        "CREATE TABLE {s}observations (target_id INTEGER NOT NULL, checked_at REAL NOT NULL, "
        "run_id INTEGER NOT NULL, outcome TEXT NOT NULL, status INTEGER, elapsed_ms INTEGER, "
        "detail_id INTEGER NOT NULL, PRIMARY KEY (target_id, checked_at, run_id)) WITHOUT ROWID"
    ),
    "CREATE INDEX {s}observations_by_outcome ON observations (target_id, outcome, checked_at)",
)
#: the schema-1/2 rows, as schema 3 (`{facts}` is NULL for schema 1, which had none)
_FROM_RESULTS = (
    (
        "INSERT OR IGNORE INTO {s}targets (registry, kind, target) SELECT DISTINCT u.registry, "
        "r.kind, r.target FROM main.results r JOIN main.runs u ON u.id = r.run_id"
    ),
    (
        "INSERT OR IGNORE INTO {s}details (digest, anchor, final_url, error, facts) SELECT "
        "anchors_digest(r.anchor, r.final_url, r.error, {facts}), r.anchor, r.final_url, "
        "r.error, {facts} FROM main.results r"
    ),
    (
        "INSERT OR IGNORE INTO {s}observations (target_id, checked_at, run_id, outcome, status, "
        "elapsed_ms, detail_id) SELECT t.id, r.checked_at, r.run_id, r.outcome, r.status, "
        "r.elapsed_ms, d.id FROM main.results r JOIN main.runs u ON u.id = r.run_id "
        "JOIN {s}targets t ON t.registry = u.registry AND t.kind = r.kind AND t.target = r.target "
        "JOIN {s}details d ON d.digest = anchors_digest(r.anchor, r.final_url, r.error, {facts})"
    ),
)
#: the tables each schema version must hold
_REQUIRED = {
    1: frozenset({"runs", "results"}),
    2: frozenset({"runs", "results"}),
    3: frozenset({"runs", "targets", "details", "observations"}),
    4: frozenset({"runs", "targets", "details", "observations", "snapshots"}),
    5: frozenset(
        {"runs", "targets", "details", "observations", "snapshots", "supports", "claim_verdicts"}
    ),
}


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


#: what a statement on a damaged file raises: sqlite3's errors, and UnicodeDecodeError when
#: SQLite's own message quotes the file's bytes (sqlite3 decodes it strictly)
DB_ERRORS = (sqlite3.Error, UnicodeDecodeError)


def error_for(exc: sqlite3.Error | UnicodeDecodeError, path: str) -> Exception:
    """What a failing statement means: the environment refused (StorageError), or the file is
    not a history we can read (HistoryError)."""
    if isinstance(exc, UnicodeDecodeError):
        return HistoryError(path, "not an anchors history database (damaged: not UTF-8 text)")
    text = str(exc)
    if isinstance(exc, sqlite3.OperationalError) and any(w in text.lower() for w in _ENVIRONMENT):
        return StorageError(path, f"cannot use the history: {text}")
    if begins_as_ours(path):
        return DamagedHistory(path, text)
    return HistoryError(path, f"not an anchors history database ({text})")


class DamagedHistory(HistoryError):
    """A history that begins as anchors' own (SQLite's header holding our application id) but
    cannot be read whole: cut short by a full disk or a partial copy. It is disposable: a check
    sets it aside and starts a new one; a reader has nothing to read."""

    def __init__(self, path: str, why: str) -> None:
        self.why = why
        super().__init__(
            path, f"damaged ({why}); the next online check sets it aside and starts a new one"
        )


#: SQLite's header: its magic first, the application id big-endian at byte 68
_SQLITE_MAGIC = b"SQLite format 3\0"
_ID_AT = 68


def begins_as_ours(path: str) -> bool:
    """Whether the file at `path` begins as an anchors history (its first 72 bytes)."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(_ID_AT + 4)
    except OSError:
        return False
    ours = APPLICATION_ID.to_bytes(4, "big")
    return head.startswith(_SQLITE_MAGIC) and head[_ID_AT : _ID_AT + 4] == ours


def digest(anchor: str, final_url: str | None, error: str | None, facts: str | None) -> bytes:
    """What makes two observations' details one `details` row."""
    text = json.dumps([anchor, final_url, error, facts], ensure_ascii=False)
    return hashlib.blake2b(text.encode("utf-8"), digest_size=8).digest()


def register(db: sqlite3.Connection) -> None:
    """The SQL functions the schema's statements use, and text read as UTF-8 whatever bytes a
    damaged file holds (sqlite3 would raise UnicodeDecodeError, no sqlite3.Error, mid-read)."""
    db.create_function("anchors_digest", 4, digest, deterministic=True)
    db.text_factory = _text


def _text(data: bytes) -> str:
    return data.decode("utf-8", "replace")


class NewerHistory(HistoryError):
    """A history of a format this anchors does not read: a check warns and leaves it alone
    (it is a newer anchors' data, not ours to rebuild); a reader cannot use it."""


def check_owner(db: sqlite3.Connection, path: str) -> int:
    """Refuse foreign, newer or damaged files; returns the schema version found.

    One statement reads all three facts, so a concurrent first run that is creating the
    schema is seen either before or after its commit, never half-way.
    """
    app, version, tables, code = db.execute(
        "SELECT (SELECT application_id FROM pragma_application_id), "
        "(SELECT user_version FROM pragma_user_version), "
        "(SELECT group_concat(name) FROM sqlite_master WHERE type='table'), "
        "(SELECT count(*) FROM sqlite_master WHERE type IN ('view', 'trigger'))"
    ).fetchone()
    names = set((tables or "").split(",")) - {""}
    if code:  # anchors makes tables and indexes only; a view or trigger runs a file's own SQL
        raise HistoryError(path, "holds views or triggers anchors never makes: not ours to run")
    if app not in (0, APPLICATION_ID) or (app == 0 and names):
        raise HistoryError(
            path, "this SQLite file belongs to another program; pass --history with another path"
        )
    if version > SCHEMA_VERSION:
        raise NewerHistory(
            path, f"made by a newer anchors (schema {version}); upgrade anchors to read it"
        )
    required = _REQUIRED.get(version, frozenset())
    if version and not required <= names:
        missing = ", ".join(sorted(required - names))
        raise HistoryError(
            path,
            f"damaged: its table {missing} is missing; move the file away to start a new history",
        )
    return int(version)


def migrate(db: sqlite3.Connection, version: int, *, into: str) -> None:
    """Bring a schema-`version` file to schema 5: `into="main."` rewrites the file (a writer,
    inside its transaction), `into="temp."` builds what it lacks beside it for this connection
    only (a schema-3 file gets an empty `temp.snapshots`, a schema-4 one empty claim tables, so
    its readers ask the same questions).
    """
    prefix = into
    if into == "main.":
        db.execute(_RUNS.format(s=prefix))
        db.execute(_RUNS_BY_TIME)
    elif version == 0:  # a file with no tables yet (a first check is creating it): no runs
        db.execute(_RUNS.format(s=prefix))
    if version < 3:
        _to_3(db, version, prefix)
    db.execute(SNAPSHOTS_TABLE.format(s=prefix))
    for stmt in CLAIM_TABLES:
        db.execute(stmt.format(s=prefix))


def _to_3(db: sqlite3.Connection, version: int, prefix: str) -> None:
    """Schema 3's tables in `prefix`, holding a schema-1/2 file's `results`."""
    for stmt in _TABLES_V3:
        db.execute(stmt.format(s=prefix))
    if version in (1, 2):
        columns = {row[1] for row in db.execute("PRAGMA main.table_info(results)")}
        facts = "r.facts" if "facts" in columns else "NULL"
        for stmt in _FROM_RESULTS:
            db.execute(stmt.format(s=prefix, facts=facts))
        if prefix == "main.":
            db.execute("DROP TABLE main.results")
