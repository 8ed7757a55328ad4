"""What one answer or one transport error means for a link: the classification rules.

The link checker (anchors.net.links) sends; this module only reads what came back, so each
rule (a 404 is dead, a 403 bot challenge is unverifiable, a refused connection is dead, a reset
is unreachable) is stated once. Whether a verdict is tried again is the retry policy's rule
(anchors.net.retry); an `Answer` only carries what the policy reads. (What a link's final
outcome means for the registry, as findings, is anchors.check.verdicts.)
"""

from __future__ import annotations

import errno
import ssl
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Protocol

import httpx

from ..findings import Outcome
from .netguard import Blocked, NameNotFound, ResolveFailed
from .redirects import Headed, location
from .retry import error_chain, parse_retry_after, refused, retryable_error, retryable_status

__all__ = [
    "Answer",
    "PageReader",
    "ReaderFor",
    "Silence",
    "error_answer",
    "guard_answer",
    "status_answer",
    "timeout_answer",
]

_UNVERIFIABLE = frozenset({401, 403, 451, 999})
_CHALLENGE_MARKS = (
    b"Just a moment...",
    b"Attention Required! | Cloudflare",
    b"cf-chl-",
    b"captcha",
    b"Checking your browser",
)


class Silence(str, Enum):
    """Why the network said nothing about a URL: no host answered, so the failure may be this
    machine's (offline, a broken resolver) rather than the link's."""

    #: the name does not exist (NXDOMAIN): dead only where public names resolve (`witness`)
    NO_NAME = "no-name"
    #: the resolver failed, or no connection could be made (refused, no route, connect timeout)
    NO_CONNECTION = "no-connection"


class PageReader(Protocol):
    """Reads the body of a page that is cited for more than its verdict (a `#fragment`): given
    the decoded body in pieces up to `limit` bytes, `feed` says True once it has seen enough;
    `end` is told why reading stopped short ("bound", "timeout", "error"), or None at the end."""

    limit: int

    def feed(self, data: bytes) -> bool: ...

    def end(self, cut: str | None) -> None: ...


#: the reader for one 2xx answer (it may look at the headers), or None: the body is not read
ReaderFor = Callable[[httpx.Response], PageReader | None]


@dataclass(slots=True)
class Answer:
    """One try at a URL, redirects included; what the retry policy looks at."""

    outcome: Outcome
    status: int | None = None
    final_url: str | None = None
    moved_to: str | None = None
    error: str | None = None
    retryable: bool = False
    retry_after: float | None = None
    #: set when the failure is the network's silence (evidence the network may be down)
    silence: Silence | None = None
    responded: bool = False
    requests: int = 0
    #: a redirect's target, parsed (final_url is its text)
    next_url: httpx.URL | None = None
    #: the host the last request went to (a redirect may have left the first one)
    host: str = ""
    #: what read the page's body, when the URL's page is read
    page: PageReader | None = None


def timeout_answer(timeout: float) -> Answer:
    return Answer(
        Outcome.UNREACHABLE,
        error=f"no complete answer within {timeout:g} s",
        retryable=retryable_error(TimeoutError()),
        requests=1,
    )


def guard_answer(exc: Blocked | NameNotFound | ResolveFailed) -> Answer:
    if isinstance(exc, Blocked):
        return Answer(Outcome.BLOCKED, error=exc.reason, requests=1)
    if isinstance(exc, NameNotFound):
        return Answer(Outcome.DEAD, error=exc.reason, silence=Silence.NO_NAME, requests=1)
    return Answer(
        Outcome.UNREACHABLE,
        error=exc.reason,
        retryable=True,
        silence=Silence.NO_CONNECTION,
        requests=1,
    )


def error_answer(exc: httpx.HTTPError, timeout: float) -> Answer:
    """The verdict a transport error means; whether it is retried is the policy's rule."""
    answer = _error_kind(exc, timeout)
    answer.retryable = retryable_error(exc)
    return answer


def _error_kind(exc: httpx.HTTPError, timeout: float) -> Answer:
    for e in error_chain(exc):
        if isinstance(e, (Blocked, NameNotFound, ResolveFailed)):
            return guard_answer(e)
        if isinstance(e, ssl.SSLError):
            reason = getattr(e, "verify_message", None) or getattr(e, "reason", None) or str(e)
            return Answer(Outcome.TLS_ERROR, error=f"TLS: {reason}", requests=1)
    if isinstance(exc, httpx.ConnectTimeout):
        return Answer(
            Outcome.UNREACHABLE,
            error=f"connect timed out after {timeout:g} s",
            silence=Silence.NO_CONNECTION,
            requests=1,
        )
    if isinstance(exc, httpx.TimeoutException):
        return Answer(Outcome.UNREACHABLE, error=f"timed out after {timeout:g} s", requests=1)
    if refused(exc):
        return Answer(
            Outcome.DEAD, error="connection refused", silence=Silence.NO_CONNECTION, requests=1
        )
    if isinstance(exc, httpx.ConnectError):
        codes = {getattr(e, "errno", None) for e in error_chain(exc)}
        unreachable = {errno.ENETUNREACH, errno.EHOSTUNREACH} & codes or "unreachable" in str(
            exc
        ).lower()
        return Answer(
            Outcome.UNREACHABLE,
            error=f"cannot connect ({exc})",
            silence=Silence.NO_CONNECTION if unreachable else None,
            requests=1,
        )
    if isinstance(exc, httpx.RemoteProtocolError):
        # (not the parser's message: it quotes the server's bytes back)
        return Answer(
            Outcome.UNREACHABLE,
            error="connection reset or malformed answer (RemoteProtocolError)",
            requests=1,
        )
    if isinstance(exc, (httpx.ReadError, httpx.WriteError)):
        return Answer(
            Outcome.UNREACHABLE, error=f"connection reset ({type(exc).__name__})", requests=1
        )
    if isinstance(exc, (httpx.UnsupportedProtocol, httpx.InvalidURL)):
        return Answer(Outcome.BLOCKED, error=str(exc), requests=1)
    return Answer(Outcome.UNREACHABLE, error=f"{type(exc).__name__}: {exc}", requests=1)


def status_answer(url: str, resp: Headed, body: bytes) -> Answer:
    status = resp.status_code
    answer = Answer(Outcome.OK, status, url, responded=True, requests=1)
    if 300 <= status < 400:
        loc = location(resp)
        try:
            answer.next_url = resp.url.join(loc) if loc else None
        except httpx.InvalidURL:
            answer.outcome, answer.error = Outcome.DEAD, f"HTTP {status} to an invalid URL"
            return answer
        if answer.next_url is not None:
            answer.final_url = str(answer.next_url)
            return answer
        answer.outcome, answer.error = Outcome.DEAD, f"HTTP {status} without a Location"
        return answer
    if status < 300:
        return answer
    challenge = resp.headers.get("cf-mitigated") == "challenge" or any(
        m in body for m in _CHALLENGE_MARKS
    )
    if challenge and status in (403, 429, 503):
        answer.outcome, answer.error = Outcome.UNVERIFIABLE, f"HTTP {status}: bot challenge page"
    elif status in (404, 410):
        answer.outcome, answer.error = Outcome.DEAD, f"HTTP {status}"
    elif status in _UNVERIFIABLE:
        answer.outcome, answer.error = (
            Outcome.UNVERIFIABLE,
            f"HTTP {status}: the site refuses checkers",
        )
    elif status == 429:
        answer.outcome, answer.error, answer.retryable = Outcome.RATE_LIMITED, "HTTP 429", True
        answer.retry_after = parse_retry_after(resp.headers.get("retry-after"))
    elif retryable_status(status):
        answer.outcome, answer.error, answer.retryable = Outcome.UNREACHABLE, f"HTTP {status}", True
        answer.retry_after = parse_retry_after(resp.headers.get("retry-after"))
    else:
        answer.outcome, answer.error = Outcome.DEAD, f"HTTP {status}"
    if answer.retry_after is not None:
        answer.error = f"HTTP {status}, Retry-After {answer.retry_after:g} s"
    return answer
