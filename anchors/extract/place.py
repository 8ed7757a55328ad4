"""Where a citation sits: the heading block above it, its section, and what its line claims.

A briefing groups citations under headings (`增量 3：…`, `## …`) that carry a title and a
suggested section (`建议归入章节：§1.3 KV Cache`); a line may claim the citation is new
(`本次新增`) or continued (`续立`, `9-22锚定`). `citations` reads these once per line and gives
them to every citation on it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from ..registry.model import Status
from ..sections import normal
from .plaintext import useful_title

__all__ = ["Block", "Place", "heading_blocks", "line_claim", "section_in"]

_HEADING_RE = re.compile(
    r"^\s*+(?:(?P<hashes>#{1,6}\s++)?(?P<prefix>增量\s*+\d++\s*+[：:]"
    r"|(?:Increment|Item)\s*+\d++\s*+[：:]|[一二三四五六七八九十]++、)|#{1,6}\s)\s*+(?P<title>.*)$",
    re.IGNORECASE,
)
_SECTION_RE = re.compile(r"§\s*\d+(?:\.\d+)*[^（(，,；;|→\n·]*")
_SECTION_LINE_RE = re.compile(
    r"(?:建议归入章节|归入章节|suggested section|section)\s*[：:]", re.IGNORECASE
)
_DATE_CLAIM_RE = re.compile(
    r"(?:(?P<y>\d{4})-)?(?P<m>\d{1,2})-(?P<d>\d{1,2})\s*锚定"
    r"|anchored\s+(?:on\s+)?(?:(?P<y2>\d{4})-)?(?P<m2>\d{1,2})-(?P<d2>\d{1,2})",
    re.IGNORECASE,
)
_NEW_RE = re.compile(r"本次新增|newly anchored|\bnew anchor\b", re.IGNORECASE)
_CONT_RE = re.compile(r"续立|续用|续锚|\bcontinued\b", re.IGNORECASE)


@dataclass(slots=True)
class Block:
    """A heading and what follows it, up to the next heading: an increment of the briefing."""

    title: str | None = None
    section: str | None = None


@dataclass(frozen=True, slots=True)
class Place:
    """What a line says about every citation on it."""

    lineno: int
    block: Block
    section: str | None
    claim: Status | None
    claimed: date | None


def heading_blocks(lines: list[str]) -> list[Block]:
    """The heading block each line belongs to, with the block's suggested section."""
    result: list[Block] = []
    cur = Block()
    for line in lines:
        heading = _HEADING_RE.match(line)
        if heading and not line.lstrip().startswith("|"):
            cur = Block(useful_title(heading["title"]))
        elif cur.section is None and _SECTION_LINE_RE.search(line):
            cur.section = section_in(line)
        result.append(cur)
    return result


def line_claim(text: str, when: date, strict: bool) -> tuple[Status | None, date | None]:
    """Status and first-anchored date a line claims; prose with mixed claims claims nothing."""
    claimed = None
    match = _DATE_CLAIM_RE.search(text)
    if match:
        year, month, day = (
            (match["y"] or match["y2"]),
            int(match["m"] or match["m2"]),
            int(match["d"] or match["d2"]),
        )
        claimed = _claimed_date(when, int(year) if year else None, month, day)
    is_new, is_cont = bool(_NEW_RE.search(text)), bool(_CONT_RE.search(text)) or claimed is not None
    if is_new and is_cont:
        if strict:
            return None, None
        return (Status.NEW, None) if claimed is None else (Status.CONTINUED, claimed)
    if is_new:
        return Status.NEW, None
    if is_cont:
        return Status.CONTINUED, claimed
    return None, None


def _claimed_date(when: date, year: int | None, month: int, day: int) -> date | None:
    """`9-22锚定` in a briefing of 2026-09-24 is 2026-09-22; `12-30` in January is last year."""
    try:
        if year is not None:
            return date(year, month, day)
        this_year = date(when.year, month, day)
        return this_year if this_year <= when else date(when.year - 1, month, day)
    except ValueError:
        return None


def section_in(text: str) -> str | None:
    """The section a line names, stored in the one spelling export and report read
    (`sections.normal`: `§ 1.3\u3000KV Cache` is `§1.3 KV Cache`)."""
    match = _SECTION_RE.search(text)
    if not match:
        return None
    return normal(match.group().strip(" *-—:：")).strip(" *-—:：") or None
