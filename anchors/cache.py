"""On-disk cache of successful lookups, each kind with its own lifetime.

Only successes are kept: a failure is always checked again (as lychee does). The file is JSON,
small enough to read and edit by hand; stale entries are dropped on load, and a corrupt file is
treated as empty (it is only a cache) after a warning.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from .atomic import write_atomic

__all__ = ["DEFAULT_TTLS", "Cache"]

DAY = 86400.0
DEFAULT_TTLS = {"arxiv": 14 * DAY, "doi": 30 * DAY, "github": 1 * DAY, "url": 1 * DAY}
_FORMAT = 1


class Cache:
    def __init__(self, path: Path | None, ttls: dict[str, float] | None = None,
                 now: float | None = None) -> None:
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
            if doc.get("format") != _FORMAT:
                raise ValueError("unknown format")
            entries = doc["entries"]
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
            self.problem = f"{path}: unreadable cache ignored ({exc})"
            return
        for key, e in entries.items():
            if isinstance(e, dict) and self._fresh(key, e):
                self.entries[key] = e

    def _fresh(self, key: str, e: dict[str, Any]) -> bool:
        ttl = self.ttls.get(key.split(":", 1)[0], DAY)
        at = e.get("at")
        return isinstance(at, (int, float)) and 0 <= self.now - at < ttl

    def get(self, key: str) -> dict[str, Any] | None:
        e = self.entries.get(key)
        return e["data"] if e is not None else None

    def put(self, key: str, data: dict[str, Any]) -> None:
        self.entries[key] = {"at": self.now, "data": data}
        self._dirty = True

    def drop(self, key: str) -> None:
        if self.entries.pop(key, None) is not None:
            self._dirty = True

    def save(self) -> None:
        if self.path is None or not self._dirty:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        body = json.dumps({"format": _FORMAT, "entries": self.entries}, ensure_ascii=False,
                          indent=1, sort_keys=True)
        write_atomic(self.path, body.encode("utf-8"))
        self._dirty = False
