"""A cited `#fragment`'s page is a network answer: its headers and markup cannot steer the run.

`check` reads the page of a URL cited with a fragment (a GET, not its HEAD) to look for the
place. Each case is a loopback page a hostile server could send: a charset naming a
decompressor or a codec that raises, a `gzip, gzip` bomb that is 3 KB on the wire, markup on
which Python's own HTML parser is quadratic or raises. The run ends with a verdict for the
link and `unverifiable` for the place, never a traceback, a hang or the memory of the bomb.
"""

from __future__ import annotations

import json
import subprocess
import sys
import zlib
from collections.abc import Iterable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from anchors.cli.app import app

from ..loopback import LoopbackServer, Request, respond
from ..registries import url_registry

pytestmark = [pytest.mark.reliability(kind="security"), pytest.mark.timeout(40)]
MIB = 1 << 20


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
