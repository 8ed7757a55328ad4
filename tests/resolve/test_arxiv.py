"""The arXiv resolver against cassettes replayed by a loopback server, through the real `arxiv`
client."""

from __future__ import annotations

import asyncio
import itertools
from dataclasses import replace
from datetime import datetime

import pytest

from anchors.ids import AnchorKind, ArxivId
from anchors.net.links import Outcome
from anchors.net.retry import RetryPolicy
from anchors.resolve.arxiv import ARXIV_BATCH, ArxivResolver
from anchors.resolve.arxiv_html import abstract_of
from anchors.resolve.base import Resolution

from ..cassettes import load
from ..loopback import LoopbackServer, respond
from ..vtime import ArxivTime


def ids(*texts: str) -> list[ArxivId]:
    return [ArxivId.parse(t) for t in texts]


def resolve(srv: LoopbackServer, keys: list[ArxivId], **kw: object) -> tuple[dict, ArxivResolver]:
    r = ArxivResolver(srv.url("/api/query"), delay=0.0, **kw)  # type: ignore[arg-type]
    return asyncio.run(r.resolve(keys)), r


def test_batch_is_matched_by_id_not_position() -> None:
    cas = load("arxiv/batch-three-ids")
    with cas.serve() as srv:
        got, r = resolve(srv, ids("1706.03762", "2309.06180v1", "2312.07104"))
    assert r.requests == 1 and sum(srv.counts.values()) == 1
    assert (
        got["arxiv:2312.07104"].facts.title
        == "SGLang: Efficient Execution of Structured Language Model Programs"
    )
    assert got["arxiv:1706.03762"].facts.title == "Attention Is All You Need"
    assert got["arxiv:1706.03762"].facts.version == 7
    assert got["arxiv:2309.06180"].outcome is Outcome.OK


def test_the_abstract_the_api_returns_is_kept_with_its_version() -> None:
    with load("arxiv/venue-comment").serve() as srv:
        got, _ = resolve(srv, ids("2309.06180"))
    facts = got["arxiv:2309.06180"].facts
    assert facts.abstract.startswith("High throughput serving of large language models (LLMs)")
    assert "by 2-4$\\times$ with the same level" in facts.abstract  # raw TeX, as the API gives it
    cached = Resolution.from_cache(AnchorKind.ARXIV, got["arxiv:2309.06180"].to_cache())
    assert cached.facts == facts  # a cached run has it too, at no request
    sentences = abstract_of(facts, ArxivId.parse("2309.06180v1"))
    assert sentences is not None and sentences.scope == "abstract v1"
    assert "by 2-4× with the same level of latency" in sentences.passages[5].text
    assert abstract_of(facts, ArxivId.parse("2309.06180")) == sentences
    assert abstract_of(replace(facts, version=3), ArxivId.parse("2309.06180v1")) is None


def test_missing_id_is_asked_again_alone_then_not_found() -> None:
    cas = load("arxiv/missing-id-confirmed")
    with cas.serve() as srv:
        got, r = resolve(srv, ids("1707.08567", "2401.99999"))
    assert r.requests == 2
    assert got["arxiv:1707.08567"].outcome is Outcome.OK
    assert got["arxiv:2401.99999"].outcome is Outcome.DEAD
    assert "asked twice" in (got["arxiv:2401.99999"].error or "")


def test_sporadic_empty_feed_is_not_proof() -> None:
    with load("arxiv/empty-then-found").serve() as srv:
        got, r = resolve(srv, ids("1706.03762"))
    assert r.requests == 2 and got["arxiv:1706.03762"].outcome is Outcome.OK


def test_old_style_id() -> None:
    with load("arxiv/old-style-id").serve() as srv:
        got, _ = resolve(srv, ids("astro-ph/0601001"))
    assert got["arxiv:astro-ph/0601001"].facts.title.startswith("Frequency of Hot Jupiters")


def test_error_feed_is_never_read_as_a_paper() -> None:
    with load("arxiv/error-400").serve() as srv:
        got, _ = resolve(srv, ids("2609.18063"))
    res = got["arxiv:2609.18063"]
    assert res.outcome is Outcome.UNVERIFIABLE and res.facts is None and res.status == 400
    assert sum(srv.counts.values()) == 1  # a 400 is not retried (anchors.net.retry)


def test_withdrawn_comment() -> None:
    with load("arxiv/withdrawn").serve() as srv:
        got, _ = resolve(srv, ids("1706.03762"))
    assert "withdrawn" in (got["arxiv:1706.03762"].facts.withdrawn or "")


def _feed(ids_: list[str]) -> bytes:
    entries = "".join(
        f"<entry><id>http://arxiv.org/abs/{i}v1</id><title>Paper {i}</title>"
        "<updated>2026-01-01T00:00:00Z</updated><published>2026-01-01T00:00:00Z</published>"
        "<summary>s</summary><author><name>A</name></author></entry>"
        for i in ids_
    )
    return (
        "<?xml version='1.0' encoding='UTF-8'?><feed xmlns='http://www.w3.org/2005/Atom' "
        "xmlns:opensearch='http://a9.com/-/spec/opensearch/1.1/'>"
        f"<opensearch:totalResults>{len(ids_)}</opensearch:totalResults>"
        f"<opensearch:startIndex>0</opensearch:startIndex>{entries}</feed>"
    ).encode()


def test_batches_of_100_spaced_by_the_delay(monkeypatch: pytest.MonkeyPatch) -> None:
    from urllib.parse import parse_qs, urlsplit

    clock = ArxivTime(monkeypatch)
    asked: list[tuple[datetime, int, str]] = []

    def route(_):
        async def handler(req, w):
            q = parse_qs(urlsplit(req.path).query)
            batch = q["id_list"][0].split(",")
            asked.append((clock.now(), len(batch), q["max_results"][0]))
            return await respond(
                w, 200, _feed(batch), {"Content-Type": "application/atom+xml"}, req=req
            )

        return handler

    keys = [ArxivId.parse(f"2601.{i:05d}") for i in range(1, 251)]
    with LoopbackServer(route) as srv:
        got = asyncio.run(ArxivResolver(srv.url("/api/query"), delay=3.0).resolve(keys))
    assert [n for _, n, _ in asked] == [ARXIV_BATCH, ARXIV_BATCH, 50]
    assert [m for _, _, m in asked] == ["100", "100", "50"]
    gaps = [(b[0] - a[0]).total_seconds() for a, b in itertools.pairwise(asked)]
    assert gaps == [3.0, 3.0] and len(clock.waits) == 2  # spaced by waiting, on the clock
    assert all(r.outcome is Outcome.OK for r in got.values()) and len(got) == 250


def test_stalled_api_times_out_as_unreachable() -> None:
    async def stall(req, w):
        await asyncio.sleep(5)
        return False

    with LoopbackServer({"/api/query": stall}) as srv:
        got = asyncio.run(
            ArxivResolver(
                srv.url("/api/query"), delay=0.0, timeout=0.1, policy=RetryPolicy(attempts=1)
            ).resolve(ids("2609.18063"))
        )
    res = got["arxiv:2609.18063"]
    # the timeout ended it (the server would hang up after 5 s: a ConnectionError)
    assert res.outcome is Outcome.UNREACHABLE and "Timeout" in (res.error or ""), res
