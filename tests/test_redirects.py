"""The one redirect helper (anchors.net.redirects): chains, loops, the hop limit, refusals,
the address guard on every hop of the links and DOI clients, and the archive's snapshot check."""

from __future__ import annotations

import asyncio
from datetime import date

import httpx
import pytest

from anchors.archive.wayback import WaybackClient
from anchors.ids import Doi
from anchors.net.links import Outcome
from anchors.net.netguard import NetGuard, StaticResolver
from anchors.net.redirects import Stop, follow, location_of
from anchors.resolve.doi import DoiResolver

from .loopback import LoopbackServer, respond
from .stack import links
from .vtime import VirtualTime

Answer = tuple[int, str | None]  # status, Location


def run_chain(answers: dict[str, Answer], start: str, max_redirects: int = 10, allow=None):
    fetched: list[str] = []

    async def fetch(url: httpx.URL) -> Answer:
        fetched.append(str(url))
        return answers[url.path]

    def target(a: Answer) -> tuple[int, httpx.URL] | None:
        status, loc = a
        return (status, httpx.URL("https://a.example").join(loc)) if loc else None

    end = asyncio.run(
        follow(
            httpx.URL(f"https://a.example{start}"),
            fetch,
            target,
            max_redirects=max_redirects,
            allow=allow,
        )
    )
    return end, [httpx.URL(u).path for u in fetched]


def test_a_chain_is_followed_to_its_answer_and_moved_only_if_every_hop_is_permanent() -> None:
    perm = {"/a": (301, "/b"), "/b": (308, "/c"), "/c": (200, None)}
    end, fetched = run_chain(perm, "/a")
    assert fetched == ["/a", "/b", "/c"] and end.stop is None and end.hops == 2
    assert end.answer == (200, None) and str(end.moved_to) == "https://a.example/c"

    mixed = {"/a": (301, "/b"), "/b": (302, "/c"), "/c": (200, None)}
    end, _ = run_chain(mixed, "/a")
    assert end.moved_to is None and str(end.url) == "https://a.example/c"

    end, fetched = run_chain({"/c": (200, None)}, "/c")
    assert (end.hops, end.moved_to, fetched) == (0, None, ["/c"])


def test_a_loop_is_caught_at_the_hop_that_closes_it() -> None:
    end, fetched = run_chain({"/a": (302, "/b"), "/b": (302, "/a")}, "/a")
    assert end.stop is Stop.LOOP and fetched == ["/a", "/b"]
    assert end.reason(10) == "redirect loop back to https://a.example/a"
    end, fetched = run_chain({"/self": (301, "/self")}, "/self")
    assert end.stop is Stop.LOOP and fetched == ["/self"] and end.moved_to is None


@pytest.mark.parametrize("limit", [0, 1, 3])
def test_at_most_max_redirects_hops_are_followed(limit: int) -> None:
    answers = {f"/{i}": (302, f"/{i + 1}") for i in range(10)}
    end, fetched = run_chain(answers, "/0", max_redirects=limit)
    assert end.stop is Stop.TOO_MANY and len(fetched) == limit + 1
    assert end.url.path == f"/{limit + 1}"  # the hop not taken
    assert end.reason(limit) == f"more than {limit} redirects"
    end, fetched = run_chain({**answers, "/3": (200, None)}, "/0", max_redirects=3)
    assert end.stop is None and fetched == ["/0", "/1", "/2", "/3"]


def test_a_hop_the_caller_does_not_allow_is_not_sent() -> None:
    answers = {"/a": (301, "https://elsewhere.example/x")}
    end, fetched = run_chain(answers, "/a", allow=lambda u: u.host == "a.example")
    assert end.stop is Stop.REFUSED and fetched == ["/a"] and end.url.host == "elsewhere.example"


class _OnePublic(NetGuard):
    """127.0.0.1 stands in for a public address; everything else is screened."""

    def screen(self, host: str, address: str) -> None:
        if address != "127.0.0.1":
            super().screen(host, address)


def test_the_guard_holds_on_a_late_hop_for_links_and_dois() -> None:
    """Two public hops, then one to a private address: blocked there, never requested."""
    resolver = StaticResolver({"public.example": ["127.0.0.1"]})

    def route(req):
        if req.path.startswith("/10.1/"):  # doi.org's answer: to the agency's first hop
            return lambda r, w: respond(w, 302, b"", {"Location": "/0"}, req=r)
        n = int(req.path.strip("/")) if req.path.strip("/").isdigit() else None
        if n is not None and n < 2:
            return lambda r, w: respond(w, 302, b"", {"Location": f"/{n + 1}"}, req=r)
        if n == 2:
            return lambda r, w: respond(w, 302, b"", {"Location": private}, req=r)
        return lambda r, w: respond(w, 200, b'{"title": "secret"}', req=r)

    with LoopbackServer(route, hosts=["127.0.0.1", "127.0.0.2"]) as srv:
        private = f"http://127.0.0.2:{srv.port}/secret"
        base = f"http://public.example:{srv.port}"

        async def go():
            # one guarded transport for links and DOIs, as `anchors check` builds it
            async with (
                links(guard=_OnePublic(resolver, allow_private=False)) as lc,
                httpx.AsyncClient(transport=lc.client) as c,
            ):
                link = await lc.check(f"{base}/0")
                doi = DoiResolver(c, api_url=base, policy=VirtualTime().policy())
                got = await doi.resolve([Doi("10.1/0")])
            return link, got[Doi("10.1/0").key]

        link, doi = asyncio.run(go())
        reached = dict(srv.counts)
    assert link.outcome is Outcome.BLOCKED and "127.0.0.2" in (link.error or ""), link
    assert doi.outcome is Outcome.BLOCKED and "127.0.0.2" in (doi.error or ""), doi
    assert "/secret" not in reached


def test_httpx_answers_name_their_redirect_or_none() -> None:
    req = httpx.Request("GET", "https://doi.example/10.1/x")
    hop = location_of(httpx.Response(303, headers={"location": "/a?b=1"}, request=req))
    assert hop == (303, httpx.URL("https://doi.example/a?b=1"))
    assert location_of(httpx.Response(302, request=req)) is None  # no Location: an answer
    assert location_of(httpx.Response(200, headers={"location": "/a"}, request=req)) is None
    bad = httpx.Response(301, headers={"location": "http://[::1"}, request=req)
    assert location_of(bad) is None  # an invalid Location ends the chain instead of raising


@pytest.mark.parametrize(
    ("hops", "kept"),
    [
        ({"/web/20260918103000/u": "/web/20260918103000id_/u"}, True),  # same host: followed
        ({"/web/20260918103000/u": "https://evil.example/u"}, False),  # off the archive: not sent
        ({"/web/20260918103000/u": "/x", "/x": "/web/20260918103000/u"}, False),  # a loop
    ],
)
def test_the_archive_verifies_a_snapshot_through_the_same_helper(hops, kept) -> None:
    seen: list[str] = []

    def handler(req: httpx.Request) -> httpx.Response:
        seen.append(f"{req.url.host}{req.url.path}")
        if req.url.path == "/wayback/available":
            snap = "http://web.archive.org/web/20260918103000/u"
            return httpx.Response(
                200,
                json={
                    "archived_snapshots": {
                        "closest": {
                            "status": "200",
                            "available": True,
                            "url": snap,
                            "timestamp": "20260918103000",
                        }
                    }
                },
            )
        if req.url.path in hops:
            return httpx.Response(302, headers={"location": hops[req.url.path]})
        return httpx.Response(200)

    wb = WaybackClient(httpx.AsyncClient(transport=httpx.MockTransport(handler)), interval=0)
    snap = asyncio.run(wb.closest("http://docs.example/u", date(2026, 9, 20)))
    assert (snap is not None) is kept
    assert not any(s.startswith("evil.example") for s in seen)
