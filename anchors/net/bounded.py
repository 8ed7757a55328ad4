"""Service answers read whole, but within a total deadline and a cap on their decoded size.

The link checker holds its own deadline and body cap (it reads a few KiB of a page); the API
clients (GitHub, DOI, Crossref, Wayback, Save Page Now) read whole JSON answers. A server can
answer forever (an endless chunked body), slowly (a byte every two seconds keeps per-read
timeouts from firing) or small on the wire and huge decoded (a 4 MB gzip that inflates to
4 GiB). `BoundedClient` holds one deadline per request, headers and body included, as
`--timeout` documents, and decodes gzip/deflate itself, never more than `max_bytes` at a time,
so memory stays bounded whatever the answer. The arXiv client (requests) uses the same
decoder (`read_bounded`). A whole answer is read as JSON only through `answer_json`, within
`jsonread`'s depth bound (100,000 `[` ended in RecursionError).
"""

from __future__ import annotations

import asyncio
import zlib
from collections.abc import AsyncIterator, Iterable, Iterator
from typing import Any

import httpx

from ..defaults import MAX_ANSWER_BYTES
from ..jsonread import JSONError, TooDeep, loads

__all__ = [
    "AnswerTooLarge",
    "BoundedClient",
    "Decoder",
    "Unreadable",
    "answer_json",
    "read_bounded",
]

#: the encodings this module decodes; `Accept-Encoding` asks for nothing else
ACCEPT_ENCODING = "gzip, deflate"


class AnswerTooLarge(httpx.DecodingError):
    """An answer over the cap, counted in decoded bytes."""


class Decoder:
    """A content decoder that never produces more than `limit` bytes in all (AnswerTooLarge after).

    zlib is asked for at most what is left plus one byte each time, so a bomb costs `limit`
    bytes of memory, not what it would inflate to.
    """

    def __init__(self, encoding: str | None, limit: int) -> None:
        enc = (encoding or "").strip().lower()
        self.limit, self.size = limit, 0
        self.zlib: zlib._Decompress | None = None
        if enc in ("gzip", "x-gzip"):
            self.zlib = zlib.decompressobj(16 + zlib.MAX_WBITS)
        elif enc == "deflate":
            self.zlib = zlib.decompressobj()

    def feed(self, raw: bytes) -> bytes:
        return self._count(self._inflate(raw, self.limit - self.size + 1))

    def pieces(self, raw: bytes, step: int) -> Iterator[bytes]:
        """`raw` decoded, at most `step` bytes at a time (so a reader's work between two turns
        of the event loop is bounded too), up to the limit exactly; then AnswerTooLarge."""
        if self.zlib is None:
            for start in range(0, len(raw), step):
                yield from self._within(raw[start : start + step])
            return
        while True:
            out = self._inflate(raw, step)
            raw = self.zlib.unconsumed_tail
            if out:
                yield from self._within(out)
            if not raw and len(out) < step:  # all read, nothing held back in zlib
                return

    def _within(self, out: bytes) -> Iterator[bytes]:
        room = self.limit - self.size
        if len(out) > room:
            self.size = self.limit
            if room:
                yield out[:room]
            raise AnswerTooLarge(f"answer larger than {self.limit} bytes (decoded)")
        self.size += len(out)
        yield out

    def _inflate(self, raw: bytes, most: int) -> bytes:
        if self.zlib is None:
            return raw
        try:
            return self.zlib.decompress(raw, most)
        except zlib.error as exc:
            raise httpx.DecodingError(f"answer could not be decoded ({exc})") from None

    def _count(self, out: bytes) -> bytes:
        """`out`, counted; past the limit, AnswerTooLarge (whatever of it fitted is lost)."""
        self.size += len(out)
        if self.size > self.limit:
            raise AnswerTooLarge(f"answer larger than {self.limit} bytes (decoded)")
        return out


def read_bounded(chunks: Iterable[bytes], encoding: str | None, limit: int) -> bytes:
    """The decoded body of raw `chunks`, at most `limit` bytes (AnswerTooLarge beyond)."""
    dec = Decoder(encoding, limit)
    return b"".join(dec.feed(c) for c in chunks)


async def _read(raw: AsyncIterator[bytes], encoding: str | None, limit: int) -> bytes:
    dec, out = Decoder(encoding, limit), bytearray()
    async for chunk in raw:
        out += dec.feed(chunk)
    return bytes(out)


#: headers that describe the wire form, not the decoded body the response now holds
_WIRE = frozenset({b"content-encoding", b"content-length", b"transfer-encoding"})


class BoundedClient(httpx.AsyncClient):
    """An httpx client whose every answer is complete within `deadline` seconds and at most
    `max_bytes` decoded bytes; otherwise httpx.ReadTimeout or AnswerTooLarge (httpx errors).

    `send` is httpx's one way out for `get`, `post` and `request`, so no call escapes it. It
    hands each request to `transport` itself: redirects are followed by hand, one hop a request
    (anchors.net.redirects), and httpx's own redirect handling, which parses a 3xx answer's
    Location even when it is not followed, raised InvalidURL (no httpx.HTTPError, so no caller
    caught it) for a Location such as `x:y/`.
    """

    def __init__(
        self,
        *,
        deadline: float,
        transport: httpx.AsyncBaseTransport,
        max_bytes: int = MAX_ANSWER_BYTES,
        **kwargs: Any,  # Any: httpx.AsyncClient's own arguments, handed on untouched
    ) -> None:
        kwargs.setdefault("headers", {})
        super().__init__(transport=transport, **kwargs)
        self.headers["Accept-Encoding"] = ACCEPT_ENCODING
        self.deadline = deadline
        self.max_bytes = max_bytes
        self.wire = transport

    # Any: httpx's `send` arguments (stream, auth, follow_redirects), handed on untouched
    async def send(self, request: httpx.Request, **kwargs: Any) -> httpx.Response:
        request.extensions.setdefault("timeout", self.timeout.as_dict())
        try:
            async with asyncio.timeout(self.deadline):
                resp = await self.wire.handle_async_request(request)
                try:
                    body = await _read(
                        resp.aiter_raw(), resp.headers.get("content-encoding"), self.max_bytes
                    )
                finally:
                    await resp.aclose()
        except TimeoutError:
            raise httpx.ReadTimeout(
                f"no complete answer within {self.deadline:g} s", request=request
            ) from None
        # The headers as the server sent them, bytes: rebuilt from decoded text, a byte outside
        # ASCII (`X-Note: café`, a raw UTF-8 Location) raised UnicodeEncodeError here.
        headers = [(k, v) for k, v in resp.headers.raw if k.lower() not in _WIRE]
        return httpx.Response(
            resp.status_code,
            headers=headers,
            content=body,
            request=request,
            extensions=resp.extensions,
        )


class Unreadable(ValueError):
    """An answer that is JSON by its own account (its Content-Type, or its nesting) and cannot
    be read: what it would have said is unverifiable, for the reason given."""


def answer_json(resp: httpx.Response) -> object:
    """The JSON value of a service's answer (`jsonread.loads`: depth-bounded); None when the
    answer is not JSON at all (a web page, as a wrong endpoint sends); Unreadable when it says
    it is JSON, or nests like JSON, and cannot be read."""
    try:
        return loads(resp.content)
    except TooDeep as exc:
        raise Unreadable(str(exc)) from None
    except JSONError as exc:
        if "json" in resp.headers.get("content-type", "").lower():
            raise Unreadable(str(exc)) from None
        return None
