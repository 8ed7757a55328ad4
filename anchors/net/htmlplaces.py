"""The places an HTML page names, found as its text arrives: ids, `<a name>`, heading slugs.

The page is a network answer, so its markup is hostile input. Python's own `html.parser` is not
fit for it: on Python 3.11 an unclosed tag is scanned again on every feed (2 MiB of attributes
kept a run busy for a minute, past any `--timeout`, since parsing never yields to the event
loop), `<!<!<!…` is quadratic on close, and `<![<![` raises AssertionError. libxml2's HTML
parser (through lxml) reads any markup and never raises on it; it calls this module once per
element and piece of text (a parser target: no tree is built, so a page costs no memory beyond
the text of its open headings). Every cost stays linear in the page: parsing stops past
`MAX_DEPTH` open elements (libxml2 walks its stack of them at each tag, and only stops itself
when it builds a tree); headings more than `MAX_HEADINGS` deep in headings are not read, and a
heading's slug is made from at most `MAX_HEADING_TEXT` characters, normalized in linear time
(`unicodenorm`). A page past a depth is `too_deep`, one with a longer heading `too_long`:
either way its unfound places are unverifiable, never missing.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from urllib.parse import unquote

from lxml import etree

from ..unicodenorm import normalize

__all__ = ["MAX_DEPTH", "MAX_HEADINGS", "MAX_HEADING_TEXT", "PlaceFinder", "place_of", "slug"]

#: elements nested deeper are not looked at (libxml2's own limit when it builds a tree)
MAX_DEPTH = 256
#: headings inside headings deeper than this are not looked at (GitHub never nests them)
MAX_HEADINGS = 4
#: a heading with more text than this has no slug anyone cites
MAX_HEADING_TEXT = 2048
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
    return _SLUG_DROP_RE.sub("", normalize("NFC", text).strip().lower()).replace(" ", "-")


class PlaceFinder:
    """Looks for `fragments` in a page fed as decoded text (`feed`, then `close`)."""

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
        #: the page nests deeper than is looked at: places below were not seen
        self.too_deep = False
        #: a heading had too much text to be given a slug
        self.too_long = False
        self._depth = 0
        #: the open headings looked at: where each one's text begins in `_text`; and how many
        #: open ones, deeper than MAX_HEADINGS in those, are not
        self._open: list[tuple[int, int]] = []
        self._unread = 0
        #: the text of the open headings, in pieces, and its length in characters
        self._text: list[str] = []
        self._chars = 0
        self._slugs: dict[str, int] = {}
        self._parser = etree.HTMLParser(
            target=_Target(self), no_network=True, remove_comments=True, remove_pis=True
        )

    @property
    def done(self) -> bool:
        return self.found >= self.wanted

    def feed(self, text: str) -> None:
        if self.too_deep:  # parsing stopped: nothing below is read
            return
        try:
            # as libxml2 reads them, but not one call here per NUL or CR (a page of them: 1M)
            self._parser.feed(text.replace("\x00", "\ufffd").replace("\r", "\n"))
        except _Halt:
            pass

    def close(self) -> None:
        if self.too_deep:
            return
        try:
            self._parser.close()
        except (etree.LxmlError, _Halt):  # an empty or wholly broken page: nothing more to see
            pass

    def _see(self, name: str) -> None:
        hit = self.forms.get(name)
        if hit:
            self.found |= hit

    # What the parser calls (through `_Target`), once per element and piece of text.

    def _start(self, tag: str, attrib: Mapping[str, str]) -> None:
        self._depth += 1
        if self._depth > MAX_DEPTH:
            # libxml2 keeps its own stack of open elements and walks it at each tag: parsing on
            # would cost the depth at every element (2 MiB of nested headings: 10 s)
            self.too_deep = True
            raise _Halt
        if attrib:
            for value in (attrib.get("id"), attrib.get("name") if tag == "a" else None):
                if value:
                    self._see(value)
                    if value.startswith(_GH):
                        self._see(value.removeprefix(_GH))
        if tag in _HEADINGS:
            if len(self._open) < MAX_HEADINGS:
                self._open.append((len(self._text), self._chars))
            else:
                self.too_deep = True
                self._unread += 1

    def _end(self, tag: str) -> None:
        self._depth -= 1
        if tag not in _HEADINGS or not self._open:
            return
        if self._unread:  # the innermost open heading is one not read
            self._unread -= 1
            return
        piece, chars = self._open.pop()
        if self._chars - chars > MAX_HEADING_TEXT:
            self.too_long = True
        else:
            base = slug("".join(self._text[piece:]))
            seen = self._slugs.get(base, 0)
            self._slugs[base] = seen + 1
            self._see(base if not seen else f"{base}-{seen}")
        if not self._open:
            self._text.clear()
            self._chars = 0

    def _data(self, text: str) -> None:
        if self._open:
            self._text.append(text)
            self._chars += len(text)


class _Halt(Exception):
    """Raised by the target to stop the parser (lxml passes it out of `feed`)."""


class _Target:
    """lxml's parser target protocol (`start`, `end`, `data`, `close`) for a finder, whose
    own `close` is the end of the page."""

    def __init__(self, finder: PlaceFinder) -> None:
        self.start = finder._start
        self.end = finder._end
        self.data = finder._data

    def close(self) -> None:
        return None
