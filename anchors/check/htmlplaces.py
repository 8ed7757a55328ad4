"""The places an HTML page names, found as its text arrives: ids, `<a name>`, heading slugs.

The page is a network answer, so its markup is hostile input. Python's own `html.parser` is not
fit for it: on Python 3.11 an unclosed tag is scanned again on every feed (2 MiB of attributes
kept a run busy for a minute, past any `--timeout`, since parsing never yields to the event
loop), `<!<!<!…` is quadratic on close, and `<![<![` raises AssertionError. libxml2's HTML
parser (through lxml) reads any markup in linear time and never raises on it. It stops
descending past 256 open elements; what lies deeper is not seen, so a page that deep is
`too_deep` and its unfound places are unverifiable, never missing.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from urllib.parse import unquote

from lxml import etree

__all__ = ["MAX_DEPTH", "PlaceFinder", "place_of", "slug"]

#: the deepest nesting libxml2's HTML parser reports; past it elements are dropped unseen
MAX_DEPTH = 256
#: GitHub's rendered Markdown puts this before every id it generates
_GH = "user-content-"
_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
#: what GitHub's slugger drops: anything that is not a letter, a digit, a mark, `-`, `_` or space
_SLUG_DROP_RE = re.compile(r"[^\w\- ]", re.UNICODE)


def place_of(fragment: str) -> str:
    """The part of a fragment that names a place: a text directive (`:~:`) is not one."""
    return fragment.split(":~:", 1)[0]


def slug(text: str) -> str:
    """A heading's id as GitHub's Markdown gives it: lower case, punctuation dropped, each
    space a hyphen (letters of any script kept)."""
    return _SLUG_DROP_RE.sub("", unicodedata.normalize("NFC", text).strip().lower()).replace(
        " ", "-"
    )


class PlaceFinder:
    """Looks for `fragments` in a page fed as decoded text; keeps only the open headings'
    elements in memory (every other element is dropped once it has ended)."""

    def __init__(self, fragments: Iterable[str]) -> None:
        #: each spelling a fragment may take in the page -> the fragments it stands for
        self.forms: dict[str, set[str]] = {}
        self.wanted: set[str] = set()
        for f in fragments:
            place = place_of(f)
            self.wanted.add(f)
            for form in (place, unquote(place), unquote(place).lower()):
                self.forms.setdefault(form, set()).add(f)
        self.found: set[str] = set()
        #: the page nests deeper than the parser reads: places below were not seen
        self.too_deep = False
        self._parser = etree.HTMLPullParser(
            events=("start", "end"), no_network=True, remove_comments=True, remove_pis=True
        )
        self._depth = 0
        self._headings = 0
        self._slugs: dict[str, int] = {}

    @property
    def done(self) -> bool:
        return self.found >= self.wanted

    def feed(self, text: str) -> None:
        self._parser.feed(text)
        self._read()

    def close(self) -> None:
        try:
            self._parser.close()
        except etree.LxmlError:  # an empty or wholly broken page: nothing more to see
            pass
        self._read()

    def _see(self, name: str) -> None:
        hit = self.forms.get(name)
        if hit:
            self.found |= hit

    def _read(self) -> None:
        for event, el in self._parser.read_events():
            tag = el.tag if isinstance(el.tag, str) else ""
            if event == "start":
                self._depth += 1
                self.too_deep |= self._depth > MAX_DEPTH
                self._start(tag, el)
            else:
                self._depth -= 1
                self._end(tag, el)

    def _start(self, tag: str, el: etree._Element) -> None:
        for name in ("id", "name") if tag == "a" else ("id",):
            value = el.get(name)
            if value:
                self._see(value)
                if value.startswith(_GH):
                    self._see(value.removeprefix(_GH))
        if tag in _HEADINGS:
            self._headings += 1

    def _end(self, tag: str, el: etree._Element) -> None:
        if tag in _HEADINGS and self._headings:
            self._headings -= 1
            base = slug("".join(el.itertext()))
            seen = self._slugs.get(base, 0)
            self._slugs[base] = seen + 1
            self._see(base if not seen else f"{base}-{seen}")
        if not self._headings:  # a heading's text is read at its end: keep its elements
            el.clear(keep_tail=False)
            parent = el.getparent()
            while parent is not None and el.getprevious() is not None:
                del parent[0]
