"""Sections of the living document (`§1.3 KV Cache`): which two are the same, and their order.

A section is written by hand or taken from briefing text, so one section arrives as
`§1.3 KV Cache`, `§ 1.3 KV Cache`, `§1.3\u3000KV Cache` (an ideographic space) or `§１.３ KV`
(full-width digits). `normal` is the spelling they share: NFKC, white space collapsed, the
number written `§1.3`. A numbered section is its number (`key`): the name after it is a label,
so every spelling above is section §1.3. The order is the living document's: `§1.3` before
`§1.10`, unnumbered names after the numbered ones, no section last. The export and the report
both group and sort with these, so no second reading of a section exists.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

__all__ = ["key", "normal", "number", "section_order"]

#: `§1.3`, `§ 1.3`, `1.3.` (a trailing dot is punctuation); `§1.3a` is not §1.3, so it is a name
_NUMBER_RE = re.compile(r"§?\s*([0-9]+(?:\s*\.\s*[0-9]+)*)(?:\.(?= |$))?(?![0-9A-Za-z.])\s*")


def _split(section: str) -> tuple[tuple[int, ...] | None, str]:
    text = " ".join(unicodedata.normalize("NFKC", section).split())
    m = _NUMBER_RE.match(text)
    if m is None:
        return None, text
    return tuple(int(n) for n in m[1].split(".")), text[m.end():]


def number(section: str) -> tuple[int, ...] | None:
    """`(1, 3)` for any spelling of `§1.3 ...`; None for a section without a number."""
    return _split(section)[0]


def normal(section: str) -> str:
    """The spelling every variant shares: `§ 1.3\u3000KV Cache` is `§1.3 KV Cache`."""
    nums, rest = _split(section)
    if nums is None:
        return rest
    head = "§" + ".".join(map(str, nums))
    return f"{head} {rest}" if rest else head


def key(section: str) -> str:
    """What two spellings of one section share: `§1.3` for a numbered one, else the `normal`
    name case-folded."""
    nums, rest = _split(section)
    return "§" + ".".join(map(str, nums)) if nums is not None else rest.casefold()


def section_order(section: str | None) -> tuple[Any, ...]:
    """Living-document order: `§1.2` before `§1.10` (one number, one place, however written);
    unnumbered names after, by name; entries without a section last."""
    if not section or not section.strip():
        return (1, ())
    nums, rest = _split(section)
    if nums is None:
        return (0, (10**9,), rest.casefold())
    return (0, nums, "")
