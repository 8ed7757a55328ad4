"""The link-checking stack `anchors check` runs (guard, guarded transport, checker), for tests.

Built by the production factory (`anchors.check.clients`) from `Settings`, so a test checks what
users run rather than a hand-made copy of it; only what a test must control is injected: the
resolver (or a guard subclass), virtual time, the TLS trust, and where `host:80` really is.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Iterable
from typing import Any

import httpx

from anchors.check.clients import link_checker, retry_policy, web_transport
from anchors.config import Settings
from anchors.net.links import LinkChecker, LinkResult
from anchors.net.netguard import NetGuard, Resolver
from anchors.net.transport import ssl_context

from .vtime import VirtualTime

__all__ = ["check_urls", "links"]


class _ToPort(httpx.AsyncBaseTransport):
    """Sends every request to `port`: registries that cite `http://docs.example/…` reach the
    loopback server whatever port it got."""

    def __init__(self, inner: httpx.AsyncBaseTransport, port: int) -> None:
        self.inner, self.port = inner, port

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        request.url = request.url.copy_with(port=self.port)
        return await self.inner.handle_async_request(request)

    async def aclose(self) -> None:
        await self.inner.aclose()


@contextlib.asynccontextmanager
async def links(
    *,
    resolver: Resolver | None = None,
    guard: NetGuard | None = None,
    vt: VirtualTime | None = None,
    verify: Any = None,
    port: int | None = None,
    **settings: Any,
) -> AsyncIterator[LinkChecker]:
    """A LinkChecker as `anchors check` builds it; `settings` are `Settings` fields."""
    cfg = Settings(**settings)
    guard = guard if guard is not None else NetGuard(resolver, allow_private=cfg.allow_private)
    vt = vt or VirtualTime()
    web = web_transport(cfg, guard, ssl_context() if verify is None else verify)
    if port is not None:
        web = _ToPort(web, port)
    try:
        yield link_checker(cfg, web, guard, retry_policy(cfg, sleep=vt.sleep, clock=vt.now))
    finally:
        await web.aclose()


def check_urls(urls: Iterable[str], **kw: Any) -> tuple[list[LinkResult], LinkChecker]:
    """Check `urls` in one batch (results in the order given) with a `links(**kw)` stack."""
    urls = list(urls)

    async def go() -> tuple[list[LinkResult], LinkChecker]:
        async with links(**kw) as lc:
            res = await lc.check_many([(u, frozenset()) for u in urls])
        return sorted(res, key=lambda r: urls.index(r.url)), lc

    return asyncio.run(go())
