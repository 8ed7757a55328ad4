"""The one adapter over the `arxiv` package's internals, and arXiv under the one retry policy.

`arxiv.Client` has no request timeout, so anchors replaces its private `_session`
(anchors/resolve/arxiv_client.py). These tests fail loudly if that attribute disappears
or stops being what the client sends through, instead of letting checks run without a timeout.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Callable
from pathlib import Path

import arxiv
import pytest
import requests

from anchors.ids import ArxivId
from anchors.net.links import Outcome
from anchors.resolve.arxiv import ArxivResolver
from anchors.resolve.arxiv_client import (
    TimeoutSession,
    _is_feed,
    make_client,
    with_timeout,
)

from ..loopback import LoopbackServer, respond
from ..vtime import VirtualTime

FEED = (Path(__file__).parent.parent / "data" / "fixtures" / "arxiv-api-found.xml").read_bytes()
KEY = ArxivId.parse("2312.07104")


def test_the_private_session_the_adapter_relies_on_is_still_there() -> None:
    """If this fails, the installed arxiv changed: update arxiv_client.py and the pin."""
    assert isinstance(arxiv.Client()._session, requests.Session)
    c = make_client("http://127.0.0.1:9/api/query", page_size=5, delay=0.0, timeout=1.5)
    assert isinstance(c._session, TimeoutSession) and c._session.timeout == 1.5
    assert c.num_retries == 0  # the policy retries, not the client
    assert c.query_url_format == "http://127.0.0.1:9/api/query?{}"
    assert arxiv.Client.query_url_format.startswith("https://export.arxiv.org/")  # untouched


def test_a_client_without_the_session_is_refused_loudly() -> None:
    c = arxiv.Client()
    del c._session
    with pytest.raises(RuntimeError, match="_session"):
        with_timeout(c, 1.0)


def test_the_client_sends_through_the_replaced_session() -> None:
    """Every request goes through the adapter's session, with its timeout (the stalled-API
    test in test_arxiv.py shows the timeout ending a request)."""
    sent: list[float | None] = []

    class Recording(TimeoutSession):
        def send(self, request, **kwargs):  # type: ignore[no-untyped-def]
            sent.append(kwargs.get("timeout"))  # what requests hands its adapter
            return super().send(request, **kwargs)

    async def feed(req, w):
        return await respond(w, 200, FEED, {"Content-Type": "application/atom+xml"}, req=req)

    with LoopbackServer({"/api/query": feed}) as srv:
        r = ArxivResolver(srv.url("/api/query"), delay=0.0, timeout=2.0)
        r.client._session = Recording(2.0)
        got = asyncio.run(r.resolve([KEY]))
    assert got[KEY.key].outcome is Outcome.OK and sent == [2.0]


def serve(*statuses: int):
    async def handler(req, w):
        if req.n < len(statuses):
            return await respond(w, statuses[req.n], b"", req=req)
        return await respond(w, 200, FEED, {"Content-Type": "application/atom+xml"}, req=req)

    return LoopbackServer({"/api/query": handler})


def resolve(srv: LoopbackServer, vt: VirtualTime, waits: list[float]):
    r = ArxivResolver(srv.url("/api/query"), delay=0.0, policy=vt.policy(), sleep=waits.append)
    return asyncio.run(r.resolve([KEY]))[KEY.key]


def test_an_arxiv_503_then_the_feed_is_retried_by_the_policy() -> None:
    waits: list[float] = []
    with serve(503) as srv:
        res = resolve(srv, VirtualTime(), waits)
        sent = sum(srv.counts.values())
    assert res.outcome is Outcome.OK and res.facts.title and sent == 2
    assert len(waits) == 1 and 0 < waits[0] <= 0.25  # the policy's backoff, in this thread


def test_arxiv_errors_the_policy_does_not_retry_are_asked_once() -> None:
    waits: list[float] = []
    with serve(400) as srv:
        res = resolve(srv, VirtualTime(), waits)
        sent = sum(srv.counts.values())
    assert (res.outcome, res.status, sent, waits) == (Outcome.UNVERIFIABLE, 400, 1, [])


def test_arxiv_that_keeps_failing_is_asked_attempts_times() -> None:
    waits: list[float] = []
    with serve(503, 503, 503, 503) as srv:
        res = resolve(srv, VirtualTime(), waits)
        sent = sum(srv.counts.values())
    assert res.outcome is Outcome.RATE_LIMITED and sent == 3 and len(waits) == 2
    assert "after 3 tries" in (res.error or "")


def test_a_refused_arxiv_connection_is_not_retried() -> None:
    """Same rule as links: nothing listens there, so asking again changes nothing."""
    with LoopbackServer({}) as srv:
        url = srv.url("/api/query")
    waits: list[float] = []  # the server is closed now: its port refuses
    r = ArxivResolver(url, delay=0.0, sleep=waits.append)
    res = asyncio.run(r.resolve([KEY]))[KEY.key]
    assert res.outcome is Outcome.UNREACHABLE and r.requests == 1 and waits == []


def _feed_cost(is_feed: Callable[[bytes], object], size: int) -> float:
    """CPU seconds to tell whether `size` bytes of `<feed ` with no `>` open a feed."""
    head = (b"<feed " * size)[:size]
    best = float("inf")
    for _ in range(3):
        start = time.thread_time()
        is_feed(head)
        best = min(best, time.thread_time() - start)
    return best


def test_telling_a_feed_from_a_page_is_linear_in_the_answer_head() -> None:
    """Each `<feed` with no `>` after it was scanned to the end again by one pattern."""
    one = re.compile(rb"<feed\b[^>]*\bxmlns=[\"']http://www\.w3\.org/2005/Atom[\"']").search
    assert _feed_cost(one, 8192) / _feed_cost(one, 2048) > 7  # the measure can fail
    assert _feed_cost(_is_feed, 32768) / max(_feed_cost(_is_feed, 8192), 1e-6) < 7
