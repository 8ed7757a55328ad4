"""Option values parsed once, for every command: dates, durations, instants, finding codes.

Each bad value is a UsageError naming the option, so it is one `anchors: error:` line.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime

from ..errors import UsageError
from ..findings import Code

__all__ = ["codes", "date_value", "duration", "instant"]

#: `7d`, `36h`, `2w`: at most 12 digits (more is past any window, and `int()` of thousands of
#: digits raises)
_DURATION_RE = re.compile(r"\s*(\d{1,12})\s*([hdw])\s*")


def date_value(value: str | None, name: str) -> date | None:
    """`--today`, `--date`: a date; None when not given."""
    if value is None:
        return None
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise UsageError(f"{name} {value!r} is not a date (YYYY-MM-DD)") from None


def codes(value: str | None) -> frozenset[Code] | None:
    """`--only`: finding codes, comma-separated; None (every code) when not given."""
    if not value:
        return None
    chosen = set()
    for part in value.split(","):
        try:
            chosen.add(Code(part.strip()))
        except ValueError:
            known = ", ".join(code.value for code in Code)
            raise UsageError(f"--only: unknown code {part.strip()!r} (codes: {known})") from None
    return frozenset(chosen)


def duration(value: str) -> float:
    """`--since 7d`: the window's length in seconds."""
    match = _DURATION_RE.fullmatch(value)
    if not match:
        raise UsageError(f"--since {value!r} is not a duration (e.g. 7d, 36h, 2w)")
    seconds = int(match[1]) * {"h": 3600, "d": 86400, "w": 604800}[match[2]]
    if seconds > _MAX_WINDOW:
        raise UsageError(f"--since {value!r} is longer than 100 years")
    return seconds


def instant(value: str | None) -> datetime | None:
    """`--now`: a time (UTC if no zone given); None, not given, is the moment the report runs."""
    if value is None:
        return None
    try:
        moment = datetime.fromisoformat(value)
        moment = moment if moment.tzinfo else moment.replace(tzinfo=UTC)
        if not _EARLIEST <= moment <= _LATEST:
            raise ValueError
    except (ValueError, OverflowError):
        raise UsageError(
            f"--now {value!r} is not a time between 2000 and 9000 (e.g. 2026-10-01T00:00Z)"
        ) from None
    return moment


#: Bounds that keep every date a report prints (the window's start included) representable.
_MAX_WINDOW = 100 * 366 * 86400
_EARLIEST = datetime(2000, 1, 1, tzinfo=UTC)
_LATEST = datetime(9000, 1, 1, tzinfo=UTC)
