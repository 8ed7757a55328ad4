"""A cited `#fragment`'s page is a network answer: its headers and markup cannot steer the run.

`check` reads the page of a URL cited with a fragment (a GET, not its HEAD) to look for the
place. Each case is a loopback page a hostile server could send: a charset naming a
decompressor or a codec that raises, a `gzip, gzip` bomb that is 3 KB on the wire, markup on
which Python's own HTML parser is quadratic or raises. The run ends with a verdict for the
link and `unverifiable` for the place, never a traceback, a hang or the memory of the bomb.
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import json
import os
import signal
import subprocess
import sys
import time
import zlib
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from anchors.cli.app import app
from anchors.net.charsets import CODECS, codec_for
from anchors.net.pageread import STEP

from ..loopback import LoopbackServer, Request, respond
from ..registries import url_registry

pytestmark = [pytest.mark.reliability(kind="security"), pytest.mark.timeout(90)]
MIB = 1 << 20
ROOT = Path(__file__).resolve().parents[2]


def _gzip(pieces: Iterable[bytes], level: int) -> bytes:
    c = zlib.compressobj(level, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    return b"".join([*(c.compress(p) for p in pieces), c.flush()])


def _check(
    tmp_path: Path, body: bytes, headers: dict[str, str], pages: int = 1
) -> tuple[dict, str]:
    """`check -f json` of `pages` URLs cited as `#intro`, each page `body` with `headers`."""

    async def page(req: Request, w):  # type: ignore[no-untyped-def]
        return await respond(w, 200, body, headers, req=req)

    with LoopbackServer(lambda req: page) as srv:
        reg = url_registry(tmp_path, (srv.url(f"/doc{i}#intro") for i in range(pages)))
        args = ["check", str(reg), "--allow-private", "--no-cache", "-f", "json"]
        r = CliRunner().invoke(app, [*args, "--today", "2026-12-02", "--timeout", "5"])
    assert r.exit_code in (0, 1) and r.exception is None or isinstance(r.exception, SystemExit), (
        repr(r.exception),
        r.stderr[-2000:],
    )
    return json.loads(r.stdout), r.stderr


def _place(doc: dict) -> tuple[str, str]:
    """The finding about the cited place, (code, message); ("found", "") when there is none."""
    about = [f for f in doc["findings"] if f["code"] in ("missing-fragment", "unverifiable")]
    return (about[0]["code"], about[0]["message"]) if about else ("found", "")


@pytest.mark.parametrize(
    "charset", ["zlib", "bz2", "base64", "hex", "uu", "rot13", "utf-16", "undefined", "idna"]
)
def test_a_page_charset_cannot_pick_a_decompressor_or_crash_the_run(
    tmp_path: Path, charset: str
) -> None:
    """A charset is a text encoding or none (then UTF-8): `zlib`, `bz2` would inflate the page
    unbounded, and they, `rot13`, BOM-less `utf-16`, `undefined`, `idna` raise in the decoder."""
    page = b'<html><body><h2 id="intro">Intro</h2></body></html>'
    doc, _ = _check(tmp_path, page, {"Content-Type": f"text/html; charset={charset}"})
    assert doc["states"]["failing"] == 0  # the link answered 200: it is not dead
    code, _ = _place(doc)
    assert code in ("found", "unverifiable")  # never "missing" on a page that was not read


@pytest.mark.slow
def test_a_double_gzip_bomb_costs_the_bound_not_what_it_inflates_to(tmp_path: Path) -> None:
    """`Content-Encoding: gzip, gzip`, 3 KB on the wire, 512 MiB decoded: the page is not
    read (an encoding anchors does not decode) and the run's memory stays far below it."""
    inner = _gzip((b"\0" * (16 * MIB) for _ in range(32)), 1)
    bomb = _gzip([inner], 9)
    assert len(bomb) < 8192

    async def page(req: Request, w):  # type: ignore[no-untyped-def]
        head = {"Content-Type": "text/html", "Content-Encoding": "gzip, gzip"}
        return await respond(w, 200, bomb, head, req=req)

    # The child's own peak is VmHWM, kept per address space and reset by exec. Not
    # getrusage's ru_maxrss: Linux folds the pre-exec memory into it, and a vfork'd child's
    # pre-exec memory is this pytest worker's, so it measured the worker, not the check.
    code = (
        "import re, sys\nfrom pathlib import Path\nfrom anchors.cli.app import app\n"
        "try:\n    app(sys.argv[1:])\nexcept SystemExit as e:\n"
        "    status = Path('/proc/self/status').read_text()\n"
        "    peak = int(re.search(r'VmHWM:\\s+(\\d+)', status).group(1)) // 1024\n"
        "    print(f'exit {e.code} peak {peak}', file=sys.stderr)\n"
    )
    with LoopbackServer(lambda req: page) as srv:
        reg = url_registry(tmp_path, [srv.url("/doc#intro")])
        args = ["check", str(reg), "--allow-private", "--no-cache", "-f", "json"]
        r = subprocess.run(
            [sys.executable, "-c", code, *args, "--today", "2026-12-02"],
            capture_output=True,
            text=True,
            timeout=35,
            check=False,
        )
    *_, last = r.stderr.splitlines()
    exit_code, peak_mib = int(last.split()[1]), int(last.split()[3])
    assert exit_code in (0, 1), r.stderr[-2000:]
    assert peak_mib < 300, f"peak resident memory {peak_mib} MiB for a 3 KB answer"
    assert _place(json.loads(r.stdout))[0] == "unverifiable"


def test_an_encoding_anchors_does_not_read_leaves_the_place_unverifiable(tmp_path: Path) -> None:
    """A page in an encoding not asked for is not searched as if it were text: a place it
    may well have is not called missing."""
    doc, _ = _check(tmp_path, b"\x1f\x8b not really", {"Content-Encoding": "br"})
    code, message = _place(doc)
    assert code == "unverifiable" and "Content-Encoding" in message, message


@pytest.mark.parametrize(
    "markup",
    [
        b"<a " + b"x=1 " * (MIB // 2),  # an open tag scanned again on every piece: quadratic
        b"<!" * MIB,  # a declaration looked for to the end from each `<!`: quadratic on close
        b"<![" * (MIB // 2),  # html.parser (3.11) raises AssertionError
    ],
    ids=["open-tag", "bang", "marked-section"],
)
def test_hostile_markup_ends_in_a_verdict(tmp_path: Path, markup: bytes) -> None:
    """Six pages of 2 MiB (the most read for a fragment) of markup that keeps html.parser
    busy between two awaits (where no --timeout can end it: 12 to 60 s a page on 3.11) or
    raises: each read in one linear pass, a verdict for each place (the test's 40 s guard is
    against the hang, with room to spare)."""
    doc, _ = _check(tmp_path, markup, {"Content-Type": "text/html"}, pages=6)
    assert doc["states"]["failing"] == 0
    about = [f["code"] for f in doc["findings"]]
    assert len(about) == 6 and set(about) <= {"missing-fragment", "unverifiable"}, about


def test_a_place_below_what_the_parser_reads_is_unverifiable_not_missing(tmp_path: Path) -> None:
    page = b"<div>" * 400 + b'<h2 id="intro">Intro</h2>'
    doc, _ = _check(tmp_path, page, {"Content-Type": "text/html"})
    code, message = _place(doc)
    assert code == "unverifiable" and "deeper than" in message, message
    shallow, _ = _check(tmp_path, b"<div>" * 200 + b'<h2 id="intro">Intro</h2>', {})
    assert _place(shallow)[0] == "found"


#: a page punycode's decoder takes minutes over (its insertion loop is quadratic): a 1 MiB
#: "basic" part, then 1 MiB of one-digit deltas, each an insertion into all that came before
PUNY = b"x" * MIB + b"-" + b"a" * (MIB - 64)


def _spawn(reg: Path, *more: str) -> subprocess.Popen[bytes]:
    args = ["check", str(reg), "--allow-private", "--no-cache", "-f", "json", "-q"]
    return subprocess.Popen(
        [sys.executable, "-m", "anchors", *args, "--today", "2026-12-02", *more],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "NO_COLOR": "1", "PYTHONPATH": str(ROOT)},
    )


def _puny_site(charset: str, page: bytes = PUNY) -> LoopbackServer:
    """`/doc` is `page` gzipped (PUNY: 2 KB on the wire), in `charset`; `/slow` never ends."""
    body = _gzip([page], 9)

    async def answer(req: Request, w):  # type: ignore[no-untyped-def]
        if req.path.startswith("/slow"):
            w.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 99\r\n\r\n<")
            await w.drain()
            await asyncio.sleep(60)
            return False
        head = {"Content-Type": f"text/html; charset={charset}", "Content-Encoding": "gzip"}
        return await respond(w, 200, body, head, req=req)

    return LoopbackServer(lambda req: answer)


def _timed_check(
    tmp_path: Path, charset: str, timeout: int, page: bytes = PUNY
) -> tuple[float, dict]:
    with _puny_site(charset, page) as srv:
        reg = url_registry(tmp_path, [srv.url("/doc#intro")])
        start = time.monotonic()
        p = _spawn(reg, "--timeout", str(timeout))
        try:
            out, err = p.communicate(timeout=timeout + 30)  # a hang takes minutes
        finally:
            if p.poll() is None:
                p.kill()
                p.communicate()
        elapsed = time.monotonic() - start
    assert p.returncode in (0, 1) and b"Traceback" not in err, err[-2000:]
    return elapsed, json.loads(out)


@pytest.mark.slow
def test_a_punycode_page_is_read_as_utf8_within_the_timeout(tmp_path: Path) -> None:
    """`charset=punycode` is not an encoding a page reader decodes: the page is read as UTF-8
    (the place is missing, the link fine) in about the time the same page takes as UTF-8,
    where punycode's decoder kept the event loop for 245 s, past `--timeout 3`."""
    baseline, _ = _timed_check(tmp_path, "utf-8", 3)
    elapsed, doc = _timed_check(tmp_path, "punycode", 3)
    assert doc["states"]["failing"] == 0
    assert _place(doc) == (
        "missing-fragment",
        "#intro: the page has no element with this id or name; the link itself is fine",
    )
    assert elapsed < 3 * baseline, (elapsed, baseline)


#: headings whose text is one long run of combining marks, which Python normalizes by insertion
#: (a heading's slug is normalized): about 300,000 marks took minutes
MARKS = (
    b"".join(b"<h2>a" + "\u0301\u0316".encode() * 50_000 + b"</h2>" for _ in range(3))
    + b'<h2 id="intro">'
)


@pytest.mark.slow
def test_headings_of_combining_marks_are_read_within_the_timeout(tmp_path: Path) -> None:
    """The place after them is found, in about the time the page takes as plain text."""
    baseline, _ = _timed_check(tmp_path, "utf-8", 3, b"<h2>a" + b"x" * len(MARKS))
    elapsed, doc = _timed_check(tmp_path, "utf-8", 3, MARKS)
    assert _place(doc) == ("found", "") and doc["states"]["ok"] == 1
    assert elapsed < 3 * baseline, (elapsed, baseline)


@pytest.mark.slow
def test_sigterm_ends_a_run_reading_a_hostile_page_at_once(tmp_path: Path) -> None:
    """A run stopped while it reads pages ends within seconds (143), whatever the pages: the
    reader gives the event loop a turn every `STEP` bytes, so the stop is seen."""
    with _puny_site("punycode") as srv:
        urls = [srv.url("/doc#intro"), srv.url("/slow#intro")]
        p = _spawn(url_registry(tmp_path, urls), "--timeout", "60")
        try:
            deadline = time.monotonic() + 30
            while len(srv.counts) < 2 and time.monotonic() < deadline:
                time.sleep(0.05)
            time.sleep(1.0)  # both pages are being read
            p.send_signal(signal.SIGTERM)
            stopped = time.monotonic()
            _, err = p.communicate(timeout=15)
            waited = time.monotonic() - stopped
        finally:
            if p.poll() is None:
                p.kill()
                p.communicate()
    assert p.returncode == 143, err[-2000:]
    assert b"Traceback" not in err and b"terminated" in err
    assert waited < 10, waited


#: a name lookup that hangs as one on a silent DNS server does (no real name is resolved)
_SLOW_DNS = """
import pathlib, socket, time
def _lookup(host, *args, **kwargs):
    pathlib.Path(__file__).with_name("asked").touch()
    time.sleep(60)
    raise socket.gaierror(socket.EAI_AGAIN, "Temporary failure in name resolution")
socket.getaddrinfo = _lookup
"""


@pytest.mark.slow
def test_sigterm_ends_a_run_whose_name_lookup_hangs(tmp_path: Path) -> None:
    """Name lookups run in threads; asyncio.run waited for them at the end, so a stopped run
    lived as long as the lookup (30 s and more): now a stop ends it within seconds."""
    hook = tmp_path / "hook"
    hook.mkdir()
    (hook / "sitecustomize.py").write_text(_SLOW_DNS, encoding="utf-8")
    reg = url_registry(tmp_path, ["https://docs.invalid/page"])
    p = subprocess.Popen(
        [sys.executable, "-m", "anchors", "check", str(reg), "--no-cache", "-q"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "NO_COLOR": "1", "PYTHONPATH": f"{hook}{os.pathsep}{ROOT}"},
    )
    try:
        deadline = time.monotonic() + 30
        while not (hook / "asked").exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        p.send_signal(signal.SIGTERM)
        stopped = time.monotonic()
        _, err = p.communicate(timeout=20)
        waited = time.monotonic() - stopped
    finally:
        if p.poll() is None:
            p.kill()
            p.communicate()
    assert (hook / "asked").exists()
    assert p.returncode == 143 and b"Traceback" not in err, err[-2000:]
    assert waited < 10, waited


#: bytes each codec is fed in long runs: every byte, bytes no table maps, lead bytes with no
#: trail, escapes that switch a stateful codec back and forth, lone surrogates, cut sequences
_RUNS = [bytes(range(256)), b"\xff", b"\x80"]
_MULTIBYTE_RUNS = [
    b"\x81",
    b"\x8e",
    b"\x8f",
    b"\x81\x30",
    b"\x1b",
    b"\x1b$",
    b"\x1b$B",
    b"\x1b$B\x1b(B",
    b"\x1b$B\x21",
    b"\x0e",
    b"\xd8\x00",
    b"\xf0\x90\x80",
    b"\xed\xa0\x80",
    b"\xc0",
]


def _decode_cost(codec: str, data: bytes, step: int) -> float:
    """CPU seconds (this thread's: the machine's other load does not count) to decode `data`
    fed `step` bytes at a time, repeated until the rounds take 5 ms."""
    rounds, start = 0, time.thread_time()
    while not rounds or time.thread_time() - start < 0.005:
        rounds += 1
        decode = codecs.getincrementaldecoder(codec)(errors="replace").decode
        with contextlib.suppress(UnicodeError):  # UTF-16 without a BOM: never decoded
            for at in range(0, len(data), step):
                decode(data[at : at + step])
            decode(b"", True)
    return (time.thread_time() - start) / rounds


#: a linear decoder costs ~8x for eight times the input, a quadratic one ~64x (punycode ~30x
#: from 8 KiB); 16 sits between them with room for a loaded machine's caches on either side
#: (at four times the input the two were 4-7.5 against 7-10 and overlapped under CI load)
GROWTH = 8
QUADRATIC = 16


def _growth(codec: str, make: Callable[[int], bytes], size: int, step: int) -> float:
    """How much dearer `GROWTH` times the input is, the two sizes measured in turn (best of
    three rounds each) so a burst of load elsewhere falls on both."""
    small = large = float("inf")
    for _ in range(3):
        small = min(small, _decode_cost(codec, make(size), step))
        large = min(large, _decode_cost(codec, make(GROWTH * size), step))
    return large / small


def _run_of(unit: bytes) -> Callable[[int], bytes]:
    """`unit` repeated to `size` bytes, after a byte order mark (which only UTF-16 reads)."""
    return lambda size: b"\xff\xfe" + (unit * (size // len(unit) + 1))[:size]


@pytest.mark.slow
@pytest.mark.parametrize("codec", sorted(CODECS))
def test_every_codec_a_page_may_name_decodes_in_linear_time(codec: str) -> None:
    """Each codec of the allow-list, on long runs of what its decoder finds hardest, fed as
    the page reader feeds it (`STEP` bytes at a time) and byte by byte (a stateful decoder
    that rescanned what it holds back would show there)."""
    # a table codec (single-byte) keeps no state between pieces: each byte is decoded alone
    single = codecs.lookup(codec).incrementaldecoder.__mro__[1] is codecs.IncrementalDecoder
    for unit in _RUNS if single else _RUNS + _MULTIBYTE_RUNS:
        assert _growth(codec, _run_of(unit), 64 << 10, STEP) < QUADRATIC, (codec, unit)
        assert _growth(codec, _run_of(unit), 2 << 10, 1) < QUADRATIC, (codec, unit)


@pytest.mark.slow
def test_the_linearity_measure_catches_a_quadratic_codec() -> None:
    """The measure above can fail: punycode (not on the list) grows ~30x for 8x the input."""
    assert "punycode" not in CODECS and codec_for("punycode") == "utf-8"

    def puny(size: int) -> bytes:
        return b"x" * (size // 2) + b"-" + b"a" * (size // 2)

    assert _growth("punycode", puny, 8 << 10, 1 << 30) >= QUADRATIC
