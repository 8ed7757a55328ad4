"""On-disk cache of successful lookups, each kind with its own lifetime.

Only successes are kept: a failure is always checked again (as lychee does). The file is JSON,
small enough to read and edit by hand, marked as anchors' own; stale entries are dropped on load.
A cache is disposable: one from another anchors version, a damaged one (cut short by a full
disk or a partial copy, its mark still first), a symlink or one committed to the repository
(`state.untrusted`) is warned about once and rebuilt. A file that does not begin as an anchors
cache at all (another program's) is an error, never overwritten.
"""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar, overload

from ..errors import InputError, StorageError
from ..files.atomic import write_atomic
from ..files.state import ensure, not_used, read, untrusted
from ..ids.kinds import prefix_of
from ..jsonread import loads

T = TypeVar("T")

__all__ = ["DEFAULT_TTLS", "Cache", "state_warnings"]

DAY = 86400.0
DEFAULT_TTLS = {
    "arxiv": 14 * DAY,
    # a paper version's HTML full text (`resolve.arxiv_html`): rebuilt only when LaTeXML is
    "arxiv-html": 14 * DAY,
    "doi": 30 * DAY,
    "github": 1 * DAY,
    "url": 1 * DAY,
}
_FORMAT = 1
#: what marks the file as anchors' cache (files of format 1 from before the mark have only
#: `format` and `entries`)
_MARK = {"anchors": "cache"}
#: how a file anchors wrote begins (`save` sorts the keys, so the mark comes first): what is
#: read to tell a damaged cache of ours from another program's file
_MARKED = re.compile(rb'\A\s*\{\s*"anchors"\s*:\s*"cache"')
_MARK_BYTES = 64
#: a cache far bigger than any registry's lookups would be is not read whole
_MAX_BYTES = 512 << 20


class Cache:
    def __init__(
        self,
        path: Path | None,
        ttls: dict[str, float] | None = None,
        now: float | None = None,
        *,
        chosen: bool = False,
    ) -> None:
        self.path = path
        #: the user named this place (a flag or the environment): `state.untrusted`
        self.chosen = chosen
        self.ttls = {**DEFAULT_TTLS, **(ttls or {})}
        self.now = time.time() if now is None else now
        #: each entry as stored: {"at": when it was put, "data": the JSON object}
        self.entries: dict[str, dict[str, object]] = {}
        self.problem: str | None = None
        #: why the file found there was not used at all (`state.untrusted`), if it was not
        self.distrusted: str | None = None
        self._dirty = False
        if path is not None and os.path.lexists(path):
            self._load(path)

    def _load(self, path: Path) -> None:
        self.distrusted = untrusted(path, self.chosen)
        if self.distrusted is not None:
            self._note(f"{self.distrusted}; its entries are not used")
            return
        try:
            data = read(path, _MAX_BYTES)
        except OSError as exc:
            self._note(f"unreadable cache ignored ({exc.strerror or exc})")
            return
        if data is None:
            return
        doc = _anchors_cache(path, data)
        if doc is None:
            return self._rebuild("damaged cache (cut short, or not JSON past its first bytes)")
        if doc.get("format") != _FORMAT:
            return self._rebuild(f"cache of another anchors version (format {doc.get('format')!r})")
        entries = doc.get("entries")
        if not isinstance(entries, dict):
            return self._rebuild("damaged cache ('entries' is not a mapping)")
        for key, e in entries.items():
            if isinstance(e, dict) and isinstance(e.get("data"), dict) and self._fresh(key, e):
                self.entries[key] = e

    def _rebuild(self, problem: str) -> None:
        """A file of anchors' own it cannot use: said once, and replaced by the next save."""
        self._note(f"{problem} rebuilt")
        self._dirty = True

    def _note(self, problem: str) -> None:
        """Remember the first problem only: the cache is warned about once, then ignored."""
        if self.problem is None:
            self.problem = f"{self.path}: {problem}"

    def _fresh(self, key: str, e: dict[str, object]) -> bool:
        ttl = self.ttls.get(prefix_of(key), DAY)
        at = e.get("at")
        return isinstance(at, (int, float)) and 0 <= self.now - at < ttl

    @overload
    def get(self, key: str) -> dict[str, object] | None: ...

    @overload
    def get(self, key: str, parse: Callable[[dict[str, object]], T]) -> T | None: ...

    def get(
        self, key: str, parse: Callable[[dict[str, object]], T] | None = None
    ) -> T | dict[str, object] | None:
        """The cached data for `key`, through `parse` if given; an entry that `parse` cannot
        read (edited by hand, or from another version) is dropped and counts as a miss."""
        e = self.entries.get(key)
        data = e.get("data") if e is not None else None
        if not isinstance(data, dict):
            return None
        if parse is None:
            return data
        try:
            return parse(data)
        except (KeyError, ValueError, TypeError, AttributeError) as exc:
            self._note(f"damaged entry {key} ignored ({type(exc).__name__}: {exc})")
            self.drop(key)
            return None

    def when(self, key: str) -> float | None:
        """When `key`'s entry was written (seconds since the epoch), if there is one."""
        e = self.entries.get(key)
        at = e.get("at") if e is not None else None
        return float(at) if isinstance(at, int | float) else None

    def put(self, key: str, data: dict[str, object]) -> None:
        self.entries[key] = {"at": self.now, "data": data}
        self._dirty = True

    def drop(self, key: str) -> None:
        if self.entries.pop(key, None) is not None:
            self._dirty = True

    def save(self) -> None:
        """Write the cache if it changed; a cache that cannot be written is a warning only."""
        if self.path is None or not self._dirty:
            return
        body = json.dumps(
            {**_MARK, "format": _FORMAT, "entries": self.entries},
            ensure_ascii=False,
            indent=1,
            sort_keys=True,
        )
        try:
            ensure(self.path.parent)
            # a symlink or a committed file in its place is replaced, never written through
            write_atomic(self.path, body.encode("utf-8"), follow=False)
        except StorageError as exc:
            self._note(f"cache not saved ({exc.message})")
        self._dirty = False


def state_warnings(
    caches: Sequence[Cache], history: Path, problem: str | None, recorded: bool
) -> list[str]:
    """What a run says about its state: one line for every file not used at all (committed,
    or maybe committed: `state.untrusted`; the history's `problem` is then why, and the run is
    not recorded), then each other problem (a damaged cache rebuilt, a history not written)."""
    distrusted = [(c.path, c.distrusted) for c in caches if c.distrusted]
    if not recorded and problem:
        distrusted.append((history, problem))
    lines = [not_used(distrusted, recorded=recorded)] if distrusted else []
    lines += [c.problem for c in caches if c.problem and not c.distrusted]
    return lines + ([problem] if recorded and problem else [])


def _anchors_cache(path: Path, data: bytes) -> dict[str, object] | None:
    """The JSON object in `data` if it is an anchors cache (of any version); None if it begins
    as one (its mark first) but cannot be read whole: cut short, damaged, nested too deep.
    InputError if the file is not one at all, so another program's file is never taken over."""
    try:
        doc = loads(data)
    except ValueError:
        doc = None
    if isinstance(doc, dict) and (
        doc.get("anchors") == _MARK["anchors"] or set(doc) == {"format", "entries"}
    ):
        return doc
    if _MARKED.match(data[:_MARK_BYTES]):
        return None
    raise InputError(
        str(path),
        "is not an anchors cache (another program's file?); move it away, or name another "
        "folder with --cache-dir",
    )
