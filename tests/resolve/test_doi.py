from __future__ import annotations

import asyncio

import httpx
import respx

from anchors.ids import Doi
from anchors.links import Outcome
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
    assert res.title == "Efficient Memory Management for Large Language Model Serving with PagedAttention"


def test_unknown_doi_is_not_found() -> None:
    assert run("doi/not-found", "10.1234/does-not-exist").outcome is Outcome.DEAD
