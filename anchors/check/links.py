"""Link checking: one verdict per URL, never an exception for a network problem.

HEAD first, GET (streamed, at most `body_cap` bytes read) when HEAD is refused or lies.
Redirects are followed by hand so each hop is screened, loops are caught and the first
permanent hop is reported. A global and a per-host semaphore bound what is in flight; they
are held only while a request runs, never during a backoff, so a slow or rate-limited host
waits on its own without stalling the others.
"""

from __future__ import annotations

import asyncio
import errno
import ssl
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field

import httpx

from .. import __version__
from ..defaults import DEFAULT_CONCURRENCY, DEFAULT_MAX_REDIRECTS, DEFAULT_PER_HOST, DEFAULT_TIMEOUT
from ..findings import Outcome
from .netguard import Blocked, NameNotFound, NetGuard, ResolveFailed
from .redirects import Stop, follow
from .retry import (
    RetryPolicy,
    error_chain,
    parse_retry_after,
    refused,
    retryable_error,
    retryable_status,
)

__all__ = [
    "DEFAULT_BODY_CAP",
    "DEFAULT_CONCURRENCY",
    "DEFAULT_MAX_REDIRECTS",
    "DEFAULT_PER_HOST",
    "DEFAULT_TIMEOUT",
    "USER_AGENT",
    "LinkChecker",
    "LinkResult",
    "Outcome",
]

DEFAULT_BODY_CAP = 8192
#: after this many network failures in a row, a host gets one try per URL and no retries
HOST_FAILURE_LIMIT = 3
#: after this many Retry-After answers in a row, the pause applies to every URL of the host
HOST_PAUSE_AFTER = 3
#: distinct hosts failing at the network level, with no answer from any, that mean "offline"
NETWORK_DOWN_HOSTS = 3
USER_AGENT = f"anchors/{__version__} (citation link checker; python-httpx)"
ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
_HEADERS = {"User-Agent": USER_AGENT, "Accept": ACCEPT}
_HEAD_REFUSED = frozenset({403, 405, 501})
_UNVERIFIABLE = frozenset({401, 403, 451, 999})
_CHALLENGE_MARKS = (b"Just a moment...", b"Attention Required! | Cloudflare", b"cf-chl-",
                    b"captcha", b"Checking your browser")


@dataclass(frozen=True, slots=True)
class LinkResult:
    url: str
    outcome: Outcome
    status: int | None = None
    #: where a permanent redirect leads (REDIRECT), or the last URL reached
    final_url: str | None = None
    error: str | None = None
    elapsed_ms: int = 0
    requests: int = 0


@dataclass(slots=True)
class _Try:
    """One try at a URL, redirects included; what the retry policy looks at."""

    outcome: Outcome
    status: int | None = None
    final_url: str | None = None
    moved_to: str | None = None
    error: str | None = None
    retryable: bool = False
    retry_after: float | None = None
    network_evidence: bool = False
    responded: bool = False
    requests: int = 0
    #: a redirect's target, parsed (final_url is its text)
    next_url: httpx.URL | None = None


@dataclass(slots=True)
class _Host:
    sem: asyncio.Semaphore
    not_before: float = 0.0
    failures: int = 0
    limited: int = 0  # answers with Retry-After in a row


@dataclass(slots=True)
class Stats:
    """What was sent: the in-flight bound the tests check, and evidence of a network outage."""

    requests: int = 0
    in_flight: int = 0
    max_in_flight: int = 0
    responses: int = 0
    evidence_hosts: set[str] = field(default_factory=set)


class LinkChecker:
    def __init__(self, client: httpx.AsyncClient | httpx.AsyncBaseTransport, guard: NetGuard, *,
                 concurrency: int = DEFAULT_CONCURRENCY, per_host: int = DEFAULT_PER_HOST,
                 timeout: float = DEFAULT_TIMEOUT, policy: RetryPolicy | None = None,
                 max_redirects: int = DEFAULT_MAX_REDIRECTS,
                 body_cap: int = DEFAULT_BODY_CAP) -> None:
        #: an httpx client, or (cheaper) an httpx transport: the checker does its own
        #: redirects and keeps no cookies, so the client's per-request machinery adds only
        #: cost, ~0.2 ms a request (bench/transports.py)
        self.client = client
        self.guard = guard
        self.per_host = per_host
        self.timeout = timeout
        self.policy = policy or RetryPolicy()
        self.max_redirects = max_redirects
        self.body_cap = body_cap
        self.stats = Stats()
        self._concurrency = concurrency
        self._global = asyncio.Semaphore(concurrency)
        self._hosts: dict[str, _Host] = {}
        self._resting: dict[str, int] = {}
        self._extensions = {"timeout": httpx.Timeout(timeout).as_dict()}
        #: called with a host when one of its checks starts resting (anchors.batch listens)
        self.on_rest: Callable[[str], None] | None = None

    def _host(self, host: str) -> _Host:
        h = self._hosts.get(host)
        if h is None:
            h = self._hosts[host] = _Host(asyncio.Semaphore(self.per_host))
        return h

    async def check(self, url: str, accept: frozenset[int] = frozenset(),
                    parsed: httpx.URL | None = None) -> LinkResult:
        """One URL's verdict; `parsed` is `url` already parsed (parsing costs ~0.1 ms)."""
        started, sent = time.monotonic(), 0

        async def attempt() -> _Try:
            nonlocal sent
            t = await self._try(url, accept, parsed)
            sent += t.requests
            return t

        host = (parsed.host if parsed is not None else _parse(url)) or ""
        last = await self.policy.run(attempt, lambda s: self._rest(host, s))
        return LinkResult(url, last.outcome, last.status, last.moved_to or last.final_url,
                          last.error, int((time.monotonic() - started) * 1000), sent)

    async def check_many(self, urls: Iterable[tuple[str, frozenset[int]]],
                         on_result: Callable[[LinkResult], Awaitable[None] | None] | None = None,
                         ) -> list[LinkResult]:
        """Check all URLs (scheduled by anchors.batch); NetworkDown if the network is down."""
        from .batch import run_batch

        return await run_batch(self, urls, on_result, max(4 * self._concurrency, self.per_host))

    def resting(self, host: str) -> int:
        """How many checks of `host` are waiting out a backoff or Retry-After right now."""
        return self._resting.get(host, 0)

    async def _rest(self, host: str, seconds: float) -> None:
        self._resting[host] = self._resting.get(host, 0) + 1
        if self.on_rest is not None:
            self.on_rest(host)
        try:
            await self.policy.sleep(seconds)
        finally:
            self._resting[host] -= 1

    def network_down(self) -> bool:
        """Nothing answered and three or more hosts failed at the network level.

        A missing name or a refused connection means "dead" for one host, but when it is the
        only thing any host says, the machine is offline (or its resolver is), not the web.
        """
        s = self.stats
        return s.responses == 0 and len(s.evidence_hosts) >= NETWORK_DOWN_HOSTS

    async def _try(self, url: str, accept: frozenset[int], parsed: httpx.URL | None) -> _Try:
        """One try at `url`, its redirects followed (anchors.check.redirects), each hop screened."""
        if parsed is None:
            try:
                parsed = httpx.URL(url)
            except httpx.InvalidURL as exc:
                return _Try(Outcome.DEAD, error=f"invalid URL ({exc})")
        first, requests = parsed, 0

        async def fetch(u: httpx.URL) -> _Try:
            nonlocal requests
            t = await self._hop(url if u is first else str(u), u)
            requests += t.requests
            return t

        end = await follow(parsed, fetch, _target, max_redirects=self.max_redirects)
        t = end.answer
        if end.stop is not None:
            return _Try(Outcome.DEAD, t.status if end.stop is Stop.LOOP else None, str(end.url),
                        error=end.reason(self.max_redirects), requests=requests)
        t.requests = requests
        t.moved_to = str(end.moved_to) if end.moved_to and t.outcome is Outcome.OK else None
        if t.moved_to and t.status not in accept:
            t.outcome = Outcome.REDIRECT
        if t.status is not None and t.status in accept:
            t.outcome = Outcome.OK
        return t

    async def _hop(self, url: str, parsed: httpx.URL) -> _Try:
        """One URL, no redirects followed: HEAD, then GET if HEAD is refused."""
        try:
            self.guard.check_scheme(parsed)
        except Blocked as exc:
            return _Try(Outcome.BLOCKED, error=exc.reason)
        host_name = parsed.host
        host = self._host(host_name)
        wait = host.not_before - self.policy.clock()
        if wait > 0:
            await self.policy.sleep(wait)
        async with host.sem, self._global:
            self._enter()
            try:
                t = await self._send(url, parsed, "HEAD")
                if t.status in _HEAD_REFUSED:
                    again = await self._send(url, parsed, "GET")
                    again.requests += t.requests
                    t = again
            finally:
                self.stats.in_flight -= 1
        self._note(host_name, host, t)
        return t

    def _enter(self) -> None:
        s = self.stats
        s.in_flight += 1
        s.max_in_flight = max(s.max_in_flight, s.in_flight)

    def _note(self, name: str, host: _Host, t: _Try) -> None:
        if t.responded:
            self.stats.responses += 1
            host.failures = 0
        elif t.outcome in (Outcome.UNREACHABLE, Outcome.DEAD):
            host.failures += 1
            if host.failures >= HOST_FAILURE_LIMIT:
                t.retryable = False
        if t.network_evidence:
            self.stats.evidence_hosts.add(name)
        host.limited = host.limited + 1 if t.retry_after is not None else 0
        if host.limited >= HOST_PAUSE_AFTER and t.retry_after is not None \
                and t.retry_after <= self.policy.retry_after_cap:
            # the host keeps asking for pauses: it limits us, not one URL, so hold all its URLs
            host.not_before = max(host.not_before, self.policy.clock() + t.retry_after)

    async def _send(self, url: str, parsed: httpx.URL, method: str) -> _Try:
        self.stats.requests += 1
        try:
            async with asyncio.timeout(self.timeout):
                resp = await self._open(httpx.Request(method, parsed, headers=_HEADERS,
                                                      extensions=self._extensions))
                try:
                    body = await self._head_of_body(resp) if method == "GET" else b""
                finally:
                    await resp.aclose()
        except TimeoutError:
            return _Try(Outcome.UNREACHABLE, error=f"no complete answer within {self.timeout:g} s",
                        retryable=True, requests=1)
        except (Blocked, NameNotFound, ResolveFailed) as exc:
            return _guard_try(exc)
        except httpx.HTTPError as exc:
            return _error_try(exc, self.timeout)
        return _status_try(url, resp, body)

    async def _open(self, request: httpx.Request) -> httpx.Response:
        if isinstance(self.client, httpx.AsyncClient):
            return await self.client.send(request, stream=True, follow_redirects=False)
        return await self.client.handle_async_request(request)

    async def _head_of_body(self, resp: httpx.Response) -> bytes:
        got = bytearray()
        async for chunk in resp.aiter_raw():
            got += chunk
            if len(got) >= self.body_cap:
                break
        return bytes(got[: self.body_cap])


def _target(t: _Try) -> tuple[int, httpx.URL] | None:
    return (t.status or 0, t.next_url) if t.next_url is not None else None


def _parse(url: str) -> str | None:
    try:
        return httpx.URL(url).host
    except httpx.InvalidURL:
        return None  # _hop reports it


def _guard_try(exc: Blocked | NameNotFound | ResolveFailed) -> _Try:
    if isinstance(exc, Blocked):
        return _Try(Outcome.BLOCKED, error=exc.reason, requests=1)
    if isinstance(exc, NameNotFound):
        return _Try(Outcome.DEAD, error=exc.reason, network_evidence=True, requests=1)
    return _Try(Outcome.UNREACHABLE, error=exc.reason, retryable=True, network_evidence=True,
                requests=1)


def _error_try(exc: httpx.HTTPError, timeout: float) -> _Try:
    """The verdict a transport error means; whether it is retried is the policy's rule."""
    t = _error_verdict(exc, timeout)
    t.retryable = retryable_error(exc)
    return t


def _error_verdict(exc: httpx.HTTPError, timeout: float) -> _Try:
    for e in error_chain(exc):
        if isinstance(e, (Blocked, NameNotFound, ResolveFailed)):
            return _guard_try(e)
        if isinstance(e, ssl.SSLError):
            reason = getattr(e, "verify_message", None) or getattr(e, "reason", None) or str(e)
            return _Try(Outcome.TLS_ERROR, error=f"TLS: {reason}", requests=1)
    if isinstance(exc, httpx.ConnectTimeout):
        return _Try(Outcome.UNREACHABLE, error=f"connect timed out after {timeout:g} s",
                    network_evidence=True, requests=1)
    if isinstance(exc, httpx.TimeoutException):
        return _Try(Outcome.UNREACHABLE, error=f"timed out after {timeout:g} s", requests=1)
    if refused(exc):
        return _Try(Outcome.DEAD, error="connection refused", network_evidence=True, requests=1)
    if isinstance(exc, httpx.ConnectError):
        codes = {getattr(e, "errno", None) for e in error_chain(exc)}
        unreachable = {errno.ENETUNREACH, errno.EHOSTUNREACH} & codes \
            or "unreachable" in str(exc).lower()
        return _Try(Outcome.UNREACHABLE, error=f"cannot connect ({exc})",
                    network_evidence=bool(unreachable), requests=1)
    if isinstance(exc, httpx.RemoteProtocolError):
        # (not the parser's message: it quotes the server's bytes back)
        return _Try(Outcome.UNREACHABLE, error="connection reset or malformed answer "
                    "(RemoteProtocolError)", requests=1)
    if isinstance(exc, (httpx.ReadError, httpx.WriteError)):
        return _Try(Outcome.UNREACHABLE, error=f"connection reset ({type(exc).__name__})",
                    requests=1)
    if isinstance(exc, (httpx.UnsupportedProtocol, httpx.InvalidURL)):
        return _Try(Outcome.BLOCKED, error=str(exc), requests=1)
    return _Try(Outcome.UNREACHABLE, error=f"{type(exc).__name__}: {exc}", requests=1)


def _status_try(url: str, resp: httpx.Response, body: bytes) -> _Try:
    status = resp.status_code
    t = _Try(Outcome.OK, status, url, responded=True, requests=1)
    if 300 <= status < 400:
        loc = resp.headers.get("location")
        try:
            t.next_url = resp.url.join(loc) if loc else None
        except httpx.InvalidURL:
            t.outcome, t.error = Outcome.DEAD, f"HTTP {status} to an invalid URL"
            return t
        if t.next_url is not None:
            t.final_url = str(t.next_url)
            return t
        t.outcome, t.error = Outcome.DEAD, f"HTTP {status} without a Location"
        return t
    if status < 300:
        return t
    challenge = resp.headers.get("cf-mitigated") == "challenge" or any(
        m in body for m in _CHALLENGE_MARKS)
    if challenge and status in (403, 429, 503):
        t.outcome, t.error = Outcome.UNVERIFIABLE, f"HTTP {status}: bot challenge page"
    elif status in (404, 410):
        t.outcome, t.error = Outcome.DEAD, f"HTTP {status}"
    elif status in _UNVERIFIABLE:
        t.outcome, t.error = Outcome.UNVERIFIABLE, f"HTTP {status}: the site refuses checkers"
    elif status == 429:
        t.outcome, t.error, t.retryable = Outcome.RATE_LIMITED, "HTTP 429", True
        t.retry_after = parse_retry_after(resp.headers.get("retry-after"))
    elif retryable_status(status):
        t.outcome, t.error, t.retryable = Outcome.UNREACHABLE, f"HTTP {status}", True
        t.retry_after = parse_retry_after(resp.headers.get("retry-after"))
    else:
        t.outcome, t.error = Outcome.DEAD, f"HTTP {status}"
    if t.outcome is Outcome.RATE_LIMITED and t.retry_after is not None:
        t.error = f"HTTP 429, Retry-After {t.retry_after:g} s"
    return t
