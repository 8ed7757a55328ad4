"""Link checking: one verdict per URL, never an exception for a network problem.

HEAD first, GET (streamed, at most `body_cap` bytes read) when HEAD is refused or lies.
This module sends; the rest is elsewhere, one concern each: what an answer or an error means
(`answers`), whether and when to try again (`retry`), redirects (`redirects`: each hop
screened, loops caught, the first permanent hop reported), what is known about each host
(`hosts`) and which URL starts when (`batch`, the checker's own scheduler). A global and a
per-host semaphore bound what is in flight; they are held only while a request runs, never
during a backoff, so a slow or rate-limited host waits on its own without stalling the others.
"""

from __future__ import annotations

import asyncio
import functools
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping

import httpx

from ..defaults import (
    DEFAULT_CONCURRENCY,
    DEFAULT_MAX_REDIRECTS,
    DEFAULT_PER_HOST,
    DEFAULT_TIMEOUT,
    USER_AGENT,
)
from ..errors import NetworkDown
from ..findings import Outcome
from .answers import (
    Answer,
    PageReader,
    ReaderFor,
    error_answer,
    guard_answer,
    status_answer,
    timeout_answer,
)
from .batch import Scheduler, parse
from .hosts import Hosts
from .linkresult import LinkResult, Stats
from .netguard import Blocked, NameNotFound, NetGuard, ResolveFailed
from .pageread import PAGE_HEADERS, head_of_body, read_page
from .redirects import Headed, Stop, follow
from .retry import RetryPolicy
from .transport import Transport

__all__ = [
    "DEFAULT_BODY_CAP",
    "DEFAULT_CONCURRENCY",
    "DEFAULT_MAX_REDIRECTS",
    "DEFAULT_PER_HOST",
    "DEFAULT_TIMEOUT",
    "LinkChecker",
    "LinkResult",
    "Outcome",
    "PageReader",
    "ReaderFor",
]

DEFAULT_BODY_CAP = 8192
#: distinct hosts failing at the network level, with no answer from any, that mean "offline"
NETWORK_DOWN_HOSTS = 3
ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
_HEADERS = {"User-Agent": USER_AGENT, "Accept": ACCEPT}
#: the same, as httpx hands them on (Host goes first): what the direct path sends
_HEADER_ITEMS = [(name.lower(), value) for name, value in _HEADERS.items()]
_HEAD_REFUSED = frozenset({403, 405, 501})
_OFFLINE = (
    "no host could be reached (name resolution or connections fail everywhere); "
    "is this machine offline?"
)


class LinkChecker:
    def __init__(
        self,
        client: httpx.AsyncClient | httpx.AsyncBaseTransport,
        guard: NetGuard,
        *,
        concurrency: int = DEFAULT_CONCURRENCY,
        per_host: int = DEFAULT_PER_HOST,
        timeout: float = DEFAULT_TIMEOUT,
        policy: RetryPolicy | None = None,
        max_redirects: int = DEFAULT_MAX_REDIRECTS,
        body_cap: int = DEFAULT_BODY_CAP,
    ) -> None:
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
        #: URLs whose page is read, not only judged (cited fragments): a GET, up to the reader's
        #: own bound, instead of a HEAD
        self.readers: Mapping[str, ReaderFor] = {}
        self._global = asyncio.Semaphore(concurrency)
        #: per-host slots, pauses and failures (anchors.net.hosts)
        self.hosts = Hosts(per_host, self.policy)
        #: which URL starts when, and who is resting (anchors.net.batch)
        self.scheduler: Scheduler[LinkResult] = Scheduler(
            self.check,
            per_host=per_host,
            window=max(4 * concurrency, per_host),
            sleep=self.policy.sleep,
        )
        #: how a request is sent: straight to the transport, or through the client's `send`
        self._open: Callable[[httpx.Request], Awaitable[httpx.Response]] = (
            functools.partial(client.send, stream=True, follow_redirects=False)
            if isinstance(client, httpx.AsyncClient)
            else client.handle_async_request
        )
        #: the guarded transport's own aiohttp path (what `anchors check` gives): no httpx
        #: Request or Response a request
        self._exchange = client.exchange if isinstance(client, Transport) else None

    async def check(
        self, url: str, accept: frozenset[int] = frozenset(), parsed: httpx.URL | None = None
    ) -> LinkResult:
        """One URL's verdict; `parsed` is `url` already parsed (parsing costs ~0.1 ms)."""
        started, sent, tries = time.monotonic(), 0, 0
        reader = self.readers.get(url) if self.readers else None

        async def attempt() -> Answer:
            nonlocal sent, tries
            answer = await self._try(url, accept, parsed, tries > 0, reader)
            sent, tries = sent + answer.requests, tries + 1
            return answer

        host = (parsed or parse(url) or httpx.URL()).host
        last = await self.policy.run(
            attempt,
            lambda seconds: self.scheduler.rest(host, seconds),
            give_up=lambda answer: self.hosts.failing(answer.host),
        )
        after = last.retry_after if last.outcome.failed else None
        return LinkResult(
            url,
            last.outcome,
            last.status,
            last.moved_to or last.final_url,
            last.error,
            int((time.monotonic() - started) * 1000),
            sent,
            last.silence,
            tries,
            after is not None and after > self.policy.retry_after_cap,
            last.page,
        )

    async def check_many(
        self,
        urls: Iterable[tuple[str, frozenset[int]]],
        on_result: Callable[[LinkResult], Awaitable[None] | None] | None = None,
        readers: Mapping[str, ReaderFor] | None = None,
    ) -> list[LinkResult]:
        """Check all URLs (in the scheduler's order); NetworkDown if the network is down.
        `readers` names the URLs whose page is also read, and what reads it."""
        self.readers = readers or {}

        async def each(result: LinkResult) -> None:
            if on_result is not None and (maybe := on_result(result)) is not None:
                await maybe
            if self.network_down():
                raise NetworkDown(_OFFLINE)

        return await self.scheduler.run(urls, each)

    def network_down(self) -> bool:
        """Nothing answered and three or more hosts failed at the network level.

        A missing name or a refused connection means "dead" for one host, but when it is the
        only thing any host says, the machine is offline (or its resolver is), not the web.
        """
        stats = self.stats
        return stats.responses == 0 and len(stats.evidence_hosts) >= NETWORK_DOWN_HOSTS

    async def _try(
        self,
        url: str,
        accept: frozenset[int],
        parsed: httpx.URL | None,
        retry: bool = False,
        reader: ReaderFor | None = None,
    ) -> Answer:
        """One try at `url`, its redirects followed (anchors.net.redirects), each hop screened."""
        if parsed is None:
            try:
                parsed = httpx.URL(url)
            except httpx.InvalidURL as exc:
                return Answer(Outcome.DEAD, error=f"invalid URL ({exc})")
        first, requests = parsed, 0

        async def fetch(hop: httpx.URL) -> Answer:
            nonlocal requests
            answer = await self._hop(url if hop is first else str(hop), hop, retry, reader)
            requests += answer.requests
            return answer

        end = await follow(parsed, fetch, _target, max_redirects=self.max_redirects)
        last = end.answer
        if end.stop is not None:
            return Answer(
                Outcome.DEAD,
                last.status if end.stop is Stop.LOOP else None,
                str(end.url),
                error=end.reason(self.max_redirects),
                requests=requests,
            )
        last.requests = requests
        last.moved_to = str(end.moved_to) if end.moved_to and last.outcome is Outcome.OK else None
        if last.moved_to and last.status not in accept:
            last.outcome = Outcome.REDIRECT
        if last.status is not None and last.status in accept:
            last.outcome = Outcome.OK
        return last

    async def _hop(
        self, url: str, parsed: httpx.URL, retry: bool = False, reader: ReaderFor | None = None
    ) -> Answer:
        """One URL, no redirects followed: HEAD, then GET if HEAD is refused; a GET at once
        when the page is to be read."""
        try:
            self.guard.check_scheme(parsed)
        except Blocked as exc:
            return Answer(Outcome.BLOCKED, error=exc.reason)
        host = self.hosts.get(parsed.host)
        pause = self.hosts.pause_left(host)
        if pause > 0:
            await self.policy.sleep(pause)
        async with host.sem, self._global:
            self.stats.in_flight += 1
            self.stats.max_in_flight = max(self.stats.max_in_flight, self.stats.in_flight)
            try:
                if reader is not None:
                    answer = await self._read(url, parsed, reader)
                else:
                    answer = await self._send(url, parsed, "HEAD", 0)
                if reader is None and answer.status in _HEAD_REFUSED:
                    again = await self._send(url, parsed, "GET", self.body_cap)
                    again.requests += answer.requests
                    answer = again
            finally:
                self.stats.in_flight -= 1
        answer.host = parsed.host
        self.hosts.note(
            host,
            retry=retry,
            responded=answer.responded,
            retry_after=answer.retry_after,
            failed=answer.outcome in (Outcome.UNREACHABLE, Outcome.DEAD),
        )
        if answer.responded:
            self.stats.responses += 1
        if answer.silence is not None:
            self.stats.evidence_hosts.add(parsed.host)
        return answer

    async def _send(self, url: str, parsed: httpx.URL, method: str, cap: int) -> Answer:
        """One request, reading at most `cap` bytes of the body: a verdict needs only a page's
        head (a challenge page's marks); a page that is read (a cited #fragment) goes through
        `_read`, with its reader's own bound."""
        self.stats.requests += 1
        try:
            async with asyncio.timeout(self.timeout):
                resp, body = await self._answer(parsed, method, cap)
        except TimeoutError:
            return timeout_answer(self.timeout)
        except (Blocked, NameNotFound, ResolveFailed) as exc:
            return guard_answer(exc)
        except httpx.HTTPError as exc:
            return error_answer(exc, self.timeout)
        return status_answer(url, resp, body)

    async def _answer(self, parsed: httpx.URL, method: str, cap: int) -> tuple[Headed, bytes]:
        """One request and at most `cap` bytes of its body. No timeout extension: `_send`'s is
        the one deadline, and a transport given none starts no timers (~15 us a request)."""
        if self._exchange is not None:
            host = ("host", parsed.netloc.decode("ascii"))
            return await self._exchange(method, parsed, [host, *_HEADER_ITEMS], cap)
        resp = await self._open(httpx.Request(method, parsed, headers=_HEADERS))
        try:
            return resp, await head_of_body(resp, cap) if cap else b""
        finally:
            await resp.aclose()

    async def _read(self, url: str, parsed: httpx.URL, reader_for: ReaderFor) -> Answer:
        """A GET whose page is read (anchors.net.pageread), counted as any request."""
        self.stats.requests += 1
        request = httpx.Request("GET", parsed, headers={**_HEADERS, **PAGE_HEADERS})
        return await read_page(self._open, request, url, reader_for, self.timeout, self.body_cap)


def _target(answer: Answer) -> tuple[int, httpx.URL] | None:
    return (answer.status or 0, answer.next_url) if answer.next_url is not None else None
