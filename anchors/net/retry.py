"""The one retry policy: what is worth retrying, and how long to wait before the next try.

Every client that retries uses it: link checks, GitHub, DOI, Crossref and Wayback lookups
(`RetryPolicy.run`), and arXiv (`RetryPolicy.run_sync`, in the arXiv client's thread, the
client's own retries off). Save Page Now capture requests are never retried: a request that
timed out may have started a capture, and another would count against the account's limits.

- Statuses (`retryable_status`): 408, 429 and 5xx except 501. Not other 4xx: asking again
  changes nothing.
- Exceptions (`retryable_error`): timeouts, resets, malformed answers, temporary resolver
  failures, connections that cannot be made. Not refused connections, names that do not exist,
  TLS failures, blocked addresses, invalid URLs.
- Outcomes: a try whose `retryable` is set by those two (its outcome is then `unreachable` or
  `rate-limited`) is tried again, up to `attempts` tries in all; the caller may end it early
  for its own reason (`give_up`: the link checker gives a host that failed three times in a row
  no more retries).

A `Retry-After` up to the cap is honoured exactly; a longer one ends the retries at once (the
link is reported `rate-limited`, never dead); otherwise backoff doubles, with jitter.

The rules are written as tenacity's retry, stop and wait, on the retry path only: a first try
goes straight, and only a retryable one hands over to tenacity (its machinery costs ~46 us a
call, the fast path's one test ~0.1 us; bench/README.md).
"""

from __future__ import annotations

import asyncio
import errno
import ssl
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from email.utils import parsedate_to_datetime
from typing import TYPE_CHECKING, Protocol, TypedDict, TypeVar, cast

import httpx

from ..defaults import DEFAULT_ATTEMPTS, DEFAULT_RETRY_AFTER_CAP
from .netguard import Blocked, NameNotFound, ResolveFailed

if TYPE_CHECKING:
    from tenacity import RetryCallState
    from tenacity.retry import retry_base

__all__ = [
    "DEFAULT_ATTEMPTS",
    "DEFAULT_RETRY_AFTER_CAP",
    "RetryPolicy",
    "Sent",
    "Try",
    "error_chain",
    "parse_retry_after",
    "refused",
    "retryable_error",
    "retryable_status",
    "send_once",
]

BACKOFF_INITIAL = 0.25
BACKOFF_MAX = 8.0
R = TypeVar("R", bound="Try")


class Try(Protocol):
    """What the policy reads from one try's result."""

    @property
    def retryable(self) -> bool: ...
    @property
    def retry_after(self) -> float | None: ...


@dataclass(frozen=True, slots=True)
class Sent:
    """One try of an API request (Crossref, Wayback): the answer, or the error that stopped it,
    and what the policy needs to know of it."""

    resp: httpx.Response | None
    error: BaseException | None = None
    retryable: bool = False
    retry_after: float | None = None


async def send_once(request: Callable[[], Awaitable[httpx.Response]]) -> Sent:
    """Send one request; a failure is a value, judged by the rules above."""
    try:
        resp = await request()
    except (httpx.HTTPError, OSError) as exc:
        return Sent(None, exc, retryable=retryable_error(exc))
    return Sent(
        resp,
        retryable=retryable_status(resp.status_code),
        retry_after=parse_retry_after(resp.headers.get("retry-after")),
    )


def retryable_status(status: int) -> bool:
    return status in (408, 429) or (500 <= status <= 599 and status != 501)


def error_chain(exc: BaseException) -> Iterator[BaseException]:
    """`exc` and what caused it, each once (transports wrap the OS error in their own)."""
    seen: set[int] = set()
    e: BaseException | None = exc
    while e is not None and id(e) not in seen:
        seen.add(id(e))
        yield e
        e = e.__cause__ or e.__context__


def refused(exc: BaseException) -> bool:
    """The server's machine said no: nothing listens there (a dead link, not a hiccup)."""
    if any(
        isinstance(e, ConnectionRefusedError) or getattr(e, "errno", None) == errno.ECONNREFUSED
        for e in error_chain(exc)
    ):  # httpx and requests both keep the OS error in the chain
        return True
    return isinstance(exc, httpx.ConnectError) and "refused" in str(exc).lower()


def retryable_error(exc: BaseException) -> bool:
    """Whether a request that raised `exc` may succeed if sent again."""
    for e in error_chain(exc):
        if isinstance(e, (Blocked, NameNotFound, ssl.SSLError)):
            return False
        if isinstance(e, ResolveFailed):
            return True
    return not (refused(exc) or isinstance(exc, (httpx.UnsupportedProtocol, httpx.InvalidURL)))


def parse_retry_after(value: str | None, now: float | None = None) -> float | None:
    """Seconds to wait from a `Retry-After` header (delta-seconds or HTTP date); None if absent."""
    if value is None:
        return None
    text = value.strip()
    if text.isascii() and text.isdigit():  # `²` and `٣` are digits to str.isdigit, not to float
        return float(text)  # 10**5000 seconds: inf, a wait no cap allows
    try:
        when = parsedate_to_datetime(text).timestamp()
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    return max(0.0, when - (time.time() if now is None else now))


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    attempts: int = DEFAULT_ATTEMPTS
    retry_after_cap: float = DEFAULT_RETRY_AFTER_CAP
    initial: float = BACKOFF_INITIAL
    maximum: float = BACKOFF_MAX
    #: how a wait is waited, and the clock a host's pause is measured on; tests inject
    #: virtual time (tests/vtime.py), so waiting is tested without waiting
    sleep: Callable[[float], Awaitable[None]] = field(
        default=asyncio.sleep, compare=False, repr=False
    )
    clock: Callable[[], float] = field(default=time.monotonic, compare=False, repr=False)

    def again(self, first: Try) -> bool:
        """Whether a first try's result may be tried again at all (the fast path's one test)."""
        return first.retryable and self.attempts > 1

    async def run(
        self,
        attempt: Callable[[], Awaitable[R]],
        sleep: Callable[[float], Awaitable[None]] | None = None,
        give_up: Callable[[R], bool] | None = None,
    ) -> R:
        """Call `attempt` until its result is final; errors are values, so nothing is raised.

        The first try goes straight (tenacity's machinery costs ~46 us a call, and most tries
        are final); a retryable one hands over to tenacity with this policy's rules, waiting
        with `sleep` here or the policy's own.
        """
        first = await attempt()
        if not self.again(first):
            return first
        # tenacity (~30 ms to import) loads only when a try is retried: most runs never are
        from tenacity import AsyncRetrying

        wait = sleep or self.sleep
        retrying = AsyncRetrying(sleep=lambda seconds: wait(float(seconds)), **self._rules(give_up))
        return await retrying(_after(first, attempt))

    def run_sync(
        self,
        attempt: Callable[[], R],
        sleep: Callable[[float], None],
        give_up: Callable[[R], bool] | None = None,
    ) -> R:
        """`run` for a synchronous client in its own thread (arXiv); `sleep` blocks that thread."""
        first = attempt()
        if not self.again(first):
            return first
        # tenacity (~30 ms to import) loads only when a try is retried, as in `run`
        from tenacity import Retrying

        pending = [first]
        retrying = Retrying(sleep=lambda seconds: sleep(float(seconds)), **self._rules(give_up))
        return retrying(lambda: pending.pop() if pending else attempt())

    def _rules(self, give_up: Callable[[R], bool] | None) -> _Rules:
        """The policy in tenacity's terms: what is retried, when it stops, how long it waits.

        Attempt 1 is the try already made, so tenacity counts attempts as the policy does.
        """
        # only on the retry path, after `run` or `run_sync` loaded tenacity
        from tenacity import (
            retry_if_result,
            stop_after_attempt,
            wait_exponential,
            wait_random_exponential,
        )

        # doubling backoff with full jitter in its upper half: base/2 + uniform(0, base/2)
        half = {"multiplier": self.initial / 2, "max": self.maximum / 2}
        backoff = wait_exponential(**half) + wait_random_exponential(**half)

        def wait(state: RetryCallState) -> float:
            after = cast(
                R, _last(state)
            ).retry_after  # a Retry-After within the cap is waited exactly
            return after if after is not None else float(backoff(state))

        tries = stop_after_attempt(self.attempts)

        def stop(state: RetryCallState) -> bool:
            result = cast(R, _last(state))
            after = result.retry_after  # a longer Retry-After ends the retries at once
            too_long = after is not None and after > self.retry_after_cap
            return tries(state) or too_long or (give_up is not None and give_up(result))

        return _Rules(
            retry=retry_if_result(lambda tried: bool(tried.retryable)),
            stop=stop,
            wait=wait,
            # the last result is the verdict (a value), never tenacity's RetryError
            retry_error_callback=_last,
        )


class _Rules(TypedDict):
    """The policy as tenacity's `Retrying` takes it (keyword arguments)."""

    retry: retry_base
    stop: Callable[[RetryCallState], bool]
    wait: Callable[[RetryCallState], float]
    retry_error_callback: Callable[[RetryCallState], object]


def _last(state: RetryCallState) -> object:
    """The result of the latest try (tries return values; an exception is re-raised): what the
    attempt returned, a `Try` (`cast` where read: tenacity does not carry the type)."""
    assert state.outcome is not None
    return state.outcome.result()


def _after(first: R, attempt: Callable[[], Awaitable[R]]) -> Callable[[], Awaitable[R]]:
    """The attempts tenacity makes: the first is the try already made, the rest are new."""
    pending = [first]

    async def again() -> R:
        return pending.pop() if pending else await attempt()

    return again
