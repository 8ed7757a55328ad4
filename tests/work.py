"""Counting work instead of timing it: tests that guard complexity compare counts at n and 2n.

`work(fn)` counts the Python events (calls, lines, returns) `fn` causes, in every function it
reaches, ours and our dependencies'. A search of a list is one C loop that no trace sees, so
`Key` (a `str` whose comparisons and hashes are Python calls) makes each comparison count too:
a result whose keys are `Key`s shows a list searched per key as the n² it is.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from types import FrameType
from typing import Any

__all__ = ["Key", "work"]


class Key(str):
    """A key whose every comparison and hash is one counted call."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        return str.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return str.__ne__(self, other)

    def __lt__(self, other: str) -> bool:
        return str.__lt__(self, other)

    def __hash__(self) -> int:
        return str.__hash__(self)


def work(fn: Callable[[], Any]) -> int:
    """How many Python events running `fn` takes (run it once before, so imports do not count)."""
    events = 0

    def trace(frame: FrameType, event: str, arg: Any) -> Callable[..., Any]:
        nonlocal events
        events += 1
        return trace

    before = sys.gettrace()
    sys.settrace(trace)
    try:
        fn()
    finally:
        sys.settrace(before)
    return events
