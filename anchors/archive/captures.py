"""`check --archive-save`: the Save Page Now captures of one run, asked for and followed.

Captures are asked for once the check is done, and only of pages that answered it: a dead
page is not worth one of the few captures a minute an account may make. The newest anchors go
first (a capture on the day a briefing cites a page is the closest there can be to what it
saw), at most the run's quota, and a page is not asked for again for a day (`capture:<key>`
cache entries, written before the request is sent; the cache is disposable, and SPN2 itself
returns a capture of the last day instead of making a new one).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date

from ..details import Captured, CaptureJob, CaptureRefused, Details, NotAsked, OverQuota
from ..findings import Code, Finding
from ..history.snapshots import Snapshot
from ..net.cache import Cache
from ..registry.model import Anchor
from .savepagenow import Capture, CaptureState, SavePageNow, SaveRefused
from .wayback import WaybackClient, WaybackError

__all__ = ["SAVE_PREFIX", "Captures"]

#: a capture asked for (its job), so the page is not asked for again within the day
SAVE_PREFIX = "capture:"


@dataclass(slots=True)
class _Jobs:
    """The capture jobs still going on (key -> when asked for), and when to poll them next."""

    started: dict[str, float] = field(default_factory=dict)
    next_poll: float = 0.0


@dataclass(slots=True)
class Captures:
    """One run's captures: what was asked for, what became of each, and why the rest waits."""

    saver: SavePageNow
    wayback: WaybackClient
    cache: Cache
    registry: str
    #: a verified snapshot of a capture, kept as it is found (`Archiver.found`)
    keep: Callable[[Anchor, Snapshot], None]
    #: why Save Page Now took no more captures
    problem: str | None = None
    #: each capture asked for, by anchor key: the latest state, and the snapshot once verified
    asked: dict[str, tuple[Anchor, Capture, Snapshot | None]] = field(default_factory=dict)
    #: pages still to be asked for, and how many the run's quota left out
    queue: list[Anchor] = field(default_factory=list)
    over_quota: int = 0

    async def run(self, missing: list[Anchor], answered: frozenset[str], today: date) -> None:
        """Ask for captures the quota's interval apart and poll the jobs between, until all end."""
        self._plan(missing, answered, today)
        jobs = _Jobs()
        asking: Anchor | None = None
        saver = self.saver
        try:
            while self.queue or jobs.started:
                if self.queue and not saver.wait_before_next():
                    asking = self.queue.pop(0)
                    await self._ask(asking, today, jobs)
                elif jobs.started and saver.clock() >= jobs.next_poll:
                    await self._poll_all(jobs)
                else:
                    await saver.sleep(self._pause(jobs))
        except SaveRefused as exc:
            self.problem = str(exc)
            if not exc.maybe_started and asking is not None and asking.key is not None:
                self.cache.drop(SAVE_PREFIX + asking.key.key)  # no capture began: ask next run
        except WaybackError as exc:
            self.problem = str(exc)

    def _plan(self, missing: list[Anchor], answered: frozenset[str], today: date) -> None:
        """The pages to ask for, newest anchors first, as many as the quota leaves."""
        wanted = sorted(
            (
                anchor
                for anchor in missing
                if anchor.key is not None
                and anchor.key.key in answered
                and self.cache.get(SAVE_PREFIX + anchor.key.key) is None
            ),
            key=lambda anchor: anchor.first_anchored or today,
            reverse=True,
        )
        left = self.saver.left
        self.queue, self.over_quota = wanted[:left], max(len(wanted) - left, 0)

    async def _ask(self, anchor: Anchor, today: date, jobs: _Jobs) -> None:
        """One capture asked for; a job that goes on is polled from then on."""
        assert anchor.key is not None
        key, saver = anchor.key.key, self.saver
        # marked first: a request cut off in flight may still have started a capture
        self.cache.put(SAVE_PREFIX + key, {"asked": today.isoformat()})
        cap = await saver.submit(anchor.key.url)
        self.asked[key] = (anchor, cap, None)
        if cap.state is CaptureState.PENDING:
            self.cache.put(SAVE_PREFIX + key, {"asked": today.isoformat(), "job": cap.job})
            if not jobs.started:
                jobs.next_poll = saver.clock() + saver.poll
            jobs.started[key] = saver.clock()

    async def _poll_all(self, jobs: _Jobs) -> None:
        """One status request per job; an ended job, or one past the patience, is let go."""
        saver = self.saver
        for key, since in list(jobs.started.items()):
            if await self._poll(key) or saver.clock() - since > saver.patience:
                del jobs.started[key]
        jobs.next_poll = saver.clock() + saver.poll

    def _pause(self, jobs: _Jobs) -> float:
        """Until the next capture may be asked for, or the next poll is due."""
        saver = self.saver
        waits = ([saver.wait_before_next()] if self.queue else []) + (
            [jobs.next_poll - saver.clock()] if jobs.started else []
        )
        return max(min(waits), 0.0)

    async def _poll(self, key: str) -> bool:
        """One status request for a job; True when the job has ended (captured or refused)."""
        anchor, asked, _ = self.asked[key]
        assert asked.job is not None and anchor.key is not None
        cap = await self.saver.status(asked.job)
        if cap.state is CaptureState.PENDING:
            return False
        self.asked[key] = (anchor, cap, None)  # ended, whatever the verification says
        if cap.state is CaptureState.DONE and cap.timestamp:
            snap = await self.wayback.captured(anchor.key.url, cap.timestamp)
            if snap is not None:
                self.keep(anchor, snap)
                self.asked[key] = (anchor, cap, snap)
        return True

    def findings(self) -> list[Finding]:
        """What became of each capture asked for."""
        return [
            _captured(anchor, cap, snap, self.registry) for anchor, cap, snap in self.asked.values()
        ]

    def left_out(self) -> list[Finding]:
        """Why some pages were not asked for: Save Page Now stopped, or the quota was spent."""
        out = []
        if self.problem is not None:
            out.append(
                Finding(
                    Code.ARCHIVE_UNAVAILABLE,
                    "",
                    self.registry,
                    None,
                    f"Save Page Now: {self.problem}; {len(self.queue)} more pages "
                    "were not asked for, `check --archive-save` again later",
                    NotAsked(len(self.queue)),
                )
            )
        if self.over_quota:
            out.append(
                Finding(
                    Code.ARCHIVE_CAPTURE,
                    "",
                    self.registry,
                    None,
                    f"{self.over_quota} more pages have no capture; a run asks for "
                    "at most `archive_saves` (the newest anchors first), the next "
                    "runs ask for these",
                    OverQuota(self.over_quota),
                )
            )
        return out


def _captured(anchor: Anchor, cap: Capture, snap: Snapshot | None, registry: str) -> Finding:
    """What became of one capture asked for, at the anchor's line (info: never a verdict)."""
    if snap is not None:
        text = (
            f"captured by Save Page Now on {snap.date}: {snap.url}; "
            "`anchors fix --only archive` stores it"
        )
        details: Details = Captured(snap.url, snap.date)
    elif cap.state is CaptureState.REFUSED:
        text = f"Save Page Now did not capture it ({cap.reason})"
        details = CaptureRefused(cap.reason)
    elif cap.state is CaptureState.DONE:
        text = (
            "captured by Save Page Now, but the snapshot does not answer yet; "
            "the next `check --archive` looks it up"
        )
        details = CaptureJob(cap.job)
    else:
        text = (
            f"capture asked for (Save Page Now job {cap.job}) and not finished yet; "
            "the next `check --archive` looks it up"
        )
        details = CaptureJob(cap.job)
    return Finding(Code.ARCHIVE_CAPTURE, anchor.label, registry, anchor.line, text, details)
