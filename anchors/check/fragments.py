"""Cited `#fragments`: which ones name a place in the page, and whether the page has it.

A fragment is checked only where it names an element of the HTML page: an `id`, an `<a name>`,
GitHub's `user-content-` ids (its rendered Markdown prefixes every heading id, on any page), or
a heading whose generated slug it is (for pages that add ids with script). Some fragments are
not places in the HTML at all, and say nothing about the page: text fragments (`#:~:text=`,
which browsers consume), client-side routes (`#/settings`, `#!/x`, Zulip's `#narrow/...`), and
on GitHub the comment and line anchors, which the API answers for (`github_target`).
"""

from __future__ import annotations

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


class _Finder(HTMLParser):
    """Stops looking as soon as the fragment is seen; keeps only heading text in memory."""

    def __init__(self, wanted: frozenset[str]) -> None:
        super().__init__(convert_charrefs=True)
        self.wanted = wanted
        self.found = False
        self._heading: list[str] | None = None
        self._slugs: dict[str, int] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            names_place = name == "id" or (name == "name" and tag == "a")
            if value and names_place:
                self.found |= not self.wanted.isdisjoint({value, value.removeprefix(_GH)})
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
            if (base if not seen else f"{base}-{seen}") in self.wanted:
                self.found = True
            self._heading = None


def page_has_fragment(chunks: Iterable[str], fragment: str) -> bool:
    """True when the page (decoded text, in pieces) has a place named `fragment`.

    The fragment is compared as written and percent-decoded (`#%E5%AE%89%E8%A3%85` is `#安装`),
    and case-insensitively against generated slugs, since writers type them by hand."""
    place = _place(fragment)
    wanted = frozenset({place, unquote(place), unquote(place).lower()})
    finder = _Finder(wanted)
    for chunk in chunks:
        finder.feed(chunk)
        if finder.found:
            return True
    finder.close()
    return finder.found
