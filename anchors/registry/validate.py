"""Offline checks: everything that can be said about a registry without the network."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import date

from ..details import DuplicateEntry
from ..findings import Code, Finding
from ..ids.model import AnchorKind, is_future, issued_after
from ..result import CheckResult, Cited
from .model import Anchor, Registry

__all__ = ["check_offline", "cited", "offline"]


def check_offline(reg: Registry, today: date) -> CheckResult:
    start = time.monotonic()
    result = CheckResult(
        reg.path,
        today,
        len(reg.anchors),
        list(offline(reg, today)),
        entries=[(reg.path, a.line) for a in reg.anchors],
        cited={(reg.path, a.line): cited(a) for a in reg.anchors},
    )
    result.elapsed = time.monotonic() - start
    return result


def cited(anchor: Anchor) -> Cited:
    """An entry (or a living document's citation) as written, and what it names."""
    if anchor.key is None:
        return Cited(anchor.label)
    return Cited(anchor.label, anchor.key.kind.value, anchor.key.url)


def offline(reg: Registry, today: date) -> Iterator[Finding]:
    """Load problems, then future IDs, cross-form duplicates and IDs newer than their anchoring."""
    yield from reg.problems
    seen: dict[str, int] = {}
    for anchor in reg.anchors:
        key = anchor.key
        if key is None:
            continue
        if key.key in seen:
            yield Finding(
                Code.DUPLICATE,
                anchor.label,
                reg.path,
                anchor.line,
                f"same anchor as the entry on line {seen[key.key]} ({key.key}); "
                "merge the two entries",
                DuplicateEntry(seen[key.key]),
            )
            continue
        seen[key.key] = anchor.line
        if key.kind is not AnchorKind.ARXIV:
            continue
        if is_future(key, today):
            yield Finding(
                Code.FUTURE_ID,
                anchor.label,
                reg.path,
                anchor.line,
                f"{key.yymm} is later than today ({today:%Y-%m}): arXiv has not "
                "issued this ID yet; check for a typo",
            )
        elif anchor.first_anchored and issued_after(key, anchor.first_anchored):
            yield Finding(
                Code.LATER_THAN_BRIEFING,
                anchor.label,
                reg.path,
                anchor.line,
                f"{key.yymm} is later than its first_anchored month "
                f"({anchor.first_anchored:%Y-%m}); the ID or the date is wrong",
            )
