from __future__ import annotations

import asyncio

import httpx
import respx

from anchors.check.links import Outcome
from anchors.check.resolve.doi import DoiResolver
from anchors.ids import Doi

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
