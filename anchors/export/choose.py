"""The subset of the items an export is asked for: a section, a window of days, a status.

A section nothing is in is a mistake, not an empty bibliography: `unknown_section` says which
sections the registry has, and the nearest to what was asked (exit 2).
"""

from __future__ import annotations

from datetime import date

from ..errors import UsageError
from ..registry.model import Status
from ..sections import key, matches, name, normal, section_order
from .item import ExportItem

__all__ = ["filter_items", "unknown_section"]

#: sections named in the error at most (the rest counted)
_LISTED = 12


def _within(day: date, today: date, since: float) -> bool:
    """`day` is one of the days in the `since` seconds up to and including `today`: `7d` is today
    and the six days before it (not eight calendar days), and a day after `today` is not."""
    return day <= today and (today - day).days * 86400 < since


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
        out = [i for i in out if matches(section, i.section)]
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


def unknown_section(wanted: str, items: list[ExportItem], registry: str) -> UsageError | None:
    """None when some item is in a section `wanted` asks for; else the error that lists the
    registry's sections (in document order) and the one nearest to `wanted`."""
    if any(matches(wanted, i.section) for i in items):
        return None
    import difflib  # only on this error path

    held = {key(i.section): normal(i.section) for i in items if i.section and i.section.strip()}
    if not held:
        return UsageError(
            f"--section {wanted!r}: no entry of {registry} has a section (`section:`)"
        )
    listed = sorted(held.values(), key=section_order)
    shown = ", ".join(listed[:_LISTED]) + (
        f" and {len(listed) - _LISTED} more" if len(listed) > _LISTED else ""
    )
    spelt = {s.casefold(): s for s in listed} | {name(s).casefold(): s for s in listed}
    near = difflib.get_close_matches(normal(wanted).casefold(), list(spelt), n=1, cutoff=0.6)
    hint = f"; did you mean {spelt[near[0]]!r}?" if near else ""
    return UsageError(
        f"--section {wanted!r}: no entry of {registry} is in that section; its sections: "
        f"{shown} (by number, `§1.3` or `1.3`, `§1` for the chapter, or by name){hint}"
    )
