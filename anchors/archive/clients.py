"""The archive's hook built from a run's settings (`hook.RunHook` calls it)."""

from __future__ import annotations

import httpx

from ..config import Settings
from ..net.retry import RetryPolicy
from .archiver import Archiver
from .savepagenow import CaptureQuota, SavePageNow
from .wayback import WaybackClient

__all__ = ["archive_hook", "capture_quota"]


def archive_hook(
    settings: Settings, api: httpx.AsyncClient, policy: RetryPolicy, quota: CaptureQuota | None
) -> Archiver | None:
    """With `--archive` (or `--archive-save`), the archive's hook on the services' client;
    `quota` is the run's Save Page Now quota, shared by its registries (else one of its own)."""
    if not settings.archiving:
        return None
    wayback = WaybackClient(
        api,
        settings.wayback_api,
        interval=settings.wayback_delay,
        timeout=settings.timeout,
        policy=policy,
    )
    saver = (
        SavePageNow(
            api,
            settings.save_api,
            keys=settings.save_keys(),
            quota=quota or capture_quota(settings),
            timeout=settings.timeout,
        )
        if settings.archive_save
        else None
    )
    return Archiver(wayback, saver)


def capture_quota(settings: Settings) -> CaptureQuota:
    """A run's Save Page Now quota: `archive_saves` captures, `save_delay` seconds apart."""
    return CaptureQuota(settings.archive_saves, settings.save_delay)
