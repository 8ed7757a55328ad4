"""Every service answer is bounded: a total deadline and a cap on its decoded size.

Each client `anchors check` builds (`clients.open_services`: GitHub, DOI, Crossref, Wayback,
Save Page Now; and arXiv's requests-based one) is pointed at a loopback server that trickles a
byte at a time, sends an endless chunked body, or a gzip bomb. The server records how far it
got: a client that waits past its deadline or reads past its cap lets it finish.
"""

from __future__ import annotations

import asyncio
import gzip
import os
import signal
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from anchors.archive.hook import RunHook
from anchors.check.clients import open_services
from anchors.config import Settings
from anchors.findings import Outcome
from anchors.ids import ArxivId, Doi, parse_anchor
from anchors.net.retry import RetryPolicy
from anchors.resolve.arxiv import ArxivResolver

from ..loopback import LoopbackServer, Request

pytestmark = [pytest.mark.reliability(kind="security"), pytest.mark.timeout(90)]

#: what the cap lets through (anchors.defaults.MAX_ANSWER_BYTES) and what the servers offer
CAP = 16 << 20
ENDLESS = 200 << 20
BOMB = gzip.compress(b'{"message": {"x": "' + b"a" * (24 << 20) + b'"}}', 9)


class Hostile:
    """One way of answering, and how far the server got with it."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.sent = 0
        self.finished = False  # the whole answer went out: the client waited for all of it

    async def __call__(self, req: Request, w: asyncio.StreamWriter) -> bool:
        try:
            if self.kind == "bomb":
                head = f"Content-Encoding: gzip\r\nContent-Length: {len(BOMB)}\r\n"
                w.write(f"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n{head}\r\n".encode())
                w.write(BOMB)
                await w.drain()
            else:
                w.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n")
                w.write(b"Transfer-Encoding: chunked\r\n\r\n")
                await self._body(w)
                w.write(b"2\r\n{}\r\n0\r\n\r\n")
                await w.drain()
            self.finished = True
        except (ConnectionError, OSError):
            pass
        return False

    async def _body(self, w: asyncio.StreamWriter) -> None:
        if self.kind == "trickle":  # a byte every 0.2 s for 12 s: no read ever times out
            for _ in range(60):
                w.write(b"1\r\n \r\n")
                await w.drain()
                await asyncio.sleep(0.2)
            return
        block = b"%x\r\n%s\r\n" % (1 << 16, b" " * (1 << 16))
        while self.sent < ENDLESS:
            w.write(block)
            await w.drain()
            self.sent += 1 << 16


@pytest.fixture(params=["trickle", "endless", "bomb"])
def hostile(request: pytest.FixtureRequest) -> Iterator[tuple[Hostile, LoopbackServer]]:
    h = Hostile(request.param)
    with LoopbackServer(lambda req: h) as srv:
        yield h, srv


def _bounded(h: Hostile, got: object, silent: bool = False) -> None:
    """The client hung up before the server was done and never took more than the cap; a bomb
    (small on the wire) failed as too large instead of inflating (a `silent` client says only
    that it cannot tell: None)."""
    if h.kind == "bomb":
        said = str(got) if not isinstance(got, dict) else str([r.error for r in got.values()])
        assert "AnswerTooLarge" in said or (silent and got is None), got
        return
    assert not h.finished, f"{h.kind}: the client waited for the whole answer"
    assert h.sent < 4 * CAP


def _settings(url: str) -> Settings:
    return Settings(
        timeout=1.0,
        attempts=1,
        allow_private=True,  # the bounds, not the guard, are under test (so old code connects)
        github_api=url,
        doi_api=url,
        crossref_api=url,
        wayback_api=url + "/wayback/available",
        wayback_delay=0.0,
        archive=True,
        archive_save=True,
        save_api=url + "/save",
        save_delay=0.0,
        ia_keys=("access", "secret"),
    )


Call = Callable[[Any], Awaitable[object]]
CLIENTS: dict[str, Call] = {
    "github": lambda s: s.github.resolve([parse_anchor("https://github.com/o/r/issues/1")]),
    "doi": lambda s: s.doi.resolve([Doi.parse("10.1234/abc")]),
    "crossref": lambda s: s.doi.crossref.updates("10.1234/abc"),
    "wayback": lambda s: s.after.wayback.closest("https://page.example/", date(2026, 9, 1)),
    "save-page-now": lambda s: s.after.saver.submit("https://page.example/"),
}


@pytest.mark.parametrize("client", sorted(CLIENTS))
def test_every_service_client_is_bounded(
    client: str, hostile: tuple[Hostile, LoopbackServer]
) -> None:
    h, srv = hostile

    async def go() -> object:
        async with open_services(_settings(srv.url("")), after=RunHook()) as services:
            try:
                return await CLIENTS[client](services)
            except Exception as exc:  # noqa: BLE001 (a refusal is how some clients fail)
                return exc

    got = asyncio.run(go())
    _bounded(h, got, silent=client == "crossref")


def test_arxiv_is_bounded(hostile: tuple[Hostile, LoopbackServer]) -> None:
    h, srv = hostile
    resolver = ArxivResolver(
        srv.url("/api/query"), delay=0.0, timeout=1.0, policy=RetryPolicy(attempts=1)
    )
    got = asyncio.run(resolver.resolve([ArxivId.parse("2309.06180")]))
    r = got["arxiv:2309.06180"]
    _bounded(h, r.error)
    assert r.outcome is not Outcome.OK


def test_arxiv_redirects_stay_on_the_api_host(tripwire: list[str]) -> None:
    async def moved(req: Request, w: asyncio.StreamWriter) -> bool:
        w.write(b"HTTP/1.1 301 Moved\r\nLocation: http://100.100.100.200/latest/meta-data/\r\n")
        w.write(b"Content-Length: 0\r\n\r\n")
        await w.drain()
        return False

    with LoopbackServer(lambda req: moved) as srv:
        resolver = ArxivResolver(
            srv.url("/api/query"), delay=0.0, timeout=5.0, policy=RetryPolicy(attempts=1)
        )
        got = asyncio.run(resolver.resolve([ArxivId.parse("2309.06180")]))
    r = got["arxiv:2309.06180"]
    assert r.outcome is not Outcome.OK and "RedirectedOffHost" in (r.error or ""), r
    assert tripwire == [] and sum(srv.counts.values()) == 1


@pytest.fixture
def tripwire(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    from .test_security_net import _Tripwire

    _Tripwire.attempts = []
    monkeypatch.setattr("socket.socket", _Tripwire)
    yield _Tripwire.attempts


@pytest.mark.parametrize(("sig", "code"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
@pytest.mark.slow
def test_sigterm_ends_a_check_waiting_on_a_trickling_arxiv(
    tmp_path: Path, sig: signal.Signals, code: int
) -> None:
    """One SIGTERM (or Ctrl-C) ends the run within seconds, whatever the arXiv thread does."""
    forever = Hostile("trickle")

    async def endless_trickle(req: Request, w: asyncio.StreamWriter) -> bool:
        forever.sent += 1
        w.write(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")
        try:
            for _ in range(600):
                w.write(b"1\r\n \r\n")
                await w.drain()
                await asyncio.sleep(0.5)
        except (ConnectionError, OSError):
            pass
        return False

    reg = tmp_path / "registry.yaml"
    reg.write_text(
        'version: 1\nanchors:\n  - arxiv: "2309.06180"\n    first_anchored: 2026-09-24\n'
        "    status: new\n",
        encoding="utf-8",
    )
    with LoopbackServer(lambda req: endless_trickle) as srv:
        p = subprocess.Popen(
            [sys.executable, "-m", "anchors", "check", str(reg), "--no-cache", "--timeout", "5"]
            + ["--arxiv-api", srv.url("/api/query"), "--arxiv-delay", "0"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env={**os.environ, "NO_COLOR": "1"},
        )
        try:
            deadline = time.monotonic() + 20
            while not forever.sent and time.monotonic() < deadline:
                time.sleep(0.05)
            time.sleep(0.5)  # the request is in flight, the body trickling
            p.send_signal(sig)
            _out, err = p.communicate(timeout=5)
        finally:
            if p.poll() is None:
                p.kill()
                p.communicate()
    assert p.returncode == code, err
    assert b"Traceback" not in err
