"""One GitHub Markdown body (an issue's, a comment's, a review's) as passages.

Benchmark threads put their numbers in fenced code blocks and tables, so those count: each
line of a fenced block is a `CODE` passage (one line of tool output, "Throughput: 12.34
req/s"), each row of a pipe table a `TABLE_ROW` (its cells joined by " | ", the header row
too), each other paragraph or list item its sentences (`PROSE`). Images are links only (a
figure in a screenshot cannot be read): each is an `IMAGE` passage of its alt text, so a
figure near one can be told unverifiable. Inline HTML (`<details>`, `<br>`, a `<table>`) is
dropped to its text, entities decoded; link targets and emphasis marks are dropped.

Read line by line, each line once: every pattern is anchored at a line's start or stops at
the next opening character, so none is slower than linear in the body.
"""

from __future__ import annotations

import html
import re
from collections.abc import Generator, Iterator

from .passages import Passage, PassageKind
from .prose import sentences, squash

__all__ = ["passages_from_markdown"]

#: a fence opens with 3+ backticks or tildes, indented at most 3 spaces
_FENCE_RE = re.compile(r" {0,3}(`{3,}+|~{3,}+)")
_DELIMITER_RE = re.compile(r" {0,3}\|?+ *+:?-++:? *+(?:\| *+:?-++:? *+)*+\|? *+")
_BLOCK_START_RE = re.compile(r" {0,3}(?:#{1,6} |[-*+] |\d{1,9}[.)] )")
_MARKER_RE = re.compile(r" {0,3}(?:#{1,6} ++|(?:> ?)++|[-*+] ++(?:\[[ xX]\] ++)?|\d{1,9}[.)] ++)")
_IMAGE_RE = re.compile(r"!\[([^\[\]\n]{0,500}+)\]\([^()\[\]\s]{0,2000}+(?: \"[^\"\n]{0,200}+\")?\)")
_IMG_TAG_RE = re.compile(r"<img\b[^<>]{0,2000}+>", re.IGNORECASE)
_ALT_RE = re.compile(r"\balt=[\"']([^\"'<>]{0,500}+)[\"']", re.IGNORECASE)
_LINK_RE = re.compile(r"\[([^\[\]\n]{0,500}+)\]\([^()\[\]\s]{0,2000}+\)")
_TAG_RE = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9-]{0,20}+)[^<>]{0,2000}+>")
_EMPHASIS_RE = re.compile(r"\*{1,3}+|~~|`")
#: a table row's cell separator: a `|` not escaped as `\|`
_CELL_SEP_RE = re.compile(r"(?<!\\)\|")
_BLOCK_TAGS = frozenset(
    {"br", "p", "div", "td", "th", "tr", "li", "table", "details", "summary", "hr", "pre"}
)


def passages_from_markdown(body: str, where: str, version: str = "") -> list[Passage]:
    """The passages of one Markdown `body`, each at `where` ("comment 123") in `version`."""
    out: list[Passage] = []
    for kind, text in _blocks(body.replace("\r\n", "\n").replace("\r", "\n").split("\n")):
        if kind is PassageKind.CODE:
            if text.strip():
                out.append(Passage(squash(text), where, kind, version))
            continue
        for image in _images(text):
            out.append(Passage(image, where, PassageKind.IMAGE, version))
        plain = _plain(text)
        pieces = sentences(plain) if kind is PassageKind.PROSE else [squash(plain)]
        out.extend(Passage(p, where, kind, version) for p in pieces if p)
    return out


def _blocks(lines: list[str]) -> Iterator[tuple[PassageKind, str]]:
    """(kind, text) of each code line, table row and paragraph, in order."""
    paragraph: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        fence = _FENCE_RE.match(line)
        starts_table = "|" in line and i + 1 < len(lines) and _is_delimiter(lines[i + 1])
        ends = fence or starts_table or not line.strip() or _BLOCK_START_RE.match(line)
        if ends and paragraph:
            yield PassageKind.PROSE, " ".join(paragraph)
            paragraph = []
        if fence:
            i = yield from _fenced(lines, i + 1, fence.group(1))
        elif starts_table:
            yield PassageKind.TABLE_ROW, _row(line)
            i += 2
            while i < len(lines) and "|" in lines[i] and lines[i].strip():
                yield PassageKind.TABLE_ROW, _row(lines[i])
                i += 1
        else:
            if line.strip():
                marker = _MARKER_RE.match(line)
                paragraph.append(line[marker.end() :] if marker else line)
            i += 1
    if paragraph:
        yield PassageKind.PROSE, " ".join(paragraph)


def _fenced(lines: list[str], i: int, fence: str) -> Generator[tuple[PassageKind, str], None, int]:
    """The lines of a fenced block from line `i` on; returns the line after its closing fence
    (an unclosed fence runs to the end of the body, as CommonMark says)."""
    char, size = fence[0], len(fence)
    while i < len(lines):
        closing = _FENCE_RE.match(lines[i])
        closes = closing is not None and closing.group(1)[0] == char
        if (
            closing
            and closes
            and len(closing.group(1)) >= size
            and not lines[i][closing.end() :].strip()
        ):
            return i + 1
        yield PassageKind.CODE, lines[i]
        i += 1
    return i


def _is_delimiter(line: str) -> bool:
    return "-" in line and _DELIMITER_RE.fullmatch(line.rstrip()) is not None


def _row(line: str) -> str:
    """A table row's cells joined by " | " (an escaped `\\|` stays in its cell)."""
    cells = _CELL_SEP_RE.split(line.strip().removeprefix("|").removesuffix("|"))
    return " | ".join(c.strip().replace("\\|", "|") for c in cells)


def _images(text: str) -> list[str]:
    """The alt text of each image in `text` ("image" for one without)."""
    if "![" not in text and "<" not in text:
        return []
    found = [m.group(1).strip() or "image" for m in _IMAGE_RE.finditer(text)]
    for tag in _IMG_TAG_RE.finditer(text):
        alt = _ALT_RE.search(tag.group())
        found.append(alt.group(1).strip() if alt and alt.group(1).strip() else "image")
    return found


def _plain(text: str) -> str:
    """`text` as read: images and tags out (block tags leave a space), links as their text,
    emphasis marks dropped, entities decoded."""
    if "[" in text:
        text = _LINK_RE.sub(r"\1", _IMAGE_RE.sub(" ", text))
    if "<" in text:
        text = _TAG_RE.sub(_tag_space, _IMG_TAG_RE.sub(" ", text))
    if "*" in text or "~" in text or "`" in text:
        text = _EMPHASIS_RE.sub("", text)
    return html.unescape(text) if "&" in text else text


def _tag_space(match: re.Match[str]) -> str:
    return " " if match.group(2).lower() in _BLOCK_TAGS else ""
