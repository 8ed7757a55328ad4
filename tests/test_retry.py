"""The one retry rule (anchors.check.retry): which statuses and errors are tried again."""

from __future__ import annotations

import errno
import ssl

import httpx
import pytest

from anchors.check.netguard import Blocked, NameNotFound, ResolveFailed
from anchors.check.retry import RetryPolicy, retryable_error, retryable_status


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
