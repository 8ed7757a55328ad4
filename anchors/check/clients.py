"""Building the network clients a check uses, from its settings, in one place."""

from __future__ import annotations

import asyncio
import contextlib
import ssl
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping
from functools import partial

import httpx

from ..config import Settings
from ..config.trust import ENDPOINTS
from ..defaults import ARXIV_TIMEOUT
from ..figures.passages import SourceText
from ..history.hook import AfterFactory
from ..ids.model import ArxivId
from ..net.bounded import BoundedClient
from ..net.cache import Cache
from ..net.links import LinkChecker
from ..net.netguard import NetGuard, Resolver
from ..net.retry import RetryPolicy
from ..net.transport import NoCookies, guarded_transport, ssl_context
from ..net.witness import Witness
from ..resolve.arxiv_pace import ArxivPace
from ..resolve.base import ArxivFullText, ArxivLookup, FollowUp, Mismatch, Resolution
from ..resolve.crossref import CrossrefUpdates
from ..resolve.doi import DoiResolver
from ..resolve.github import GithubResolver
from ..resolve.github_places import GithubPlaces
from ..resolve.github_thread import read_github_thread
from .run import Services

__all__ = [
    "link_checker",
    "named_api_hosts",
    "open_services",
    "retry_policy",
    "web_transport",
]


@contextlib.asynccontextmanager
async def open_services(
    settings: Settings,
    *,
    token: str | None = None,
    resolver: Resolver | None = None,
    after: AfterFactory | None = None,
    etags: Cache | None = None,
) -> AsyncIterator[Services]:
    """Every request goes through an address guard: link checks through one that trusts no host,
    the services (GitHub, DOI, Crossref, Wayback, Save Page Now) through one that trusts only
    the API hosts the user named (a flag or the environment), so a service's redirect is
    screened like a link's. Each service answer is bounded (`bounded.BoundedClient`).
    `after` builds the hook that runs beside the check (`check --archive`), if any.
    `etags` is where GitHub's answers and arXiv's HTML pages are kept with their validators;
    GitHub threads are read through the resolver's own API client (its budget and ETags)."""
    guard, api_guard = _guards(settings, resolver)
    policy, tls = retry_policy(settings), ssl_context()
    web = web_transport(settings, guard, tls)
    api = _api_client(settings, api_guard, tls)
    github = GithubResolver(
        api, settings.github_api, token=token, policy=policy, timeout=settings.timeout, etags=etags
    )
    pace = ArxivPace(settings.arxiv_delay)  # the API's requests and the HTML pages', together
    async with web, api:
        yield Services(
            links=link_checker(settings, web, guard, policy),
            arxiv=_OnFirstUse(lambda: _arxiv(settings, policy, pace)),
            github=github,
            places=GithubPlaces(github.api),
            doi=_doi(settings, api, policy),
            after=after(settings, api, policy) if after is not None else None,
            arxiv_html=_FullTextOnFirstUse(lambda: _arxiv_html(settings, policy, pace, etags)),
            threads=partial(read_github_thread, github.api),
        )


def _guards(settings: Settings, resolver: Resolver | None) -> tuple[NetGuard, NetGuard]:
    """The links' guard, which trusts no host, and the services', which trusts the API hosts
    the user named; one witness, since an API host's public name resolving speaks for the
    resolver too."""
    witness = Witness()
    guard = NetGuard(resolver, allow_private=settings.allow_private, witness=witness)
    api_guard = NetGuard(
        resolver,
        allow_private=settings.allow_private,
        trusted=named_api_hosts(settings),
        witness=witness,
    )
    return guard, api_guard


def _api_client(settings: Settings, guard: NetGuard, tls: ssl.SSLContext) -> BoundedClient:
    """The services' one client: every answer bounded, no redirect followed unscreened, no
    cookie kept, nothing taken from the environment (proxies, netrc)."""
    return BoundedClient(
        deadline=settings.timeout,
        transport=guarded_transport(guard, httpx.Limits(), verify=tls),
        timeout=httpx.Timeout(settings.timeout),
        follow_redirects=False,
        trust_env=False,
        cookies=NoCookies(),
    )


def _doi(settings: Settings, api: BoundedClient, policy: RetryPolicy) -> DoiResolver:
    """DOIs through doi.org, with Crossref asked for retractions and corrections."""
    crossref = CrossrefUpdates(api, settings.crossref_api, timeout=settings.timeout, policy=policy)
    return DoiResolver(
        api, settings.doi_api, timeout=settings.timeout, policy=policy, crossref=crossref
    )


def named_api_hosts(settings: Settings) -> set[str]:
    """The hosts of the endpoints the user set (a config file cannot set one): theirs to reach,
    loopback test servers and private GitHub Enterprise hosts included."""
    defaults = Settings()
    return {
        httpx.URL(getattr(settings, name)).host
        for name in ENDPOINTS
        if getattr(settings, name) != getattr(defaults, name)
    }


def retry_policy(
    settings: Settings,
    *,
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    clock: Callable[[], float] = time.monotonic,
) -> RetryPolicy:
    """The one retry policy of a run; tests pass virtual time as `sleep` and `clock`."""
    return RetryPolicy(
        attempts=settings.attempts,
        retry_after_cap=settings.retry_after_cap,
        sleep=sleep,
        clock=clock,
    )


def web_transport(
    settings: Settings, guard: NetGuard, verify: ssl.SSLContext | bool = True
) -> httpx.AsyncBaseTransport:
    """The guarded pool web pages are fetched through."""
    # The checker's own semaphores bound what is in flight, so the pool sets no limit.
    limits = httpx.Limits(max_connections=None, max_keepalive_connections=max(settings.per_host, 1))
    return guarded_transport(guard, limits, verify=verify)


def link_checker(
    settings: Settings, web: httpx.AsyncBaseTransport, guard: NetGuard, policy: RetryPolicy
) -> LinkChecker:
    """The checker `anchors check` uses, given the transport itself: the httpx client's
    per-request machinery would be unused cost. The caller closes `web`."""
    return LinkChecker(
        web,
        guard,
        concurrency=settings.concurrency,
        per_host=settings.per_host,
        timeout=settings.timeout,
        policy=policy,
        max_redirects=settings.max_redirects,
    )


class _OnFirstUse:
    """A resolver built when first asked: a run without arXiv IDs does not import `arxiv`
    (and `requests` under it), ~60 ms."""

    def __init__(self, build: Callable[[], ArxivLookup]) -> None:
        self.build = build
        self.inner: ArxivLookup | None = None

    def _resolver(self) -> ArxivLookup:
        if self.inner is None:
            self.inner = self.build()
        return self.inner

    async def resolve(self, keys: Iterable[ArxivId]) -> dict[str, Resolution]:
        return await self._resolver().resolve(keys)

    async def follow_up(self, wanted: Mapping[str, Mismatch]) -> dict[str, FollowUp]:
        """The arXiv follow-ups for title mismatches (only ever after `resolve`)."""
        return await self._resolver().follow_up(wanted)


class _FullTextOnFirstUse:
    """The HTML reader built when first asked (it sends through `requests`, as the API does)."""

    def __init__(self, build: Callable[[], ArxivFullText]) -> None:
        self.build = build
        self.inner: ArxivFullText | None = None

    async def read(self, aid: ArxivId, cache: Cache | None = None) -> SourceText:
        if self.inner is None:
            self.inner = self.build()
        return await self.inner.read(aid, cache)


def _arxiv(settings: Settings, policy: RetryPolicy, pace: ArxivPace) -> ArxivLookup:
    from ..resolve.arxiv import ArxivResolver  # start-up: `arxiv`, `requests` (~60 ms) if asked

    return ArxivResolver(
        settings.arxiv_api,
        delay=settings.arxiv_delay,
        policy=policy,
        timeout=max(settings.timeout, ARXIV_TIMEOUT),
        max_searches=settings.arxiv_searches,
        pace=pace,
    )


def _arxiv_html(
    settings: Settings, policy: RetryPolicy, pace: ArxivPace, etags: Cache | None
) -> ArxivFullText:
    from ..resolve.arxiv_html import ArxivHtml  # start-up: `requests` (and lxml) if asked

    timeout = max(settings.timeout, ARXIV_TIMEOUT)
    return ArxivHtml(settings.arxiv_html, pace=pace, timeout=timeout, etags=etags, policy=policy)
