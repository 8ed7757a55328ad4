"""The one retry policy: what is worth retrying, and how long to wait before the next try.

Retried: timeouts, connection resets, 408, 429 and 5xx (not 501). Not retried: refused
connections, names that do not exist, TLS failures, other 4xx: asking again changes nothing.
A `Retry-After` up to the cap is honoured exactly; a longer one ends the retries at once (the
link is reported `rate-limited`, never dead); otherwise backoff doubles, with jitter.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from email.utils import parsedate_to_datetime
from typing import Any

from tenacity import AsyncRetrying, RetryCallState

from .defaults import DEFAULT_ATTEMPTS, DEFAULT_RETRY_AFTER_CAP

__all__ = [
    "DEFAULT_ATTEMPTS",
    "DEFAULT_RETRY_AFTER_CAP",
    "RetryPolicy",
    "parse_retry_after",
    "retryable_status",
]

BACKOFF_INITIAL = 0.25
BACKOFF_MAX = 8.0


def retryable_status(status: int) -> bool:
    return status in (408, 429) or (500 <= status <= 599 and status != 501)


def parse_retry_after(value: str | None, now: float | None = None) -> float | None:
    """Seconds to wait from a `Retry-After` header (delta-seconds or HTTP date); None if absent."""
    if value is None:
        return None
    v = value.strip()
    if v.isdigit():
        return float(v)
    try:
        when = parsedate_to_datetime(v).timestamp()
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    return max(0.0, when - (time.time() if now is None else now))


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    attempts: int = DEFAULT_ATTEMPTS
    retry_after_cap: float = DEFAULT_RETRY_AFTER_CAP
    initial: float = BACKOFF_INITIAL
    maximum: float = BACKOFF_MAX

    def backoff(self, attempt_number: int) -> float:
        """Doubling backoff with full jitter in its upper half."""
        base = min(self.maximum, self.initial * 2 ** (attempt_number - 1))
        return base / 2 + random.uniform(0, base / 2)

    def wait_for(self, attempt_number: int, result: Any) -> float | None:
        """Seconds before the next try, or None when the result must not be retried."""
        if attempt_number >= self.attempts or not result.retryable:
            return None
        if result.retry_after is not None:
            return result.retry_after if result.retry_after <= self.retry_after_cap else None
        return self.backoff(attempt_number)

    def retrying(self) -> AsyncRetrying:
        """A tenacity loop over a coroutine that returns results (errors are values)."""

        def wait(state: RetryCallState) -> float:
            assert state.outcome is not None
            w = self.wait_for(state.attempt_number, state.outcome.result())
            return 0.0 if w is None else w

        def retry(state: RetryCallState) -> bool:
            assert state.outcome is not None
            if state.outcome.failed:
                return False
            return self.wait_for(state.attempt_number, state.outcome.result()) is not None

        return AsyncRetrying(
            wait=wait,
            retry=retry,
            stop=lambda s: False,  # `retry` already says when to stop
            reraise=True,
            retry_error_callback=lambda s: s.outcome.result() if s.outcome else None,
        )
