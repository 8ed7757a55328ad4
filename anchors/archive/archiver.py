"""`check --archive`: look up a dated Wayback snapshot for each URL anchor that has none, and
with `--archive-save` ask Save Page Now to capture the pages the archive has no capture of
(`captures`). The check runs it as its after-check hook (`history.hook`).

The work runs beside the check and never holds it up for long: once the check itself is done
the lookups get `grace` more seconds (10), captures `save_grace` (60: at most five of them, ten
seconds apart as SPN2 asks), then whatever is left is dropped with one `archive-unavailable`
warning (a capture already asked for goes on at the archive; the next `check --archive` finds
it). A failing archive (down, rate-limiting, bad answers) stops the work at its first failure
instead of asking again for every URL.

Verified snapshots are kept in the run's history as they are found (`History.keep_snapshots`),
and a page with one found in the last 30 days is not looked up again; `anchors fix --only
archive` writes them into the registry as `archived: {url, date}`, because `check` never
writes the registry. The cache holds nothing `fix` needs, so `--no-cache` loses nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass, field
from datetime import date

from ..details import NotLookedUp
from ..findings import Code, Finding
from ..history.hook import Begun
from ..history.snapshots import Snapshot
from ..ids.model import AnchorKind
from ..registry.model import Anchor
from .captures import Captures
from .savepagenow import SavePageNow
from .wayback import WaybackClient, WaybackError

__all__ = ["GRACE", "SAVE_GRACE", "SNAPSHOT_DAYS", "Archiver"]

#: seconds the lookups may go on after the check itself has finished
GRACE = 10.0
#: seconds captures may go on after the check (they begin then): five, 10 s apart, and polls
SAVE_GRACE = 60.0
#: a page with a snapshot found this recently is not looked up again
SNAPSHOT_DAYS = 30
_DAY = 86400.0


@dataclass(slots=True)
class Archiver:
    """The archive's after-check hook: one per registry's run (`start` begins a run afresh)."""

    wayback: WaybackClient
    saver: SavePageNow | None = None
    grace: float = GRACE
    save_grace: float = SAVE_GRACE
    run: Begun | None = None
    #: the URL anchors to look up, and how many are left
    todo: list[Anchor] = field(default_factory=list)
    left: int = 0
    #: why the lookups stopped
    problem: str | None = None
    captures: Captures | None = None
    task: asyncio.Task[None] | None = field(default=None, repr=False)
    _answered: frozenset[str] = frozenset()
    _checked: asyncio.Event = field(default_factory=asyncio.Event, repr=False)

    def start(self, run: Begun) -> None:
        """Look up each URL anchor with no snapshot, in the registry or found lately."""
        since = run.history.clock() - SNAPSHOT_DAYS * _DAY if run.history else 0.0
        known = run.history.snapshots(run.registry, since) if run.history else {}
        self.run, self.problem, self._answered = run, None, frozenset()
        self._checked = asyncio.Event()
        self.todo = [
            anchor
            for key, anchor in run.targets.items()
            if anchor.key is not None
            and anchor.key.kind is AnchorKind.URL
            and anchor.archived is None
            and key not in known
        ]
        self.left = len(self.todo)
        self.captures = (
            Captures(self.saver, self.wayback, run.cache, run.registry, self.found)
            if self.saver is not None
            else None
        )
        self.task = asyncio.ensure_future(self._run(run.today))

    def found(self, anchor: Anchor, snap: Snapshot) -> None:
        """A verified snapshot, kept in the history at once (an interrupted run keeps it)."""
        if self.run is not None and self.run.history is not None and anchor.key is not None:
            self.run.history.keep_snapshots(self.run.registry, [(anchor.key, snap)])

    async def _run(self, today: date) -> None:
        missing = []
        for anchor in self.todo:
            assert anchor.key is not None and anchor.key.kind is AnchorKind.URL
            try:
                snap = await self.wayback.closest(anchor.key.url, anchor.first_anchored or today)
            except WaybackError as exc:
                self.problem = str(exc)
                return
            self.left -= 1
            if snap is not None:
                self.found(anchor, snap)
            else:
                missing.append(anchor)
        if self.captures is not None and missing:
            await self._checked.wait()
            await self.captures.run(missing, self._answered, today)

    async def finish(self, answered: frozenset[str], *, stop_now: bool = False) -> list[Finding]:
        """Wait at most `grace` seconds for the lookups (`save_grace` when captures are asked
        for too), then drop the rest with a warning."""
        assert self.task is not None and self.run is not None
        self._answered = answered
        self._checked.set()
        wait = self.grace if self.saver is None else max(self.grace, self.save_grace)
        if not stop_now:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(self.task), wait)
        if not self.task.done():
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
            late = f"over {wait:g} s after the check finished"
            self.problem = self.problem or f"the Wayback Machine was too slow ({late})"
            if self.captures is not None and self.captures.queue:
                self.captures.problem = self.captures.problem or f"out of time ({late})"
        out = self.captures.findings() if self.captures is not None else []
        if self.problem is not None and self.left:
            out.append(
                Finding(
                    Code.ARCHIVE_UNAVAILABLE,
                    "",
                    self.run.registry,
                    None,
                    f"{self.problem}; {self.left} URLs were not looked up, "
                    "`check --archive` again later",
                    NotLookedUp(self.left),
                )
            )
        return out + (self.captures.left_out() if self.captures is not None else [])
