"""`anchors export`: the registry's anchors as a bibliography, per section of the living document.

Pure and offline: metadata comes from the registry and the check cache (whatever its age; an
export is not a verdict), so exporting never touches the network. `--refresh` re-resolves the
anchors first through the ordinary check path (`commands.export` calls `check.session.refresh`),
which refills the cache.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, date, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import AnchorsError, UsageError
from ..findings import Outcome
from ..history import History
from ..history.observation import NEUTRAL
from ..ids.model import AnchorKind
from ..net.cache import Cache
from ..registry.loader import gc_paused, load
from ..registry.model import Status
from .choose import filter_items, unknown_section
from .entries import bibtex_keys, collect
from .item import ExportFormat, ExportItem

if TYPE_CHECKING:
    from ..config import Settings

__all__ = [
    "ExportFormat",
    "ExportItem",
    "bibtex_keys",
    "collect",
    "export",
    "filter_items",
    "select",
]


def select(
    registry: Path,
    cache_path: Path | None,
    *,
    section: str | None = None,
    since: float | None = None,
    status: str | None = None,
    today: date | None = None,
    chosen: bool = False,
) -> list[ExportItem]:
    """Load the registry (refusing an unreadable one) and the cache; pick the items asked for.
    `chosen`: the user named the cache's place, so it is read even where git cannot say
    whether the repository committed it (`state.untrusted`)."""
    want = None
    if status is not None:
        try:
            want = Status(status)
        except ValueError:
            raise UsageError(f"--status {status!r} is not a status (new or continued)") from None
    reg = load(registry, stream_ok=True)  # export writes nothing: `-` and pipes are read
    # many small objects and no cycles: each pass of the collector would walk them all
    with gc_paused():
        cache = Cache(cache_path, ttls=_FOREVER, chosen=chosen) if cache_path is not None else None
        items = collect(reg, cache)
    if section is not None and (wrong := unknown_section(section, items, str(registry))):
        raise wrong
    return filter_items(items, section=section, since=since, status=want, today=today)


def export(
    registry: Path,
    settings: Settings,
    *,
    today: date,
    section: str | None = None,
    since: float | None = None,
    status: str | None = None,
) -> list[ExportItem]:
    """`anchors export`: the items asked for, with the cache the settings place beside the
    registry (`--refresh` refills that cache first, through the check: `commands.export`)."""
    items = select(
        registry,
        settings.cache_path(registry),
        section=section,
        since=since,
        status=status,
        today=today,
        chosen=settings.chose_cache,
    )
    return _gone(items, settings.history_path(registry), registry, settings.chose_history)


def _gone(items: list[ExportItem], history: Path, registry: Path, chosen: bool) -> list[ExportItem]:
    """The items, each the latest check found gone (a dead link, an ID that does not exist)
    marked with why, so `export` can warn instead of citing it silently. No history, or one
    that cannot be read, marks nothing: an export is not a check."""
    if not items or not history.is_file():
        return items
    latest: dict[str, tuple[str, float]] = {}
    try:
        past = History.read_only(history, chosen)
        try:
            for obs in past.rows(until=float("inf"), registry=registry):
                if obs.outcome in NEUTRAL:
                    continue
                dead = obs.outcome is Outcome.DEAD
                why = obs.error or obs.outcome.value
                latest[obs.key.key] = (why, obs.checked_at) if dead else ("", 0.0)
        finally:
            past.close()
    except AnchorsError:
        return items
    out = []
    for it in items:
        why, at = latest.get(it.key, ("", 0.0))
        if why:
            day = datetime.fromtimestamp(at, UTC).date().isoformat()
            it = replace(it, gone=f"{why}, {day}")
        out.append(it)
    return out


#: an export uses cached metadata of any age: a title or author list does not expire
_FOREVER = {k.value: float("inf") for k in AnchorKind}
