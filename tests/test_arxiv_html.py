"""arXiv's HTML full text fetched against a loopback arXiv: a real page read into passages,
kept by versioned ID (no request while fresh, a 304 after), a 404 as "no HTML version", the
bounds as gaps, and one pace for the HTML pages and the API's requests together."""

from __future__ import annotations

import asyncio
import hashlib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from anchors.check.clients import open_services
from anchors.config import Settings
from anchors.figures.abstract import passages_from_abstract
from anchors.figures.passages import PassageKind, SourceText
from anchors.ids import ArxivId
from anchors.net.cache import Cache
from anchors.net.retry import RetryPolicy
from anchors.resolve.arxiv import ArxivResolver
from anchors.resolve.arxiv_client import TimeoutSession
from anchors.resolve.arxiv_html import NO_HTML, ArxivHtml, read_arxiv_html
from anchors.resolve.arxiv_pace import ArxivPace
from anchors.resolve.github_api import ETAG_TTL

from .cassettes import load
from .loopback import LoopbackServer, Request, respond

PAGE = (Path(__file__).parent / "data" / "sources" / "arxiv-2609.01222v2.html").read_bytes()
PAPER = ArxivId.parse("2609.01222v2")


@dataclass
class FakeArxiv:
    """`/html/<id>vN` pages (with an ETag and a Last-Modified), and the API's answers from a
    cassette; every request in `order`, every status sent in `statuses`."""

    pages: dict[str, bytes] = field(default_factory=dict)
    api: str = "arxiv/venue-comment"
    order: list[str] = field(default_factory=list)
    statuses: Counter[int] = field(default_factory=Counter)
    conditional: list[str] = field(default_factory=list)

    def server(self) -> LoopbackServer:
        cassette = load(self.api)

        async def handler(req: Request, w: asyncio.StreamWriter) -> bool:
            self.order.append(req.path)
            if req.path.startswith("/api/"):
                got = cassette.find(req.method, req.path)
                assert got is not None, req.path
                body = got["body"].encode()
                return await respond(w, got["status"], body, got.get("headers"), req=req)
            status, body, headers = self._page(req)
            self.statuses[status] += 1
            slow = 3.0 if req.path.endswith("2401.00002v1") else 0.0
            return await respond(w, status, body, headers, req=req, delay=slow)

        return LoopbackServer(lambda _: handler)

    def _page(self, req: Request) -> tuple[int, bytes, dict[str, str]]:
        name = req.path.removeprefix("/html/")
        if name == "2401.00001v1":
            return 302, b"", {"Location": "http://127.0.0.2:9/html/elsewhere"}
        if name not in self.pages:
            return 404, b"<html><body>no_html</body></html>", {}
        body = self.pages[name]
        tag = '"' + hashlib.sha256(body).hexdigest()[:16] + '"'
        if req.headers.get("if-none-match"):
            self.conditional.append(name)
        if req.headers.get("if-none-match") == tag:
            return 304, b"", {"ETag": tag}
        return 200, body, {"ETag": tag, "Last-Modified": "Wed, 02 Sep 2026 10:00:00 GMT"}


def _read(
    srv: LoopbackServer, aid: ArxivId, etags: Cache, cache: Cache | None = None, **kw: object
) -> tuple[SourceText, ArxivHtml]:
    reader = ArxivHtml(srv.url("/html"), etags=etags, **kw)  # type: ignore[arg-type]
    return asyncio.run(read_arxiv_html(reader, aid, cache)), reader


def _stores(tmp_path: Path) -> tuple[Cache, Cache]:
    return Cache(tmp_path / "cache.json"), Cache(tmp_path / "etags.json", {"etag": ETAG_TTL})


def test_a_real_page_is_read_into_passages_with_their_places(tmp_path: Path) -> None:
    fake = FakeArxiv({"2609.01222v2": PAGE})
    with fake.server() as srv:
        got, reader = _read(srv, PAPER, *reversed(_stores(tmp_path)))
    assert got.scope == "HTML v2" and got.complete and reader.requests == 1
    rows = [p.text for p in got.passages if p.kind is PassageKind.TABLE_ROW]
    assert "Claude Code | 2.1.88 | TypeScript | 118.8k" in rows
    places = {p.where for p in got.passages}
    assert {"HTML v2, Table I", "HTML v2, footnote 1", "HTML v2, abstract", "HTML v2, §I"} <= places


def test_a_version_read_lately_costs_no_request_and_then_only_a_304(tmp_path: Path) -> None:
    fake = FakeArxiv({"2609.01222v2": PAGE})
    cache, etags = _stores(tmp_path)
    with fake.server() as srv:
        first, _ = _read(srv, PAPER, etags, cache)
        again, reader = _read(srv, PAPER, etags, cache)
        assert again == first and reader.requests == 0  # fresh in the run cache
        cache.save()
        expired = Cache(tmp_path / "cache.json", now=cache.now + 15 * 86400)
        later, reader = _read(srv, PAPER, etags, expired)
    assert later == first and reader.requests == 1 and reader.not_modified == 1
    assert fake.statuses == Counter({200: 1, 304: 1}) and fake.conditional == ["2609.01222v2"]


def test_a_paper_without_html_is_no_html_version_and_not_asked_again(tmp_path: Path) -> None:
    fake = FakeArxiv()
    cache, etags = _stores(tmp_path)
    with fake.server() as srv:
        got, _ = _read(srv, ArxivId.parse("1706.03762v7"), etags, cache)
        again, reader = _read(srv, ArxivId.parse("1706.03762v7"), etags, cache)
    assert got.gaps == again.gaps == (NO_HTML,) and got.passages == ()
    assert reader.requests == 0 and fake.statuses == Counter({404: 1})


def test_a_page_over_the_cap_a_timeout_or_a_redirect_away_is_a_gap(tmp_path: Path) -> None:
    fake = FakeArxiv({"2609.01222v2": PAGE})
    _, etags = _stores(tmp_path)
    with fake.server() as srv:
        small = TimeoutSession(5.0, max_bytes=1000)
        over, _ = _read(srv, PAPER, etags, session=small)
        moved, _ = _read(srv, ArxivId.parse("2401.00001v1"), etags)
        once = RetryPolicy(attempts=1)
        slow, _ = _read(srv, ArxivId.parse("2401.00002v1"), etags, timeout=0.5, policy=once)
    want = "HTML v2 could not be read: answer larger than 1000 bytes (decoded); not read"
    assert over.gaps == (want,)
    assert moved.passages == () and "redirected to 127.0.0.2; not followed" in moved.gaps[0]
    assert slow.gaps == ("HTML v1 could not be read: no complete answer within 0.5 s",)


def test_an_unversioned_id_is_refused() -> None:
    with pytest.raises(ValueError, match="by version"):
        asyncio.run(ArxivHtml("http://127.0.0.1:9/html").read(ArxivId.parse("2609.01222")))


class FakeClock:
    """Time that moves only when slept: the waits the pace asks for are exact."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds


def test_html_pages_and_api_requests_share_one_pace(tmp_path: Path) -> None:
    fake = FakeArxiv({"2609.01222v2": PAGE, "2609.01222v1": PAGE})
    clock = FakeClock()
    pace = ArxivPace(3.0, clock=clock, sleep=clock.sleep)
    _, etags = _stores(tmp_path)

    async def run(srv: LoopbackServer) -> None:
        html = ArxivHtml(srv.url("/html"), pace=pace, etags=etags)
        api = ArxivResolver(srv.url("/api/query"), delay=0.0, pace=pace)
        await html.read(PAPER)
        papers = await api.resolve([ArxivId.parse("2309.06180")])
        await html.read(ArxivId.parse("2609.01222v1"))
        abstract = papers["arxiv:2309.06180"].facts.abstract  # type: ignore[union-attr]
        found = passages_from_abstract(abstract or "", 1)
        assert any("2-4× with the same level of latency" in p.text for p in found.passages)

    with fake.server() as srv:
        asyncio.run(run(srv))
    assert [p.split("?")[0] for p in fake.order] == [
        "/html/2609.01222v2",
        "/api/query",
        "/html/2609.01222v1",
    ]
    assert pace.turns == 3 and pace.waits == [3.0, 3.0]  # each waited for the one before


def test_the_services_a_check_builds_read_html_from_the_users_root(tmp_path: Path) -> None:
    fake = FakeArxiv({"2609.01222v2": PAGE})
    with fake.server() as srv:
        settings = Settings(arxiv_html=srv.url("/html"), arxiv_delay=0.0)

        async def go() -> SourceText:
            async with open_services(settings) as s:
                assert s.arxiv_html is not None
                return await s.arxiv_html.read(PAPER)

        got = asyncio.run(go())
    assert got.complete and fake.order == ["/html/2609.01222v2"]
