"""The one hook a check runs beside it and ends after it (`check --archive` is one).

A check knows nothing of what a hook does: it starts the hook once its targets are known (so
slow work overlaps the check instead of following it), and when the check is over it hands
the hook the pages that answered and adds what the hook found to its findings. The hook keeps
what it learnt in the run's history, where later commands (`fix`) read it. The contract lives
here, below both the check and the archive, so that neither imports the other.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING, Protocol

from ..findings import Finding
from ..net.cache import Cache
from ..registry.model import Anchor
from .store import History

if TYPE_CHECKING:
    import httpx

    from ..config import Settings
    from ..net.retry import RetryPolicy

__all__ = ["AfterCheck", "AfterFactory", "Begun"]


@dataclass(frozen=True, slots=True)
class Begun:
    """What a hook is told when a check of one registry begins."""

    registry: str
    #: the anchors checked online, by key (first entry per key)
    targets: Mapping[str, Anchor]
    today: date
    cache: Cache
    #: where what the hook learns is kept (None: the history could not be opened)
    history: History | None


class AfterCheck(Protocol):
    def start(self, run: Begun) -> None:
        """The check of `run.registry` begins: start what may go on beside it."""

    async def finish(self, answered: frozenset[str], *, stop_now: bool) -> list[Finding]:
        """The check is over; `answered` are the keys of the pages that answered it (a link
        check, or GitHub for a repository page). `stop_now` when it did not complete (give
        up at once). What is left after the hook's own grace is dropped, with a finding."""
        ...


class AfterFactory(Protocol):
    """Builds the hook of one registry's run, on the services' client and retry policy (None:
    no hook for these settings). The caller that knows the hook passes it in, so `check`
    imports nothing of what runs beside it; one factory serves a whole run, so what the
    hook's registries share (the archive's capture quota) lives in it."""

    def __call__(
        self, settings: Settings, api: httpx.AsyncClient, policy: RetryPolicy
    ) -> AfterCheck | None: ...
