"""Writing the registry: merged changes spliced into the original text (`splice`), then the
file replaced atomically. The write is temp file in the same folder, fsync, rename, fsync of
the folder, under a lock beside the registry, so a killed process leaves the old file and two
concurrent `anchors add` both land.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from pathlib import Path

from filelock import FileLock, Timeout

from ..errors import RegistryError, StorageError
from ..files.atomic import CHECKPOINTS, write_atomic
from ..files.state import lock_path
from .loader import parse_text
from .model import Entry, Registry
from .pipes import is_stream
from .splice import render

__all__ = ["CHECKPOINTS", "LOCK_TIMEOUT", "locked", "save", "writable", "write"]

LOCK_TIMEOUT = 60.0


def writable(registry_path: str | Path) -> None:
    """Refuse a registry read from a pipe or standard input before anything is written."""
    if is_stream(registry_path):
        raise RegistryError(
            str(registry_path),
            "a registry from a pipe or standard input cannot be written; save it to a file",
        )


@contextlib.contextmanager
def locked(
    registry_path: str | Path,
    on_wait: Callable[[str], None] | None = None,
    timeout: float | None = None,
) -> Iterator[None]:
    """Hold the registry's lock (in `.anchors/` beside the real file, so a symlink and its
    target share it); a wait is announced through `on_wait` and ends after `timeout` seconds."""
    writable(registry_path)
    limit = LOCK_TIMEOUT if timeout is None else timeout
    path = lock_path(registry_path)
    lock = FileLock(str(path), timeout=limit)
    try:
        try:
            lock.acquire(timeout=0)
        except Timeout:
            if on_wait is not None:
                on_wait(
                    f"waiting up to {limit:g} s for {path}: another anchors is writing "
                    f"{registry_path}"
                )
            lock.acquire(timeout=limit)
    except Timeout:
        raise RegistryError(
            str(registry_path), f"still locked by another anchors after {limit:g} s ({path})"
        ) from None
    except OSError as exc:
        raise StorageError.from_os(exc, "take the registry's lock", path) from None
    try:
        yield
    finally:
        lock.release()


def save(reg: Registry, changes: list[Entry]) -> None:
    write(reg, render(reg, changes), {e.key.key for e in changes})


def write(reg: Registry, text: str, holds: set[str] | frozenset[str] = frozenset()) -> None:
    """Replace the registry with `text` atomically, keeping its BOM; a text that would not load
    again is refused with nothing written. A registry a pull request wrote can be odd in ways
    an edit changes the meaning of (blank lines holding a tab after the last entry load, and
    stop loading once an entry ends in a flow list before them): the next command must never
    find a registry this one broke, nor one that lost an entry it added (`holds`: keys the
    text must hold; a lone carriage return can fold new lines into an old value)."""
    data = text.encode("utf-8")
    try:
        again = parse_text(data, reg.path)
    except RegistryError as exc:
        raise RegistryError(
            reg.path, f"not written: with this edit it would not load ({exc.message})", exc.line
        ) from None
    lost = sorted(set(holds) - set(again.by_cited_key()))
    if lost:
        raise RegistryError(
            reg.path,
            f"not written: its layout would hide {len(lost)} of the edited entries ({lost[0]}…); "
            "check its line breaks and indentation",
        )
    write_atomic(reg.path, b"\xef\xbb\xbf" + data if reg.bom else data)
