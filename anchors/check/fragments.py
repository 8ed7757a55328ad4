"""Cited `#fragments`: which ones name a place in the page, and whether the page has it.

A fragment is checked only where it names an element of the HTML page: an `id`, an `<a name>`,
GitHub's `user-content-` ids (its rendered Markdown prefixes every heading id, on any page), or
a heading whose generated slug it is (for pages that add ids with script). Some fragments are
not places in the HTML at all, and say nothing about the page: text fragments (`#:~:text=`,
which browsers consume), client-side routes (`#/settings`, `#!/x`, Zulip's `#narrow/...`), and
on GitHub the comment and line anchors, which the API answers for (`github_target`).
"""

from __future__ import annotations

import codecs
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum
from html.parser import HTMLParser
from urllib.parse import unquote, urlsplit

__all__ = [
    "FRAGMENT_BODY_LIMIT",
    "FragmentKind",
    "GithubTarget",
    "PageSearch",
    "Place",
    "Placed",
    "fragment_kind",
    "github_target",
    "page_has_fragment",
    "slug",
]

#: Bytes of a page read to look for a cited fragment; past it the fragment is unverifiable.
FRAGMENT_BODY_LIMIT = 2 * 1024 * 1024

#: GitHub's rendered Markdown puts this before every id it generates
_GH = "user-content-"
_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
_ROUTE_RE = re.compile(r"^(?:/|!|narrow/)")
_COMMENT_RE = re.compile(r"^issuecomment-([0-9]{1,20})$")
_REVIEW_RE = re.compile(r"^discussion_r([0-9]{1,20})$")
_LINES_RE = re.compile(r"^L([0-9]{1,9})(?:C[0-9]+)?(?:-L([0-9]{1,9})(?:C[0-9]+)?)?$")
_GITHUB_PAGE_RE = re.compile(
    r"^/(?P<repo>[^/]+/[^/]+)/(?P<what>issues|pull|blob)/(?P<rest>.+)$", re.IGNORECASE
)
#: what GitHub's slugger drops: anything that is not a letter, a digit, a mark, `-`, `_` or space
_SLUG_DROP_RE = re.compile(r"[^\w\- ]", re.UNICODE)


class FragmentKind(str, Enum):
    NONE = "none"  # nothing to check: no fragment, a text fragment, a client-side route
    HTML = "html"  # an element of the page
    GITHUB = "github"  # a comment or lines on GitHub, answered by its API


@dataclass(frozen=True, slots=True)
class GithubTarget:
    """What a GitHub fragment names: a comment of an issue/PR, or lines of a file at a ref."""

    repo: str
    #: "issue-comment", "review-comment" or "lines"
    kind: str
    #: the issue/PR number for comments; the `REF/PATH` for lines
    where: str
    comment: int | None = None
    first: int | None = None
    last: int | None = None


def _place(fragment: str) -> str:
    """The part of a fragment that names a place: a text directive (`:~:`) is not one."""
    return fragment.split(":~:", 1)[0]


def fragment_kind(url: str) -> FragmentKind:
    """How a cited URL's fragment is checked (see the module docstring)."""
    _, sep, fragment = url.partition("#")
    place = _place(fragment)
    if not sep or not place or _ROUTE_RE.match(place):
        return FragmentKind.NONE
    parts = urlsplit(url)
    if (parts.hostname or "").lower() in ("github.com", "www.github.com") and github_target(url):
        return FragmentKind.GITHUB
    return FragmentKind.HTML


def github_target(url: str) -> GithubTarget | None:
    """The comment or lines a github.com URL's fragment names, or None."""
    parts = urlsplit(url)
    m = _GITHUB_PAGE_RE.match(parts.path)
    place = _place(parts.fragment)
    if m is None or not place:
        return None
    repo, what, rest = m["repo"], m["what"].lower(), m["rest"].rstrip("/")
    if what in ("issues", "pull"):
        number = rest.split("/", 1)[0]
        if not number.isdigit():
            return None
        if c := _COMMENT_RE.match(place):
            return GithubTarget(repo, "issue-comment", number, comment=int(c[1]))
        if what == "pull" and (r := _REVIEW_RE.match(place)):
            return GithubTarget(repo, "review-comment", number, comment=int(r[1]))
        return None
    if lines := _LINES_RE.match(place):
        first = int(lines[1])
        return GithubTarget(repo, "lines", rest, first=first, last=int(lines[2] or first))
    return None


def slug(text: str) -> str:
    """A heading's id as GitHub's Markdown gives it: lower case, punctuation dropped, each
    space a hyphen (letters of any script kept)."""
    return _SLUG_DROP_RE.sub("", unicodedata.normalize("NFC", text).strip().lower()).replace(
        " ", "-"
    )


class Place(str, Enum):
    """What a page (or GitHub) says of one cited fragment."""

    FOUND = "found"
    MISSING = "missing"
    #: the page could not be read far enough: past the bound, the deadline, a broken body
    UNVERIFIABLE = "unverifiable"
    #: not asked this run (GitHub's rate limit was spent): no verdict; its entry is not checked
    UNASKED = "unasked"


@dataclass(frozen=True, slots=True)
class Placed:
    """One fragment's verdict, and in words why when it is not found."""

    place: Place
    why: str = ""


class _Finder(HTMLParser):
    """Stops looking once every fragment is seen; keeps only heading text in memory."""

    def __init__(self, fragments: Iterable[str]) -> None:
        super().__init__(convert_charrefs=True)
        #: each spelling a fragment may take in the page -> the fragments it stands for
        self.forms: dict[str, set[str]] = {}
        self.wanted: set[str] = set()
        for f in fragments:
            place = _place(f)
            self.wanted.add(f)
            for form in (place, unquote(place), unquote(place).lower()):
                self.forms.setdefault(form, set()).add(f)
        self.found: set[str] = set()
        self._heading: list[str] | None = None
        self._slugs: dict[str, int] = {}

    @property
    def done(self) -> bool:
        return self.found >= self.wanted

    def _see(self, name: str) -> None:
        hit = self.forms.get(name)
        if hit:
            self.found |= hit

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if value and (name == "id" or (name == "name" and tag == "a")):
                self._see(value)
                if value.startswith(_GH):
                    self._see(value.removeprefix(_GH))
        if tag in _HEADINGS:
            self._heading = []

    def handle_data(self, data: str) -> None:
        if self._heading is not None:
            self._heading.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag in _HEADINGS and self._heading is not None:
            base = slug("".join(self._heading))
            seen = self._slugs.get(base, 0)
            self._slugs[base] = seen + 1
            self._see(base if not seen else f"{base}-{seen}")
            self._heading = None


def page_has_fragment(chunks: Iterable[str], fragment: str) -> bool:
    """True when the page (decoded text, in pieces) has a place named `fragment`.

    The fragment is compared as written and percent-decoded (`#%E5%AE%89%E8%A3%85` is `#安装`),
    and case-insensitively against generated slugs, since writers type them by hand."""
    finder = _Finder([fragment])
    for chunk in chunks:
        finder.feed(chunk)
        if finder.done:
            return True
    finder.close()
    return finder.done


class PageSearch:
    """The cited fragments looked for in one page's body as it arrives (the link checker's
    page reader): fed bytes up to `limit`, it says when it has seen them all; what it has not
    seen is missing only if the whole page was read."""

    def __init__(
        self, fragments: Iterable[str], charset: str | None, limit: int = FRAGMENT_BODY_LIMIT
    ) -> None:
        self.limit = limit
        self._finder = _Finder(fragments)
        try:
            decoder = codecs.getincrementaldecoder(charset or "utf-8")
        except LookupError:
            decoder = codecs.getincrementaldecoder("utf-8")
        self._decode = decoder(errors="replace").decode
        #: why reading stopped before the end of the page ("bound", "timeout", "error")
        self.cut: str | None = None

    def feed(self, data: bytes) -> bool:
        """Read on; True once every fragment was seen (no need to read further)."""
        self._finder.feed(self._decode(data))
        return self._finder.done

    def end(self, cut: str | None) -> None:
        """Reading stopped: at the page's end (None), or cut short, and why."""
        self.cut = cut
        if cut is None:
            self._finder.feed(self._decode(b"", final=True))
            self._finder.close()

    def verdicts(self) -> dict[str, Placed]:
        out: dict[str, Placed] = {}
        for f in self._finder.wanted:
            if f in self._finder.found:
                out[f] = Placed(Place.FOUND)
            elif self.cut is None:
                out[f] = Placed(Place.MISSING, "the page has no element with this id or name")
            else:
                out[f] = Placed(Place.UNVERIFIABLE, _CUT.get(self.cut, self.cut))
        return out


_CUT = {
    "bound": f"not within the first {FRAGMENT_BODY_LIMIT // (1024 * 1024)} MiB of the page "
    "(the most read to look for a fragment)",
    "timeout": "the page did not arrive in full before the timeout",
    "error": "the page's body broke off",
}
