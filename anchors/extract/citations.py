"""Briefing text to citations: every arXiv ID, DOI, GitHub reference and URL, with its line.

Briefings are Markdown written in Chinese or English and pasted from chat. `scan` finds the
anchors in each line (where a URL ends is the link syntax's business, see scan.py); this module
gives each one its place in the document: the table row's status and section, the title the
document writes beside it (link text, table cell, text around the ID) or, for URLs, the heading
above, and the `<!-- anchors: ignore-… -->` markers that keep off-topic citations out. Fenced
code blocks are not citations, except BibTeX ones.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import replace
from datetime import date
from pathlib import Path

from ..errors import BriefingError
from ..registry.claims import Claims
from ..registry.sniff import structured_kind
from .attributed import attributed
from .claims import citation_claims
from .docrefs import document_refs
from .layout import (
    cells,
    ignored_anchors,
    is_separator,
    skipped_lines,
    title_columns,
    without_comments,
)
from .model import Briefing, Citation, InvalidCitation
from .place import Block, Place, heading_blocks, line_claim, section_in
from .scan import DIGIT_RE, Hit, scan
from .titling import TitleSource, cell_title, line_title

__all__ = [
    "MAX_BRIEFING_BYTES",
    "Briefing",
    "Citation",
    "InvalidCitation",
    "TitleSource",
    "briefing_claims",
    "briefing_date",
    "claims_of",
    "extract",
    "read_briefing",
]

MAX_BRIEFING_BYTES = 4 * 1024 * 1024

_LABEL_RE = re.compile(r"^\s*+(?:[-*+]\s*+)?(?:\*\*)?([^：:|]{0,24})(?:\*\*)?[：:]\s*")
_LINK_LABEL_RE = re.compile(r"url|arxiv|链接|link|doi", re.IGNORECASE)
_ARROW_SECTION_RE = re.compile(r"→\s*§.*")
_LIST_RE = re.compile(r"^\s*(?:[-*+]|[0-9]{1,3}[.)])\s+")
_FILE_DATE_RE = re.compile(r"(?<!\d)(\d{4}-\d{2}-\d{2})(?!\d)")
_TITLE_DATE_RE = re.compile(r"[（(]\s*(\d{4}-\d{2}-\d{2})\s*[）)]")


def read_briefing(
    path: str | Path, date_override: date | None = None, undated: date | None = None
) -> Briefing:
    """Read, decode and extract one briefing; unusable files raise BriefingError.

    A file without a date is unusable unless `undated` says which date to give it."""
    shown = str(path)
    try:
        with open(path, "rb") as fh:
            data = fh.read(MAX_BRIEFING_BYTES + 1)
    except OSError as exc:
        raise BriefingError(shown, f"cannot read: {exc.strerror}") from None
    if len(data) > MAX_BRIEFING_BYTES:
        raise BriefingError(
            shown,
            f"larger than {MAX_BRIEFING_BYTES // (1024 * 1024)} MiB; is this really a briefing?",
        )
    if b"\x00" in data:
        raise BriefingError(
            shown, "not a text file (NUL byte)", data[: data.index(b"\x00")].count(b"\n") + 1
        )
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise BriefingError(shown, "not UTF-8 text", data[: exc.start].count(b"\n") + 1) from None
    if not text.strip():  # its date cannot matter: there is nothing to date
        return Briefing(
            shown, date_override or briefing_date(text, shown) or undated or date.min, empty=True
        )
    kind = structured_kind(shown, text)
    if kind is not None:
        raise BriefingError(shown, _not_prose(kind, shown))
    when = date_override or briefing_date(text, shown) or undated
    if when is None:
        raise BriefingError(shown, "no date in its title or file name; pass --date YYYY-MM-DD")
    return extract(text, shown, when)


def _not_prose(kind: str, path: str) -> str:
    said = f"this is {kind}, not a briefing: `anchors add` reads Markdown or text"
    if kind == "an anchors registry":
        quoted = shlex.quote(path)
        return (
            f"{said}; check it with `anchors check {quoted}`, "
            f"or add briefings to it with `-r {quoted}`"
        )
    return said


def briefing_date(text: str, path: str) -> date | None:
    """The date in the title line (`…(2026-09-24)`), else in the file name."""
    for line in text.splitlines()[:5]:
        match = _TITLE_DATE_RE.search(line)
        if match and (day := _iso(match[1])):
            return day
    match = _FILE_DATE_RE.search(Path(path).name)
    return _iso(match[1]) if match else None


def _iso(text: str) -> date | None:
    try:
        return date.fromisoformat(text)
    except ValueError:
        return None


def extract(text: str, path: str, when: date) -> Briefing:
    """Every citation in `text`, a briefing dated `when`, with its line, title and claims."""
    out = Briefing(path, when)
    raw_lines = text.splitlines()
    skipped = skipped_lines(raw_lines)
    lines = without_comments(raw_lines, skipped)
    blocks = heading_blocks(lines)
    headers = title_columns(lines)
    ignored = ignored_anchors(raw_lines) if "anchors" in text else frozenset()
    hits: dict[int, list[tuple[int, str]]] = {}  # each line's citations, for `attributed`
    for i, line in enumerate(lines):
        if skipped[i] or ("://" not in line and not DIGIT_RE.search(line)):
            continue
        seen = hits.setdefault(i, [])
        if line.lstrip().startswith("|"):
            found = _table_row(out, line, i + 1, blocks[i], headers[i], seen)
        else:
            found = _prose(out, line, i + 1, blocks[i], seen)
        out.citations.extend(c for c in _one_per_key(found) if c.key.key not in ignored)
    claims = citation_claims(lines, blocks, out.citations, when)
    out.refs = document_refs(lines, skipped)
    out.citations = [replace(c, claims=k) for c, k in zip(out.citations, claims)]
    out.figures = attributed(lines, skipped, blocks, out.citations, path, hits)
    return out


def _valid(out: Briefing, text: str, lineno: int, seen: list[tuple[int, str]]) -> list[Hit]:
    """The valid hits in `text`; invalid ones go to `out.invalid`, and each valid one's
    (position, key) to `seen`."""
    hits = []
    for hit in scan(text):
        if hit.key is None:
            out.invalid.append(InvalidCitation(hit.raw, out.path, lineno, hit.reason or "invalid"))
        else:
            hits.append(hit)
            seen.append((hit.start, hit.key.key))
    return hits


def _table_row(
    out: Briefing,
    line: str,
    lineno: int,
    block: Block,
    title_col: int | None,
    seen: list[tuple[int, str]],
) -> list[Citation]:
    row = cells(line)
    if is_separator(row):
        return []
    claim, claimed = line_claim(line, out.date, strict=False)
    place = Place(lineno, block, section_in(line) or block.section, claim, claimed)
    found = []
    for n, cell in enumerate(row):
        hits = _valid(out, cell, lineno, seen)  # a row is one unit: where in it does not matter
        for hit in hits:
            primary = n == 0 and hit.listable
            title = cell_title(row, n, hit, hits, title_col, primary)
            found.append(_citation(out, hit, place, primary, title))
    return found


def _prose(
    out: Briefing, line: str, lineno: int, block: Block, seen: list[tuple[int, str]]
) -> list[Citation]:
    hits = _valid(out, line, lineno, seen)
    if not hits:
        return []
    label = _LABEL_RE.match(line)
    labelled = bool(
        label and _LINK_LABEL_RE.search(label[1]) and line[label.end() :].startswith(hits[0].raw)
    )
    listed = _LIST_RE.match(line)
    claim, claimed = line_claim(line, out.date, strict=True)
    arrow = _ARROW_SECTION_RE.search(line)
    place = Place(
        lineno,
        block,
        (section_in(arrow.group()) if arrow else None) or block.section,
        claim,
        claimed,
    )
    found = []
    for idx, hit in enumerate(hits):
        primary = hit.listable and (
            labelled or bool(listed and idx == 0 and hit.start == listed.end())
        )
        start = label.end() if labelled and label else listed.end() if listed else None
        title = line_title(line, idx, hits, start, bool(listed and not labelled))
        found.append(_citation(out, hit, place, primary, title))
    return found


def _citation(
    out: Briefing, hit: Hit, place: Place, primary: bool, found: tuple[str, TitleSource] | None
) -> Citation:
    """A citation; a URL with no title of its own takes its heading's (marked inferred)."""
    assert hit.key is not None
    title, source = found or (None, None)
    if title is None and place.block.title and not hit.key.kind.is_paper:
        title, source = place.block.title, TitleSource.HEADING
    return Citation(
        hit.key,
        hit.raw,
        out.path,
        place.lineno,
        primary,
        title,
        place.section,
        place.claim,
        place.claimed,
        source,
    )


def _one_per_key(found: list[Citation]) -> list[Citation]:
    """One citation per anchor and line: `[2309.06180](https://arxiv.org/abs/2309.06180)` is one."""
    by_key: dict[str, Citation] = {}
    for cite in found:
        first = by_key.setdefault(cite.key.key, cite)
        if first is not cite:
            better = cite if cite.written_title and not first.written_title else first
            by_key[cite.key.key] = replace(
                first,
                primary=first.primary or cite.primary,
                title=better.title,
                title_source=better.title_source,
            )
    return list(by_key.values())


# -- claims of whole briefings (`check --briefing`) ------------------------------------------


def briefing_claims(paths: list[str]) -> dict[str, Claims]:
    """Claims per anchor key in briefing files (the first citation's, filled from the others').

    The claims are dated with the briefing's own date when it has one; a file without one (a
    changelog, a reading list) still has claims, about an unknown day."""
    return claims_of([read_briefing(path, undated=date.min) for path in paths])


def claims_of(briefings: list[Briefing]) -> dict[str, Claims]:
    """`briefing_claims` of briefings already read (`undated=date.min`)."""
    out: dict[str, Claims] = {}
    for briefing in briefings:
        for cite in briefing.citations:
            if cite.claims is None:
                continue
            claims = (
                cite.claims
                if cite.claims.said_on != date.min
                else replace(cite.claims, said_on=None)
            )
            prev = out.get(cite.key.key)
            out[cite.key.key] = claims if prev is None else _fill(prev, claims)
    return out


def _fill(first: Claims, other: Claims) -> Claims:
    return replace(
        first,
        **{
            k: getattr(other, k)
            for k in ("title", "state", "state_text", "date", "venue", "version")
            if getattr(first, k) is None and getattr(other, k) is not None
        },
    )
