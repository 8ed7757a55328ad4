"""atheris fuzz target for the page reader: a cited page's body read for its `#fragments`, in
any charset a server names, any content encoding, cut in any pieces, up to and past the 2 MiB
bound (`FRAGMENT_BODY_LIMIT`): decoding (anchors.net.charsets, bounded.Decoder), the steps
it is fed in (pageread) and the HTML place finder (htmlplaces, fragments). Every fragment gets
a verdict (found, missing, unverifiable); nothing may raise, and none may take seconds.

Inputs of any length reach the bound: one in sixteen is repeated to just under or just past it.

    pip install '.[fuzz]' && python fuzz/fuzz_pages.py -max_total_time=2400 -max_len=2200000
"""

from __future__ import annotations

import sys
import zlib

# aiohttp's parser is not anchors' code: loaded before the instrumented imports
import aiohttp.http_parser  # noqa: F401
import atheris
import httpx

# Not instrumented: its loop runs once per element (140,000 in a dense 2 MiB page), which
# instrumentation slows tenfold, past -timeout=2; libxml2 below it is not Python anyway.
import anchors.net.htmlplaces  # noqa: F401

with atheris.instrument_imports():
    from netfakes import answers, run

    from anchors.check.cited import Cited, CitedPlaces
    from anchors.net.answers import Answer
    from anchors.net.fragments import FRAGMENT_BODY_LIMIT, Place, page_has_fragment
    from anchors.net.pageread import read_page
    from anchors.registry.model import Anchor

URL = "http://site.example/page"
#: charsets a page may name: web encodings, codecs that are not (all read as UTF-8), noise
CHARSETS = [
    "",
    "utf-8",
    "shift_jis",
    "gb2312",
    "big5",
    "euc-kr",
    "euc-jp",
    "iso-2022-jp",
    "windows-1252",
    "koi8-r",
    "utf-16",
    "utf-16le",
    "punycode",
    "idna",
    "zlib",
    "utf-7",
    "x-user-defined",
]
ENCODINGS = ["", "identity", "gzip", "deflate", "br", "gzip, gzip"]
#: places a page may name and a citation may cite
FRAGMENTS = ["intro", "quick-start", "%E5%AE%89%E8%A3%85", "user-content-setup", "a:~:text=x"]
#: how a page may begin, before the fuzzed bytes: each way a place is named
STARTS = [
    b"",
    b'<html><body><h2 id="intro">',
    b"<h2>Quick start</h2><h2>",
    b"<a name=intro>",
    b'<div id="user-content-intro"><h3>\xe5\xae\x89\xe8\xa3\x85</h3>',
    b"\xef\xbb\xbf<!doctype html><h1>",
    b"<table><tr><td><h1><div>" * 3,
]


def _encode(body: bytes, encoding: str, level: int) -> bytes:
    """`body` as it travels: compressed for gzip and deflate when `level` says so (the
    decoder reads it), or as it is (the decoder meets bytes it cannot inflate)."""
    if level < 0 or encoding not in ("gzip", "deflate"):
        return body
    wbits = 16 + zlib.MAX_WBITS if encoding == "gzip" else zlib.MAX_WBITS
    c = zlib.compressobj(level, zlib.DEFLATED, wbits)
    return c.compress(body) + c.flush()


def _sized(body: bytes, size: int) -> bytes:
    """`body` repeated to `size` bytes (0: as it is)."""
    return (body * (size // max(len(body), 1) + 1))[:size] if size and body else body


async def _read(transport: httpx.MockTransport, wanted: list[str]) -> Answer:
    places = CitedPlaces(html={URL: [Cited(URL, f, Anchor(1)) for f in wanted]})
    reader = places.reader(URL)
    assert reader is not None
    request = httpx.Request("GET", URL)
    return await read_page(transport.handle_async_request, request, URL, reader, 5.0, 8192)


def one_input(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    charset = fdp.PickValueInList(CHARSETS)
    encoding = fdp.PickValueInList(ENCODINGS)
    level = fdp.ConsumeIntInRange(-1, 1)
    size = fdp.PickValueInList([0] * 30 + [FRAGMENT_BODY_LIMIT - 1, FRAGMENT_BODY_LIMIT + 1])
    wanted = sorted({fdp.PickValueInList(FRAGMENTS), fdp.ConsumeUnicodeNoSurrogates(12) or "x"})
    body = _sized(fdp.PickValueInList(STARTS) + fdp.ConsumeBytes(fdp.remaining_bytes()), size)
    kind = fdp.PickValueInList(["text/html", "application/xhtml+xml", "text/plain"])
    headers = [(b"Content-Type", f"{kind}; charset={charset}".encode())]
    if encoding:
        headers.append((b"Content-Encoding", encoding.encode()))
    t = run(_read(answers(200, headers, _encode(body, encoding, level)), wanted))
    assert t.status == 200
    if kind == "text/plain":
        assert t.page is None
        return
    verdicts = t.page.verdicts()  # type: ignore[union-attr]
    assert set(verdicts) == set(wanted)
    if len(body) > FRAGMENT_BODY_LIMIT and not encoding:
        # past the bound, a place not seen is never "missing"
        assert all(v.place is not Place.MISSING for v in verdicts.values()), verdicts
    if not encoding and charset in ("", "utf-8") and len(body) <= FRAGMENT_BODY_LIMIT:
        text = body.decode("utf-8", "replace")
        for f in wanted:
            if verdicts[f].place is not Place.UNVERIFIABLE:
                found = page_has_fragment([text], f)
                assert found == (verdicts[f].place is Place.FOUND), (f, verdicts[f])


if __name__ == "__main__":
    atheris.Setup(sys.argv, one_input)
    atheris.Fuzz()
