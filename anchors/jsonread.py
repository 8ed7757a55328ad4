"""JSON from bytes anchors did not write: a service's answer, a state file, a config value.

`json.loads` is linear in the size of its input, but its C scanner recurses once per level of
nesting: 100,000 `[` from a hostile server end in `RecursionError`, which no reader expects and
which `except ValueError` does not catch. Every reader of untrusted JSON goes through `loads`,
which refuses anything nested deeper than `MAX_DEPTH` (no real answer comes near it) with a
`JSONError`, a `ValueError`, so the readers' `except ValueError` paths treat it as unreadable.
A `\ud800` escape with no partner is valid JSON but no character: kept, it crashed the first
UTF-8 write of it (the history, the cache), so each such surrogate is read as U+FFFD.
"""

from __future__ import annotations

import json
import re

__all__ = ["MAX_DEPTH", "JSONError", "TooDeep", "loads"]

#: levels of nesting accepted; GitHub's, Crossref's and the Wayback Machine's answers use < 10
MAX_DEPTH = 64

# A whole JSON string (escapes included), so brackets inside strings are skipped in one step,
# or a bracket. Run only on text json.loads accepted, where every string is closed: linear.
_TOKENS = re.compile(r'"(?:[^"\\]++|\\.)*+"|[\[\]{}]', re.DOTALL)


class JSONError(ValueError):
    """Not JSON anchors will read: not UTF-8, malformed, or nested deeper than MAX_DEPTH."""


class TooDeep(JSONError):
    """JSON, but nested deeper than MAX_DEPTH: a reader that tells JSON from other answers
    (a service's endpoint from a web page) counts it as JSON."""


def loads(data: bytes | str, *, max_depth: int = MAX_DEPTH) -> object:
    """The parsed value of `data` (UTF-8 when bytes); JSONError when unreadable or too deep."""
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
        value = json.loads(text)
    except RecursionError:  # the C scanner's own guard: deeper than the interpreter's limit
        raise TooDeep(f"nested deeper than {max_depth} levels") from None
    except ValueError as exc:  # not UTF-8, not JSON, or an integer of more than 4,300 digits
        raise JSONError(str(exc)) from None
    if isinstance(value, (list, dict)):
        depth = 0
        for match in _TOKENS.finditer(text):
            token = match.group()
            if token in "[{":
                depth += 1
                if depth > max_depth:
                    raise TooDeep(f"nested deeper than {max_depth} levels")
            elif token in "]}":
                depth -= 1
    if _SURROGATE_ESCAPE.search(text):  # only then can a lone surrogate be in the value
        return _scrub(value)
    return value


#: a JSON escape of a surrogate half (`\uD83D`): paired, json makes one character of two
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
_SURROGATE = re.compile("[\ud800-\udfff]")


def _scrub(value: object) -> object:
    """`value` with every lone surrogate in its strings (keys too) replaced by U+FFFD; its
    nesting is already bounded, so the recursion is too."""
    if isinstance(value, str):
        return _SURROGATE.sub("\ufffd", value)
    if isinstance(value, list):
        return [_scrub(v) for v in value]
    if isinstance(value, dict):
        return {_scrub(k): _scrub(v) for k, v in value.items()}
    return value
