"""What the network fuzz targets share: answers made from fuzz bytes, served with no network.

Every service client and the link checker take an httpx transport, so a target hands them
`answers(...)`, an `httpx.MockTransport` that gives every request the same fuzzed answer (its
redirects lead back to it: loops and hop limits are read too). Header bytes go through
aiohttp's own response parser first, the one that reads them on the wire, so what a target
feeds anchors is exactly what a server can get through to it. The retry policy tries once and
never sleeps. One event loop serves every input.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Coroutine, Sequence
from typing import Any, TypeVar

import httpx
from aiohttp.base_protocol import BaseProtocol
from aiohttp.http_parser import HttpResponseParser

from anchors.history.facts import Facts, facts_to_json
from anchors.net.bounded import BoundedClient
from anchors.net.retry import RetryPolicy
from anchors.net.transport import NoCookies

__all__ = [
    "LOOP",
    "POLICY",
    "Streamed",
    "answers",
    "run",
    "sendable",
    "service_client",
    "survives_a_write",
    "wire_headers",
]

T = TypeVar("T")
LOOP = asyncio.new_event_loop()
#: the transport's line limit (anchors/net/transport.py `_MAX_LINE`)
_MAX_LINE = 16384
RawHeaders = Sequence[tuple[bytes, bytes]]


async def _no_wait(seconds: float) -> None:
    return None


POLICY = RetryPolicy(attempts=1, sleep=_no_wait)


def run(coro: Coroutine[Any, Any, T]) -> T:
    """`coro` run on the one loop; bodies left part-read are closed after it, as a closed
    connection's would be."""
    try:
        return LOOP.run_until_complete(coro)
    finally:
        LOOP.run_until_complete(LOOP.shutdown_asyncgens())


def wire_headers(status: int, head: bytes) -> RawHeaders | None:
    """The raw headers aiohttp's parser reads from `head` (the lines after a status line), as
    anchors' transport receives them; None when aiohttp refuses them (the transport's
    RemoteProtocolError: a malformed answer, never read by anchors)."""
    parser = HttpResponseParser(
        BaseProtocol(LOOP),
        LOOP,
        2**16,
        auto_decompress=False,
        max_line_size=_MAX_LINE,
        max_field_size=_MAX_LINE,
    )
    try:
        messages, _, _ = parser.feed_data(b"HTTP/1.1 %d X\r\n" % status + head + b"\r\n\r\n")
    except Exception:  # noqa: BLE001 (aiohttp's client wraps whatever its parser raises)
        return None
    return messages[0][0].raw_headers if messages else None


class Streamed(httpx.AsyncByteStream):
    """A body as the transport streams it: pieces of at most 16 KiB (aiohttp's `iter_chunked`)."""

    def __init__(self, body: bytes) -> None:
        self.body = body

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for at in range(0, len(self.body), 16384):
            yield self.body[at : at + 16384]


def sendable(request: httpx.Request) -> None:
    """What anchors' transport refuses before any answer (`transport.py`: aiohttp's InvalidURL
    for a URL with no host, `http://x@/` after a Location of `//x@`), refused the same way."""
    if not request.url.host:
        raise httpx.UnsupportedProtocol(f"no host in {request.url}", request=request)


def answers(status: int, headers: RawHeaders, body: bytes) -> httpx.MockTransport:
    """A transport answering every request with `status`, `headers` and `body`."""

    def answer(request: httpx.Request) -> httpx.Response:
        sendable(request)
        return httpx.Response(status, headers=list(headers), stream=Streamed(body), request=request)

    return httpx.MockTransport(answer)


def service_client(transport: httpx.AsyncBaseTransport, cap: int) -> BoundedClient:
    """The services' client as `check.clients.open_services` builds it, on `transport`, with
    its answer cap lowered to `cap` (so fuzzed inputs reach it)."""
    return BoundedClient(
        deadline=5,
        max_bytes=cap,
        transport=transport,
        follow_redirects=False,
        trust_env=False,
        cookies=NoCookies(),
    )


def survives_a_write(facts: Facts | None) -> None:
    """What the history and the cache write of `facts` (UTF-8 JSON) can be written."""
    if facts is not None:
        json.dumps(facts_to_json(facts), ensure_ascii=False, sort_keys=True).encode("utf-8")
