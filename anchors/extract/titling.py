"""Where a citation's title comes from: what the document writes beside it, or the heading.

Only a title written for the citation (a table cell, a link's text, the text around the ID) can
disagree with another; a heading titles every URL below it, so re-citing a URL under a new
day's heading is no conflict.
"""

from __future__ import annotations

import re
from enum import Enum

from .phrases import venue_claim
from .plaintext import useful_title
from .scan import Hit

__all__ = ["TitleSource", "cell_title", "line_title"]


class TitleSource(str, Enum):
    """Where a citation's title came from; every source but HEADING is written by the author."""

    CELL = "cell"  # the table cell after the cited ID, or the row's Title/标题 column
    LINK_TEXT = "link-text"  # [text](url), <a href="url">text</a>
    AFTER_ID = "after-id"  # `- 2609.18063 Title` in a list
    BEFORE_ID = "before-id"  # `- **Title** [[pdf]](arXiv URL)`: before a list item's paper
    HEADING = "heading"  # inferred: the increment heading above the citation

    @property
    def written(self) -> bool:
        return self is not TitleSource.HEADING


Found = tuple[str, TitleSource] | None
_VENUE_ONLY_RE = re.compile(r"[(（\[]?\s*+[A-Za-z]++\s*+(?:[’']\s*+)?[0-9]{2,4}\s*+[)）\]]?")


def _as(title: str | None, source: TitleSource) -> Found:
    return (title, source) if title else None


def cell_title(
    cells: list[str], n: int, hit: Hit, hits: list[Hit], title_col: int | None, primary: bool
) -> Found:
    """Link text; for an ID in a row's first cell the next cell; else the title column."""
    if found := _as(useful_title(hit.link_text), TitleSource.LINK_TEXT):
        return found
    urls = tuple(x.raw for x in hits)  # only now: a row may hold thousands of links
    if primary and n + 1 < len(cells):
        return _as(useful_title(cells[n + 1], urls), TitleSource.CELL)
    if title_col is None or title_col >= len(cells):
        return None
    if title_col != n:
        return _as(useful_title(cells[title_col]), TitleSource.CELL)
    if len(hits) == 1:  # `| FlashAttention (arXiv:2205.14135) |` in the title column itself
        return _as(
            useful_title(cells[n][: hit.start] + " " + cells[n][hit.end :], urls), TitleSource.CELL
        )
    return None


def line_title(line: str, idx: int, hits: list[Hit], start: int | None, listed: bool) -> Found:
    """Link text; in a list item the text after an ID that opens it, or the text before the
    first citation when nothing but links and punctuation follows it (`- Title <URL>`)."""
    hit = hits[idx]
    if found := _as(useful_title(hit.link_text), TitleSource.LINK_TEXT):
        return found
    if start is None or idx != 0 or not hit.listable or (hit.start == start and not listed):
        return None  # paper-card names (`1411-2609-18063（Edge0）`) mention a paper, never list it
    urls = tuple(x.raw for x in hits)
    if hit.start == start:
        after = line[hit.end : hits[1].start if len(hits) > 1 else len(line)]
        return _as(useful_title(after, urls), TitleSource.AFTER_ID)
    if hit.key is None or not hit.key.kind.is_paper:
        return None  # before a URL stands a description (a changelog entry), not its title
    end = hit.start
    if hit.link_text is not None:
        near = max(start, hit.start - len(hit.link_text) - 4)  # `[text](` or `[text](<` just before
        end = max(line.rfind("[" + hit.link_text + "]", near, hit.start), start)
    if _nothing_but_venue(useful_title(line[hit.end :], urls)):
        return _as(useful_title(line[start:end], urls), TitleSource.BEFORE_ID)
    return None


def _nothing_but_venue(tail: str | None) -> bool:
    """After the links: nothing, or only where it appeared (`(SOSP 2023)`, `[OSDI'24]`)."""
    if tail is None:
        return True
    tail = tail.strip(" )）]")
    return _VENUE_ONLY_RE.fullmatch(tail) is not None and venue_claim(tail) is not None
