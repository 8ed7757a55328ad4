"""Save Page Now 2 (SPN2): new Wayback captures, asked for with the user's own archive.org keys.

Opt-in only (`check --archive-save`). The keys come from the environment, never from a file or
the command line (`Settings.save_keys`), and go in one header to the configured endpoint only:
no redirect is followed, and nothing that is logged, cached or reported contains them.

The protocol, as the SPN2 API documentation gives it:
`POST {api}` with `url=<url>`, `Accept: application/json` and
`Authorization: LOW <access>:<secret>` answers `{"url": ..., "job_id": ...}` (with a
`message` at times, e.g. when a recent capture is returned instead of a new one), or
`{"status": "error", "status_ext": "error:...", "message": ...}`.
`GET {api}/status/<job_id>` answers `{"status": "pending", ...}`, then either
`{"status": "success", "timestamp": "<YYYYMMDDhhmmss>", "original_url": ...}` or
`{"status": "error", "status_ext": "error:...", ...}`; a job's status is kept about an hour.

The limits that shape this client: 7 captures a minute for an authenticated account (so
requests are `interval` apart, 10 s by default), a dozen concurrent capture sessions
(`error:user-session-limit`), a daily cap per account (tens of thousands) and 5–10 captures a
day per URL (`error:too-many-daily-captures`), 2 minutes at most per capture. Only pages that
answer 200 are captured (no `capture_all`), and a capture made in the last day is returned
instead of a new one (`if_not_archived_within`).
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from enum import Enum

import httpx

from ..config import IA_KEY_ENV
from ..defaults import DEFAULT_TIMEOUT, SAVE_API, SAVE_MIN_INTERVAL, SAVE_PER_RUN, USER_AGENT
from ..net.bounded import Unreadable, answer_json
from ..net.retry import Sent, send_once

__all__ = ["Capture", "CaptureQuota", "CaptureState", "SavePageNow", "SaveRefused"]

#: a job ID goes into the status URL's path: nothing but what SPN2's IDs are made of
#: (all three are used with `fullmatch`: `$` would let a trailing newline through)
_JOB = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,99}")
_STAMP = re.compile(r"(19|20)\d{12}")
_CODE = re.compile(r"error:[a-z0-9-]{1,60}")
#: refusals about the account or the service, not the page: no further capture this run
_STOP = frozenset(
    {
        "error:user-session-limit",
        "error:max-daily-bandwidth",
        "error:max-daily-bandwidth-from-ip",
        "error:blocked-client-ip",
        "error:celery",
        "error:no-browsers-available",
        "error:internal-server-error",
    }
)
#: a capture made within this many seconds is returned instead of a new one
_RECENT = 86400
#: SPN2 gives up on a capture after 2 minutes; so does the poll
_PATIENCE = 150.0


class CaptureState(str, Enum):
    DONE = "done"
    PENDING = "pending"
    REFUSED = "refused"


@dataclass(frozen=True, slots=True)
class Capture:
    state: CaptureState
    job: str | None = None
    #: the capture's Wayback timestamp (YYYYMMDDhhmmss), when DONE
    timestamp: str | None = None
    #: why not, when REFUSED: SPN2's `status_ext` code, or an HTTP status
    reason: str | None = None


class SaveRefused(Exception):
    """The account or the service said no (keys refused, rate or daily limit, service down):
    a warning, and no further capture is asked for in this run. `maybe_started` is False when
    the answer says no capture began (so the page may be asked for again next run)."""

    def __init__(self, message: str, *, maybe_started: bool = True) -> None:
        super().__init__(message)
        self.maybe_started = maybe_started


def _code(doc: dict[str, object]) -> str:
    """SPN2's error code, only if it looks like one: its free-text message is not repeated."""
    code = doc.get("status_ext")
    return code if isinstance(code, str) and _CODE.fullmatch(code) else "error"


@dataclass(slots=True)
class CaptureQuota:
    """The captures one `anchors check` may still ask for, and when the next may go. One is
    shared by every registry of a run, so the per-run limit and SPN2's per-minute spacing hold
    across them."""

    limit: int = SAVE_PER_RUN
    #: seconds between capture requests
    interval: float = SAVE_MIN_INTERVAL
    used: int = 0
    #: when (on the client's clock) the next capture may be asked for
    next_at: float = 0.0


class SavePageNow:
    def __init__(
        self,
        client: httpx.AsyncClient,
        api_url: str = SAVE_API,
        *,
        keys: tuple[str, str],
        quota: CaptureQuota | None = None,
        interval: float = SAVE_MIN_INTERVAL,
        limit: int = SAVE_PER_RUN,
        poll: float = 5.0,
        timeout: float = DEFAULT_TIMEOUT,
        patience: float = _PATIENCE,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.client = client
        self.api = httpx.URL(api_url.rstrip("/"))
        self._auth = f"LOW {keys[0]}:{keys[1]}"
        self.quota = quota or CaptureQuota(limit, interval)
        #: seconds between status polls: a poll costs less than a capture, so never longer (but
        #: never under 0.2 s, even with `save_delay = 0` for a test server)
        self.poll = max(min(poll, self.quota.interval), 0.2)
        self.timeout = timeout
        self.patience = patience
        self.sleep = sleep
        self.clock = clock

    def __repr__(self) -> str:  # the keys are in `_auth`: never printed
        return f"SavePageNow({str(self.api)!r}, used={self.quota.used}/{self.quota.limit})"

    async def _send(self, method: str, url: httpx.URL, data: dict[str, str] | None = None) -> Sent:
        """One request under the run's own try type (no retry: see `submit`); its error, which
        holds the request and so the keys, is only ever named by its class."""
        return await send_once(
            lambda: self.client.request(
                method,
                url,
                headers={
                    "User-Agent": USER_AGENT,
                    "Accept": "application/json",
                    "Authorization": self._auth,
                },
                follow_redirects=False,
                timeout=self.timeout,
                data=data,
            )
        )

    @property
    def left(self) -> int:
        """Captures this run may still ask for."""
        return max(self.quota.limit - self.quota.used, 0)

    def wait_before_next(self) -> float:
        """Seconds until the next capture may be asked for (0: now)."""
        return max(self.quota.next_at - self.clock(), 0.0)

    async def submit(self, url: str) -> Capture:
        """Ask for a capture of `url`: PENDING with its job, or REFUSED for this page."""
        wait = self.wait_before_next()
        if wait:
            await self.sleep(wait)
        self.quota.used += 1
        try:
            sent = await self._send(
                "POST",
                self.api,
                data={
                    "url": url,
                    "skip_first_archive": "1",
                    "if_not_archived_within": str(_RECENT),
                },
            )
        finally:
            self.quota.next_at = self.clock() + self.quota.interval
        resp = sent.resp
        if resp is None:
            raise SaveRefused(f"Save Page Now unreachable ({type(sent.error).__name__})")
        if resp.status_code in (401, 403):
            raise SaveRefused(
                f"archive.org refused the keys (HTTP {resp.status_code}); check "
                f"{IA_KEY_ENV[0]} and {IA_KEY_ENV[1]}",
                maybe_started=False,
            )
        doc = self._json(resp)
        if doc is not None and doc.get("status") == "error":
            code = _code(doc)
            if code in _STOP or resp.status_code == 429:
                raise SaveRefused(
                    f"Save Page Now declined further captures ({code})", maybe_started=False
                )
            return Capture(CaptureState.REFUSED, reason=code)
        job = doc.get("job_id") if doc is not None else None
        if resp.status_code == 200 and isinstance(job, str) and _JOB.fullmatch(job):
            return Capture(CaptureState.PENDING, job=job)
        if resp.status_code == 429:
            raise SaveRefused(
                "Save Page Now is rate-limiting this account (HTTP 429)", maybe_started=False
            )
        raise SaveRefused(f"Save Page Now answered HTTP {resp.status_code} without a job")

    async def status(self, job: str) -> Capture:
        """Where a job stands: PENDING, DONE with its timestamp, or REFUSED with SPN2's code.
        A status that cannot be read (no answer, not JSON) leaves the job PENDING: it is asked
        again at the next poll, and the next check looks the page up anyway."""
        resp = (await self._send("GET", self.api.join(f"{self.api.path}/status/{job}"))).resp
        doc = self._json(resp) if resp is not None and resp.status_code == 200 else None
        state = doc.get("status") if doc is not None else None
        if state == "success" and isinstance(doc, dict):
            stamp = doc.get("timestamp")
            if isinstance(stamp, str) and _STAMP.fullmatch(stamp):
                return Capture(CaptureState.DONE, job=job, timestamp=stamp)
        if state == "error" and isinstance(doc, dict):
            return Capture(CaptureState.REFUSED, job=job, reason=_code(doc))
        return Capture(CaptureState.PENDING, job=job)

    @staticmethod
    def _json(resp: httpx.Response) -> dict[str, object] | None:
        """The answer's JSON object; None for anything else (no job, no status: see callers)."""
        try:
            doc = answer_json(resp)
        except Unreadable:
            return None
        return doc if isinstance(doc, dict) else None
