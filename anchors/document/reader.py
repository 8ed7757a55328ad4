"""Markdown text to a `LivingDocument`: numbered headings, and each citation's sections.

A heading is numbered when its text starts with `§` and a number in any spelling `sections`
accepts (`## §1.3 KV Cache`, full-width digits), or with a dotted number (`### 1.3 KV Cache`):
a heading is where a writer numbers sections without `§`. `## 2024 roadmap` and
`## 1 Introduction` stay names, as in prose, since a year or a lone ordinal is no section
number. Citations are read with the extractor `add` uses, so the document and the briefings
agree on what an anchor is; code blocks and `<!-- anchors: ignore -->` regions cite nothing.
"""

from __future__ import annotations

import re
import unicodedata
from datetime import date

from .. import sections
from ..extract import extract
from ..extract.layout import skipped_lines
from .model import Heading, LivingDocument, Mention

__all__ = ["parse_document"]

#: an ATX heading's opening `#`s; the rest of the line is cut by `_atx` with `str` methods, as
#: one pattern for the whole line retries every split of a run of spaces (`# a` + 80,000
#: spaces + `b` took minutes)
_ATX_OPEN_RE = re.compile(r" {0,3}(#{1,6})(?=[ \t]|$)")
_SETEXT_RE = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
#: a line that cannot be a setext heading's text: a list item, a table row, a quote, a fence
_NOT_SETEXT_RE = re.compile(r"^ {0,3}(?:[-*+][ \t]|[0-9]{1,9}[.)][ \t]|\||>|```|~~~)")
#: a dotted section number at the start of a heading: `1.3`, `1.3.`, `2.10.4` (NFKC digits)
_DOTTED_RE = re.compile(r"^([0-9]++(?:\.[0-9]++)++)\.?(?=\s|$)")
#: emphasis or code around a whole heading (`## **§1.3 KV Cache**`) is presentation
_WRAP = "*_` "


def parse_document(text: str, path: str) -> LivingDocument:
    """The document's numbered headings and every citation with the sections it stands in."""
    lines = text.splitlines()
    skipped = skipped_lines(lines)
    doc = LivingDocument(path)
    within: list[tuple[str, ...]] = []
    stack: list[tuple[int, str | None]] = []
    for i, line in enumerate(lines):
        found = None if skipped[i] else _heading(lines, i)
        if found is not None:
            level, title = found
            while stack and stack[-1][0] >= level:
                stack.pop()
            section = _section_of(title)
            stack.append((level, section))
            if section is not None:
                doc.headings.append(Heading(section, i + 1, level))
        within.append(tuple(s for _, s in reversed(stack) if s is not None))
    # The extractor needs a date for claims; a document's claims are not read, so any will do.
    for cite in extract(text, path, date.min).citations:
        doc.mentions.append(
            Mention(cite.key, cite.raw, cite.line, within[cite.line - 1], _fragment(cite.raw))
        )
    return doc


def _heading(lines: list[str], i: int) -> tuple[int, str] | None:
    """`(level, text)` when line `i` is an ATX heading or the text line of a setext one."""
    atx = _atx(lines[i])
    if atx is not None:
        return atx
    if i + 1 < len(lines) and lines[i].strip() and not _NOT_SETEXT_RE.match(lines[i]):
        under = _SETEXT_RE.match(lines[i + 1])
        if under and not _SETEXT_RE.match(lines[i]):
            return (1 if under[1][0] == "=" else 2), lines[i].strip()
    return None


def _atx(line: str) -> tuple[int, str] | None:
    """`(level, text)` of an ATX heading (CommonMark: a closing run of `#` after a space, or
    alone, is no part of the text); None for any other line."""
    match = _ATX_OPEN_RE.match(line)
    if match is None:
        return None
    text = line[match.end() :].strip(" \t")
    bare = text.rstrip("#")
    if not bare or bare[-1] in " \t":
        text = bare.rstrip(" \t")
    return len(match[1]), text.strip()


def _section_of(title: str) -> str | None:
    """The section a heading's text numbers, in its normal spelling; None for a plain name."""
    text = unicodedata.normalize("NFKC", title).strip(_WRAP)
    if text.startswith("§"):
        return sections.normal(text) if sections.number(text) is not None else None
    match = _DOTTED_RE.match(text)
    if match is None:
        return None
    return sections.normal("§" + match[1] + text[match.end() :])


def _fragment(raw: str) -> str | None:
    """The `#fragment` of a cited web address (not of `owner/repo#12`, which is no URL)."""
    if "://" not in raw:
        return None
    _, sep, fragment = raw.partition("#")
    return fragment if sep and fragment else None
