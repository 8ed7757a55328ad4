"""Cited places on GitHub that its pages build with script, asked of its REST API instead.

- `…/issues/N#issuecomment-M` (and `/pull/N#issuecomment-M`): `GET /repos/{o}/{r}/issues/
  comments/M` exists and its `issue_url` ends with `/issues/N`.
- `…/pull/N#discussion_rM`: `GET /repos/{o}/{r}/pulls/comments/M`, whose `pull_request_url`
  ends with `/pulls/N`.
- `…/blob/REF/PATH#L10-L20`: `GET /repos/{o}/{r}/contents/PATH?ref=REF` has a file of at least
  20 lines. A REF with slashes (`feature/x`) cannot be told from the path by the URL: the
  shortest REF GitHub knows is taken (up to three tries). A file the contents API does not
  serve (over 1 MB, a directory) is unverifiable.

A deleted comment, or one on another issue, is missing; what the API could not answer is
unverifiable; what a spent rate limit left unasked is `unasked` (no verdict: its entry is not
checked this run, as an anchor the limit left unasked). Requests go through
the resolver's request layer, so they share its token rule, rate limit and ETags.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Callable, Iterable

from ..net.fragments import GithubTarget, Place, Placed
from .base import Resolution
from .github_api import GithubApi, Reply

__all__ = ["GithubPlaces"]

#: how many ways a REF/PATH is split before the ref is called unknown
_REF_SPLITS = 3


class GithubPlaces:
    def __init__(self, api: GithubApi) -> None:
        self.api = api

    async def check(self, targets: Iterable[GithubTarget]) -> dict[GithubTarget, Placed | None]:
        """A verdict for each target (None: nothing to say beside the page's own check);
        serially, as every GitHub request."""
        out: dict[GithubTarget, Placed | None] = {}
        for target in dict.fromkeys(targets):
            if target.kind == "lines":
                out[target] = await self._lines(target)
            else:
                out[target] = await self._comment(target)
        return out

    async def _comment(self, target: GithubTarget) -> Placed | None:
        review = target.kind == "review-comment"
        what, field = ("pulls", "pull_request_url") if review else ("issues", "issue_url")
        got = await self.api.get(
            f"repos/{target.repo}/{what}/comments/{target.comment}", _keep(field)
        )
        if not isinstance(got, Reply):
            return _failed(got)
        name = "review comment" if review else "comment"
        if got.status in (404, 410):
            return Placed(Place.MISSING, f"{name} {target.comment} does not exist (deleted?)")
        if got.status != 200:
            return Placed(Place.UNVERIFIABLE, f"GitHub API answered HTTP {got.status}")
        owner = str(got.data.get(field) or "")
        if not owner.endswith(f"/{what}/{target.where}"):
            other = owner.rsplit("/", 1)[-1] or "?"
            return Placed(
                Place.MISSING, f"{name} {target.comment} belongs to #{other}, not #{target.where}"
            )
        return Placed(Place.FOUND)

    async def _lines(self, target: GithubTarget) -> Placed | None:
        parts = target.where.split("/")
        for cut in range(1, min(len(parts), _REF_SPLITS + 1)):
            ref, path = "/".join(parts[:cut]), "/".join(parts[cut:])
            got = await self.api.get(f"repos/{target.repo}/contents/{path}?ref={ref}", _keep_lines)
            if not isinstance(got, Reply):
                return _failed(got)
            message = str(got.data.get("message") or "")
            if got.status == 404 and message.startswith("No commit found for the ref"):
                continue  # the ref is longer: it has a slash
            if got.status == 404:
                return None  # no such file at that ref: the page's own check says it is gone
            if got.status != 200 or "lines" not in got.data:
                return Placed(
                    Place.UNVERIFIABLE, "the file is not one the contents API serves (over 1 MB?)"
                )
            lines = got.data["lines"]
            last = max(target.first or 0, target.last or 0)
            if isinstance(lines, int) and last <= lines:
                return Placed(Place.FOUND)
            return Placed(Place.MISSING, f"the file has {lines} lines at {ref}, not {last}")
        return Placed(Place.UNVERIFIABLE, f"no ref of GitHub's found in {target.where}")


def _keep(field: str) -> Callable[[object], dict[str, object]]:
    def keep(data: object) -> dict[str, object]:
        if not isinstance(data, dict) or field not in data:
            raise KeyError(field)
        return {field: data[field]}

    return keep


def _keep_lines(data: object) -> dict[str, object]:
    """A file's line count (what is kept, not its text); {} for what is no file's content."""
    if not isinstance(data, dict) or data.get("type") != "file" or data.get("encoding") != "base64":
        return {}
    try:
        text = base64.b64decode(str(data.get("content") or ""), validate=False)
    except (binascii.Error, ValueError):
        return {}
    if not text and data.get("size"):
        return {}  # the API left the content out
    return {"lines": text.count(b"\n") + (0 if text.endswith(b"\n") or not text else 1)}


def _failed(resolution: Resolution) -> Placed:
    if not resolution.asked:
        return Placed(Place.UNASKED, resolution.error or "GitHub's rate limit is spent")
    return Placed(Place.UNVERIFIABLE, resolution.error or "GitHub API did not answer")
