"""A page's charset and how its body reaches the reader: the allow-list of encodings, the
`Content-Type` parameter read in one pass, and the body fed in bounded steps."""

from __future__ import annotations

import asyncio
import gzip
import time
from collections.abc import AsyncIterator, Callable

import httpx
import pytest

from anchors.net.bounded import AnswerTooLarge, BoundedClient, Decoder
from anchors.net.charsets import CODECS, charset_of, codec_for, text_decoder
from anchors.net.fragments import PageSearch
from anchors.net.pageread import STEP, read_page


@pytest.mark.parametrize(
    ("label", "codec"),
    [
        ("UTF-8", "utf-8"),
        ('"utf-8"', "utf-8"),
        ("Shift_JIS", "cp932"),
        ("x-sjis", "cp932"),
        ("gb2312", "gb18030"),
        ("GBK", "gb18030"),
        ("big5", "big5hkscs"),
        ("euc-kr", "cp949"),
        ("EUC-JP", "euc_jp"),
        ("iso-2022-jp", "iso2022_jp"),
        ("latin1", "cp1252"),
        ("ISO-8859-1", "cp1252"),
        ("us-ascii", "cp1252"),
        ("windows-1251", "cp1251"),
        ("koi8-r", "koi8-r"),
        ("utf-16le", "utf-16-le"),
        # not a web encoding: read as UTF-8, never decoded with what the name picks
        ("punycode", "utf-8"),
        ("idna", "utf-8"),
        ("zlib", "utf-8"),
        ("bz2_codec", "utf-8"),
        ("rot13", "utf-8"),
        ("utf-7", "utf-8"),
        ("raw_unicode_escape", "utf-8"),
        ("", "utf-8"),
        (None, "utf-8"),
        ("utf-8" + " " * 20000 + "x", "utf-8"),
    ],
)
def test_a_page_is_decoded_only_with_a_web_encoding(label: str | None, codec: str) -> None:
    assert codec_for(label) == codec
    assert codec in CODECS


def test_a_decoder_replaces_what_it_cannot_decode() -> None:
    assert text_decoder("shift_jis")(b"\x82\xa0\x81<a>", True) == "あ\ufffd<a>"
    assert text_decoder("punycode")(b"caf\xc3\xa9-", True) == "café-"


@pytest.mark.parametrize(
    ("value", "charset"),
    [
        ("text/html; charset=Shift_JIS", "Shift_JIS"),
        ('text/html;charset="utf-8"', "utf-8"),
        ("text/html; q=1; CHARSET = latin1 ", "latin1"),
        ("text/html", None),
        ("text/html; charset=", None),
        ("text/html; charset", None),
        ("", None),
        (None, None),
    ],
)
def test_the_charset_parameter_is_read(value: str | None, charset: str | None) -> None:
    assert charset_of(value) == charset


def _cpu(read: Callable[[str], object], value: str) -> float:
    """This thread's CPU seconds for `read(value)`, the best of three."""
    best = float("inf")
    for _ in range(3):
        start = time.thread_time()
        read(value)
        best = min(best, time.thread_time() - start)
    return best


def _growth(read: Callable[[str], object], make: Callable[[int], str], size: int) -> float:
    """How much dearer a value four times as long is: 4 when linear, 16 when quadratic."""
    return _cpu(read, make(4 * size)) / max(_cpu(read, make(size)), 1e-6)


def _hostile(n: int) -> str:
    """An open quote, then semicolons: each parameter is looked for again from the quote."""
    return 'text/html; a="' + ";" * n


def test_a_hostile_content_type_is_read_in_linear_time() -> None:
    """httpx's `charset_encoding` (email's parameter parser) is quadratic in a value like
    this one, which a 16 KiB header line allows (over a second a page); `charset_of` is not."""

    def httpx_charset(value: str) -> str | None:
        return httpx.Response(200, headers={"content-type": value}).charset_encoding

    assert _growth(httpx_charset, _hostile, 1000) > 7  # the measure can fail
    assert _growth(charset_of, _hostile, 64000) < 7


class _Recorder:
    """A page reader that reads nothing, and notes the size of each piece it is given."""

    limit = 2 << 20

    def __init__(self) -> None:
        self.pieces: list[int] = []
        self.cut: str | None = "unset"

    def feed(self, data: bytes) -> bool:
        self.pieces.append(len(data))
        return False

    def end(self, cut: str | None) -> None:
        self.cut = cut


class _Body(httpx.AsyncByteStream):
    def __init__(self, body: bytes) -> None:
        self.body = body

    async def __aiter__(self) -> AsyncIterator[bytes]:
        yield self.body


def _read(body: bytes, reader: _Recorder) -> int:
    """`body` (gzip, one piece on the wire) read by `reader`; how often the event loop
    turned meanwhile."""
    turns = 0

    async def ticker() -> None:
        nonlocal turns
        while True:
            turns += 1
            await asyncio.sleep(0)

    async def send(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, headers={"content-encoding": "gzip"}, stream=_Body(body))

    async def go() -> None:
        tick = asyncio.create_task(ticker())
        request = httpx.Request("GET", "http://127.0.0.1/page")
        await read_page(send, request, "http://127.0.0.1/page", lambda _: reader, 10, 8192)
        tick.cancel()

    asyncio.run(go())
    return turns


def test_a_page_is_fed_in_steps_with_a_turn_of_the_event_loop_between() -> None:
    """2 MiB that arrive as one gzip piece of 2 KB reach the reader `STEP` bytes at a time,
    and other tasks (the deadline, a stop) run between the steps."""
    reader = _Recorder()
    turns = _read(gzip.compress(b"a" * (2 << 20)), reader)
    assert max(reader.pieces) <= STEP and sum(reader.pieces) == 2 << 20
    assert turns >= len(reader.pieces) == (2 << 20) // STEP
    assert reader.cut is None


def test_the_reader_gets_the_page_up_to_its_bound_exactly() -> None:
    reader = _Recorder()
    _read(gzip.compress(b"a" * (3 << 20)), reader)
    assert sum(reader.pieces) == reader.limit and reader.cut == "bound"


def test_the_decoder_yields_pieces_within_the_limit_then_stops() -> None:
    dec = Decoder("gzip", 100_000)
    got = []
    with pytest.raises(AnswerTooLarge):
        got.extend(dec.pieces(gzip.compress(b"z" * 300_000), 30_000))
    assert [len(p) for p in got] == [30_000, 30_000, 30_000, 10_000]
    plain = Decoder(None, 10)
    assert list(plain.pieces(b"abcdefgh", 3)) == [b"abc", b"def", b"gh"]


def test_a_page_named_in_an_exotic_charset_is_searched_as_utf8() -> None:
    page = PageSearch(["intro"], "punycode")
    assert page.feed(b'<h2 id="intro">x</h2>')
    page.end(None)
    assert page.verdicts()["intro"].place.value == "found"


def test_the_services_client_sends_each_request_once_and_reads_a_3xx_as_it_came() -> None:
    """A 3xx is handed back as it came, whatever its Location (`x:y/` made httpx's own redirect
    handling raise InvalidURL), its header bytes kept; `get` as httpx's default calls it."""
    sent: list[str] = []

    def answer(request: httpx.Request) -> httpx.Response:
        sent.append(str(request.url))
        headers = [(b"Location", b"x:y/"), (b"X-Note", b"caf\xe9")]
        return httpx.Response(301, headers=headers, stream=_Body(b"{}"), request=request)

    async def go() -> httpx.Response:
        async with BoundedClient(deadline=5, transport=httpx.MockTransport(answer)) as client:
            return await client.get("http://api.example/x")

    resp = asyncio.run(go())
    assert sent == ["http://api.example/x"] and resp.status_code == 301
    assert resp.headers.raw[:2] == [(b"Location", b"x:y/"), (b"X-Note", b"caf\xe9")]
    assert resp.content == b"{}"
