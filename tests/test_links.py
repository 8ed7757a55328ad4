"""The link checker against a real loopback server: every verdict class and retry path."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Iterator

import httpx
import pytest

from anchors.check.clients import web_transport
from anchors.config import Settings
from anchors.errors import NetworkDown
from anchors.net.links import LinkChecker, LinkResult, Outcome
from anchors.net.netguard import NetGuard, StaticResolver

from .loopback import LoopbackServer, respond
from .stack import check_urls, links
from .vtime import VirtualTime


async def ok(req, w):
    return await respond(w, 200, b"<html>fine</html>", req=req)


def status(code: int, **headers: str):
    async def handler(req, w):
        return await respond(w, code, b"", headers, req=req)

    return handler


def once(first: int, headers: dict[str, str] | None = None, times: int = 1):
    async def handler(req, w):
        if req.n < times:
            return await respond(w, first, b"", headers or {}, req=req)
        return await respond(w, 200, b"ok", req=req)

    return handler


async def head_refused(req, w):
    return await respond(w, 405 if req.method == "HEAD" else 200, b"ok", req=req)


async def head_forbidden_get_404(req, w):
    return await respond(w, 403 if req.method == "HEAD" else 404, b"", req=req)


async def challenge(req, w):
    return await respond(
        w, 403, b"<title>Just a moment...</title>", {"Server": "cloudflare"}, req=req
    )


async def loop_a(req, w):
    return await respond(w, 302, b"", {"Location": "/loop-b"}, req=req)


async def loop_b(req, w):
    return await respond(w, 302, b"", {"Location": "/loop-a"}, req=req)


def chain(n: int):
    async def handler(req, w):
        i = int(req.path.rsplit("/", 1)[1])
        if i >= n:
            return await respond(w, 200, b"end", req=req)
        return await respond(w, 302, b"", {"Location": f"/chain/{i + 1}"}, req=req)

    return handler


async def reset(req, w):
    w.transport.abort()
    return False


async def slow(req, w):
    await asyncio.sleep(3)
    return await respond(w, 200, b"late", req=req)


ROUTES = {
    "/ok": ok,
    "/404": status(404),
    "/410": status(410),
    "/401": status(401),
    "/451": status(451),
    "/999": status(999),
    "/moved": status(301, Location="/ok"),
    "/found": status(302, Location="/ok"),
    "/429-once": once(429, {"Retry-After": "1"}),
    "/429-timed": once(429, {"Retry-After": "1"}),
    "/503-once": once(503),
    "/503-twice": once(503, times=2),
    "/429-forever": status(429, **{"Retry-After": "1"}),
    "/429-huge": status(429, **{"Retry-After": "86400"}),
    "/500-always": status(500),
    "/head-405": head_refused,
    "/head-403-get-404": head_forbidden_get_404,
    "/challenge": challenge,
    "/loop-a": loop_a,
    "/loop-b": loop_b,
    "/reset": reset,
    "/slow": slow,
}


@pytest.fixture(scope="module")
def server() -> Iterator[LoopbackServer]:
    def route(req):
        if req.path.startswith("/chain/"):
            return chain(12)
        return ROUTES.get(req.path)

    with LoopbackServer(route) as srv:
        yield srv


def check(
    urls: list[str], *, allow_private: bool = True, timeout: float = 5.0, cap: float = 30.0, **kw
) -> tuple[list[LinkResult], LinkChecker]:
    """The stack `anchors check` builds, in virtual time, on loopback (tests/stack.py)."""
    return check_urls(urls, allow_private=allow_private, timeout=timeout, retry_after_cap=cap, **kw)


@pytest.mark.parametrize(
    ("path", "outcome", "status"),
    [
        ("/ok", Outcome.OK, 200),
        ("/404", Outcome.DEAD, 404),
        ("/410", Outcome.DEAD, 410),
        ("/401", Outcome.UNVERIFIABLE, 401),
        ("/451", Outcome.UNVERIFIABLE, 451),
        ("/999", Outcome.UNVERIFIABLE, 999),
        ("/moved", Outcome.REDIRECT, 200),
        ("/found", Outcome.OK, 200),
        ("/429-once", Outcome.OK, 200),
        ("/503-once", Outcome.OK, 200),
        ("/503-twice", Outcome.OK, 200),
        ("/429-forever", Outcome.RATE_LIMITED, 429),
        ("/500-always", Outcome.UNREACHABLE, 500),
        ("/head-405", Outcome.OK, 200),
        ("/head-403-get-404", Outcome.DEAD, 404),
        ("/challenge", Outcome.UNVERIFIABLE, 403),
    ],
)
def test_verdicts(server: LoopbackServer, path: str, outcome: Outcome, status: int) -> None:
    (r,), _ = check([server.url(path)])
    assert (r.outcome, r.status) == (outcome, status), r


def test_permanent_redirect_reports_new_url(server: LoopbackServer) -> None:
    (r,), _ = check([server.url("/moved")])
    assert r.final_url == server.url("/ok")


def test_redirect_loop_and_long_chain_are_dead(server: LoopbackServer) -> None:
    (loop, long), _ = check([server.url("/loop-a"), server.url("/chain/0")])
    assert loop.outcome is Outcome.DEAD and "loop" in (loop.error or "")
    assert long.outcome is Outcome.DEAD and "more than 10 redirects" in (long.error or "")


def test_retry_after_is_waited_exactly_and_counted(server: LoopbackServer) -> None:
    vt = VirtualTime()
    (r,), _lc = check([server.url("/429-timed")], vt=vt)
    assert vt.waits == [1.0]  # the server's Retry-After, not a backoff
    assert r.outcome is Outcome.OK and r.requests == 2


def test_retry_after_beyond_the_cap_is_not_waited(server: LoopbackServer) -> None:
    vt = VirtualTime()
    (r,), _ = check([server.url("/429-huge")], vt=vt)
    assert r.outcome is Outcome.RATE_LIMITED and r.requests == 1
    assert vt.waits == []


def test_retries_back_off_doubling_then_give_up(server: LoopbackServer) -> None:
    vt = VirtualTime()
    (r,), _ = check([server.url("/500-always")], vt=vt, attempts=4)
    assert r.outcome is Outcome.UNREACHABLE and r.requests == 4
    # three waits between four tries, each in the upper half of a doubling base (0.25 s)
    assert len(vt.waits) == 3
    for n, w in enumerate(vt.waits):
        assert 0.125 * 2**n <= w <= 0.25 * 2**n, vt.waits


def test_reset_is_retried_then_unreachable(server: LoopbackServer) -> None:
    (r,), _ = check([server.url("/reset")])
    assert r.outcome is Outcome.UNREACHABLE and r.requests == 3


def test_timeout_is_bounded(server: LoopbackServer) -> None:
    (r,), _ = check([server.url("/slow")], timeout=0.1, attempts=1)
    # the handler answers 200 after 3 s: only a timeout that fired makes this unreachable
    assert r.outcome is Outcome.UNREACHABLE and "0.1 s" in (r.error or "") and r.requests == 1


def test_connection_refused_is_dead_without_retries() -> None:
    (r,), _ = check(["http://127.0.0.1:9/x"])
    assert r.outcome is Outcome.DEAD and r.error == "connection refused" and r.requests == 1


def test_loopback_is_blocked_by_default(server: LoopbackServer) -> None:
    before = server.counts["/ok"]
    (r,), _lc = check([server.url("/ok")], allow_private=False)
    assert r.outcome is Outcome.BLOCKED and "loopback" in (r.error or "")
    assert server.counts["/ok"] == before


def test_names_resolve_through_the_injected_resolver(server: LoopbackServer) -> None:
    resolver = StaticResolver({"blog.example": ["127.0.0.1"]}, failing=["flaky.example"])
    port = server.port
    urls = [
        f"http://blog.example:{port}/ok",
        f"http://nxdomain.example:{port}/ok",
        f"http://flaky.example:{port}/ok",
    ]
    (good, nx, temp), _ = check(urls, resolver=resolver)
    assert good.outcome is Outcome.OK
    assert nx.outcome is Outcome.DEAD and "NXDOMAIN" in (nx.error or "")
    assert temp.outcome is Outcome.UNREACHABLE


def test_private_addresses_after_resolution_are_blocked(server: LoopbackServer) -> None:
    resolver = StaticResolver(
        {
            "meta.example": ["169.254.169.254"],
            "lan.example": ["10.0.0.5"],
            "v6.example": ["::1"],
            "ula.example": ["fd00::1"],
        }
    )
    urls = [f"http://{h}/x" for h in ("meta.example", "lan.example", "v6.example", "ula.example")]
    urls.append("ftp://example.com/file")
    results, _ = check(urls, allow_private=False, resolver=resolver)
    assert [r.outcome for r in results] == [Outcome.BLOCKED] * 5


class _OnePublic(NetGuard):
    """A guard for which 127.0.0.1 stands in for a public address; all else is screened."""

    def screen(self, host: str, address: str) -> None:
        if address != "127.0.0.1":
            super().screen(host, address)


@pytest.mark.parametrize(
    "target",
    [
        "http://meta.example/latest",  # a name: the resolver screens
        "http://169.254.169.254/latest",  # IP literals: no resolver
        "http://127.0.0.2:{port}/latest",
        "http://[::ffff:127.0.0.2]:{port}/latest",
    ],
)
def test_redirect_to_a_private_address_is_blocked_at_the_hop(target: str) -> None:
    async def to_private(req, w):
        if req.path == "/r":
            return await respond(w, 302, b"", {"Location": location}, req=req)
        return await respond(w, 200, b"secret", req=req)

    resolver = StaticResolver(
        {"public.example": ["127.0.0.1"], "meta.example": ["169.254.169.254"]}
    )
    with LoopbackServer(lambda req: to_private, hosts=["127.0.0.1", "127.0.0.2"]) as srv:
        location = target.format(port=srv.port)

        async def go():
            async with links(guard=_OnePublic(resolver, allow_private=False)) as lc:
                return await lc.check(f"http://public.example:{srv.port}/r")

        r = asyncio.run(go())
        reached = sorted(srv.counts)
    assert r.outcome is Outcome.BLOCKED, r
    assert ("169.254.169.254" if "169" in target or "meta" in target else "127.0.0.2") in r.error
    assert reached == ["/r"]  # the private address never saw a request


def test_the_guard_sees_every_new_connection(server: LoopbackServer) -> None:
    """The socket factory is called for each connection, not only for names it resolved."""
    seen: list[str] = []

    class Recording(NetGuard):
        def screen(self, host: str, address: str) -> None:
            seen.append(address)
            super().screen(host, address)

    async def go():
        async with links(guard=Recording(allow_private=True)) as lc:
            return [await lc.check(server.url("/moved")), await lc.check(server.url("/ok"))]

    results = asyncio.run(go())
    assert [r.outcome for r in results] == [Outcome.REDIRECT, Outcome.OK]
    assert seen and set(seen) == {"127.0.0.1"}
    # keep-alive: one connection served both URLs and the hop, so one screening
    assert len(seen) == 1


def test_in_flight_never_exceeds_limits() -> None:
    async def slowish(req, w):
        return await respond(w, 200, b"", req=req, delay=0.02)  # long enough to overlap

    hosts = [f"127.0.0.{i}" for i in range(2, 6)]
    with LoopbackServer(lambda req: slowish, hosts=hosts) as srv:
        # grouped by host, so the per-host bound is what holds each host back
        urls = [srv.url(f"/p{i}", host=hosts[i // 20]) for i in range(80)]
        results, lc = check(urls, concurrency=6, per_host=2)
    assert all(r.outcome is Outcome.OK for r in results)
    assert srv.max_in_flight <= 6 and max(srv.per_host_max.values()) <= 2
    assert lc.stats.max_in_flight <= 6


def test_rate_limited_host_does_not_stall_other_hosts() -> None:
    """The slow host's checks rest until every fast URL is done: they must not be in the way."""

    async def limited(req, w):
        return await respond(w, 429, b"", {"Retry-After": "2"}, req=req)

    async def fast(req, w):
        return await respond(w, 200, b"", req=req)

    def route(req):
        return limited if req.path.startswith("/slow") else fast

    with LoopbackServer(route, hosts=["127.0.0.2", "127.0.0.3"]) as srv:
        urls = [srv.url(f"/slow{i}", host="127.0.0.2") for i in range(4)]
        urls += [srv.url(f"/fast{i}", host="127.0.0.3") for i in range(20)]
        order: list[str] = []

        async def go():
            fast_done = asyncio.Event()
            vt = VirtualTime(gate=fast_done)

            def done(r: LinkResult) -> None:
                order.append("fast" if "/fast" in r.url else "slow")
                if order.count("fast") == 20:
                    fast_done.set()

            # two slots in all: a resting check that kept its slot would stall the rest
            async with links(
                allow_private=True, concurrency=2, per_host=2, attempts=2, vt=vt
            ) as lc:
                await lc.check_many([(u, frozenset()) for u in urls], done)
            return vt

        vt = asyncio.run(go())
    assert order == ["fast"] * 20 + ["slow"] * 4  # every slow URL was resting meanwhile
    assert vt.waits.count(2.0) == 4  # each slow URL waited out its Retry-After once
    assert srv.counts and sum(n for p, n in srv.counts.items() if p.startswith("/slow")) == 8


def test_live_tasks_stay_bounded_however_many_urls() -> None:
    async def fast(req, w):
        return await respond(w, 200, b"", req=req)

    live: list[int] = []
    with LoopbackServer(lambda req: fast, hosts=["127.0.0.2", "127.0.0.3"]) as srv:
        urls = [srv.url(f"/p{i}", host=("127.0.0.2", "127.0.0.3")[i % 2]) for i in range(400)]

        async def go():
            async with links(allow_private=True, concurrency=4, per_host=2) as lc:
                return await lc.check_many(
                    [(u, frozenset()) for u in urls],
                    lambda r: live.append(len(asyncio.all_tasks())),
                )

        results = asyncio.run(go())
    assert len(results) == 400 and all(r.outcome is Outcome.OK for r in results)
    assert max(live) <= 4 * 4 + 2  # the window, plus the main task and the server's


def test_a_host_that_keeps_rate_limiting_is_paused_not_hammered() -> None:
    async def limited(req, w):
        return await respond(w, 429, b"", {"Retry-After": "1"}, req=req)

    with LoopbackServer(lambda req: limited) as srv:
        urls = [srv.url(f"/x{i}") for i in range(12)]
        vt = VirtualTime(speed=50)
        results, _ = check(urls, per_host=4, attempts=2, cap=5.0, vt=vt)
        sent = sum(srv.counts.values())
    assert {r.outcome for r in results} == {Outcome.RATE_LIMITED}
    assert sent == 24  # two tries each, no more
    # each URL waited its Retry-After once; beyond those, tries of URLs the host had paused
    # waited for the pause to end (what is left of its 1 s)
    assert vt.waits.count(1.0) == 12 and len(vt.waits) > 12, vt.waits
    assert all(0 < w <= 1.0 for w in vt.waits)


def test_a_resting_check_does_not_hold_its_hosts_slot() -> None:
    """While one URL waits out a Retry-After, the next URL of the same host is checked."""

    async def handler(req, w):
        if req.path == "/limited" and req.n == 0:
            return await respond(w, 429, b"", {"Retry-After": "1"}, req=req)
        return await respond(w, 200, b"", req=req)

    with LoopbackServer(lambda req: handler) as srv:
        urls = [srv.url("/limited"), srv.url("/next")]
        order: list[str] = []

        async def go():
            other_done = asyncio.Event()  # the wait ends when the other URL is done

            def done(r: LinkResult) -> None:
                order.append(r.url.rsplit("/", 1)[1])
                other_done.set()

            async with links(allow_private=True, per_host=1, vt=VirtualTime(gate=other_done)) as lc:
                return await lc.check_many([(u, frozenset()) for u in urls], done)

        results = asyncio.run(go())
    assert all(r.outcome is Outcome.OK for r in results)
    assert order == ["next", "limited"]
    assert srv.max_in_flight == 1  # the host limit still holds


def test_the_checker_also_takes_an_httpx_client(server: LoopbackServer) -> None:
    """`anchors check` gives it the transport; a library user may give it a client instead."""

    async def go():
        guard = NetGuard(allow_private=True)
        async with httpx.AsyncClient(transport=web_transport(Settings(), guard)) as c:
            lc = LinkChecker(c, guard)
            return [await lc.check(server.url(p)) for p in ("/moved", "/404", "/head-405")]

    moved, gone, head = asyncio.run(go())
    assert (moved.outcome, moved.final_url) == (Outcome.REDIRECT, server.url("/ok"))
    assert (gone.outcome, gone.status) == (Outcome.DEAD, 404)
    assert (head.outcome, head.status, head.requests) == (Outcome.OK, 200, 2)


def test_the_collector_is_left_as_it_was(server: LoopbackServer) -> None:
    """The checker spares the cyclic collector while it runs, and restores it after: when the
    run ends, and when it stops early (an offline machine), whatever a program had set."""
    before = (gc.get_threshold(), gc.get_freeze_count(), gc.isenabled())
    results, _ = check([server.url("/ok"), server.url("/404")])
    assert [r.outcome for r in results] == [Outcome.OK, Outcome.DEAD]
    assert (gc.get_threshold(), gc.get_freeze_count(), gc.isenabled()) == before
    resolver = StaticResolver({}, failing=[f"h{i}.example" for i in range(4)])
    with pytest.raises(NetworkDown):
        check([f"http://h{i}.example/x" for i in range(4)], resolver=resolver, attempts=1)
    assert (gc.get_threshold(), gc.get_freeze_count(), gc.isenabled()) == before
