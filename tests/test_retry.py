"""The one retry rule (anchors.net.retry): which statuses and errors are tried again."""

from __future__ import annotations

import asyncio
import errno
import ssl

import httpx
import pytest
import tenacity

from anchors.net.netguard import Blocked, NameNotFound, ResolveFailed
from anchors.net.retry import RetryPolicy, retryable_error, retryable_status

from .vtime import VirtualTime


def _caused(outer: Exception, cause: BaseException) -> Exception:
    outer.__cause__ = cause
    return outer


@pytest.mark.parametrize(
    ("exc", "retried"),
    [
        (httpx.ConnectTimeout("t"), True),
        (httpx.ReadTimeout("t"), True),
        (TimeoutError(), True),
        (httpx.ReadError("reset"), True),
        (httpx.RemoteProtocolError("bad"), True),
        (httpx.ConnectError("network is unreachable"), True),
        (_caused(httpx.ConnectError("x"), ResolveFailed("h", "temporary failure")), True),
        (httpx.ConnectError("[Errno 111] Connection refused"), False),
        (_caused(httpx.ConnectError("x"), ConnectionRefusedError(errno.ECONNREFUSED, "no")), False),
        (_caused(httpx.ConnectError("x"), ssl.SSLError("bad cert")), False),
        (_caused(httpx.ConnectError("x"), Blocked("h", "private address")), False),
        (NameNotFound("h", "no such name"), False),
        (httpx.UnsupportedProtocol("ftp"), False),
    ],
)
def test_which_errors_are_retried(exc: Exception, retried: bool) -> None:
    assert retryable_error(exc) is retried


def test_which_statuses_are_retried() -> None:
    assert [
        s
        for s in (200, 301, 400, 403, 404, 408, 429, 500, 501, 502, 503, 599)
        if retryable_status(s)
    ] == [408, 429, 500, 502, 503, 599]


class _T:
    def __init__(self, retryable: bool, retry_after: float | None = None) -> None:
        self.retryable, self.retry_after = retryable, retry_after


def test_the_thread_runner_follows_the_same_rule() -> None:
    waits: list[float] = []
    tries = iter([_T(True, 2.0), _T(True), _T(True)])
    last = RetryPolicy(attempts=3).run_sync(lambda: next(tries), waits.append)
    assert last.retryable and len(waits) == 2 and waits[0] == 2.0
    waits.clear()
    assert not RetryPolicy().run_sync(lambda: _T(False), waits.append).retryable and waits == []
    huge = RetryPolicy(retry_after_cap=30).run_sync(lambda: _T(True, 31.0), waits.append)
    assert huge.retry_after == 31.0 and waits == []


def _run(policy: RetryPolicy, results: list[_T], give_up=None) -> tuple[_T, int, list[float]]:
    """`RetryPolicy.run` over a scripted sequence of tries, in virtual time."""
    vt = VirtualTime(speed=1e6)
    tries = iter(results)
    made = 0

    async def attempt() -> _T:
        nonlocal made
        made += 1
        return next(tries)

    last = asyncio.run(
        RetryPolicy(policy.attempts, policy.retry_after_cap, sleep=vt.sleep).run(
            attempt, give_up=give_up
        )
    )
    return last, made, vt.waits


def test_the_async_runner_retries_by_the_rules() -> None:
    last, made, waits = _run(RetryPolicy(attempts=4), [_T(True, 2.0), _T(True), _T(True), _T(True)])
    assert made == 4 and last.retryable and waits[0] == 2.0 and len(waits) == 3
    # the backoff doubles by try (0.25 s after the first), jittered in its base's upper half
    assert 0.25 <= waits[1] <= 0.5 and 0.5 <= waits[2] <= 1.0, waits
    last, made, waits = _run(RetryPolicy(attempts=3), [_T(True), _T(False), _T(True)])
    assert (made, last.retryable, len(waits)) == (2, False, 1)


def test_the_async_runner_stops_early_when_told() -> None:
    # a Retry-After beyond the cap ends the retries at once: one try, no wait
    last, made, waits = _run(RetryPolicy(retry_after_cap=30), [_T(True, 31.0)])
    assert (made, waits, last.retry_after) == (1, [], 31.0)
    # the caller's give_up (a failing host) ends them too, whichever try it is
    calls: list[int] = []
    last, made, waits = _run(
        RetryPolicy(attempts=5),
        [_T(True), _T(True), _T(True)],
        give_up=lambda r: calls.append(1) or len(calls) >= 2,
    )
    assert (made, len(waits)) == (2, 1)


class _Counting:
    """Counts how often tenacity's retrying machinery is built."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.built = 0
        outer = self

        class Async(tenacity.AsyncRetrying):
            def __init__(self, *a, **kw) -> None:  # type: ignore[no-untyped-def]
                outer.built += 1
                super().__init__(*a, **kw)

        monkeypatch.setattr(tenacity, "AsyncRetrying", Async)


def test_tenacity_runs_the_retry_path_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """A final first try costs no tenacity machinery; a retryable one is handed to it."""
    counting = _Counting(monkeypatch)
    for _ in range(5):
        _run(RetryPolicy(), [_T(False)])
    assert counting.built == 0
    last, made, _ = _run(RetryPolicy(attempts=3), [_T(True), _T(False)])
    assert counting.built == 1 and made == 2 and not last.retryable


def test_an_exception_from_a_try_is_not_swallowed() -> None:
    async def boom() -> _T:
        raise RuntimeError("bug")

    with pytest.raises(RuntimeError):
        asyncio.run(RetryPolicy().run(boom))
    tries = iter([_T(True)])

    async def then_boom() -> _T:
        t = next(tries, None)
        if t is None:
            raise RuntimeError("bug on the retry path")
        return t

    with pytest.raises(RuntimeError, match="retry path"):
        asyncio.run(RetryPolicy(sleep=VirtualTime(speed=1e6).sleep).run(then_boom))
