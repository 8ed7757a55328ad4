"""The transport under the checker: CPU per request of each candidate, in one run.

One loopback server process plays 40 hosts, every answer a 200 after 50 ms; this process sends
N HEAD requests, at most 64 in flight and 8 per host, through each candidate in turn, and
measures its own CPU time (the server's is not counted) and the wall time against the floor
(N / 64 x 50 ms). Candidates:

- httpx (httpcore)       httpx.AsyncClient on its default transport, as anchors had it
- httpx + aiohttp        httpx.AsyncClient on anchors.net.transport (httpx-aiohttp + the guard)
- httpx transport API   httpx.Request straight to that transport's handle_async_request,
                         without AsyncClient's per-request machinery (cookies, auth, hooks)
- aiohttp alone          aiohttp.ClientSession with the same guard hooks, no httpx
- anchors LinkChecker    the whole checker on anchors.net.transport (verdicts, retries, limits)

    python bench/transports.py [--urls 2000] [--runs 3]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import httpx

from anchors.net.links import LinkChecker
from anchors.net.netguard import NetGuard
from anchors.net.transport import guarded_transport

CONC, PER_HOST, LATENCY = 64, 8, 0.05
SERVER = r"""
import sys
sys.path.insert(0, sys.argv[1])
from tests.loopback import LoopbackServer, respond
async def ok(req, w):
    return await respond(w, 200, b"<html>ok</html>", req=req, delay=0.05)
srv = LoopbackServer(lambda r: ok, hosts=[f"127.0.0.{i}" for i in range(2, 42)])
srv.start()
print(srv.port, flush=True)
sys.stdin.read()
"""


async def bounded(urls: list[str], one: Callable[[str], Awaitable[None]]) -> None:
    glob = asyncio.Semaphore(CONC)
    hosts: dict[str, asyncio.Semaphore] = {}

    async def run(u: str) -> None:
        h = hosts.setdefault(u.split("/")[2], asyncio.Semaphore(PER_HOST))
        async with h, glob:
            await one(u)

    await asyncio.gather(*(run(u) for u in urls))


async def via_httpx(urls: list[str], transport: httpx.AsyncBaseTransport | None) -> None:
    limits = httpx.Limits(max_connections=None, max_keepalive_connections=PER_HOST * 40)
    async with httpx.AsyncClient(transport=transport, limits=limits, trust_env=False) as c:

        async def one(u: str) -> None:
            async with c.stream("HEAD", u) as r:
                assert r.status_code == 200

        await bounded(urls, one)


async def plain_httpx(urls: list[str]) -> None:
    await via_httpx(urls, None)


async def httpx_aiohttp(urls: list[str]) -> None:
    guard = NetGuard(allow_private=True)
    await via_httpx(urls, guarded_transport(guard, httpx.Limits(max_connections=None)))


async def transport_direct(urls: list[str]) -> None:
    guard = NetGuard(allow_private=True)
    t = guarded_transport(guard, httpx.Limits(max_connections=None))
    headers = {"User-Agent": "bench"}

    async def one(u: str) -> None:
        r = await t.handle_async_request(httpx.Request("HEAD", u, headers=headers))
        try:
            assert r.status_code == 200
        finally:
            await r.aclose()

    try:
        await bounded(urls, one)
    finally:
        await t.aclose()


async def aiohttp_alone(urls: list[str]) -> None:
    import aiohttp

    guard = NetGuard(allow_private=True)
    from anchors.net.transport import _GuardResolver

    conn = aiohttp.TCPConnector(
        limit=0,
        resolver=_GuardResolver(guard),
        socket_factory=guard.open_socket,
        happy_eyeballs_delay=None,
    )
    async with aiohttp.ClientSession(connector=conn, cookie_jar=aiohttp.DummyCookieJar()) as s:

        async def one(u: str) -> None:
            async with s.head(u, allow_redirects=False) as r:
                assert r.status == 200

        await bounded(urls, one)


async def link_checker(urls: list[str]) -> None:
    guard = NetGuard(allow_private=True)
    t = guarded_transport(guard, httpx.Limits(max_connections=None))
    try:  # given the transport, as `anchors check` does
        lc = LinkChecker(t, guard, concurrency=CONC, per_host=PER_HOST)
        res = await lc.check_many([(u, frozenset()) for u in urls])
        assert all(r.status == 200 for r in res)
    finally:
        await t.aclose()


CANDIDATES = {
    "httpx (httpcore)": plain_httpx,
    "httpx + aiohttp": httpx_aiohttp,
    "httpx transport API": transport_direct,
    "aiohttp alone": aiohttp_alone,
    "anchors LinkChecker": link_checker,
}


def measure(fn, urls: list[str]) -> tuple[float, float]:
    async def go() -> tuple[float, float]:
        await fn(urls[:100])  # warm: imports, first connections of this event loop
        t, c = time.perf_counter(), time.process_time()
        await fn(urls)
        return time.perf_counter() - t, time.process_time() - c

    return asyncio.run(go())


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--urls", type=int, default=2000)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    srv = subprocess.Popen(
        [sys.executable, "-c", SERVER, str(ROOT)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        port = int(srv.stdout.readline())  # type: ignore[union-attr]
        urls = [f"http://127.0.0.{2 + i % 40}:{port}/doc/{i}" for i in range(args.urls)]
        fl = args.urls / CONC * LATENCY
        got: dict[str, list[tuple[float, float]]] = {k: [] for k in CANDIDATES}
        for _ in range(args.runs):  # interleaved, so every candidate sees the same load
            for name, fn in CANDIDATES.items():
                got[name].append(measure(fn, urls))
    finally:
        srv.stdin.close()  # type: ignore[union-attr]
        srv.wait()
    print(
        f"{args.urls} HEAD requests, {CONC} in flight, {PER_HOST} per host, 40 hosts, "
        f"{LATENCY * 1000:.0f} ms answers; floor {fl:.2f} s; {args.runs} runs, interleaved"
    )
    print(
        f"{'candidate':<22} {'wall/floor min':>14} {'median':>7} "
        f"{'CPU ms/req min':>14} {'median':>7}"
    )
    for name, runs in got.items():
        w = [x / fl for x, _ in runs]
        c = [y / args.urls * 1000 for _, y in runs]
        print(
            f"{name:<22} {min(w):>14.2f} {statistics.median(w):>7.2f} {min(c):>14.3f} "
            f"{statistics.median(c):>7.3f}"
        )
    base = statistics.median(y for _, y in got["httpx (httpcore)"])
    for name, runs in got.items():
        print(
            f"  {name}: CPU {statistics.median(y for _, y in runs) / base:.2f}x "
            "httpx's own transport"
        )
    print(f"(sniffio {'is' if _has('sniffio') else 'is NOT'} installed; pid {os.getpid()})")


def _has(mod: str) -> bool:
    try:
        __import__(mod)
        return True
    except ImportError:
        return False


if __name__ == "__main__":
    main()
