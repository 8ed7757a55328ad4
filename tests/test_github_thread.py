"""A GitHub thread read whole against a loopback GitHub (tests/githubfake.py) that pages its
lists the way GitHub does: every comment page by `Link: rel="next"`, a PR's review comments and
reviews, a failing page as a gap, and a second run over an unchanged thread costing 304s only."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx

from anchors.figures.passages import PassageKind, SourceText
from anchors.ids import GithubRef
from anchors.net.cache import Cache
from anchors.resolve.github_api import ETAG_TTL, GithubApi
from anchors.resolve.github_pages import next_link
from anchors.resolve.github_thread import read_github_thread

from .githubfake import FakeGithub, Issue
from .loopback import LoopbackServer, Request, respond

REF = GithubRef.parse("acme/engine#7")
KEY = "acme/engine#7 comments"


def _comments(n: int, start: int = 1000) -> list[dict[str, object]]:
    return [
        {
            "id": start + i,
            "body": f"Run {i} measured {i}.5 tok/s.",
            "updated_at": "2026-09-02T00:00:00Z",
        }
        for i in range(n)
    ]


def _read(gh: FakeGithub, etags: Path, **kw: object) -> tuple[SourceText, GithubApi]:
    async def go() -> tuple[SourceText, GithubApi]:
        with gh.server() as srv:
            async with httpx.AsyncClient(timeout=10) as client:
                store = Cache(etags, ttls={"etag": ETAG_TTL})
                api = GithubApi(client, srv.url(""), etags=store)
                got = await read_github_thread(api, REF, **kw)  # type: ignore[arg-type]
                store.save()
                return got, api

    return asyncio.run(go())


def _fake(comments: int, **kw: object) -> FakeGithub:
    body = "Prefix caching drops GPU use to ~70%.\n\n| run | tok/s |\n|---|---|\n| a | 12,410 |\n"
    return FakeGithub(
        issues={"acme/engine#7": Issue("Slow prefix caching", body=body)},
        threads={KEY: _comments(comments)},
        **kw,  # type: ignore[arg-type]
    )


def test_every_page_is_read_by_following_its_link(tmp_path: Path) -> None:
    gh = _fake(250)
    got, api = _read(gh, tmp_path / "etags.json")
    comments = [p for p in got.passages if p.where.startswith("comment ")]
    assert len(comments) == 250 and got.complete
    assert got.scope == "body + 250 comments"
    assert (
        comments[-1].text == "Run 249 measured 249.5 tok/s."
        and comments[-1].where == "comment 1249"
    )
    assert api.requests == 4  # the issue and three pages
    body = [p for p in got.passages if p.where == "body"]
    assert [p.kind for p in body] == [PassageKind.PROSE] + [PassageKind.TABLE_ROW] * 2
    assert body[2].text == "a | 12,410" and body[0].version == "2026-09-01T10:00:00Z"


def test_a_failing_second_page_is_a_gap_not_a_hole(tmp_path: Path) -> None:
    gh = _fake(250, fail={(KEY, 2): 403})
    got, _ = _read(gh, tmp_path / "etags.json")
    assert got.gaps == ("comment page 2: HTTP 403",) and not got.complete
    assert len([p for p in got.passages if p.where.startswith("comment ")]) == 100


def test_a_second_run_over_an_unchanged_thread_costs_only_304s(tmp_path: Path) -> None:
    gh = _fake(250)
    first, _ = _read(gh, tmp_path / "etags.json")
    sent = sum(gh.statuses.values())
    second, api = _read(gh, tmp_path / "etags.json")
    assert second == first
    assert api.requests == 4 and api.not_modified == 4
    assert gh.statuses[304] == 4 and sum(gh.statuses.values()) == sent + 4


def test_an_edited_comment_is_read_anew_on_the_next_run(tmp_path: Path) -> None:
    gh = _fake(250)
    first, _ = _read(gh, tmp_path / "etags.json")
    edited = gh.threads[KEY][150]
    edited["body"], edited["updated_at"] = "Run 150 measured 99.9 tok/s.", "2026-09-20T00:00:00Z"
    second, api = _read(gh, tmp_path / "etags.json")
    was = next(p for p in first.passages if p.where == "comment 1150")
    now = next(p for p in second.passages if p.where == "comment 1150")
    assert (was.text, now.text) == ("Run 150 measured 150.5 tok/s.", "Run 150 measured 99.9 tok/s.")
    assert now.version == "2026-09-20T00:00:00Z" != was.version
    assert api.not_modified == 3  # the issue and pages 1 and 3; page 2 changed


def test_a_pull_request_adds_its_review_comments_and_reviews(tmp_path: Path) -> None:
    gh = FakeGithub(
        issues={"acme/engine#7": Issue("Faster sampler", pull=True, body="Sampler rewrite.")},
        threads={
            KEY: _comments(2),
            "acme/engine#7 review-comments": [
                {"id": 51, "body": "This loop costs 3x.", "updated_at": "2026-09-03T00:00:00Z"}
            ],
            "acme/engine#7 reviews": [
                {
                    "id": 61,
                    "body": "LGTM: 1.3x faster here.",
                    "submitted_at": "2026-09-04T00:00:00Z",
                },
                {"id": 62, "body": "", "submitted_at": "2026-09-05T00:00:00Z"},
            ],
        },
    )
    got, _ = _read(gh, tmp_path / "etags.json")
    assert got.scope == "body + 2 comments + 1 review comment + 2 reviews" and got.complete
    wheres = {p.where: p for p in got.passages}
    assert wheres["review comment 51"].text == "This loop costs 3x."
    assert wheres["review 61"].version == "2026-09-04T00:00:00Z"


def test_the_page_bound_leaves_a_gap(tmp_path: Path) -> None:
    got, api = _read(_fake(250), tmp_path / "etags.json", max_pages=2)
    assert got.gaps == ("comments after page 2 were not read (at most 2 pages)",)
    assert api.requests == 3


def test_a_spent_rate_limit_is_a_gap_and_sends_nothing_more(tmp_path: Path) -> None:
    gh = _fake(250, budget=2)  # the issue and page 1 spend it; its reset is far ahead
    got, api = _read(gh, tmp_path / "etags.json")
    assert len(got.gaps) == 1 and got.gaps[0].startswith("comment page 2: GitHub's rate limit")
    assert api.requests == 2  # page 2 is not even sent


def test_a_page_over_the_bound_or_not_json_is_a_gap(tmp_path: Path) -> None:
    big = _fake(150)
    big.threads[KEY][120]["body"] = "x " * (1 << 20)  # page 2 decodes past 2 MiB
    got, _ = _read(big, tmp_path / "a.json")
    assert got.gaps == ("comment page 2: GitHub API answer larger than 2 MiB; not read",)
    cut = _fake(150, broken={(KEY, 2): b'[{"id": 1, "body": "cut sho'})
    got, _ = _read(cut, tmp_path / "b.json")
    (gap,) = got.gaps
    assert gap.startswith("comment page 2: GitHub API answer could not be read (")


def test_a_missing_issue_is_a_gap(tmp_path: Path) -> None:
    got, _ = _read(FakeGithub(), tmp_path / "etags.json")
    assert got.passages == () and got.gaps == ("the issue could not be read: HTTP 404",)


def test_a_next_link_off_the_api_host_is_not_followed(tmp_path: Path) -> None:
    async def handler(req: Request, w: asyncio.StreamWriter) -> bool:
        if req.path.endswith("/issues/7"):
            return await respond(w, 200, b'{"body": "x", "updated_at": null}', _JSON)
        link = '<http://127.0.0.2:9/repositories/1/issues/7/comments?page=2>; rel="next"'
        return await respond(w, 200, b'[{"id": 1, "body": "2x"}]', {**_JSON, "Link": link})

    async def go() -> SourceText:
        with LoopbackServer(lambda _: handler) as srv:
            async with httpx.AsyncClient(timeout=10) as client:
                return await read_github_thread(GithubApi(client, srv.url("")), REF)

    got = asyncio.run(go())
    assert got.gaps == ("comment page 2: its link leads off the API or back; not followed",)
    assert [p.text for p in got.passages if p.where == "comment 1"] == ["2x"]


_JSON = {"Content-Type": "application/json"}


def test_the_next_link_is_read_from_any_link_header_shape() -> None:
    nxt = "https://api.github.com/repositories/1/issues/7/comments?per_page=100&page=3"
    assert (
        next_link(f'<https://x/p1>; rel="prev", <{nxt}>; rel="next", <https://x/l>; rel="last"')
        == nxt
    )
    assert next_link(f"<{nxt}>; rel=next") == nxt
    assert next_link(f'<{nxt}>; rel="last next"') == nxt  # a rel may name several relations
    assert next_link('<https://x/l>; rel="last"') is None and next_link(None) is None
    # only the header's first 8 KiB are read: a hostile one costs no more than that
    assert next_link("<" * 5_000_000 + f'<{nxt}>; rel="next"') is None
