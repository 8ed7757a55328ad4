"""Hostile servers on loopback: each behaviour, the finding it must produce, and no crash.

Every case is bounded in time (pytest-timeout) and in traffic (a handful of requests).
"""

from __future__ import annotations

import asyncio
import os
import signal
import ssl
import subprocess
import sys
import time
import tracemalloc
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from pathlib import Path

import pytest
import trustme

from anchors.net.cache import Cache
from anchors.net.links import LinkResult, Outcome
from anchors.net.netguard import StaticResolver

from ..loopback import LoopbackServer, respond
from ..stack import links
from ..vtime import VirtualTime

pytestmark = [pytest.mark.reliability(kind="fault"), pytest.mark.timeout(60)]


def check_one(
    url: str, *, timeout: float = 2.0, attempts: int = 3, cap: float = 5.0, **kw
) -> LinkResult:
    """One URL through the stack `anchors check` builds, in virtual time (tests/stack.py)."""

    async def go() -> LinkResult:
        async with links(
            allow_private=True, timeout=timeout, attempts=attempts, retry_after_cap=cap, **kw
        ) as lc:
            return await lc.check(url)

    return asyncio.run(go())


def serve(handler, **kw) -> LoopbackServer:
    return LoopbackServer(lambda req: handler, **kw)


def test_connection_refused() -> None:
    with serve(None) as srv:  # start, learn a free port, stop: nothing listens there any more
        port = srv.port
    r = check_one(f"http://127.0.0.1:{port}/")
    assert r.outcome is Outcome.DEAD and r.error == "connection refused"


async def _reset_in_headers(req, w):
    w.write(b"HTTP/1.1 200 OK\r\nContent-Le")
    await w.drain()
    w.transport.abort()
    return False


async def _reset_in_body(req, w):
    if req.method == "HEAD":
        return await respond(w, 405, b"", req=req)
    w.write(b"HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n" + b"x" * 100)
    await w.drain()
    w.transport.abort()
    return False


@pytest.mark.parametrize(
    ("handler", "requests"),
    [(_reset_in_headers, 3), (_reset_in_body, 6)],
    ids=["mid-headers", "mid-body"],
)
def test_connection_reset_is_retried_then_unreachable(handler, requests: int) -> None:
    with serve(handler) as srv:
        r = check_one(srv.url("/"))
    assert r.outcome is Outcome.UNREACHABLE and "reset" in (r.error or "")
    assert r.requests == requests  # three tries (each HEAD then GET when HEAD is refused)


async def _silent(req, w):
    await asyncio.sleep(30)
    return False


async def _trickle(req, w):
    w.write(b"HTTP/1.1 200 OK\r\n")
    for _ in range(40):
        w.write(b"X")
        await w.drain()
        await asyncio.sleep(0.05)
    return False


@pytest.mark.parametrize(
    ("handler", "timeout", "attempts", "errors"),
    # the silent server would close after 30 s, the trickle after 2 s (each a reset, not a
    # timeout); the trickle keeps per-read timeouts from firing, so only a deadline per try
    # (anchors' own, "no complete answer") ends it early
    [
        (_silent, 0.1, 2, ("no complete answer within 0.1 s", "timed out after 0.1 s")),
        (_trickle, 0.4, 1, ("no complete answer within 0.4 s",)),
    ],
    ids=["never-answers", "trickles"],
)
def test_stalling_server_is_bounded_by_the_total_timeout(
    handler, timeout: float, attempts: int, errors: tuple[str, ...]
) -> None:
    with serve(handler) as srv:
        r = check_one(srv.url("/"), timeout=timeout, attempts=attempts)
        asked = sum(srv.counts.values())
    assert r.outcome is Outcome.UNREACHABLE and r.error in errors, r
    assert r.requests == asked == attempts


_written: list[int] = []


async def _ten_gigabytes(req, w):
    if req.method == "HEAD":
        return await respond(w, 405, b"", req=req)
    w.write(b"HTTP/1.1 200 OK\r\nContent-Length: 10737418240\r\n\r\n")
    chunk = b"\0" * 65536
    try:
        for _ in range(163840):  # 10 GiB if the client kept reading
            w.write(chunk)
            await w.drain()
            _written.append(len(chunk))
    except ConnectionError:
        pass
    return False


def test_ten_gigabyte_body_is_not_read() -> None:
    # tracemalloc's peak, not ru_maxrss: this worker's earlier peak would hide any growth
    _written.clear()
    tracemalloc.start()
    try:
        with serve(_ten_gigabytes) as srv:
            r = check_one(srv.url("/"))
        grew_mb = tracemalloc.get_traced_memory()[1] / 2**20
    finally:
        tracemalloc.stop()
    assert r.outcome is Outcome.OK and r.requests == 2
    # the client hung up after its first bytes: the server got no further than socket buffers
    assert sum(_written) < 64 * 2**20 and grew_mb < 64


async def _redirect_loop(req, w):
    return await respond(w, 302, b"", {"Location": "/a" if req.path == "/b" else "/b"}, req=req)


async def _chain30(req, w):
    i = int(req.path.strip("/") or 0)
    if i >= 30:
        return await respond(w, 200, b"", req=req)
    return await respond(w, 301, b"", {"Location": f"/{i + 1}"}, req=req)


@pytest.mark.parametrize(
    ("handler", "needle"), [(_redirect_loop, "loop"), (_chain30, "more than 10")]
)
def test_redirect_loop_and_30_hop_chain(handler, needle: str) -> None:
    with serve(handler) as srv:
        r = check_one(srv.url("/0" if handler is _chain30 else "/a"))
    assert r.outcome is Outcome.DEAD and needle in (r.error or "")
    assert r.requests <= 11


def _http_date(seconds: float) -> str:
    return format_datetime(datetime.now(UTC) + timedelta(seconds=seconds), usegmt=True)


@pytest.mark.parametrize(
    ("retry_after", "outcome", "min_wait", "max_wait"),
    [
        ("1", Outcome.OK, 1.0, 1.0),  # seconds: exactly
        ("date:2", Outcome.OK, 0.5, 2.0),  # an HTTP date about 2 s ahead (1 s resolution)
        ("86400", Outcome.RATE_LIMITED, None, None),  # absurd: beyond the cap, not waited
        (None, Outcome.OK, 0.125, 0.25),  # missing: the first backoff (upper half of 0.25 s)
    ],
)
def test_429_retry_after_forms(retry_after, outcome, min_wait, max_wait) -> None:
    async def once(req, w):
        if req.n == 0:
            value = _http_date(2) if retry_after == "date:2" else retry_after
            return await respond(w, 429, b"", {"Retry-After": value} if value else {}, req=req)
        return await respond(w, 200, b"", req=req)

    vt = VirtualTime()
    with serve(once) as srv:
        r = check_one(srv.url("/"), vt=vt)
    assert r.outcome is outcome
    if min_wait is None:
        assert vt.waits == [] and r.requests == 1
    else:
        (wait,) = vt.waits
        assert min_wait <= wait <= max_wait and r.requests == 2


def test_503_flapping_recovers() -> None:
    async def flap(req, w):
        return await respond(w, 503 if req.n % 2 == 0 else 200, b"", req=req)

    with serve(flap) as srv:
        r = check_one(srv.url("/"))
    assert r.outcome is Outcome.OK and r.requests == 2


@pytest.mark.parametrize("head_status", [405, 403])
def test_head_refused_get_ok(head_status: int) -> None:
    async def handler(req, w):
        return await respond(w, head_status if req.method == "HEAD" else 200, b"ok", req=req)

    with serve(handler) as srv:
        r = check_one(srv.url("/"))
    assert r.outcome is Outcome.OK and r.requests == 2


def _tls_server(cert_ca: trustme.CA, name: str, **kw) -> LoopbackServer:
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    cert_ca.issue_cert(name, **kw).configure_cert(ctx)

    async def ok(req, w):
        return await respond(w, 200, b"ok", req=req)

    return serve(ok, ssl_context=ctx)


@pytest.mark.parametrize("case", ["self-signed", "expired", "wrong-name"])
def test_invalid_certificates_are_tls_errors(case: str) -> None:
    ca = trustme.CA()
    resolver = StaticResolver({"site.example": ["127.0.0.1"]})
    trust = ssl.create_default_context()
    if case != "self-signed":
        ca.configure_trust(trust)  # trusted CA; the problem is the certificate itself
    kw = (
        {
            "not_after": datetime.now(UTC) - timedelta(days=1),
            "not_before": datetime.now(UTC) - timedelta(days=30),
        }
        if case == "expired"
        else {}
    )
    name = "other.example" if case == "wrong-name" else "site.example"
    with _tls_server(ca, name, **kw) as srv:
        r = check_one(f"https://site.example:{srv.port}/", resolver=resolver, verify=trust)
        counted = sum(srv.counts.values())
    assert r.outcome is Outcome.TLS_ERROR, r
    assert counted == 0  # no request was sent over the bad connection


def test_valid_certificate_is_ok() -> None:
    ca = trustme.CA()
    trust = ssl.create_default_context()
    ca.configure_trust(trust)
    with _tls_server(ca, "site.example") as srv:
        r = check_one(
            f"https://site.example:{srv.port}/",
            resolver=StaticResolver({"site.example": ["127.0.0.1"]}),
            verify=trust,
        )
    assert r.outcome is Outcome.OK


def test_name_that_does_not_resolve() -> None:
    r = check_one("https://no-such-host.example/", resolver=StaticResolver({}))
    assert r.outcome is Outcome.DEAD and "NXDOMAIN" in (r.error or "") and r.requests == 1


def _registry(tmp: Path, urls: list[str]) -> Path:
    reg = tmp / "registry.yaml"
    reg.write_text(
        "version: 1\nanchors:\n"
        + "".join(f"  - url: {u}\n    first_anchored: 2026-09-24\n    status: new\n" for u in urls),
        encoding="utf-8",
    )
    return reg


@pytest.mark.parametrize(
    ("sig", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143), (signal.SIGHUP, 129)]
)
@pytest.mark.slow
def test_killed_check_exits_cleanly_and_keeps_what_it_learnt(
    tmp_path: Path, sig, code: int
) -> None:
    async def handler(req, w):
        if req.path.startswith("/slow"):
            await asyncio.sleep(30)
        return await respond(w, 200, b"", req=req)

    with serve(handler) as srv:
        urls = [srv.url(f"/fast{i}") for i in range(5)] + [srv.url(f"/slow{i}") for i in range(3)]
        reg = _registry(tmp_path, urls)
        before = reg.read_bytes()
        p = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "anchors",
                "check",
                str(reg),
                "--allow-private",
                "-q",
                "--format",
                "json",
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env={**os.environ, "NO_COLOR": "1"},
        )
        deadline = time.monotonic() + 20
        while srv.counts.get("/slow0", 0) == 0 and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.5)  # the fast ones are answered by now
        p.send_signal(sig)
        _out, err = p.communicate(timeout=20)
    assert p.returncode == code
    assert b"Traceback" not in err and len(err.decode().strip().splitlines()) == 1
    assert reg.read_bytes() == before  # check never writes the registry
    cache = Cache(tmp_path / ".anchors" / "cache.json")
    assert len(cache.entries) == 5
    from anchors.history import History

    h = History(tmp_path / ".anchors" / "history.sqlite")
    rows = list(h.rows(until=1e12))
    (run,) = h.runs(0, 1e12)
    h.close()
    assert len(rows) == 5 and not run.complete


def _raw(data: bytes, head_refused: bool = False):
    async def handler(req, w):
        if head_refused and req.method == "HEAD":
            return await respond(w, 405, b"", req=req)
        w.write(data)
        await w.drain()
        return False

    return handler


@pytest.mark.parametrize(
    "handler",
    [
        _raw(b"HTTP/1.1 200 OK\r\nX-Big: " + b"a" * 20000 + b"\r\nContent-Length: 0\r\n\r\n"),
        _raw(b"HTTP/1.1 200 OK\r\n" + b"".join(b"X-H%d: v\r\n" % i for i in range(300)) + b"\r\n"),
        _raw(b"HTTP/1.1 abc OK\r\n\r\n"),
        _raw(b"\x00\x01\x1b[31mgarbage\r\n\r\n"),
        _raw(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nBad Header Line\r\n\r\nok"),
        _raw(b"HTTP/1.1 200 OK\r\nContent-Length: xyz\r\n\r\nok"),
        _raw(
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nok\r\n0\r\n\r\n",
            head_refused=True,
        ),
    ],
    ids=[
        "header-20k",
        "300-headers",
        "bad-status",
        "garbage",
        "bad-header",
        "bad-length",
        "bad-chunk",
    ],
)
def test_malformed_answers_are_unreachable_not_a_crash(handler) -> None:
    with serve(handler) as srv:
        r = check_one(srv.url("/"))
    assert r.outcome is Outcome.UNREACHABLE and "malformed" in (r.error or "")
    assert "\x1b" not in (r.error or "") and "garbage" not in (r.error or "")


@pytest.mark.parametrize(
    ("location", "outcome", "needle"),
    [
        ("http://[::1", Outcome.DEAD, "invalid URL"),  # httpx cannot even parse it
        ("", Outcome.DEAD, "without a Location"),  # was misread as a redirect loop
        ("http://a:99999/", Outcome.BLOCKED, ""),
        ("javascript:alert(1)", Outcome.BLOCKED, "scheme"),
        ("http://nowhere.example/", Outcome.DEAD, "NXDOMAIN"),
    ],
)
def test_hostile_redirect_targets(location: str, outcome: Outcome, needle: str) -> None:
    async def handler(req, w):
        return await respond(w, 302, b"", {"Location": location}, req=req)

    with serve(handler) as srv:
        r = check_one(srv.url("/"), resolver=StaticResolver({}))
    assert r.outcome is outcome and needle in (r.error or ""), r


def test_a_ten_kilobyte_cookie_is_not_malformed() -> None:
    async def handler(req, w):
        return await respond(w, 200, b"ok", {"Set-Cookie": "s=" + "a" * 10000}, req=req)

    with serve(handler) as srv:
        r = check_one(srv.url("/"))
    assert r.outcome is Outcome.OK, r
