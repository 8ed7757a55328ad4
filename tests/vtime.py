"""Virtual time for tests of waiting: what the code asked to wait is recorded, not waited.

`VirtualTime` is handed to the code through the injection points it already has (the retry
policy's `sleep` and `clock`, the Wayback client's `sleep`/`clock`). A wait of `s` seconds is
recorded in `waits` and taken as `s / speed` real seconds, and `now()` runs `speed` times
faster than the wall clock, so deadlines the code computes from `now()` (a host's pause) stay
consistent with its waits and the order of events is kept. Tests assert the waits asked for
(exact values, counts, order), never how long the wall clock took.

With `gate`, a wait ends when the gate opens instead (bounded by `gate_timeout` real seconds):
a test can hold a resting check until something else has happened, and so assert an order of
events without timing anything.

`ArxivTime` does the same for the `arxiv` package, which spaces its requests with its own
`time.sleep` and `datetime.now`: there, time moves only when it sleeps.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from datetime import datetime, timedelta
from types import SimpleNamespace

import arxiv
import pytest

from anchors.net.retry import RetryPolicy

__all__ = ["ArxivTime", "VirtualTime"]


class VirtualTime:
    def __init__(
        self, speed: float = 200.0, gate: asyncio.Event | None = None, gate_timeout: float = 5.0
    ) -> None:
        self.speed = speed
        self.gate = gate
        self.gate_timeout = gate_timeout
        self.waits: list[float] = []
        self._t0 = time.monotonic()

    def now(self) -> float:
        return (time.monotonic() - self._t0) * self.speed

    async def sleep(self, seconds: float) -> None:
        self.waits.append(seconds)
        if self.gate is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.gate.wait(), self.gate_timeout)
            return
        await asyncio.sleep(min(seconds / self.speed, 1.0))  # a huge wait is a bug: fail fast

    def policy(self, **kw: object) -> RetryPolicy:
        """A retry policy (the production one) that waits in this virtual time."""
        return RetryPolicy(sleep=self.sleep, clock=self.now, **kw)  # type: ignore[arg-type]


class ArxivTime:
    def __init__(
        self, monkeypatch: pytest.MonkeyPatch, start: datetime = datetime(2026, 12, 2, 9, 0, 0)
    ) -> None:
        self.current = start
        self.waits: list[float] = []
        clock = self

        class FakeDatetime(datetime):
            @classmethod
            def now(cls, tz=None):  # type: ignore[no-untyped-def, override]
                return clock.current

        monkeypatch.setattr(arxiv, "datetime", FakeDatetime)
        monkeypatch.setattr(arxiv, "time", SimpleNamespace(sleep=self.sleep))

    def sleep(self, seconds: float) -> None:
        self.waits.append(seconds)
        self.current += timedelta(seconds=seconds)

    def now(self) -> datetime:
        return self.current
