"""Turning what a flag, a variable or a config file says into a setting's value.

A value that cannot be used is a UsageError that says what is allowed (`concurrency = 0:
expected a whole number, 1 or more`), and an unknown key names the nearest known one, as ruff
does, so a typo costs one look at the message.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from pathlib import PurePath

from ..errors import UsageError
from .patterns import PatternError, url_pattern
from .settings import Settings

__all__ = ["allowed", "coerce", "unknown_key"]

_DEFAULTS = Settings()
#: settings for which 0 is a meaningful value (0 searches: none)
_MAY_BE_ZERO = frozenset({"arxiv_searches", "history_days", "pending_days"})
#: settings that hold a share (0.5, or 50%) rather than seconds
_SHARES = frozenset({"max_unreachable"})
#: settings that hold a list of paths (the rest of the tuples are regular expressions)
_PATH_LISTS = frozenset({"document"})
_TRUE = frozenset({"1", "true", "yes", "on"})
_FALSE = frozenset({"0", "false", "no", "off", ""})
#: HTTP statuses a server can send
_STATUSES = range(100, 600)


def allowed(name: str) -> str:
    """What `name` takes, in words, for an error message."""
    default = getattr(_DEFAULTS, name)
    if isinstance(default, bool):
        return "true or false"
    if isinstance(default, int):
        return f"a whole number, {0 if name in _MAY_BE_ZERO else 1} or more"
    if name in _SHARES:
        return "a share from 0 to 1, or a percentage (0.5 or 50%)"
    if isinstance(default, float):
        return "a number of seconds, 0 or more"
    if name in _PATH_LISTS:
        return "a list of file paths"
    if isinstance(default, tuple):
        return "a list of regular expressions (RE2 syntax: no look-around or back-references)"
    if isinstance(default, frozenset):
        return "a list of HTTP status codes (100 to 599)"
    return "a string"


def coerce(name: str, value: object, source: str) -> object:
    """`value` as setting `name` takes it; `source` (a flag, a variable, a file) names where
    it was written, for the error."""
    try:
        return _coerce(name, value)
    except (TypeError, ValueError, OverflowError) as exc:
        why = f" ({exc})" if isinstance(exc, PatternError) else ""
        raise UsageError(f"{source}: {name} = {value!r}{why}: expected {allowed(name)}") from None


def _coerce(name: str, value: object) -> object:
    """`value` in the type of `name`'s default; TypeError or ValueError when it has none."""
    default = getattr(_DEFAULTS, name)
    if isinstance(default, bool):
        return _flag(value)
    if isinstance(default, int):
        return _count(name, value)
    if name in _SHARES:
        return _share(value)
    if isinstance(default, float):
        return _seconds(value)
    if isinstance(default, tuple):
        return _paths(value) if name in _PATH_LISTS else _patterns(value)
    if isinstance(default, frozenset):
        return _statuses(value)
    if not isinstance(value, str):
        raise TypeError(value)
    return value


def _flag(value: object) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
        return value.strip().lower() in _TRUE
    raise ValueError(value)


def _count(name: str, value: object) -> int:
    if isinstance(value, (bool, float)) or not isinstance(value, (int, str)):
        raise TypeError(value)  # `true` or `2.5` is not a count
    out = int(value)
    if out < (0 if name in _MAY_BE_ZERO else 1):
        raise ValueError(value)
    return out


def _seconds(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise TypeError(value)
    number = float(value)
    if not math.isfinite(number) or number < 0:  # NaN compares false with everything
        raise ValueError(value)
    return number


def _share(value: object) -> float:
    """0 to 1, or a percentage written with `%` (`50%` is 0.5)."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise TypeError(value)
    text = value.strip() if isinstance(value, str) else value
    if isinstance(text, str) and text.endswith("%"):
        number = float(text[:-1]) / 100
    else:
        number = float(text)
    if not math.isfinite(number) or not 0 <= number <= 1:
        raise ValueError(value)
    return number


def _strings(value: object) -> list[str]:
    """A list of strings (one string is a list of one); a flag's paths arrive as Path."""
    raw = [value] if isinstance(value, (str, PurePath)) else _items(value)
    raw = [str(p) if isinstance(p, PurePath) else p for p in raw]
    items: list[str] = [p for p in raw if isinstance(p, str)]
    if len(items) != len(raw):
        raise TypeError(value)
    return items


def _paths(value: object) -> tuple[str, ...]:
    items = _strings(value)
    if not all(p.strip() for p in items):
        raise ValueError(value)
    return tuple(dict.fromkeys(items))


def _patterns(value: object) -> tuple[str, ...]:
    raw = [value] if isinstance(value, (str, PurePath)) else _items(value)
    if any(isinstance(pattern, PurePath) for pattern in raw):  # a path is not a pattern
        raise TypeError(value)
    items = _strings(value)
    for pattern in items:
        url_pattern(pattern)  # each as the check will run it: RE2, linear in the URL
    return tuple(items)


def _statuses(value: object) -> frozenset[int]:
    """HTTP statuses: a list, or one string of them separated by commas."""
    given = [value] if isinstance(value, (str, int)) else _items(value)
    parts = [p for i in given for p in (i.split(",") if isinstance(i, str) else [i])]
    return frozenset(_status(p) for p in parts)


def _status(item: object) -> int:
    if isinstance(item, bool) or not isinstance(item, (int, float, str)):
        raise TypeError(item)
    code = int(item.strip()) if isinstance(item, str) else int(item)
    if code not in _STATUSES or (not isinstance(item, str) and code != item):
        raise ValueError(item)
    return code


def _items(value: object) -> list[object]:
    """The items of a list a file or flag gave (a TOML array, a flag's tuple); TypeError else."""
    if not isinstance(value, Iterable):
        raise TypeError(value)
    return list(value)


def unknown_key(key: str, known: list[str], where: str) -> UsageError:
    """`anchors.toml: unknown setting 'concurency'; did you mean 'concurrency'?`"""
    import difflib  # only on this error path: ~1.5 ms of every start otherwise

    spelled = key.replace("-", "_")
    near = difflib.get_close_matches(spelled, known, n=1, cutoff=0.6)
    hint = f"; did you mean {near[0]!r}?" if near else f" (settings: {', '.join(sorted(known))})"
    return UsageError(f"{where}: unknown setting {key!r}{hint}")
