"""Dated snapshots from the Wayback Machine's availability API, verified before they are kept.

`GET {api}?url=<url>&timestamp=<YYYYMMDDhhmmss>` answers
`{"url": ..., "archived_snapshots": {"closest": {"status": "200", "available": true,
"url": "http://web.archive.org/web/<ts>/<url>", "timestamp": "<ts>"}}}`, or
`{"url": ..., "archived_snapshots": {}}` when it knows none (which it also says, at times, for
archived pages: "none" is never cached). The closest capture may be later than the timestamp;
then the API is asked once more with `closest=before`, and the later one is kept only when
there is no earlier one. A capture is kept when its recorded status is 200 and the snapshot
page itself answers 200 (a HEAD, redirects followed on the archive's host).

Requests are spaced `interval` seconds apart and one at a time, like any host, and a 503, 429
or timeout is tried again under the run's retry policy (honouring `Retry-After` up to its cap)
before the archive counts as failing; with a custom
endpoint (`--wayback-api`, a mirror or a test server) the snapshot is verified on that
endpoint's host too, so no request goes to a host the user did not name.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import date

import httpx

from ..defaults import DEFAULT_TIMEOUT, USER_AGENT, WAYBACK_API, WAYBACK_MIN_INTERVAL
from ..history.snapshots import Snapshot
from ..net.bounded import Unreadable, answer_json
from ..net.redirects import follow, location_of
from ..net.retry import RetryPolicy, Sent, send_once

__all__ = ["WAYBACK_API", "WaybackClient", "WaybackError"]

ARCHIVE_HOST = "web.archive.org"
_SNAP_PATH = re.compile(r"^/web/(\d{14})(?:[a-z]{2}_)?/(.+)$")
_MAX_HOPS = 3


@dataclass(frozen=True, slots=True)
class _Found:
    """A snapshot the API named, with its Wayback timestamp (YYYYMMDDhhmmss) to compare."""

    snapshot: Snapshot
    timestamp: str


class WaybackError(Exception):
    """The archive could not answer (network, HTTP error, bad JSON): a warning, never a verdict."""


class WaybackClient:
    def __init__(
        self,
        client: httpx.AsyncClient,
        api_url: str = WAYBACK_API,
        *,
        interval: float = WAYBACK_MIN_INTERVAL,
        timeout: float = DEFAULT_TIMEOUT,
        policy: RetryPolicy | None = None,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.client = client
        self.policy = policy or RetryPolicy(sleep=sleep, clock=clock)
        self.api = httpx.URL(api_url)
        self.interval = interval
        self.timeout = timeout
        self.sleep = sleep
        self.clock = clock
        self.requests = 0
        self._lock = asyncio.Lock()
        self._next = 0.0

    @property
    def _mirror(self) -> bool:
        return self.api.host not in ("archive.org", "www.archive.org", ARCHIVE_HOST)

    async def _get(self, url: httpx.URL, method: str = "GET") -> httpx.Response:
        """One request, tried again under the run's retry policy (a 503, 429 or timeout)."""
        sent = await self.policy.run(lambda: self._once(url, method))
        if sent.resp is None:
            raise WaybackError(f"Wayback Machine unreachable ({type(sent.error).__name__})")
        return sent.resp

    async def _once(self, url: httpx.URL, method: str) -> Sent:
        async with self._lock:  # one at a time, `interval` apart
            wait = self._next - self.clock()
            if wait > 0:
                await self.sleep(wait)
            self.requests += 1
            try:
                return await send_once(
                    lambda: self.client.request(
                        method,
                        url,
                        headers={"User-Agent": USER_AGENT, "Accept": "application/json"},
                        follow_redirects=False,
                        timeout=self.timeout,
                    )
                )
            finally:
                self._next = self.clock() + self.interval

    async def closest(self, url: str, before: date) -> Snapshot | None:
        """The verified capture closest to, and where one exists not after, `before`."""
        stamp = before.strftime("%Y%m%d") + "235959"
        found = await self._available(url, stamp, None)
        if found is not None and found.timestamp > stamp:
            earlier = await self._available(url, stamp, "before")
            if earlier is not None and earlier.timestamp <= stamp:
                found = earlier
        if found is None or not await self._verify(found.snapshot):
            return None
        return found.snapshot

    async def captured(self, url: str, stamp: str) -> Snapshot | None:
        """A capture Save Page Now just made of `url`, kept only if its snapshot answers 200."""
        found = self._snapshot(f"https://{ARCHIVE_HOST}/web/{stamp}/{url}", stamp)
        return found.snapshot if found and await self._verify(found.snapshot) else None

    async def _available(self, url: str, stamp: str, closest: str | None) -> _Found | None:
        params = {"url": url, "timestamp": stamp, **({"closest": closest} if closest else {})}
        resp = await self._get(self.api.copy_merge_params(params))
        if resp.status_code != 200:
            raise WaybackError(f"Wayback availability API answered HTTP {resp.status_code}")
        try:
            doc = answer_json(resp)
        except Unreadable:
            doc = None
        snapshots = (doc.get("archived_snapshots") or {}) if isinstance(doc, dict) else None
        if not isinstance(snapshots, dict):
            raise WaybackError("Wayback availability API answer is not the expected JSON")
        best = snapshots.get("closest")
        if (
            not isinstance(best, dict)
            or best.get("available") is not True
            or str(best.get("status")) != "200"
        ):
            return None
        return self._snapshot(str(best.get("url", "")), str(best.get("timestamp", "")))

    def _snapshot(self, raw: str, stamp: str) -> _Found | None:
        try:
            address = httpx.URL(raw)
        except httpx.InvalidURL:
            return None
        snap = _SNAP_PATH.match(address.raw_path.decode("ascii", "replace"))
        if not snap or snap[1] != stamp or not (address.host == ARCHIVE_HOST or self._mirror):
            return None  # not a snapshot address: never stored, never requested
        if address.host == ARCHIVE_HOST:
            address = address.copy_with(scheme="https", port=None)
        day = f"{stamp[:4]}-{stamp[4:6]}-{stamp[6:8]}"
        return _Found(Snapshot(str(address), day), stamp)

    async def _verify(self, snap: Snapshot) -> bool:
        url = httpx.URL(snap.url)
        if self._mirror:  # a mirror or test server serves its own snapshots
            url = url.copy_with(scheme=self.api.scheme, host=self.api.host, port=self.api.port)
        end = await follow(
            url,
            lambda address: self._get(address, "HEAD"),
            location_of,
            max_redirects=_MAX_HOPS,
            allow=lambda address: address.host == url.host,
        )
        return end.stop is None and end.answer.status_code == 200
