"""GitHub's rate limits as its answers state them: the headers read, the wait, the words.

`x-ratelimit-remaining` and `x-ratelimit-reset` (the primary limit, an epoch second),
`retry-after` (a secondary limit), and a 403/429 saying "rate limit" with neither (wait a
minute, as GitHub documents). Header values are the server's bytes: only ASCII digits count.
"""

from __future__ import annotations

from datetime import UTC, datetime

import httpx

from ..findings import Outcome
from ..net.retry import parse_retry_after
from .base import Resolution

__all__ = ["header_count", "limit_text", "not_asked", "rate_wait"]


def not_asked(reset: float) -> Resolution:
    """The spent primary limit's verdict: not asked, until the reset (said as a date)."""
    try:
        until = datetime.fromtimestamp(reset, UTC).strftime("until %Y-%m-%d %H:%M UTC")
    except (OverflowError, ValueError, OSError):  # past the year 9999
        until = "for longer than any run waits"
    return Resolution(
        Outcome.RATE_LIMITED, error=f"GitHub's rate limit is spent {until}", asked=False
    )


def rate_wait(resp: httpx.Response, now: float) -> float | None:
    """Seconds GitHub asks us to wait, when the answer is a rate limit; None otherwise."""
    headers = resp.headers
    ra = parse_retry_after(headers.get("retry-after"))
    if ra is not None:
        return ra
    reset = header_count(headers.get("x-ratelimit-reset"))
    if headers.get("x-ratelimit-remaining") == "0" and reset is not None:
        return max(0.0, reset - now)
    if resp.status_code in (403, 429) and b"rate limit" in resp.content.lower():
        return 60.0  # secondary limit without retry-after: GitHub says wait at least a minute
    return None


def header_count(value: str | None) -> int | None:
    """A header's count or epoch time: ASCII digits, at most 12 of them (`int` refuses 4,300 and
    more, and `²` is a digit to str.isdigit); None for anything else."""
    text = (value or "").strip()
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 12 else None


def limit_text(status: int, wait: float | None) -> str:
    if wait is None:
        return f"GitHub API answered HTTP {status}"
    return f"GitHub API rate limit (HTTP {status}); it asks to wait {wait:.0f} s"
