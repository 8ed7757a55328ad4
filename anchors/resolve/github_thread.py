"""A GitHub issue or pull request thread fetched whole: body, every comment page, and for a
pull request every page of review comments and reviews (`figures.threads` reads them).

Requests go through the run's GitHub request layer (`github_api.GithubApi`): its token rule,
its rate limit and its ETags, so a second run over an unchanged thread costs only 304s (not
counted by GitHub). Pages are asked `per_page=100` and followed by their `Link: rel="next"`,
on the API's own host only, at most `MAX_THREAD_PAGES` per list: a thousand comments is past
any benchmark thread, and a bounded count keeps one thread from spending an hour's budget
(60 requests unauthenticated). A page that fails (403, 429, 5xx, over `MAX_PAGE_BYTES`, not
JSON) or the bound ends that list with a gap in the `SourceText`, never a silent hole.
"""

from __future__ import annotations

import asyncio

import httpx

from ..defaults import MAX_PAGE_BYTES
from ..errors import UsageError
from ..figures.passages import SourceText
from ..figures.threads import passages_from_thread
from ..ids.model import GithubRef
from .base import Resolution
from .github_api import GithubApi, Keep, Reply

__all__ = ["MAX_THREAD_PAGES", "PER_PAGE", "read_github_thread"]

#: pages read of each list (comments, review comments, reviews) of one thread at most
MAX_THREAD_PAGES = 10
#: the most GitHub gives per page
PER_PAGE = 100
#: the ETag store's name for what a thread read keeps of an issue (its body), apart from what
#: the metadata lookup keeps of the same URL (its state)
_STORE_NAME = "thread"
#: what a list is called in a gap, by the field each item's version is read from
_LISTS = {"comment": "updated_at", "review comment": "updated_at", "review": "submitted_at"}


async def read_github_thread(
    api: GithubApi, ref: GithubRef, *, max_pages: int = MAX_THREAD_PAGES
) -> SourceText:
    """Everything `ref`'s thread says, as passages, and what could not be read (`gaps`)."""
    base = f"repos/{ref.owner}/{ref.repo}"
    got = await api.get(f"{base}/issues/{ref.number}", _keep_issue, name=_STORE_NAME)
    if isinstance(got, Resolution) or got.status != 200:
        why = got.error if isinstance(got, Resolution) else f"HTTP {got.status}"
        return SourceText((), "nothing", (f"the issue could not be read: {why}",))
    gaps: list[str] = []
    query = f"?per_page={PER_PAGE}"
    issue_comments = f"{base}/issues/{ref.number}/comments{query}"
    comments = await _list(api, issue_comments, "comment", gaps, max_pages)
    review_comments: list[object] = []
    reviews: list[object] = []
    if got.data.get("pull") is True:
        pulls = f"{base}/pulls/{ref.number}"
        review_comments = await _list(
            api, f"{pulls}/comments{query}", "review comment", gaps, max_pages
        )
        reviews = await _list(api, f"{pulls}/reviews{query}", "review", gaps, max_pages)
    return await asyncio.to_thread(
        passages_from_thread, got.data, comments, review_comments, reviews, gaps=gaps
    )


async def _list(
    api: GithubApi, first: str, name: str, gaps: list[str], max_pages: int
) -> list[object]:
    """Every item of one paginated list; a page that fails ends it with a gap."""
    items: list[object] = []
    url: str | None = first
    seen: set[str] = set()
    page = 0
    while url is not None:
        page += 1
        if page > max_pages:
            gaps.append(f"{name}s after page {max_pages} were not read (at most {max_pages} pages)")
            break
        seen.add(url)
        got = await _page(api, url, name)
        if not isinstance(got, Reply) or got.status != 200:
            why = got if isinstance(got, str) else f"HTTP {got.status}"
            gaps.append(f"{name} page {page}: {why}")
            break
        listed = got.data.get("items")
        items.extend(listed if isinstance(listed, list) else ())
        url = got.next
        if url is not None and (not _on_api(api, url) or url in seen):
            gaps.append(f"{name} page {page + 1}: its link leads off the API or back; not followed")
            break
    return items


async def _page(api: GithubApi, url: str, name: str) -> Reply | str:
    """One page, or why it could not be read. The API's root was proven by the issue's own
    answer, so a page that is not a GitHub answer is a broken page, not a wrong root."""
    try:
        got = await api.get(url, _keep_items(_LISTS[name]), limit=MAX_PAGE_BYTES)
    except UsageError:
        return "the answer is not the GitHub API's JSON"
    if isinstance(got, Resolution):
        return got.error or f"the API did not answer ({got.outcome.value})"
    return got


def _on_api(api: GithubApi, url: str) -> bool:
    try:
        parsed = httpx.URL(url)
    except httpx.InvalidURL:
        return False
    root = api.root
    return (parsed.scheme, parsed.host, parsed.port) == (root.scheme, root.host, root.port)


def _keep_issue(data: object) -> dict[str, object]:
    """What a thread read keeps of the issue: its body and when it changed, and whether it is
    a pull request (whose review comments and reviews are read too)."""
    if not isinstance(data, dict) or "body" not in data:
        raise KeyError("body")
    body, stamp = data.get("body"), data.get("updated_at")
    return {
        "body": body if isinstance(body, str) else None,
        "updated_at": stamp if isinstance(stamp, str) else None,
        "pull": isinstance(data.get("pull_request"), dict),
    }


def _keep_items(stamp: str) -> Keep:
    def keep(data: object) -> dict[str, object]:
        """Of each item of a page, what is read: its id, its body and its version."""
        if not isinstance(data, list):
            raise TypeError("list of items")
        return {
            "items": [
                {"id": d.get("id"), "body": d.get("body"), stamp: d.get(stamp)}
                if isinstance(d, dict)
                else d
                for d in data
            ]
        }

    return keep
