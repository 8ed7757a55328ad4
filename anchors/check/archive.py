"""`check --archive`: look up a dated Wayback snapshot for each URL anchor that has none.

The lookups run beside the check and never hold it up: once the check itself is done they get
`grace` more seconds, then whatever is left is dropped with one `archive-unavailable` warning.
A failing archive (down, rate-limiting, bad answers) stops the lookups at its first failure
instead of asking again for every URL. Verified snapshots are cached (`wayback:<url>` keys, 30
days); `anchors fix --only archive` writes them into the registry as `archived: {url, date}`,
because `check` never writes the registry.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from ..findings import Code, Finding
from ..ids.model import AnchorKind
from ..registry.model import Anchor
from .cache import Cache
from .resolve.wayback import WaybackClient, WaybackError

__all__ = ["CACHE_PREFIX", "GRACE", "Archiver", "cached_snapshots"]

CACHE_PREFIX = "wayback:"
#: seconds the lookups may go on after the check itself has finished
GRACE = 10.0


def cached_snapshots(cache: Cache) -> dict[str, dict[str, Any]]:
    """Snapshots found by earlier checks, by anchor key (`url:...`)."""
    return {k[len(CACHE_PREFIX):]: v["data"] for k, v in cache.entries.items()
            if k.startswith(CACHE_PREFIX) and isinstance(v.get("data"), dict)}


@dataclass(slots=True)
class Archiver:
    wayback: WaybackClient
    cache: Cache
    registry: str
    todo: list[Anchor]
    found: int = 0
    problem: str | None = None
    left: int = 0
    task: asyncio.Task[None] | None = field(default=None, repr=False)

    @classmethod
    def start(cls, wayback: WaybackClient, targets: dict[str, Anchor], cache: Cache,
              registry: str, today: date) -> Archiver:
        todo = [a for key, a in targets.items()
                if a.key is not None and a.key.kind is AnchorKind.URL
                and a.archived is None and cache.get(CACHE_PREFIX + key) is None]
        arch = cls(wayback, cache, registry, todo, left=len(todo))
        arch.task = asyncio.ensure_future(arch._run(today))
        return arch

    async def _run(self, today: date) -> None:
        for a in self.todo:
            assert a.key is not None and a.key.kind is AnchorKind.URL
            try:
                snap = await self.wayback.closest(a.key.url, a.first_anchored or today)
            except WaybackError as exc:
                self.problem = str(exc)
                return
            self.left -= 1
            if snap is not None:
                self.found += 1
                self.cache.put(CACHE_PREFIX + a.key.key, snap.as_dict())

    async def finish(self, grace: float = GRACE, stop_now: bool = False) -> list[Finding]:
        """Wait at most `grace` seconds for the lookups, then drop the rest (a warning)."""
        assert self.task is not None
        if not stop_now:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(self.task), grace)
        if not self.task.done():
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
            self.problem = self.problem or f"the Wayback Machine was too slow (over {grace:g} s " \
                "after the check finished)"
        if self.problem is None or not self.left:
            return []
        return [Finding(Code.ARCHIVE_UNAVAILABLE, "", self.registry, None,
                        f"{self.problem}; {self.left} URLs were not looked up, "
                        "`check --archive` again later", {"not_looked_up": self.left})]
