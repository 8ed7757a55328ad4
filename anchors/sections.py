"""Sections of the living document (`§1.3 KV Cache`): which two are the same, and their order.

A section is written by hand or taken from briefing text, so one section arrives as
`§1.3 KV Cache`, `§ 1.3 KV Cache`, `§1.3\u3000KV Cache` (an ideographic space), `§１.３ KV
Cache` (full-width digits) or `§1.3（KV Cache）` (the name in brackets). `normal` is the
spelling they share: NFKC, white space collapsed, the number written `§1.3`, a bracketed name
unwrapped. A section is its whole normal name (`key`): after a renumbering two sections can
share a number (`§1.3 KV Cache`, `§1.3 Speculative decoding`) and are still two.
A number is a section number only after `§`: `2024 roadmap` and `1. Introduction` are names
as written. The order is the living document's: by number (`§1.3` before `§1.10`), unnumbered
names after the numbered ones, no section last. The export and the report both group and sort
with these, so no second reading of a section exists.

`matches` is how a person asks for sections (`export --section`): by number, by name or both.
`§1` is the chapter and every section under it (`§1`, `§1.3`, `§1.3.2`; not `§10`), `§1.3` is
§1.3 and its subsections (not `§1.30`); a name (`KV Cache`, or its first words, `KV`) is every
section of that name whatever its number; a number with a name (`§1.3 KV`) is the sections of
that number whose name begins so. What the person types is a request, not a document: a number
without `§` (`1.3`) is read as a number too (and as a name, for `2024 roadmap`).
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["MAX_DIGITS", "MAX_PARTS", "key", "matches", "name", "normal", "number", "section_order"]

#: `§1.3`, `§ 1.3`, `§1.3.` (a trailing dot is punctuation); `§1.3a` is not §1.3, so it is a name.
#: A number has at most MAX_PARTS parts of at most MAX_DIGITS digits: the text of a file is read
#: by `int()` only once it is known to be that short (`int()` of 4,301 digits raises), and
#: `§1` + 5,000 digits, or a thousand levels, is a name as written, as `§1.3a` is.
MAX_DIGITS, MAX_PARTS = 9, 16
_NUMBER_RE = re.compile(
    rf"§\s*+([0-9]{{1,{MAX_DIGITS}}}+(?:\s*+\.\s*+[0-9]{{1,{MAX_DIGITS}}}+){{0,{MAX_PARTS - 1}}})"
    r"(?:\.(?= |$))?(?![0-9A-Za-z.])\s*"
)
#: a name written wholly in brackets after its number: `§1.3（KV Cache）` is `§1.3 KV Cache`
_BRACKETED_RE = re.compile(r"\(([^()]+)\)")


def _split(section: str) -> tuple[tuple[int, ...] | None, str]:
    text = " ".join(unicodedata.normalize("NFKC", section).split())
    match = _NUMBER_RE.match(text)
    if match is None:
        return None, text
    rest = text[match.end() :]
    inner = _BRACKETED_RE.fullmatch(rest)
    return tuple(int(n) for n in match[1].split(".")), inner[1].strip() if inner else rest


def number(section: str) -> tuple[int, ...] | None:
    """`(1, 3)` for any spelling of `§1.3 ...`; None for a section without a `§` number."""
    return _split(section)[0]


def name(section: str) -> str:
    """What follows the number: `KV Cache` of `§1.3 KV Cache`, "" of a bare `§1.3`."""
    return _split(section)[1]


def normal(section: str) -> str:
    """The spelling every variant shares: `§ 1.3\u3000KV Cache` is `§1.3 KV Cache`."""
    nums, rest = _split(section)
    if nums is None:
        return rest
    head = "§" + ".".join(map(str, nums))
    return f"{head} {rest}" if rest else head


def key(section: str) -> str:
    """What two spellings of one section share: the `normal` name, case-folded."""
    return normal(section).casefold()


def section_order(section: str | None) -> tuple[int, tuple[int, ...], str]:
    """Living-document order: `§1.2` before `§1.10` (however written), two sections of one
    number by name; unnumbered names after, by name; entries without a section last."""
    if not section or not section.strip():
        return (1, (), "")
    nums = number(section)
    return (0, nums if nums is not None else (10**9,), key(section))


def matches(wanted: str, section: str | None) -> bool:
    """Whether `section` is one of the sections `wanted` asks for (see the module's note)."""
    if section is None or not section.strip():
        return False
    readings = [_split(wanted)]
    if readings[0][0] is None:  # `1.3` or `1.3 KV`: typed without the `§`
        readings.append(_split("§" + wanted.strip()))
    return any(_asked(nums, words, section) for nums, words in readings)


def _asked(nums: tuple[int, ...] | None, words: str, section: str) -> bool:
    has, called = _split(section)
    if nums is None:
        return bool(words) and _begins(called, words)
    if has is None or has[: len(nums)] != nums:
        return False
    return not words or (has == nums and _begins(called, words))


def _begins(called: str, words: str) -> bool:
    """`KV Cache` begins `KV Cache` and `KV Cache management`, not `KV Caches`."""
    name, start = called.casefold(), words.casefold()
    return name == start or name.startswith(start + " ")
