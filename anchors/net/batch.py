"""Which URL starts when: the link checker's scheduler, so memory stays flat and no slot idles.

URLs start in the order given, at most `window` of them live at once; a URL whose host already
has `per_host` checks under way waits in that host's queue, not as a task, so one busy host
cannot hold the others' slots. A check that is resting (waiting out a backoff or Retry-After,
through `rest`) does not count against its host: the next URL of that host starts meanwhile, as
an ideal client would, and the host semaphore in the checker still bounds what is in flight.

The checker owns its scheduler and hands it the one call that checks a URL; the scheduler
knows nothing else of the checker (no import of it), so the two are not a cycle.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
from collections import deque
from collections.abc import Awaitable, Callable, Iterable, Iterator
from typing import Generic, TypeVar

import httpx

__all__ = ["Job", "Scheduler", "parse"]

R = TypeVar("R")
#: a URL, the statuses accepted for it, and the URL parsed (None: it does not parse)
Job = tuple[str, frozenset[int], httpx.URL | None]


class Scheduler(Generic[R]):
    """Runs `check(*job)` for many jobs under a window and a per-host limit."""

    def __init__(
        self,
        check: Callable[[str, frozenset[int], httpx.URL | None], Awaitable[R]],
        *,
        per_host: int,
        window: int,
        sleep: Callable[[float], Awaitable[None]],
    ) -> None:
        self._check = check
        self.per_host = per_host
        self.window = window
        self._sleep = sleep
        #: checks resting right now, by host (they hold none of the host's slots)
        self._resting: dict[str, int] = {}
        self._run: _Run[R] | None = None

    async def rest(self, host: str, seconds: float) -> None:
        """A check of `host` waits before its next try; its host's next URL may start."""
        self._resting[host] = self._resting.get(host, 0) + 1
        if self._run is not None:
            self._run.events.put_nowait(host)
        try:
            await self._sleep(seconds)
        finally:
            self._resting[host] -= 1

    def resting(self, host: str) -> int:
        """How many checks of `host` are waiting out a backoff or Retry-After right now."""
        return self._resting.get(host, 0)

    async def run(
        self,
        urls: Iterable[tuple[str, frozenset[int]]],
        on_result: Callable[[R], Awaitable[None]],
    ) -> list[R]:
        """Check every URL; `on_result` is awaited for each result, and may raise to stop."""
        run = self._run = _Run(self)
        pending = deque(urls)
        results: list[R] = []
        try:
            with _collector_spared():
                while pending or run.running:
                    run.admit(pending)
                    if not run.running:
                        break
                    event = await run.events.get()
                    if isinstance(event, str):
                        run.release(event)
                        continue
                    host = run.running.pop(event)
                    run.active[host] -= 1
                    run.release(host)
                    result = event.result()
                    results.append(result)
                    await on_result(result)
        finally:
            self._run = None
            for task in run.running:
                task.cancel()
            await asyncio.gather(*run.running, return_exceptions=True)
        return results


@contextlib.contextmanager
def _collector_spared() -> Iterator[None]:
    """While the checks run, the cyclic collector leaves alone what was there before (the
    loaded registry, the modules) and looks at new objects less often: most of what a check
    makes is freed by reference counting long before. Restored after, whatever happens."""
    before = gc.get_threshold()
    mine = gc.get_freeze_count() == 0  # a program that froze its own objects keeps them so
    if mine:
        gc.freeze()
    gc.set_threshold(max(before[0], _YOUNG), *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)
        if mine:
            gc.unfreeze()


#: new objects between two collections of the youngest generation while checks run (700 by
#: default: a collection every few URLs, ~0.03 ms a URL of CPU in bench/links.py)
_YOUNG = 20_000


class _Run(Generic[R]):
    """One `Scheduler.run`: what is waiting, live and finished."""

    def __init__(self, scheduler: Scheduler[R]) -> None:
        self.s = scheduler
        self.waiting: dict[str, deque[Job]] = {}
        self.active: dict[str, int] = {}
        self.running: dict[asyncio.Future[R], str] = {}
        #: finished checks, and hosts where a check started resting
        self.events: asyncio.Queue[asyncio.Future[R] | str] = asyncio.Queue()

    def room(self, host: str) -> bool:
        busy = self.active.get(host, 0) - self.s.resting(host)
        return busy < self.s.per_host and len(self.running) < self.s.window

    def start(self, job: Job, host: str) -> None:
        self.active[host] = self.active.get(host, 0) + 1
        task = asyncio.ensure_future(self.s._check(*job))
        self.running[task] = host
        task.add_done_callback(self.events.put_nowait)

    def admit(self, pending: deque[tuple[str, frozenset[int]]]) -> None:
        while pending and len(self.running) < self.s.window:
            url, accept = pending.popleft()
            parsed = parse(url)
            host = parsed.host if parsed is not None else ""
            if self.room(host) and not self.waiting.get(host):
                self.start((url, accept, parsed), host)
            else:
                self.waiting.setdefault(host, deque()).append((url, accept, parsed))

    def release(self, host: str) -> None:
        queue = self.waiting.get(host)
        while queue and self.room(host):
            self.start(queue.popleft(), host)


def parse(url: str) -> httpx.URL | None:
    """`url` parsed, or None when it does not parse (the checker reports it as dead)."""
    try:
        return httpx.URL(url)
    except httpx.InvalidURL:
        return None  # the checker reports it
