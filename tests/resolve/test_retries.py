"""DOI and GitHub lookups under the one retry policy, in virtual time (nothing really waits)."""

from __future__ import annotations

import asyncio

import httpx
import respx

from anchors.ids import Doi, GithubRef
from anchors.net.links import Outcome
from anchors.resolve.doi import DoiResolver
from anchors.resolve.github import GithubResolver

from ..vtime import VirtualTime

DOI_URL = "https://doi.org/10.1145/3600006.3613165"
CSL = {"title": "Efficient Memory Management for Large Language Model Serving with PagedAttention"}
ISSUE = "https://api.github.com/repos/o/r/issues/2"
OPEN = {"title": "T", "state": "open", "html_url": "https://github.com/o/r/issues/2"}


def doi(*answers: httpx.Response | Exception, vt: VirtualTime, **kw: object):
    with respx.mock() as router:
        route = router.get(DOI_URL).mock(side_effect=list(answers))

        async def go():
            async with httpx.AsyncClient() as c:
                r = DoiResolver(c, policy=vt.policy(**kw))
                return (await r.resolve([Doi("10.1145/3600006.3613165")])), r.requests

        got, sent = asyncio.run(go())
    return got["doi:10.1145/3600006.3613165"], route.call_count, sent


def test_a_doi_5xx_then_200_is_retried_and_resolves() -> None:
    vt = VirtualTime()
    res, calls, sent = doi(httpx.Response(503), httpx.Response(200, json=CSL), vt=vt)
    assert (res.outcome, res.facts.title) == (Outcome.OK, CSL["title"])
    assert calls == sent == 2 and len(vt.waits) == 1 and 0 < vt.waits[0] <= 0.25


def test_a_doi_timeout_then_200_is_retried_and_retry_after_is_honoured() -> None:
    vt = VirtualTime()
    res, calls, _ = doi(
        httpx.ReadTimeout("slow"),
        httpx.Response(502, headers={"retry-after": "7"}),
        httpx.Response(200, json=CSL),
        vt=vt,
    )
    assert res.outcome is Outcome.OK and calls == 3 and vt.waits[1] == 7.0


def test_a_doi_that_keeps_failing_is_asked_attempts_times_then_unverifiable() -> None:
    vt = VirtualTime()
    res, calls, _ = doi(*[httpx.Response(500)] * 3, vt=vt, attempts=3)
    assert res.outcome is Outcome.UNVERIFIABLE and res.status == 500 and calls == 3
    assert len(vt.waits) == 2


def test_a_doi_404_or_refusal_is_not_retried() -> None:
    vt = VirtualTime()
    res, calls, _ = doi(httpx.Response(404), vt=vt)
    assert res.outcome is Outcome.DEAD and calls == 1 and vt.waits == []
    res, calls, _ = doi(httpx.ConnectError("[Errno 111] Connection refused"), vt=vt)
    assert res.outcome is Outcome.UNREACHABLE and calls == 1 and vt.waits == []


def github(*answers: httpx.Response | Exception, vt: VirtualTime, cap: float = 120.0):
    with respx.mock() as router:
        route = router.get(ISSUE).mock(side_effect=list(answers))

        async def go():
            async with httpx.AsyncClient() as c:
                r = GithubResolver(c, policy=vt.policy(retry_after_cap=cap))
                return await r.resolve([GithubRef("o", "r", 2), GithubRef("o", "r", 2)])

        got = asyncio.run(go())
    return got["github:o/r#2"], route.call_count


SECONDARY = {"message": "You have exceeded a secondary rate limit. Please wait a few minutes"}


def test_a_secondary_rate_limit_waits_a_minute_through_the_injected_sleep() -> None:
    """No Retry-After: GitHub's docs say wait at least a minute; the policy's sleep waits it."""
    vt = VirtualTime(speed=1e6)
    res, calls = github(httpx.Response(403, json=SECONDARY), httpx.Response(200, json=OPEN), vt=vt)
    assert (res.outcome, res.facts.state, calls) == (Outcome.OK, "open", 2)
    assert vt.waits == [60.0]


def test_a_secondary_limit_longer_than_the_cap_stops_at_once() -> None:
    vt = VirtualTime()
    res, calls = github(httpx.Response(403, json=SECONDARY), vt=vt, cap=30.0)
    assert res.outcome is Outcome.RATE_LIMITED and calls == 1 and vt.waits == []


def test_github_5xx_and_timeouts_are_retried_with_backoff() -> None:
    vt = VirtualTime()
    res, calls = github(
        httpx.ConnectTimeout("slow"), httpx.Response(502), httpx.Response(200, json=OPEN), vt=vt
    )
    assert res.outcome is Outcome.OK and calls == 3 and len(vt.waits) == 2
    vt = VirtualTime()
    res, calls = github(*[httpx.Response(503)] * 3, vt=vt)
    assert res.outcome is Outcome.UNREACHABLE and res.status == 503 and calls == 3


def crossref(*answers: httpx.Response, vt: VirtualTime):
    from anchors.resolve.crossref import CrossrefUpdates

    with respx.mock() as router:
        route = router.get("https://api.crossref.org/works/10.1/x").mock(side_effect=list(answers))

        async def go():
            async with httpx.AsyncClient() as c:
                cr = CrossrefUpdates(c, policy=vt.policy())
                return await cr.updates("10.1/x"), cr.requests

        got, sent = asyncio.run(go())
    return got, route.call_count, sent


def test_a_crossref_5xx_then_200_is_retried_under_the_one_policy() -> None:
    vt = VirtualTime()
    body = {"message": {"updated-by": [{"type": "retraction", "DOI": "10.1/notice"}]}}
    got, calls, sent = crossref(httpx.Response(503), httpx.Response(200, json=body), vt=vt)
    assert got == (("retraction", "10.1/notice"),)
    assert calls == sent == 2 and len(vt.waits) == 1


def test_a_crossref_404_is_final_and_not_retried() -> None:
    vt = VirtualTime()
    got, calls, sent = crossref(httpx.Response(404), vt=vt)
    assert got == () and calls == sent == 1 and vt.waits == []
