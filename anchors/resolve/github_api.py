"""GitHub's REST API, one request at a time, as GitHub asks of clients.

The token goes only to the configured API host: redirects are followed by hand
(anchors.net.redirects) and only while they stay on that host. Rate limits are honoured from
`x-ratelimit-remaining`/`-reset` and `retry-after`, through the run's retry policy (its sleep,
so tests wait in virtual time).

Each answer's `ETag` is kept with what anchors read of it, in a store this machine wrote
(`etags`, beside the cache but read under `--no-cache` too); the next request for that URL
says `If-None-Match`, and a 304, which GitHub does not count against the rate limit, renews
what was kept. Once the primary limit is spent (and resets later than the retry policy waits),
the requests left are not sent: their anchors are not checked this run (`Resolution.asked`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace

import httpx

from ..defaults import DEFAULT_TIMEOUT, GITHUB_API, USER_AGENT
from ..errors import UsageError
from ..findings import Outcome
from ..net.bounded import Unreadable, answer_json
from ..net.cache import Cache
from ..net.redirects import Stop, follow, location_of
from ..net.retry import RetryPolicy, retryable_error, retryable_status
from .base import Resolution
from .github_limits import header_count, limit_text, not_asked, rate_wait
from .github_pages import looks_like_the_api, next_link

__all__ = ["ETAG_TTL", "GithubApi", "Keep", "Reply"]

_MAX_API_REDIRECTS = 3
#: an ETag not renewed for this long (its anchor left the registry) is dropped from the store
ETAG_TTL = 120 * 86400.0
#: what of a 200 answer's JSON is kept (and renewed by a 304); raises for the wrong shape
Keep = Callable[[object], dict[str, object]]


@dataclass(frozen=True, slots=True)
class Reply:
    """An API answer: its status, and for a 200 (or a 304 renewing one) what `keep` kept of
    it; for other statuses the JSON object GitHub sent, if any."""

    status: int
    data: dict[str, object]
    #: the next page's URL (the answer's `Link: rel="next"`), for a list answered in pages
    next: str | None = None


class GithubApi:
    def __init__(
        self,
        client: httpx.AsyncClient,
        api_url: str = GITHUB_API,
        token: str | None = None,
        policy: RetryPolicy | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        etags: Cache | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.client = client
        self.root = httpx.URL(api_url.rstrip("/") + "/")
        self.token = token
        self.policy = policy or RetryPolicy()
        self.timeout = timeout
        self.etags = etags
        self.clock = clock
        #: requests sent, and how many were answered 304 Not Modified
        self.requests = 0
        self.not_modified = 0
        #: the primary limit as the latest answer gave it
        self.remaining: int | None = None
        self.reset: float | None = None
        self._limited: Resolution | None = None

    def last_answered(self, path: str) -> float:
        """When this machine last had an answer for `path` (0.0: never): stalest first."""
        if self.etags is None:
            return 0.0
        return self.etags.when(_store_key(self.root.join(path))) or 0.0

    async def get(
        self, path: str, keep: Keep, *, name: str = "", limit: int | None = None
    ) -> Reply | Resolution:
        """The answer for `path` (under the API root, or a next page's URL), or the failure as
        a Resolution. `name` keeps what `keep` read apart from other reads of the same URL;
        an answer over `limit` bytes is not read."""
        stop = self._limited or self._spent()
        if stop is not None:
            return stop
        url = self.root.join(path)
        got = await self.policy.run(lambda: self._try(url, name))
        if got.failed is not None:
            if got.failed.outcome is Outcome.RATE_LIMITED:  # the rest are not sent
                self._limited = replace(got.failed, asked=False)
            return got.failed
        assert got.resp is not None
        resp = got.resp
        if resp.status_code == 304:
            return self._renewed(resp, name)
        if limit is not None and len(resp.content) > limit:
            too_large = f"GitHub API answer larger than {limit >> 20} MiB; not read"
            return Resolution(Outcome.UNVERIFIABLE, status=resp.status_code, error=too_large)
        try:
            data = answer_json(resp)
        except Unreadable as exc:  # JSON by its own account: the API's, judged per anchor
            return Resolution(
                Outcome.UNVERIFIABLE,
                status=resp.status_code,
                error=f"GitHub API answer could not be read ({exc})",
            )
        if not looks_like_the_api(resp.status_code, data):
            raise UsageError(
                f"--github-api {self.root}: answered HTTP {resp.status_code} "
                f"({resp.headers.get('content-type') or 'no content type'}) to {url.path}, "
                "which is not what the GitHub REST API answers; check the URL"
            )
        return self._reply(resp, keep, data, name)

    def _renewed(self, resp: httpx.Response, name: str) -> Reply | Resolution:
        """A 304: what was kept with the ETag this machine sent, renewed."""
        key = _store_key(resp.url, name)
        held = self._held(key)
        if held is None:  # only sent with an ETag we hold: a 304 without one is no answer
            return Resolution(Outcome.UNVERIFIABLE, status=304, error=_NO_ETAG)
        self.not_modified += 1
        assert self.etags is not None
        self.etags.put(key, held)
        nxt = held.get("next")
        return Reply(200, _object(held["kept"]), nxt if isinstance(nxt, str) else None)

    def _reply(
        self, resp: httpx.Response, keep: Keep, data: object, name: str
    ) -> Reply | Resolution:
        key = _store_key(resp.url, name)
        if resp.status_code != 200:
            return Reply(resp.status_code, data if isinstance(data, dict) else {})
        try:
            kept = keep(data)
        except (KeyError, TypeError, ValueError) as exc:
            return Resolution(
                Outcome.UNVERIFIABLE, status=200, error=f"GitHub API answer has no {exc}"
            )
        etag, nxt = resp.headers.get("etag"), next_link(resp.headers.get("link"))
        if self.etags is not None and _sendable(etag):
            self.etags.put(key, {"etag": etag, "kept": kept} | ({"next": nxt} if nxt else {}))
        return Reply(200, kept, next=nxt)

    def _held(self, key: str) -> dict[str, object] | None:
        """The ETag and kept data this machine stored under `key`, if well formed."""
        if self.etags is None:
            return None
        held = self.etags.get(key)
        if held is None or not _sendable(held.get("etag")):
            return None
        return held if isinstance(held.get("kept"), dict) else None

    def _spent(self) -> Resolution | None:
        """The primary limit is spent until later than a retry would wait: don't ask."""
        if self.remaining != 0 or self.reset is None:
            return None
        wait = self.reset - self.clock()
        if wait <= self.policy.retry_after_cap:
            return None
        return not_asked(self.reset)

    async def _try(self, url: httpx.URL, name: str = "") -> _Answer:
        """One try: the answer, or a failure the retry policy may try again (limits, 5xx)."""
        try:
            end = await follow(
                url,
                lambda hop: self._get(hop, name),
                location_of,
                max_redirects=_MAX_API_REDIRECTS,
                allow=lambda hop: hop.host == self.root.host,
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
                    error=f"GitHub API redirected off {self.root.host}; not followed",
                )
            )
        if end.stop is not None:
            return _Answer(
                failed=Resolution(
                    Outcome.UNREACHABLE, error=f"GitHub API: {end.reason(_MAX_API_REDIRECTS)}"
                )
            )
        status, wait = resp.status_code, rate_wait(resp, self.clock())
        limited = status in (403, 429) and wait is not None
        if not (limited or (status != 403 and retryable_status(status))):
            return _Answer(resp)
        failed = Resolution(
            Outcome.RATE_LIMITED if limited else Outcome.UNREACHABLE,
            status=status,
            error=limit_text(status, wait),
        )
        if limited and self.remaining == 0 and self.reset is not None:
            failed = not_asked(self.reset)  # the primary limit: a budget, not a verdict
        return _Answer(failed=failed, retryable=True, retry_after=wait)

    async def _get(self, url: httpx.URL, name: str = "") -> httpx.Response:
        self.requests += 1
        resp = await self.client.get(
            url, headers=self._headers(url, name), follow_redirects=False, timeout=self.timeout
        )
        self._note_limit(resp)
        return resp

    def _headers(self, url: httpx.URL, name: str = "") -> dict[str, str]:
        headers = {
            "Accept": "application/vnd.github+json",
            "X-GitHub-Api-Version": "2022-11-28",
            "User-Agent": USER_AGENT,
        }
        if (
            self.token
            and url.host == self.root.host
            and url.port == self.root.port
            and url.scheme == self.root.scheme
        ):
            headers["Authorization"] = f"Bearer {self.token}"
        held = self._held(_store_key(url, name))
        if held is not None:
            headers["If-None-Match"] = str(held["etag"])
        return headers

    def _note_limit(self, resp: httpx.Response) -> None:
        headers = resp.headers
        left = header_count(headers.get("x-ratelimit-remaining"))
        reset = header_count(headers.get("x-ratelimit-reset"))
        core = headers.get("x-ratelimit-resource", "core") == "core"
        if left is not None and reset is not None and core:
            self.remaining, self.reset = left, float(reset)


@dataclass(slots=True)
class _Answer:
    """One try's API answer, or the failure that ended it; what the retry policy reads."""

    resp: httpx.Response | None = None
    failed: Resolution | None = None
    retryable: bool = False
    retry_after: float | None = None


_NO_ETAG = "GitHub API answered 304 Not Modified to a request without an ETag"


def _store_key(url: httpx.URL, name: str = "") -> str:
    """The ETag store's name for an API URL (the whole URL: another API root is another
    answer), and for what was kept of it (`name`)."""
    return f"etag:{url}#{name}" if name else f"etag:{url}"


def _object(value: object) -> dict[str, object]:
    return value if isinstance(value, dict) else {}


def _sendable(etag: object) -> bool:
    """An ETag a request header can carry back (`If-None-Match`): printable ASCII; any other
    is never kept, and the next request is unconditional."""
    return isinstance(etag, str) and bool(etag) and etag.isascii() and etag.isprintable()
