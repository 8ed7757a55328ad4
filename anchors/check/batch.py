"""Running many link checks: which URL starts when, so memory stays flat and no slot idles.

URLs start in the order given, at most `window` of them live at once; a URL whose host already
has `per_host` checks under way waits in that host's queue, not as a task, so one busy host
cannot hold the others' slots. A check that is resting (waiting out a backoff or Retry-After)
does not count against its host: the next URL of that host starts meanwhile, as an ideal
client would, and the host semaphore in the checker still bounds what is in flight.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Awaitable, Callable, Iterable
from typing import TYPE_CHECKING

import httpx

from ..errors import NetworkDown

if TYPE_CHECKING:
    from .links import LinkChecker, LinkResult

__all__ = ["run_batch"]

Job = tuple[str, frozenset[int], httpx.URL | None]
OnResult = Callable[["LinkResult"], Awaitable[None] | None]


class _Batch:
    def __init__(self, checker: LinkChecker, window: int) -> None:
        self.checker = checker
        self.window = window
        self.waiting: dict[str, deque[Job]] = {}
        self.active: dict[str, int] = {}
        self.running: dict[asyncio.Task[LinkResult], str] = {}
        #: finished tasks, and hosts where a check started resting
        self.events: asyncio.Queue[asyncio.Task[LinkResult] | str] = asyncio.Queue()

    def room(self, host: str) -> bool:
        busy = self.active.get(host, 0) - self.checker.hosts.resting(host)
        return busy < self.checker.per_host and len(self.running) < self.window

    def start(self, job: Job, host: str) -> None:
        self.active[host] = self.active.get(host, 0) + 1
        task = asyncio.ensure_future(self.checker.check(*job))
        self.running[task] = host
        task.add_done_callback(self.events.put_nowait)

    def admit(self, pending: deque[tuple[str, frozenset[int]]]) -> None:
        while pending and len(self.running) < self.window:
            u, a = pending.popleft()
            parsed = _parse(u)
            host = parsed.host if parsed is not None else ""
            if self.room(host) and not self.waiting.get(host):
                self.start((u, a, parsed), host)
            else:
                self.waiting.setdefault(host, deque()).append((u, a, parsed))

    def release(self, host: str) -> None:
        queue = self.waiting.get(host)
        while queue and self.room(host):
            self.start(queue.popleft(), host)


async def run_batch(
    checker: LinkChecker,
    urls: Iterable[tuple[str, frozenset[int]]],
    on_result: OnResult | None,
    window: int,
) -> list[LinkResult]:
    pending = deque(urls)
    b = _Batch(checker, window)
    checker.hosts.on_rest = b.events.put_nowait
    results: list[LinkResult] = []
    try:
        while pending or b.running:
            b.admit(pending)
            if not b.running:
                break
            event = await b.events.get()
            if isinstance(event, str):
                b.release(event)
                continue
            host = b.running.pop(event)
            b.active[host] -= 1
            b.release(host)
            r = event.result()
            results.append(r)
            if on_result is not None:
                maybe = on_result(r)
                if maybe is not None:
                    await maybe
            if checker.network_down():
                raise NetworkDown(
                    "no host could be reached (name resolution or connections "
                    "fail everywhere); is this machine offline?"
                )
    finally:
        checker.hosts.on_rest = None
        for t in b.running:
            t.cancel()
        await asyncio.gather(*b.running, return_exceptions=True)
    return results


def _parse(url: str) -> httpx.URL | None:
    try:
        return httpx.URL(url)
    except httpx.InvalidURL:
        return None  # the checker reports it
