"""`check --archive`: look up a dated Wayback snapshot for each URL anchor that has none, and
with `--archive-save` ask Save Page Now to capture the pages the archive has no capture of.

The work runs beside the check and never holds it up for long: once the check itself is done
the lookups get `grace` more seconds (10), captures `save_grace` (60: at most five of them, ten
seconds apart as SPN2 asks), then whatever is left is dropped with one `archive-unavailable`
warning (a capture already asked for goes on at the archive; the next `check --archive` finds
it).
A failing archive (down, rate-limiting, bad answers) stops the work at its first failure
instead of asking again for every URL. Verified snapshots are cached (`wayback:<url>` keys, 30
days); `anchors fix --only archive` writes them into the registry as `archived: {url, date}`,
because `check` never writes the registry.

Captures are asked for once the check is done, and only for pages that answered it (a link
check or, for a repository page, GitHub): a dead page is not worth one of the few captures a
minute an account may make. The newest anchors go first (a capture on the day a briefing cites
a page is the closest there can be to what it saw), at most the run's quota, and a page is not
asked for again for a day (`capture:<url>` keys, written before the request is sent).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date

from ..findings import Code, Finding
from ..ids.model import AnchorKind
from ..registry.model import Anchor
from .cache import Cache
from .resolve.savepagenow import Capture, CaptureState, SavePageNow, SaveRefused
from .resolve.wayback import Snapshot, WaybackClient, WaybackError

__all__ = ["CACHE_PREFIX", "GRACE", "SAVE_GRACE", "SAVE_PREFIX", "Archiver", "cached_snapshots"]

CACHE_PREFIX = "wayback:"
#: a capture asked for (its job), so the page is not asked for again within the day
SAVE_PREFIX = "capture:"
#: seconds the lookups may go on after the check itself has finished
GRACE = 10.0
#: seconds captures may go on after the check (they begin then): five, 10 s apart, and polls
SAVE_GRACE = 60.0


def cached_snapshots(cache: Cache) -> dict[str, dict[str, object]]:
    """Snapshots found by earlier checks, by anchor key (`url:...`)."""
    out = {}
    for k in cache.entries:
        if k.startswith(CACHE_PREFIX) and (data := cache.get(k)) is not None:
            out[k.removeprefix(CACHE_PREFIX)] = data
    return out


@dataclass(slots=True)
class _Jobs:
    """The capture jobs still going on (key -> when asked for), and when to poll them next."""

    started: dict[str, float] = field(default_factory=dict)
    next_poll: float = 0.0


@dataclass(slots=True)
class Archiver:
    wayback: WaybackClient
    cache: Cache
    registry: str
    todo: list[Anchor]
    saver: SavePageNow | None = None
    problem: str | None = None
    left: int = 0
    #: why Save Page Now took no more captures
    save_problem: str | None = None
    #: each capture asked for, by anchor key: the latest state, and the snapshot once verified
    captures: dict[str, tuple[Anchor, Capture, Snapshot | None]] = field(default_factory=dict)
    #: pages still to be asked for, and how many the run's quota left out
    queue: list[Anchor] = field(default_factory=list)
    over_quota: int = 0
    task: asyncio.Task[None] | None = field(default=None, repr=False)
    _answered: set[str] = field(default_factory=set, repr=False)
    _checked: asyncio.Event = field(default_factory=asyncio.Event, repr=False)

    @classmethod
    def start(
        cls,
        wayback: WaybackClient,
        targets: dict[str, Anchor],
        cache: Cache,
        registry: str,
        today: date,
        saver: SavePageNow | None = None,
    ) -> Archiver:
        todo = [
            a
            for key, a in targets.items()
            if a.key is not None
            and a.key.kind is AnchorKind.URL
            and a.archived is None
            and cache.get(CACHE_PREFIX + key) is None
        ]
        arch = cls(wayback, cache, registry, todo, saver, left=len(todo))
        arch.task = asyncio.ensure_future(arch._run(today))
        return arch

    def checked(self, answered: Iterable[str]) -> None:
        """The check is done; `answered` are the keys of the pages that answered it."""
        self._answered = set(answered)
        self._checked.set()

    async def _run(self, today: date) -> None:
        missing = []
        for a in self.todo:
            assert a.key is not None and a.key.kind is AnchorKind.URL
            try:
                snap = await self.wayback.closest(a.key.url, a.first_anchored or today)
            except WaybackError as exc:
                self.problem = str(exc)
                return
            self.left -= 1
            if snap is not None:
                self.cache.put(CACHE_PREFIX + a.key.key, snap.as_dict())
            else:
                missing.append(a)
        if self.saver is not None and missing:
            await self._checked.wait()
            await self._capture(self.saver, missing, today)

    async def _capture(self, saver: SavePageNow, missing: list[Anchor], today: date) -> None:
        """Ask for captures the quota's interval apart and poll the jobs between, until all end."""
        self._plan(saver, missing, today)
        jobs = _Jobs()
        asking: Anchor | None = None
        try:
            while self.queue or jobs.started:
                if self.queue and not saver.wait_before_next():
                    asking = self.queue.pop(0)
                    await self._ask(saver, asking, today, jobs)
                elif jobs.started and saver.clock() >= jobs.next_poll:
                    await self._poll_all(saver, jobs)
                else:
                    await saver.sleep(self._pause(saver, jobs))
        except SaveRefused as exc:
            self.save_problem = str(exc)
            if not exc.maybe_started and asking is not None and asking.key is not None:
                self.cache.drop(SAVE_PREFIX + asking.key.key)  # no capture began: ask next run
        except WaybackError as exc:
            self.save_problem = str(exc)

    def _plan(self, saver: SavePageNow, missing: list[Anchor], today: date) -> None:
        """The pages to ask for, newest anchors first, as many as the quota leaves."""
        wanted = sorted(
            (
                a
                for a in missing
                if a.key is not None
                and a.key.key in self._answered
                and self.cache.get(SAVE_PREFIX + a.key.key) is None
            ),
            key=lambda a: a.first_anchored or today,
            reverse=True,
        )
        self.queue, self.over_quota = wanted[: saver.left], max(len(wanted) - saver.left, 0)

    async def _ask(self, saver: SavePageNow, a: Anchor, today: date, jobs: _Jobs) -> None:
        """One capture asked for; a job that goes on is polled from then on."""
        assert a.key is not None
        key = a.key.key
        # marked first: a request cut off in flight may still have started a capture
        self.cache.put(SAVE_PREFIX + key, {"asked": today.isoformat()})
        cap = await saver.submit(a.key.url)
        self.captures[key] = (a, cap, None)
        if cap.state is CaptureState.PENDING:
            self.cache.put(SAVE_PREFIX + key, {"asked": today.isoformat(), "job": cap.job})
            if not jobs.started:
                jobs.next_poll = saver.clock() + saver.poll
            jobs.started[key] = saver.clock()

    async def _poll_all(self, saver: SavePageNow, jobs: _Jobs) -> None:
        """One status request per job; an ended job, or one past the patience, is let go."""
        for key, since in list(jobs.started.items()):
            if await self._poll(saver, key) or saver.clock() - since > saver.patience:
                del jobs.started[key]
        jobs.next_poll = saver.clock() + saver.poll

    def _pause(self, saver: SavePageNow, jobs: _Jobs) -> float:
        """Until the next capture may be asked for, or the next poll is due."""
        waits = ([saver.wait_before_next()] if self.queue else []) + (
            [jobs.next_poll - saver.clock()] if jobs.started else []
        )
        return max(min(waits), 0.0)

    async def _poll(self, saver: SavePageNow, key: str) -> bool:
        """One status request for a job; True when the job has ended (captured or refused)."""
        a, asked, _ = self.captures[key]
        assert asked.job is not None and a.key is not None
        cap = await saver.status(asked.job)
        if cap.state is CaptureState.PENDING:
            return False
        self.captures[key] = (a, cap, None)  # ended, whatever the verification says
        if cap.state is CaptureState.DONE and cap.timestamp:
            snap = await self.wayback.captured(a.key.url, cap.timestamp)
            if snap is not None:
                self.cache.put(CACHE_PREFIX + key, snap.as_dict())
                self.captures[key] = (a, cap, snap)
        return True

    async def finish(
        self, grace: float = GRACE, stop_now: bool = False, save_grace: float = SAVE_GRACE
    ) -> list[Finding]:
        """Wait at most `grace` seconds for the lookups (`save_grace` when captures are asked
        for too), then drop the rest with a warning."""
        assert self.task is not None
        self._checked.set()  # the check is over (if `checked` was not called, nothing answered)
        wait = grace if self.saver is None else max(grace, save_grace)
        if not stop_now:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(self.task), wait)
        if not self.task.done():
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
            late = f"over {wait:g} s after the check finished"
            self.problem = self.problem or f"the Wayback Machine was too slow ({late})"
            if self.queue:
                self.save_problem = self.save_problem or f"out of time ({late})"
        out = [self._captured(a, cap, snap) for a, cap, snap in self.captures.values()]
        if self.problem is not None and self.left:
            out.append(
                Finding(
                    Code.ARCHIVE_UNAVAILABLE,
                    "",
                    self.registry,
                    None,
                    f"{self.problem}; {self.left} URLs were not looked up, "
                    "`check --archive` again later",
                    {"not_looked_up": self.left},
                )
            )
        if self.save_problem is not None:
            out.append(
                Finding(
                    Code.ARCHIVE_UNAVAILABLE,
                    "",
                    self.registry,
                    None,
                    f"Save Page Now: {self.save_problem}; {len(self.queue)} more pages "
                    "were not asked for, `check --archive-save` again later",
                    {"not_asked": len(self.queue)},
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
                    {"over_quota": self.over_quota},
                )
            )
        return out

    def _captured(self, a: Anchor, cap: Capture, snap: Snapshot | None) -> Finding:
        """What became of one capture asked for, at the anchor's line (info: never a verdict)."""
        if snap is not None:
            text = (
                f"captured by Save Page Now on {snap.date}: {snap.url}; "
                "`anchors fix --only archive` stores it"
            )
            details: dict[str, object] = {"snapshot": snap.url, "date": snap.date}
        elif cap.state is CaptureState.REFUSED:
            text = f"Save Page Now did not capture it ({cap.reason})"
            details = {"reason": cap.reason}
        elif cap.state is CaptureState.DONE:
            text = (
                "captured by Save Page Now, but the snapshot does not answer yet; "
                "the next `check --archive` looks it up"
            )
            details = {"job": cap.job}
        else:
            text = (
                f"capture asked for (Save Page Now job {cap.job}) and not finished yet; "
                "the next `check --archive` looks it up"
            )
            details = {"job": cap.job}
        return Finding(Code.ARCHIVE_CAPTURE, a.label, self.registry, a.line, text, details)
