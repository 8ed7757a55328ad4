from __future__ import annotations

import asyncio

import httpx
import respx

from anchors.ids import Doi
from anchors.net.links import Outcome
from anchors.resolve.doi import DoiResolver

from ..cassettes import load


def run(name: str, doi: str):
    cas = load(name)
    with respx.mock(assert_all_called=False) as router:
        cas.mock(router)

        async def go():
            async with httpx.AsyncClient() as c:
                return await DoiResolver(c).resolve([Doi(doi)])

        got = asyncio.run(go())
    assert not cas.misses
    return got[Doi(doi).key]


def test_doi_title_through_content_negotiation() -> None:
    res = run("doi/found-csl", "10.1145/3600006.3613165")
    assert res.outcome is Outcome.OK
    assert (
        res.facts.title
        == "Efficient Memory Management for Large Language Model Serving with PagedAttention"
    )


def test_unknown_doi_is_not_found() -> None:
    assert run("doi/not-found", "10.1234/does-not-exist").outcome is Outcome.DEAD


def test_doi_with_url_syntax_characters_is_looked_up_whole() -> None:
    """`#` would end the path and `%` start an escape: the DOI Handbook says hex-encode them."""
    seen: list[str] = []

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(request.url.raw_path.decode())
        return httpx.Response(200, json={"title": "SICI-era paper"})

    doi = Doi("10.1006/rwei.1999#.0001%x")

    async def go():
        async with httpx.AsyncClient(transport=httpx.MockTransport(answer)) as c:
            return await DoiResolver(c, api_url="https://doi.example").resolve([doi])

    got = asyncio.run(go())
    assert seen == ["/10.1006/rwei.1999%23.0001%25x"]
    assert got[doi.key].facts.title == "SICI-era paper"


def test_doi_facts_hold_what_a_bibliography_needs() -> None:
    """Volume, issue and pages (and what the work is) were dropped: a journal article was
    exported without them, and as a proceedings paper's `booktitle`."""
    from anchors.resolve.crossref import CrossrefUpdates

    cas = load("doi/retracted-crossref")

    async def go():
        async with httpx.AsyncClient(transport=cas.transport()) as c:
            resolver = DoiResolver(c, crossref=CrossrefUpdates(c))
            return await resolver.resolve([Doi("10.1016/S0140-6736(97)11096-0")])

    (res,) = asyncio.run(go()).values()
    facts = res.facts
    assert (facts.journal_ref, facts.volume, facts.issue, facts.page, facts.work_type) == (
        "The Lancet",
        "351",
        "9103",
        "637-641",
        "article-journal",
    )
    assert run("doi/found-csl", "10.1145/3600006.3613165").facts.work_type == "paper-conference"
