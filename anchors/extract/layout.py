"""Which lines of a briefing hold citations, and what its tables' headers say.

Fenced code (commands, example output) holds none, except BibTeX blocks (by their label, or
by a first line that opens an entry), whose entries are real citations. A briefing marks
off-topic citations with HTML comments, which render as nothing: `<!-- anchors: ignore-line -->`
(or `ignore`) on the line, `ignore-next-line` above it, `ignore-start` … `ignore-end` around a
region.
"""

from __future__ import annotations

import re

from .plaintext import markdown_to_text
from .scan import scan

__all__ = [
    "cells",
    "ignored_anchors",
    "is_separator",
    "skipped_lines",
    "title_columns",
    "without_comments",
]

_IGNORE_RE = re.compile(
    r"<!--\s*anchors\s*:\s*(ignore(?:-line|-next-line|-start|-end)?)\s*-->", re.IGNORECASE
)
#: `<!-- anchors: ignore KEY… -->`, read to the first `>` (or the end of the line) in one step;
#: `ignored_anchors` checks that `--` closes it. A lazy body before `\s*-->` retried the spaces
#: at every character, and each opening without a `>` read to the end of the line again.
_IGNORE_LIST_RE = re.compile(r"<!--\s*+anchors\s*+:\s*+ignore\s+(?!-)([^>]*+)(>|\Z)", re.IGNORECASE)
_FENCE_RE = re.compile(r"^\s{0,3}(`{3,}|~{3,})\s*([\w+-]*)")
_BIB_INFO = frozenset({"bib", "bibtex", "biblatex", "tex"})
#: the first line of a BibTeX entry: `@inproceedings{key,` (a CSS `@media x {` or a decorator
#: `@app.route(` has no `{key,`)
_BIB_ENTRY_RE = re.compile(r"^\s*+@[A-Za-z]++\s*+\{\s*+[^\s,{}]*+\s*+,")
_TITLE_COLUMN_RE = re.compile(r"title|paper|name|标题|论文|名称|题目|文章", re.IGNORECASE)


def skipped_lines(lines: list[str]) -> list[bool]:
    """For each line, True when it holds no citations (ignore markers, non-BibTeX code)."""
    skip = [False] * len(lines)
    fence: str | None = None
    keep_fence = region = next_line = False
    for i, line in enumerate(lines):
        f = _FENCE_RE.match(line)
        if fence is not None:
            if f and f[1][0] == fence[0] and len(f[1]) >= len(fence) and not f[2]:
                fence, skip[i] = None, True
            else:
                skip[i] = not keep_fence or region
            continue
        if f:
            keep = f[2].lower() in _BIB_INFO or _bibtex_inside(lines, i + 1, f[1])
            fence, keep_fence, skip[i] = f[1], keep, True
            continue
        marker = _IGNORE_RE.search(line)
        kind = marker[1].lower() if marker else ""
        region = region or kind == "ignore-start"
        skip[i] = region or next_line or kind in ("ignore", "ignore-line")
        next_line = kind == "ignore-next-line"
        region = region and kind != "ignore-end"
    return skip


def _bibtex_inside(lines: list[str], start: int, fence: str) -> bool:
    """True when the fence's first non-blank line opens a BibTeX entry: a fence whose content
    is BibTeX is BibTeX, labelled or not (the only place some READMEs give a DOI)."""
    for i in range(start, len(lines)):  # blank lines only: linear over the whole file
        line = lines[i]
        if line.strip():
            return not line.lstrip().startswith(fence[0] * 3) and bool(_BIB_ENTRY_RE.match(line))
    return False


def ignored_anchors(lines: list[str]) -> frozenset[str]:
    """Keys of the anchors a `<!-- anchors: ignore 2609.27901 1487-2609-26550 -->` marker names:
    left out wherever the briefing cites them, for rows that mix on- and off-topic papers."""
    keys: set[str] = set()
    for line in lines:
        for listed in _IGNORE_LIST_RE.finditer(line):
            if listed[2] == ">" and listed[1].endswith("--"):
                keys.update(h.key.key for h in scan(listed[1][:-2]) if h.key is not None)
    return frozenset(keys)


def without_comments(lines: list[str], skipped: list[bool]) -> list[str]:
    """`lines` with HTML comments blanked out, also across lines: what a comment holds
    (a commented-out badge row, an editor's note) is not rendered, so it cites nothing.
    Blanking keeps every column where it was."""
    out: list[str] = []
    inside = False
    for line, skip in zip(lines, skipped):
        if skip or (not inside and "<!--" not in line):
            out.append(line)
            continue
        chars, i = list(line), 0
        while i < len(line):
            if inside:
                end = line.find("-->", i)
                stop = len(line) if end < 0 else end + 3
                chars[i:stop] = " " * (stop - i)
                inside, i = end < 0, stop
            elif (start := line.find("<!--", i)) >= 0:
                inside, i = True, start
            else:
                break
        out.append("".join(chars))
    return out


def cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def is_separator(cells: list[str]) -> bool:
    return all(set(c) <= set("-: ") for c in cells)


def title_columns(lines: list[str]) -> list[int | None]:
    """For each table row, the index of the column its header calls a title (`Title`, `标题`)."""
    result: list[int | None] = []
    col: int | None = None
    for i, line in enumerate(lines):
        if not line.lstrip().startswith("|"):
            col = None
        elif i > 0 and is_separator(cells(line)) and lines[i - 1].lstrip().startswith("|"):
            names = [markdown_to_text(c) for c in cells(lines[i - 1])]
            col = next((n for n, c in enumerate(names) if _TITLE_COLUMN_RE.search(c)), None)
        result.append(col)
    return result
