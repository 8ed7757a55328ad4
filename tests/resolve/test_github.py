"""The GitHub resolver with respx replaying recorded GitHub REST answers."""

from __future__ import annotations

import asyncio

import httpx
import respx

from anchors.ids import GithubRef
from anchors.net.links import Outcome
from anchors.resolve.github import GithubResolver

from ..cassettes import load
from ..vtime import VirtualTime


def run(
    name: str,
    *refs: str,
    token: str | None = None,
    cap: float = 30.0,
    vt: VirtualTime | None = None,
):
    cas = load(name)
    vt = vt or VirtualTime()
    with respx.mock(assert_all_called=False) as router:
        cas.mock(router)

        async def go():
            async with httpx.AsyncClient() as c:
                r = GithubResolver(c, token=token, policy=vt.policy(retry_after_cap=cap))
                return await r.resolve([GithubRef.parse(x) for x in refs]), list(router.calls)

        got, calls = asyncio.run(go())
    assert not cas.misses, cas.misses
    return got, calls


def test_closed_issue_with_reason() -> None:
    got, calls = run("github/issue-closed", "PyGithub/PyGithub#28", token="t0ken")
    res = got["github:pygithub/pygithub#28"]
    assert (
        res.outcome,
        res.facts.title,
        res.facts.state,
        res.facts.state_reason,
        res.facts.is_pull,
    ) == (
        Outcome.OK,
        "Issue created by PyGithub",
        "closed",
        "completed",
        False,
    )
    req = calls[-1].request
    assert req.headers["authorization"] == "Bearer t0ken"
    assert req.headers["accept"] == "application/vnd.github+json"
    assert req.headers["x-github-api-version"] == "2022-11-28"


def test_merged_pull_request() -> None:
    got, _ = run("github/pull-merged", "ZcashFoundation/zebra#8868")
    res = got["github:zcashfoundation/zebra#8868"]
    assert (
        res.facts.is_pull
        and res.facts.merged
        and res.facts.state == "closed"
        and res.facts.state_reason is None
    )


def test_missing_issue_is_not_found() -> None:
    got, _ = run("github/not-found", "vllm-project/vllm#999999999")
    assert got["github:vllm-project/vllm#999999999"].outcome is Outcome.DEAD


def test_renamed_repo_is_followed_on_the_api_host_only() -> None:
    got, calls = run("github/moved-301", "jacquev6/PyGithub#28", token="t0ken")
    res = got["github:jacquev6/pygithub#28"]
    assert (
        res.outcome is Outcome.OK
        and res.facts.moved_to == "https://github.com/PyGithub/PyGithub/issues/28"
    )
    assert all(c.request.url.host == "api.github.com" for c in calls)


def test_token_never_follows_a_redirect_off_the_api_host() -> None:
    with respx.mock(assert_all_called=False) as router:
        router.get("https://api.github.com/repos/o/r/issues/1").mock(
            return_value=httpx.Response(301, headers={"location": "https://evil.example/steal"})
        )
        evil = router.get("https://evil.example/steal").mock(return_value=httpx.Response(200))

        async def go():
            async with httpx.AsyncClient() as c:
                return await GithubResolver(c, token="s3cret").resolve([GithubRef("o", "r", 1)])

        got = asyncio.run(go())
    assert not evil.called
    res = got["github:o/r#1"]
    assert res.outcome is Outcome.UNVERIFIABLE and "s3cret" not in (res.error or "")


def test_primary_rate_limit_stops_all_lookups_without_waiting() -> None:
    vt = VirtualTime()
    got, calls = run(
        "github/ratelimit-403", "vllm-project/vllm#8242", "vllm-project/vllm#8243", vt=vt
    )
    assert {r.outcome for r in got.values()} == {Outcome.RATE_LIMITED}
    assert len(calls) == 1  # the second lookup is not sent into a known limit
    assert vt.waits == []  # the reset is far off (beyond the cap): not waited


def test_secondary_limit_with_retry_after_is_honoured() -> None:
    with respx.mock() as router:
        route = router.get("https://api.github.com/repos/o/r/issues/2").mock(
            side_effect=[
                httpx.Response(
                    429,
                    headers={"retry-after": "7"},
                    json={"message": "You have exceeded a secondary rate limit"},
                ),
                httpx.Response(
                    200,
                    json={
                        "title": "T",
                        "state": "open",
                        "html_url": "https://github.com/o/r/issues/2",
                    },
                ),
            ]
        )

        vt = VirtualTime()

        async def go():
            async with httpx.AsyncClient() as c:
                return await GithubResolver(c, policy=vt.policy()).resolve([GithubRef("o", "r", 2)])

        got = asyncio.run(go())
    assert route.call_count == 2 and got["github:o/r#2"].facts.state == "open"
    assert vt.waits == [7.0]  # GitHub's Retry-After, waited exactly (in virtual time)
