"""The subset of the items an export is asked for: a section, a window of days, a status."""

from __future__ import annotations

from datetime import date

from ..registry.model import Status
from ..sections import key as section_key
from ..sections import name as section_name
from ..sections import number
from .item import ExportItem

__all__ = ["filter_items"]


def _section_matches(wanted: str, section: str | None) -> bool:
    """A bare number (`§1.3`, `§ 1.3`, `§１.３`) matches every section of that number, whatever
    its name, and not `§1.30`; a full name (`§1.3 KV Cache`) matches that section however
    spelt; a name without a number matches itself and the names it begins (`sections`)."""
    if section is None:
        return False
    nums = number(wanted)
    if nums is not None and not section_name(wanted):
        return number(section) == nums
    w, s = section_key(wanted), section_key(section)
    return s == w or (nums is None and s.startswith(w + " "))


def _within(d: date, today: date, since: float) -> bool:
    """`d` is one of the days in the `since` seconds up to and including `today`: `7d` is today
    and the six days before it (not eight calendar days), and a day after `today` is not."""
    return d <= today and (today - d).days * 86400 < since


def filter_items(
    items: list[ExportItem],
    *,
    section: str | None = None,
    since: float | None = None,
    status: Status | None = None,
    today: date | None = None,
) -> list[ExportItem]:
    """The subset asked for: one section, cited within `since` seconds of `today`, a status."""
    out = items
    if section is not None:
        out = [i for i in out if _section_matches(section, i.section)]
    if since is not None:
        day = today or date.today()
        out = [
            i
            for i in out
            if any(
                _within(d, day, since) for d in (i.cited_in or (i.first_anchored,)) if d is not None
            )
        ]
    if status is not None:
        out = [i for i in out if i.status == status.value]
    return out
