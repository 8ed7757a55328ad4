"""Opening a history: which files are used at all, a writer's (an older schema migrated in
the file), and a reader's (never created, migrated, written or locked)."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from ..errors import StorageError
from ..files.state import untrusted
from .schema import (
    APPLICATION_ID,
    DB_ERRORS,
    SCHEMA_VERSION,
    DamagedHistory,
    check_owner,
    error_for,
    migrate,
    register,
)

__all__ = ["open_read_only", "prepare", "rebuilding", "set_aside", "trusted"]

T = TypeVar("T")


def trusted(path: Path, chosen: bool = False) -> None:
    """A history that is a symlink or committed to the repository (or maybe committed, in a
    place the user did not choose) is not used (`state.untrusted`)."""
    why = untrusted(path, chosen)
    if why is not None:
        raise StorageError(str(path), f"{why}; not used")


def rebuilding(path: Path, open_writer: Callable[[], T], warn: Callable[[str], None]) -> T:
    """`open_writer()`, where a history of ours that is damaged is set aside (said once through
    `warn`) and a new one started: a history is disposable, a run's findings are not."""
    try:
        return open_writer()
    except DamagedHistory as exc:
        aside = set_aside(path)
        warn(f"{path}: damaged ({exc.why}); set aside as {aside.name}, a new history started")
        return open_writer()


def set_aside(path: Path) -> Path:
    """Move a damaged history (and its WAL and shared-memory files, which a new file must not
    replay) to `<name>.damaged…`, where its owner may still recover rows; the new name."""
    aside = path.with_name(path.name + ".damaged")
    for suffix in ("", "-wal", "-shm"):
        try:
            os.replace(f"{path}{suffix}", f"{aside}{suffix}")
        except FileNotFoundError:
            continue
        except OSError as exc:
            raise StorageError.from_os(exc, "set the damaged history aside", path) from None
    return aside


def prepare(db: sqlite3.Connection, path: str) -> None:
    """A writer's connection set up, an older file migrated in place (under the write lock)."""
    version = check_owner(db, path)
    db.execute("PRAGMA journal_mode=WAL")
    # NOTE: in WAL mode NORMAL keeps the file consistent through a crash of the process
    # (the case that matters for an interrupted check) without an fsync per commit.
    db.execute("PRAGMA synchronous=NORMAL")
    if version < SCHEMA_VERSION:
        db.execute("BEGIN IMMEDIATE")
        try:
            version = check_owner(db, path)  # again, now no one else can write
            if version < SCHEMA_VERSION:
                migrate(db, version, into="main.")
                db.execute(f"PRAGMA application_id={APPLICATION_ID}")
                db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise


def open_read_only(path: Path) -> sqlite3.Connection:
    """A read-only connection to `path`, an older schema read as the current one through the
    connection's temporary tables; a file we cannot read is the history's error."""
    uri = path.resolve().as_uri()
    try:
        return _open(uri + "?mode=ro", str(path))
    except sqlite3.OperationalError:
        # NOTE: a WAL file in a read-only folder cannot get its -shm; `immutable` reads it as is.
        try:
            return _open(uri + "?mode=ro&immutable=1", str(path))
        except DB_ERRORS as exc:
            raise error_for(exc, str(path)) from None
    except DB_ERRORS as exc:
        raise error_for(exc, str(path)) from None


def _open(uri: str, path: str) -> sqlite3.Connection:
    db = sqlite3.connect(uri, uri=True, isolation_level=None)
    try:
        register(db)
        version = check_owner(db, path)
        if version < SCHEMA_VERSION:
            migrate(db, version, into="temp.")
    except BaseException:
        db.close()
        raise
    return db
