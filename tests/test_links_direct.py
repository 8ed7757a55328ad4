"""The checker's direct aiohttp path against the httpx path through the same guarded transport:
the same requests on the wire, the same verdicts, the same errors (anchors.net.transport)."""

from __future__ import annotations

import asyncio
import dataclasses
import socket
from collections.abc import Iterator

import httpx
import pytest

from anchors.check.clients import link_checker, retry_policy, web_transport
from anchors.config import Settings
from anchors.net.links import LinkResult, Outcome
from anchors.net.netguard import NetGuard
from anchors.net.transport import Transport

from .loopback import LoopbackServer, Request, respond
from .stack import check_urls
from .vtime import VirtualTime


class _ThroughHttpx(httpx.AsyncBaseTransport):
    """The same guarded transport seen only through httpx's transport API: the path any other
    transport (a test's, a library user's) takes."""

    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        self.inner = inner

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        return await self.inner.handle_async_request(request)

    async def aclose(self) -> None:
        await self.inner.aclose()


SEEN: list[tuple[str, str, dict[str, str]]] = []


async def _answer(req: Request, w: asyncio.StreamWriter) -> bool:
    SEEN.append((req.method, req.path, req.headers))
    path = req.path.split("?", 1)[0]
    if path == "/reset":
        w.transport.abort()
        return False
    if path == "/head-405":
        return await respond(w, 405 if req.method == "HEAD" else 200, b"ok", req=req)
    if path == "/challenge":
        return await respond(w, 403, b"<title>Just a moment...</title>", req=req)
    if path == "/moved":
        return await respond(w, 301, b"", {"Location": "/caf\u00e9?q=a b"}, req=req)
    if path == "/too-many":
        return await respond(w, 429, b"", {"Retry-After": "86400"}, req=req)
    if path == "/no-location":
        return await respond(w, 302, b"", req=req)
    code = 200 if path in ("/ok", "/caf%E9") else 404  # é as one Latin-1 byte
    return await respond(w, code, b"<html>page</html>" * 1000, req=req)


@pytest.fixture(scope="module")
def server() -> Iterator[LoopbackServer]:
    with LoopbackServer(lambda req: _answer) as srv:
        yield srv


def _closed_port() -> int:
    """A port nothing listens on at 127.0.0.2 (another host than the server's: a host's
    failures in a row decide its retries, so the two failing URLs must not share one)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.2", 0))
        return int(sock.getsockname()[1])


def _run(urls: list[str], *, direct: bool, allow_private: bool = True) -> list[LinkResult]:
    cfg = Settings(allow_private=allow_private, timeout=5.0, retry_after_cap=30.0)
    guard = NetGuard(None, allow_private=allow_private)
    vt = VirtualTime()

    async def go() -> list[LinkResult]:
        web = web_transport(cfg, guard)
        assert isinstance(web, Transport)
        checker = link_checker(
            cfg,
            web if direct else _ThroughHttpx(web),
            guard,
            retry_policy(cfg, sleep=vt.sleep, clock=vt.now),
        )
        try:
            got = await checker.check_many([(u, frozenset()) for u in urls])
        finally:
            await web.aclose()
        return sorted((dataclasses.replace(r, elapsed_ms=0) for r in got), key=lambda r: r.url)

    return asyncio.run(go())


PATHS = ["/ok", "/404", "/head-405", "/challenge", "/moved", "/too-many", "/no-location", "/reset"]


def test_both_paths_send_the_same_requests_and_reach_the_same_verdicts(
    server: LoopbackServer,
) -> None:
    urls = [server.url(p) for p in PATHS] + [server.url("/ok?x=%7e&y=a%20b")]
    urls.append(f"http://127.0.0.2:{_closed_port()}/refused")
    SEEN.clear()
    direct = _run(urls, direct=True)
    wire_direct = sorted(SEEN, key=repr)
    SEEN.clear()
    through = _run(urls, direct=False)
    assert direct == through
    assert sorted(SEEN, key=repr) == wire_direct
    outcomes = {r.url.rsplit("/", 1)[1]: r.outcome for r in direct}
    assert outcomes == {
        "ok": Outcome.OK,
        "404": Outcome.DEAD,
        "head-405": Outcome.OK,
        "challenge": Outcome.UNVERIFIABLE,
        "moved": Outcome.REDIRECT,
        "too-many": Outcome.RATE_LIMITED,
        "no-location": Outcome.DEAD,
        "reset": Outcome.UNREACHABLE,
        "ok?x=%7e&y=a%20b": Outcome.OK,
        "refused": Outcome.DEAD,
    }
    moved = next(r for r in direct if r.url.endswith("/moved"))
    assert moved.final_url is not None and moved.final_url.endswith("/caf%E9?q=a%20b")
    head, *_ = (h for m, p, h in wire_direct if p == "/ok" and m == "HEAD")
    assert head["host"] == f"127.0.0.1:{server.port}"
    assert head["user-agent"].startswith("anchors/")


def test_both_paths_refuse_a_private_address_alike(server: LoopbackServer) -> None:
    urls = [server.url("/ok")]
    SEEN.clear()
    direct = _run(urls, direct=True, allow_private=False)
    assert direct == _run(urls, direct=False, allow_private=False)
    assert [r.outcome for r in direct] == [Outcome.BLOCKED]
    assert SEEN == []  # nothing reached the server


def test_the_check_stack_makes_no_httpx_request_or_response(
    server: LoopbackServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What `anchors check` builds sends each link request straight on aiohttp: no httpx
    `Request` or `Response` per request (~40 us each, bench/README.md)."""
    made: list[str] = []
    for cls in (httpx.Request, httpx.Response):
        real = cls.__init__

        def counting(self: object, *args: object, _real=real, **kw: object) -> None:
            made.append(type(self).__name__)
            _real(self, *args, **kw)

        monkeypatch.setattr(cls, "__init__", counting)
    urls = [server.url(p) for p in ("/ok", "/404", "/moved")]
    results, checker = check_urls(urls, allow_private=True)
    assert [r.outcome for r in results] == [Outcome.OK, Outcome.DEAD, Outcome.REDIRECT]
    assert checker.stats.requests == 4
    assert made == []
