"""GitHub issues, pull requests and repositories through the REST API, one request at a time.

`GET /repos/{owner}/{repo}/issues/{n}` answers for PRs too (with a `pull_request` key; a merged
PR is `closed` with `pull_request.merged_at`). The token goes only to the configured API host:
redirects are followed by hand (anchors.check.redirects) and only while they stay on that host.
Rate limits are honoured from `x-ratelimit-remaining`/`-reset` and `retry-after`, through the
run's retry policy (its sleep, so tests wait in virtual time); a wait longer than the cap ends
the run's GitHub lookups as `rate-limited` instead of stalling the check.

A repository cited by URL (`https://github.com/owner/repo`) is one `GET /repos/{owner}/{repo}`:
`archived` says it is read-only, and a renamed or transferred one answers 301 to
`/repositories/{id}`, whose `full_name` is the new name. Each repository is asked once per run.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass

import httpx

from ...defaults import GITHUB_API, USER_AGENT
from ...errors import UsageError
from ...findings import Outcome
from ...history.facts import IssueFacts, RepoFacts
from ...ids.github import repo_of_url
from ...ids.model import GithubRef, WebUrl
from ..redirects import Stop, follow, location_of
from ..retry import RetryPolicy, parse_retry_after, retryable_error, retryable_status
from .base import Resolution

__all__ = ["GITHUB_API", "GithubResolver"]

_MAX_API_REDIRECTS = 3


class GithubResolver:
    def __init__(
        self,
        client: httpx.AsyncClient,
        api_url: str = GITHUB_API,
        token: str | None = None,
        policy: RetryPolicy | None = None,
        timeout: float = 10.0,
    ) -> None:
        self.client = client
        self.api = httpx.URL(api_url.rstrip("/") + "/")
        self.token = token
        self.policy = policy or RetryPolicy()
        self.timeout = timeout
        self.requests = 0
        self._limited: Resolution | None = None

    async def resolve(self, keys: Iterable[GithubRef | WebUrl]) -> dict[str, Resolution]:
        """Issues/PRs by reference, repositories by URL; serially, as GitHub asks of clients."""
        out: dict[str, Resolution] = {}
        for ref in dict.fromkeys(keys):
            if isinstance(ref, GithubRef):
                url = self.api.join(f"repos/{ref.owner}/{ref.repo}/issues/{ref.number}")
                r = await self._one(url)
                out[ref.key] = r if isinstance(r, Resolution) else _from_response(ref, *r)
            elif (repo := repo_of_url(ref.url)) is not None:
                out[ref.key] = await self._repo(*repo)
        return out

    async def _repo(self, owner: str, name: str) -> Resolution:
        got = await self._one(self.api.join(f"repos/{owner}/{name}"))
        if isinstance(got, Resolution):
            return got
        return _repo_from_response(f"{owner}/{name}", *got)

    def _headers(self, url: httpx.URL) -> dict[str, str]:
        h = {
            "Accept": "application/vnd.github+json",
            "X-GitHub-Api-Version": "2022-11-28",
            "User-Agent": USER_AGENT,
        }
        if (
            self.token
            and url.host == self.api.host
            and url.port == self.api.port
            and url.scheme == self.api.scheme
        ):
            h["Authorization"] = f"Bearer {self.token}"
        return h

    async def _one(self, url: httpx.URL) -> Resolution | tuple[int, httpx.Response]:
        """One API answer for `url` after retries and redirects, or the failure as a Resolution."""
        if self._limited is not None:
            return self._limited
        got = await self.policy.run(lambda: self._try(url))
        if got.failed is not None:
            if got.failed.outcome is Outcome.RATE_LIMITED:
                self._limited = got.failed
            return got.failed
        assert got.resp is not None
        status, resp = got.resp.status_code, got.resp
        if not _looks_like_the_api(resp):
            raise UsageError(
                f"--github-api {self.api}: answered HTTP {status} "
                f"({resp.headers.get('content-type') or 'no content type'}) to {url.path}, "
                "which is not what the GitHub REST API answers; check the URL"
            )
        return status, resp

    async def _try(self, url: httpx.URL) -> _Answer:
        """One try: the answer, or a failure the retry policy may try again (limits, 5xx)."""
        try:
            end = await follow(
                url,
                self._get,
                location_of,
                max_redirects=_MAX_API_REDIRECTS,
                allow=lambda u: u.host == self.api.host,
            )
        except httpx.HTTPError as exc:
            return _Answer(
                failed=Resolution(
                    Outcome.UNREACHABLE, error=f"GitHub API unreachable ({type(exc).__name__})"
                ),
                retryable=retryable_error(exc),
            )
        resp = end.answer
        if end.stop is Stop.REFUSED:
            return _Answer(
                failed=Resolution(
                    Outcome.UNVERIFIABLE,
                    status=resp.status_code,
                    error=f"GitHub API redirected off {self.api.host}; not followed",
                )
            )
        if end.stop is not None:
            return _Answer(
                failed=Resolution(
                    Outcome.UNREACHABLE, error=f"GitHub API: {end.reason(_MAX_API_REDIRECTS)}"
                )
            )
        status, wait = resp.status_code, _rate_wait(resp)
        limited = status in (403, 429) and wait is not None
        if not (limited or (status != 403 and retryable_status(status))):
            return _Answer(resp)
        outcome = Outcome.RATE_LIMITED if status in (403, 429) else Outcome.UNREACHABLE
        return _Answer(
            failed=Resolution(outcome, status=status, error=_limit_text(status, wait)),
            retryable=True,
            retry_after=wait,
        )

    async def _get(self, url: httpx.URL) -> httpx.Response:
        self.requests += 1
        return await self.client.get(
            url, headers=self._headers(url), follow_redirects=False, timeout=self.timeout
        )


@dataclass(slots=True)
class _Answer:
    """One try's API answer, or the failure that ended it; what the retry policy reads."""

    resp: httpx.Response | None = None
    failed: Resolution | None = None
    retryable: bool = False
    retry_after: float | None = None


def _looks_like_the_api(resp: httpx.Response) -> bool:
    """GitHub's REST API answers JSON objects, its 404s included (`{"message": "Not Found"}`).

    A wrong `--github-api` root (a web site, a proxy's error page) answers something else, and
    reading its 404s as "the issue does not exist" would fail every issue: a configuration error.
    """
    if resp.status_code not in (200, 404, 410):
        return True  # limits, 403s and 5xx are judged as answers, as before
    try:
        data = resp.json()
    except ValueError:
        return False
    return isinstance(data, dict) and (resp.status_code == 200 or "message" in data)


def _rate_wait(resp: httpx.Response) -> float | None:
    """Seconds GitHub asks us to wait, when the answer is a rate limit; None otherwise."""
    h = resp.headers
    ra = parse_retry_after(h.get("retry-after"))
    if ra is not None:
        return ra
    if h.get("x-ratelimit-remaining") == "0" and h.get("x-ratelimit-reset", "").isdigit():
        return max(0.0, int(h["x-ratelimit-reset"]) - time.time())
    if resp.status_code in (403, 429) and b"rate limit" in resp.content.lower():
        return 60.0  # secondary limit without retry-after: GitHub says wait at least a minute
    return None


def _limit_text(status: int, wait: float | None) -> str:
    if wait is None:
        return f"GitHub API answered HTTP {status}"
    return f"GitHub API rate limit (HTTP {status}); it asks to wait {wait:.0f} s"


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


def _json(resp: httpx.Response, *fields: str) -> dict[str, object] | Resolution:
    """The answer's JSON object, when it has `fields`; else the failure."""
    try:
        data = resp.json()
        if isinstance(data, dict) and all(f in data for f in fields):
            return data
    except ValueError:
        pass
    return Resolution(
        Outcome.UNVERIFIABLE,
        status=resp.status_code,
        error=f"GitHub API answer has no {', '.join(fields)}",
    )


def _from_response(ref: GithubRef, status: int, resp: httpx.Response) -> Resolution:
    failed = _not_ok(status, str(ref))
    if failed is not None:
        return failed
    data = _json(resp, "title", "state")
    if isinstance(data, Resolution):
        return data
    pr = data.get("pull_request") or None
    html = str(data.get("html_url") or "")
    merged_at = pr.get("merged_at") if isinstance(pr, dict) else None
    reason = data.get("state_reason")
    facts = IssueFacts(
        title=str(data["title"]),
        state=str(data["state"]),
        state_reason=reason if isinstance(reason, str) else None,
        is_pull=pr is not None,
        merged=bool(merged_at),
        moved_to=html if html and not _same_repo(html, ref) else None,
        closed_at=_day(data.get("closed_at")),
        merged_at=_day(merged_at),
    )
    return Resolution(Outcome.OK, facts, status=200)


def _day(stamp: object) -> str | None:
    """`2024-06-06T00:10:06Z` → `2024-06-06`; anything else → None."""
    return stamp[:10] if isinstance(stamp, str) and len(stamp) >= 10 else None


def _repo_from_response(cited: str, status: int, resp: httpx.Response) -> Resolution:
    failed = _not_ok(status, f"repository {cited}")
    if failed is not None:
        return failed
    data = _json(resp, "full_name")
    if isinstance(data, Resolution):
        return data
    full = str(data["full_name"])
    html = str(data.get("html_url") or f"https://github.com/{full}")
    facts = RepoFacts(
        title=full,
        moved_to=html if full.lower() != cited.lower() else None,
        archived=data.get("archived") is True,
    )
    return Resolution(Outcome.OK, facts, status=200)


def _same_repo(html_url: str, ref: GithubRef) -> bool:
    parts = httpx.URL(html_url).path.strip("/").split("/")
    return (
        len(parts) >= 4
        and parts[0].lower() == ref.owner.lower()
        and parts[1].lower() == ref.repo.lower()
        and parts[3] == str(ref.number)
    )
