"""GitHub issues, pull requests and repositories through the REST API (`github_api`).

`GET /repos/{owner}/{repo}/issues/{n}` answers for PRs too (with a `pull_request` key; a merged
PR is `closed` with `pull_request.merged_at`). A repository cited by URL
(`https://github.com/owner/repo`) is one `GET /repos/{owner}/{repo}`: `archived` says it is
read-only, and a renamed or transferred one answers 301 to `/repositories/{id}`, whose
`full_name` is the new name. Each is asked once per run, and the request layer keeps what was
read with the answer's ETag, so an unchanged one costs a 304 next time.
"""

from __future__ import annotations

from collections.abc import Iterable

import httpx

from ..defaults import DEFAULT_TIMEOUT, GITHUB_API
from ..findings import Outcome
from ..history.facts import IssueFacts, RepoFacts
from ..ids.github import repo_of_url
from ..ids.model import GithubRef, WebUrl
from ..net.cache import Cache
from ..net.retry import RetryPolicy
from .base import Resolution
from .github_api import GithubApi, Reply

__all__ = ["GITHUB_API", "GithubResolver"]


class GithubResolver:
    def __init__(
        self,
        client: httpx.AsyncClient,
        api_url: str = GITHUB_API,
        token: str | None = None,
        policy: RetryPolicy | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        etags: Cache | None = None,
    ) -> None:
        #: the request layer, shared with what checks cited comments and lines (`places`)
        self.api = GithubApi(client, api_url, token, policy, timeout, etags)

    @property
    def requests(self) -> int:
        return self.api.requests

    async def resolve(self, keys: Iterable[GithubRef | WebUrl]) -> dict[str, Resolution]:
        """Issues/PRs by reference, repositories by URL; serially, as GitHub asks of clients,
        the one this machine had an answer for longest ago first (never asked: first of all),
        so a rate limit spent before the end leaves the freshest unchecked."""
        asks: dict[str, tuple[str, GithubRef | WebUrl]] = {}
        for ref in keys:
            path = _path(ref)
            if path is not None:
                asks.setdefault(ref.key, (path, ref))
        out: dict[str, Resolution] = {}
        for key, (path, ref) in sorted(
            asks.items(), key=lambda kv: self.api.last_answered(kv[1][0])
        ):
            if isinstance(ref, GithubRef):
                got = await self.api.get(path, _keep_issue)
                out[key] = got if isinstance(got, Resolution) else _issue(ref, got)
            else:
                got = await self.api.get(path, _keep_repo)
                out[key] = got if isinstance(got, Resolution) else _repo(path[6:], got)
        return out


def _path(ref: GithubRef | WebUrl) -> str | None:
    """The API path that answers for an issue/PR or a repository's page."""
    if isinstance(ref, GithubRef):
        return f"repos/{ref.owner}/{ref.repo}/issues/{ref.number}"
    repo = repo_of_url(ref.url)
    return f"repos/{repo[0]}/{repo[1]}" if repo is not None else None


def _keep_issue(data: object) -> dict[str, object]:
    """What is read of an issue (a PR's too): kept with its ETag, renewed by a 304."""
    fields = _fields(data, "title", "state")
    pr = fields.get("pull_request")
    kept = {k: fields.get(k) for k in ("title", "state", "state_reason", "html_url", "closed_at")}
    if isinstance(pr, dict):
        kept["pull_request"] = {"merged_at": pr.get("merged_at")}
    return kept


def _keep_repo(data: object) -> dict[str, object]:
    fields = _fields(data, "full_name")
    return {k: fields.get(k) for k in ("full_name", "html_url", "archived")}


def _fields(data: object, *names: str) -> dict[str, object]:
    """`data` as a JSON object that has `names`; KeyError names what is missing."""
    if not isinstance(data, dict) or not all(n in data for n in names):
        raise KeyError(", ".join(names))
    return data


def _not_ok(status: int, what: str) -> Resolution | None:
    """The failure an answer other than 200 means for `what` (an issue, a repository)."""
    if status in (404, 410):
        how = "was deleted" if status == 410 else "does not exist (or the repository is private)"
        return Resolution(Outcome.DEAD, status=status, error=f"{what} {how}")
    if status == 403:
        return Resolution(
            Outcome.UNVERIFIABLE, status=status, error="GitHub API refused access (HTTP 403)"
        )
    if status != 200:
        return Resolution(
            Outcome.UNVERIFIABLE, status=status, error=f"GitHub API answered HTTP {status}"
        )
    return None


def _issue(ref: GithubRef, got: Reply) -> Resolution:
    failed = _not_ok(got.status, str(ref))
    if failed is not None:
        return failed
    data = got.data
    pr = data.get("pull_request")
    html = str(data.get("html_url") or "")
    merged_at = pr.get("merged_at") if isinstance(pr, dict) else None
    reason = data.get("state_reason")
    facts = IssueFacts(
        title=str(data.get("title")),
        state=str(data.get("state")),
        state_reason=reason if isinstance(reason, str) else None,
        is_pull=isinstance(pr, dict),
        merged=bool(merged_at),
        moved_to=html if html and not _same_repo(html, ref) else None,
        closed_at=_day(data.get("closed_at")),
        merged_at=_day(merged_at),
    )
    return Resolution(Outcome.OK, facts, status=200)


def _day(stamp: object) -> str | None:
    """`2024-06-06T00:10:06Z` → `2024-06-06`; anything else → None."""
    return stamp[:10] if isinstance(stamp, str) and len(stamp) >= 10 else None


def _repo(cited: str, got: Reply) -> Resolution:
    failed = _not_ok(got.status, f"repository {cited}")
    if failed is not None:
        return failed
    full = str(got.data.get("full_name"))
    html = str(got.data.get("html_url") or f"https://github.com/{full}")
    facts = RepoFacts(
        title=full,
        moved_to=html if full.lower() != cited.lower() else None,
        archived=got.data.get("archived") is True,
    )
    return Resolution(Outcome.OK, facts, status=200)


def _same_repo(html_url: str, ref: GithubRef) -> bool:
    """Whether the API's `html_url` is the issue cited; one that is no URL says nothing (so
    it is taken as the same, never as where the issue moved)."""
    try:
        parts = httpx.URL(html_url).path.strip("/").split("/")
    except httpx.InvalidURL:
        return True
    return (
        len(parts) >= 4
        and parts[0].lower() == ref.owner.lower()
        and parts[1].lower() == ref.repo.lower()
        and parts[3] == str(ref.number)
    )
