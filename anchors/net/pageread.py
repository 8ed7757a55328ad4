"""Reading a page's body for a reader (a cited `#fragment`), beside the link's verdict.

The link checker sends a GET instead of its HEAD for a URL whose page is read; the body of a
2xx answer goes to the page's reader, decoded, up to the reader's own bound, under the same
one deadline as every request. The verdict is still the answer's: a body cut short by the
deadline or broken off is the reader's to say (its fragments unverifiable), never the link's.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import httpx

from .answers import (
    Answer,
    PageReader,
    ReaderFor,
    error_answer,
    guard_answer,
    status_answer,
    timeout_answer,
)
from .bounded import ACCEPT_ENCODING, AnswerTooLarge, Decoder
from .netguard import Blocked, NameNotFound, ResolveFailed

__all__ = ["PAGE_HEADERS", "STEP", "head_of_body", "read_page"]

#: what a page read is asked with besides the checker's own headers: only encodings `_feed`
#: decodes
PAGE_HEADERS = {"Accept-Encoding": ACCEPT_ENCODING}


async def read_page(
    send: Callable[[httpx.Request], Awaitable[httpx.Response]],
    request: httpx.Request,
    url: str,
    reader_for: ReaderFor,
    timeout: float,
    body_cap: int,
) -> Answer:
    """`request` sent; a 2xx body read by its reader, any other's head kept for the verdict
    (as the checker's GET does), within `timeout` seconds in all."""
    deadline = asyncio.get_running_loop().time() + timeout
    try:
        async with asyncio.timeout_at(deadline):
            resp = await send(request)
    except TimeoutError:
        return timeout_answer(timeout)
    except (Blocked, NameNotFound, ResolveFailed) as exc:
        return guard_answer(exc)
    except httpx.HTTPError as exc:
        return error_answer(exc, timeout)
    page = reader_for(resp) if 200 <= resp.status_code < 300 else None
    body, cut = b"", None
    try:
        async with asyncio.timeout_at(deadline):
            try:
                if page is None:
                    body = await head_of_body(resp, body_cap)
                else:
                    cut = await _feed(resp, page)
            finally:
                await resp.aclose()
    except TimeoutError:
        if page is None:
            return timeout_answer(timeout)
        cut = "timeout"
    except httpx.HTTPError as exc:
        if page is None:
            return error_answer(exc, timeout)
        cut = "error"
    if page is not None:
        page.end(cut)
    answer = status_answer(url, resp, body)
    answer.page = page
    return answer


async def _feed(resp: httpx.Response, page: PageReader) -> str | None:
    """Feed `page` the decoded body until it has seen enough or the body ends (None), or its
    bound is passed ("bound"). The body is decoded here, never past the bound (`Decoder`):
    httpx's own decoding would inflate each piece whole, and `gzip, gzip` a thousandfold
    again; an encoding anchors does not decode leaves the page unread ("encoding"). The page
    is fed `STEP` bytes at a time, the event loop getting a turn after each, so the deadline
    and a stop (SIGTERM, Ctrl-C) end the read within one step's work, whatever the page."""
    encoding = (resp.headers.get("content-encoding") or "").strip().lower()
    if encoding not in _DECODED:
        return "encoding"
    decoder = Decoder(encoding, page.limit)
    async for raw in resp.aiter_raw():
        try:
            for piece in decoder.pieces(raw, STEP):
                if page.feed(piece):
                    return None
                await asyncio.sleep(0)
        except AnswerTooLarge:
            return "bound"
        except httpx.DecodingError:
            return "error"
    return None


#: decoded bytes a page's reader is given at once (decoding and parsing them takes ~1 ms)
STEP = 64 * 1024
#: the content encodings a page may come in (what the request's Accept-Encoding offers)
_DECODED = frozenset({"", "identity", "gzip", "x-gzip", "deflate"})


async def head_of_body(resp: httpx.Response, cap: int) -> bytes:
    """At most `cap` bytes of a body that is only judged: what a verdict needs (a challenge
    page's marks are in its head)."""
    got = bytearray()
    async for chunk in resp.aiter_raw():
        got += chunk
        if len(got) >= cap:
            break
    return bytes(got[:cap])
