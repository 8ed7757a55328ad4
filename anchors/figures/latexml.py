"""An arXiv paper's HTML full text (LaTeXML's output) as passages.

What is read, by LaTeXML's class names: paragraphs (`.ltx_p`, split into sentences), table
rows (`table.ltx_tabular` rows of `td`/`th`; a `\\resizebox` table comes as `span.ltx_tabular`
with `span.ltx_tr`/`.ltx_td`), captions (`figcaption`), footnotes (`.ltx_note_content`). Math
is read from `<math alttext>` (the whole TeX, `72.7\\%`), never its `<mn>`/`<mo>` pieces;
citations, the bibliography (`li.ltx_bibitem`: other papers' numbers), headings, author
notes, pictures (`svg`) and the site's own chrome (navigation, buttons, footer) are left out.
Each passage says where it is: "HTML v2, Table 3" (the caption's own tag), "HTML v2, §3.2",
"HTML v2, footnote 4", "HTML v2, abstract".

The page is a network answer, so its markup is hostile input: libxml2's HTML parser (lxml)
reads any bytes in linear time and never raises on them; at most `MAX_PAGE_BYTES` are read,
the walk is iterative and checks a time budget. What could not be read is a gap: past the
bound, nested deeper than libxml2 reads, over the budget, or a conversion arXiv itself says
had errors (its "package-alerts" box: a table may be missing). Pure: bytes in, passages out.
"""

from __future__ import annotations

import re
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from itertools import islice

from lxml import etree

from ..defaults import MAX_PAGE_BYTES
from .normal import normalise_tex
from .passages import Passage, PassageKind, SourceText
from .prose import sentences, squash

__all__ = ["BUDGET_GAP", "HTML_BUDGET", "MAX_DEPTH", "html_scope", "passages_from_latexml"]

#: seconds of work one page may take; a page needing more is read in part (a gap)
HTML_BUDGET = 10.0
#: libxml2's HTML parser keeps at most this many nested elements (anchors.net.htmlplaces)
MAX_DEPTH = 256
#: how the gap of a page read in part for lack of time begins (a cache keeps no such read)
BUDGET_GAP = "reading the page took longer than"
#: elements walked between two looks at the clock
_CLOCK_EVERY = 2000

_SKIP_TAGS = frozenset(
    {"head", "script", "style", "svg", "button", "nav", "header", "footer", "dialog", "form",
     "cite", "annotation", "annotation-xml", "h1", "h2", "h3", "h4", "h5", "h6", "noscript"}
)  # fmt: skip
_SKIP_CLASSES = frozenset(
    {"ltx_bibliography", "ltx_bibitem", "ltx_TOC", "ltx_page_navbar", "ltx_page_header",
     "ltx_page_footer", "ltx_authors", "ltx_dates", "ltx_keywords", "ltx_classification",
     "ltx_ERROR", "ltx_tag_bibitem", "ltx_note_mark", "ltx_tag_note"}
)  # fmt: skip
_BLOCK_TAGS = frozenset({"br", "div", "p", "li", "td", "th", "tr", "table", "figure", "section"})
_ROW_CLASSES = frozenset({"ltx_tr"})
_CELL_CLASSES = frozenset({"ltx_td"})
#: a space left before punctuation where a citation was dropped ("OpenAI [7], each"), in
#: squashed text (one space at most)
_DROPPED_RE = re.compile(r" ([,.;:!?)])")
_SECTION_CLASSES = frozenset(
    {"ltx_section", "ltx_subsection", "ltx_subsubsection", "ltx_appendix", "ltx_chapter"}
)


def html_scope(version: int | None) -> str:
    """What reading the HTML covers, in a finding's words: "HTML v2"."""
    return f"HTML v{version}" if version else "HTML"


@dataclass
class _Reader:
    base: str
    deadline: float
    clock: Callable[[], float]
    out: list[Passage] = field(default_factory=list)
    gaps: list[str] = field(default_factory=list)
    #: each figure element's label from its own caption's tag ("Table 3")
    labels: dict[etree._Element, str] = field(default_factory=dict)
    too_deep: bool = False
    #: the page holds a LaTeXML document (`.ltx_document`): a paper, not some other page
    document: bool = False
    walked: int = 0

    def add(self, text: str, where: str, kind: PassageKind) -> None:
        text = squash(text)
        if text:
            self.out.append(Passage(text, f"{self.base}, {where}" if where else self.base, kind))

    def over_budget(self) -> bool:
        self.walked += 1
        return self.walked % _CLOCK_EVERY == 0 and self.clock() > self.deadline


def passages_from_latexml(
    html: bytes,
    version: int | None,
    *,
    budget: float = HTML_BUDGET,
    clock: Callable[[], float] = time.monotonic,
) -> SourceText:
    """The passages of a LaTeXML page (`html`, of paper version `version`), and its gaps."""
    base = html_scope(version)
    reader = _Reader(base, clock() + budget, clock)
    if len(html) > MAX_PAGE_BYTES:
        reader.gaps.append(f"only the first {MAX_PAGE_BYTES >> 20} MiB of the page were read")
    # UTF-8 whatever the page declares (arXiv's are); libxml2 replaces what does not decode
    parser = etree.HTMLParser(
        encoding="utf-8", no_network=True, remove_comments=True, remove_pis=True
    )
    root = etree.fromstring(html[:MAX_PAGE_BYTES], parser)
    if root is None:
        return SourceText((), base, ("the page is empty",))
    _survey(root, reader)
    if not _walk(root, reader):
        reader.gaps.append(f"{BUDGET_GAP} {budget:g} s; the rest was not read")
    if reader.too_deep:
        reader.gaps.append(f"the page nests elements deeper than {MAX_DEPTH}, past what is read")
    if not reader.document:
        reader.gaps.append("the page holds no LaTeXML document (not a paper's HTML full text)")
    return SourceText(tuple(reader.out), base, tuple(reader.gaps))


def _classes(el: etree._Element) -> frozenset[str]:
    return frozenset((el.get("class") or "").split())


def _tag(el: etree._Element) -> str:
    return el.tag.lower() if isinstance(el.tag, str) else ""


def _survey(root: etree._Element, reader: _Reader) -> None:
    """One pass over the page before it is read: each figure's label from the first caption
    that is its own ("Table 3", "Figure 2"), whether it is a LaTeXML document, whether it nests
    as deep as libxml2 reads (what lay deeper was dropped), and the conversion errors arXiv
    announces in it."""
    figures: list[etree._Element] = []
    depth = 0
    for event, el in etree.iterwalk(root, events=("start", "end")):
        tag = _tag(el)
        depth += 1 if event == "start" else -1
        reader.too_deep |= depth >= MAX_DEPTH - 1
        if event == "start" and not reader.document:
            reader.document = "ltx_document" in _classes(el)
        if tag == "figure":
            if event == "start":
                figures.append(el)
            elif figures:
                figures.pop()
        elif event == "start" and tag == "figcaption" and figures:
            reader.labels.setdefault(figures[-1], _caption_label(el))
        elif event == "start" and tag == "div" and "package-alerts" in _classes(el):
            failed = f"arXiv says the HTML conversion had errors ({_short(el, 200)})"
            reader.gaps += [] if any(g.startswith("arXiv says") for g in reader.gaps) else [failed]


def _short(el: etree._Element, chars: int) -> str:
    """The start of `el`'s text, at most `chars` characters (a tag, an alert: short by nature)."""
    return squash(" ".join(islice(el.itertext(), 40)))[:chars]


def _caption_label(caption: etree._Element) -> str:
    """A caption's (or heading's) own tag as a place: "Table 3: " is "Table 3", "TABLE I:" is
    "Table I"; LaTeXML puts the tag among its first children."""
    for el in islice(caption, 4):
        if any(c.startswith("ltx_tag_") for c in _classes(el)):
            words = _short(el, 40).rstrip(":.").split(" ")
            if words and words[0].isupper() and len(words[0]) > 1:
                words[0] = words[0].capitalize()
            return " ".join(words)
    return ""


def _walk(root: etree._Element, reader: _Reader) -> bool:
    """Every passage of the page in document order; False when the budget ran out."""
    stack: list[tuple[etree._Element, str]] = [(root, "")]
    while stack:
        el, where = stack.pop()
        if reader.over_budget():
            return False
        tag, classes = _tag(el), _classes(el)
        if not tag or tag in _SKIP_TAGS or classes & _SKIP_CLASSES:
            continue
        if tag == "figure" and el in reader.labels:
            where = reader.labels[el] or where
        if tag == "figcaption":
            _emit_text(reader, el, where, PassageKind.CAPTION, skip_tags=True)
        elif "ltx_tabular" in classes:
            _emit_rows(reader, el, where)
        elif "ltx_note" in classes:
            _emit_note(reader, el)
        elif "ltx_p" in classes:
            _emit_text(reader, el, where, PassageKind.PROSE)
        else:
            where = _place(el, tag, classes, where)
            stack.extend((child, where) for child in reversed(el))
    return True


def _place(el: etree._Element, tag: str, classes: frozenset[str], where: str) -> str:
    """The place inside `el`: the abstract, or a section by its number ("§3.2")."""
    if "ltx_abstract" in classes:
        return "abstract"
    if tag != "section" and not classes & _SECTION_CLASSES:
        return where
    for child in el:
        if _tag(child) in ("h1", "h2", "h3", "h4", "h5", "h6"):
            number = _caption_label(child)
            if number:
                return number if " " in number else f"§{number}"
            break
    return where


def _emit_text(
    reader: _Reader, el: etree._Element, where: str, kind: PassageKind, skip_tags: bool = False
) -> None:
    notes: list[etree._Element] = []
    text = _text(el, notes, skip_tags)
    pieces = sentences(text) if kind is PassageKind.PROSE else [text]
    for piece in pieces:
        reader.add(piece, where, kind)
    for note in notes:
        _emit_note(reader, note)


def _emit_note(reader: _Reader, note: etree._Element) -> None:
    """A footnote, from its content (its mark and tag left out): "footnote 4"; a note inside
    it after it."""
    notes = deque([note])
    while notes:
        note = notes.popleft()
        near = [e for child in islice(note, 4) for e in (child, *islice(child, 4))]
        content = next((e for e in near if "ltx_note_content" in _classes(e)), None)
        mark = next((e for e in near if "ltx_note_mark" in _classes(e)), None)
        number = _short(mark, 8) if mark is not None else ""
        where = f"footnote {number}" if number else "footnote"
        for piece in sentences(_text(content, notes)) if content is not None else ():
            reader.add(piece, where, PassageKind.PROSE)


def _emit_rows(reader: _Reader, tabular: etree._Element, where: str) -> None:
    """Each row of a table, its cells joined by " | "; nested tables read inside their cell."""
    notes: list[etree._Element] = []
    stack = list(reversed(tabular))
    while stack:
        el = stack.pop()
        if _tag(el) == "tr" or _classes(el) & _ROW_CLASSES:
            cells = [squash(_text(cell, notes)) for cell in _cells(el)]
            if any(cells):
                reader.add(" | ".join(cells), where, PassageKind.TABLE_ROW)
        elif _tag(el):
            stack.extend(reversed(el))
    for note in notes:
        _emit_note(reader, note)


def _cells(row: etree._Element) -> Iterator[etree._Element]:
    stack = list(reversed(row))
    while stack:
        el = stack.pop()
        if _tag(el) in ("td", "th") or _classes(el) & _CELL_CLASSES:
            yield el
        elif _tag(el):
            stack.extend(reversed(el))


def _text(
    el: etree._Element, notes: list[etree._Element] | deque[etree._Element], skip_tags: bool = False
) -> str:
    """The text of `el` as read: math as its `alttext` made text, notes set aside in `notes`,
    citations, pictures and (for a caption) its "Table 3:" tag left out."""
    parts: list[str] = [el.text or ""]
    stack: list[etree._Element | str] = []
    for child in reversed(el):
        stack.extend((child.tail or "", child))
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            parts.append(item)
            continue
        tag, classes = _tag(item), _classes(item)
        if tag in _BLOCK_TAGS:
            parts.append(" ")
        if "ltx_note" in classes:
            notes.append(item)
        elif tag == "math":
            alt = item.get("alttext")
            parts.append(f" {squash(normalise_tex(alt))} " if alt else " ".join(item.itertext()))
        elif _readable(tag, classes, skip_tags):
            parts.append(item.text or "")
            for child in reversed(item):
                stack.extend((child.tail or "", child))
    return _DROPPED_RE.sub(r"\1", squash("".join(parts)))


def _readable(tag: str, classes: frozenset[str], skip_tags: bool) -> bool:
    """Whether an element's text is read (a caption's own "Table 3:" tag is not)."""
    if not tag or tag in _SKIP_TAGS or classes & _SKIP_CLASSES:
        return False
    return not (skip_tags and any(c.startswith("ltx_tag") for c in classes))
