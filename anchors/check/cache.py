"""On-disk cache of successful lookups, each kind with its own lifetime.

Only successes are kept: a failure is always checked again (as lychee does). The file is JSON,
small enough to read and edit by hand; stale entries are dropped on load, and a corrupt file is
treated as empty (it is only a cache) after a warning.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from ..errors import StorageError
from ..registry.atomic import write_atomic
from ..state import ensure

T = TypeVar("T")

__all__ = ["DEFAULT_TTLS", "Cache"]

DAY = 86400.0
DEFAULT_TTLS = {
    "arxiv": 14 * DAY,
    "doi": 30 * DAY,
    "github": 1 * DAY,
    "url": 1 * DAY,
    "wayback": 30 * DAY,
}
_FORMAT = 1


class Cache:
    def __init__(
        self, path: Path | None, ttls: dict[str, float] | None = None, now: float | None = None
    ) -> None:
        self.path = path
        self.ttls = {**DEFAULT_TTLS, **(ttls or {})}
        self.now = time.time() if now is None else now
        self.entries: dict[str, dict[str, Any]] = {}
        self.problem: str | None = None
        self._dirty = False
        if path is not None and path.exists():
            self._load(path)

    def _load(self, path: Path) -> None:
        try:
            doc = json.loads(path.read_text(encoding="utf-8"))
            if not isinstance(doc, dict) or doc.get("format") != _FORMAT:
                raise ValueError("unknown format")
            entries = doc["entries"]
            if not isinstance(entries, dict):
                raise TypeError("'entries' is not a mapping")
        except (OSError, ValueError, KeyError, TypeError) as exc:
            self._note(f"unreadable cache ignored ({exc})")
            return
        for key, e in entries.items():
            if isinstance(e, dict) and isinstance(e.get("data"), dict) and self._fresh(key, e):
                self.entries[key] = e

    def _note(self, problem: str) -> None:
        """Remember the first problem only: the cache is warned about once, then ignored."""
        if self.problem is None:
            self.problem = f"{self.path}: {problem}"

    def _fresh(self, key: str, e: dict[str, Any]) -> bool:
        ttl = self.ttls.get(key.split(":", 1)[0], DAY)
        at = e.get("at")
        return isinstance(at, (int, float)) and 0 <= self.now - at < ttl

    def get(self, key: str, parse: Callable[[dict[str, Any]], T] | None = None) -> Any:
        """The cached data for `key`, through `parse` if given; an entry that `parse` cannot
        read (edited by hand, or from another version) is dropped and counts as a miss."""
        e = self.entries.get(key)
        if e is None:
            return None
        if parse is None:
            return e["data"]
        try:
            return parse(e["data"])
        except (KeyError, ValueError, TypeError, AttributeError) as exc:
            self._note(f"damaged entry {key} ignored ({type(exc).__name__}: {exc})")
            self.drop(key)
            return None

    def put(self, key: str, data: dict[str, Any]) -> None:
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
            {"format": _FORMAT, "entries": self.entries},
            ensure_ascii=False,
            indent=1,
            sort_keys=True,
        )
        try:
            ensure(self.path.parent)
            write_atomic(self.path, body.encode("utf-8"))
        except StorageError as exc:
            self._note(f"cache not saved ({exc.message})")
        self._dirty = False
