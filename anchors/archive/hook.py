"""What a caller of `check` passes as its `after`: a new `RunHook()` for each run.

This module is all that `check`'s callers import of the archive, and it imports nothing heavy:
an offline check starts without the archive's clients, which are built only when a
registry's online run asks for its hook.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import httpx

    from ..config import Settings
    from ..net.retry import RetryPolicy
    from .archiver import Archiver
    from .savepagenow import CaptureQuota

__all__ = ["RunHook"]


@dataclass(slots=True)
class RunHook:
    """The archive's hook for each registry of one run (`history.hook.AfterFactory`): the
    registries share one Save Page Now quota, set by the first that asks for captures, so
    the limit and the spacing hold across files."""

    quota: CaptureQuota | None = None

    def __call__(
        self, settings: Settings, api: httpx.AsyncClient, policy: RetryPolicy
    ) -> Archiver | None:
        # the archive's clients (httpx, Save Page Now, ~40 ms) load only for an online run's hook
        from .clients import archive_hook, capture_quota

        if settings.archive_save and self.quota is None:
            self.quota = capture_quota(settings)
        return archive_hook(settings, api, policy, self.quota)
