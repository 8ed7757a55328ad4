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
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum
from urllib.parse import urlsplit

from ..defaults import MAX_PAGE_BYTES
from .charsets import text_decoder
from .htmlplaces import (
    MAX_DEPTH,
    MAX_HEADING_TEXT,
    MAX_HEADINGS,
    PlaceFinder,
    place_of,
    slug,
)

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
FRAGMENT_BODY_LIMIT = MAX_PAGE_BYTES

_ROUTE_RE = re.compile(r"^(?:/|!|narrow/)")
_COMMENT_RE = re.compile(r"^issuecomment-([0-9]{1,20})$")
_REVIEW_RE = re.compile(r"^discussion_r([0-9]{1,20})$")
_LINES_RE = re.compile(r"^L([0-9]{1,9})(?:C[0-9]+)?(?:-L([0-9]{1,9})(?:C[0-9]+)?)?$")
_GITHUB_PAGE_RE = re.compile(
    r"^/(?P<repo>[^/]+/[^/]+)/(?P<what>issues|pull|blob)/(?P<rest>.+)$", re.IGNORECASE
)


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


def fragment_kind(url: str) -> FragmentKind:
    """How a cited URL's fragment is checked (see the module docstring)."""
    _, sep, fragment = url.partition("#")
    place = place_of(fragment)
    if not sep or not place or _ROUTE_RE.match(place):
        return FragmentKind.NONE
    parts = urlsplit(url)
    if (parts.hostname or "").lower() in ("github.com", "www.github.com") and github_target(url):
        return FragmentKind.GITHUB
    return FragmentKind.HTML


def github_target(url: str) -> GithubTarget | None:
    """The comment or lines a github.com URL's fragment names, or None."""
    parts = urlsplit(url)
    page = _GITHUB_PAGE_RE.match(parts.path)
    place = place_of(parts.fragment)
    if page is None or not place:
        return None
    repo, what, rest = page["repo"], page["what"].lower(), page["rest"].rstrip("/")
    if what in ("issues", "pull"):
        number = rest.split("/", 1)[0]
        if not number.isdigit():
            return None
        if comment := _COMMENT_RE.match(place):
            return GithubTarget(repo, "issue-comment", number, comment=int(comment[1]))
        if what == "pull" and (review := _REVIEW_RE.match(place)):
            return GithubTarget(repo, "review-comment", number, comment=int(review[1]))
        return None
    if lines := _LINES_RE.match(place):
        first = int(lines[1])
        return GithubTarget(repo, "lines", rest, first=first, last=int(lines[2] or first))
    return None


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


def page_has_fragment(chunks: Iterable[str], fragment: str) -> bool:
    """True when the page (decoded text, in pieces) has a place named `fragment`.

    The fragment is compared as written and percent-decoded (`#%E5%AE%89%E8%A3%85` is `#安装`),
    and case-insensitively against generated slugs, since writers type them by hand."""
    finder = PlaceFinder([fragment])
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
        self._finder = PlaceFinder(fragments)
        self._decode = text_decoder(charset)
        #: why reading stopped before the end of the page ("bound", "timeout", "error",
        #: "charset", "encoding"), or why it missed part of it ("depth", "heading")
        self.cut: str | None = None

    def feed(self, data: bytes) -> bool:
        """Read on; True once every fragment was seen, or the page cannot be read further."""
        try:
            text = self._decode(data)
        except ValueError:  # a charset that cannot decode this page (UTF-16 with no BOM)
            self.cut = "charset"
            return True
        self._finder.feed(text)
        return self._finder.done

    def end(self, cut: str | None) -> None:
        """Reading stopped: at the page's end (None), or cut short, and why."""
        self.cut = self.cut or cut
        if self.cut is None:
            try:
                self._finder.feed(self._decode(b"", final=True))
            except ValueError:
                self.cut = "charset"
            self._finder.close()
        if self.cut is None and self._finder.too_deep:
            self.cut = "depth"
        if self.cut is None and self._finder.too_long:
            self.cut = "heading"

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
    "charset": "the page's declared charset does not decode it",
    "encoding": "the page's Content-Encoding is not one anchors reads (gzip, deflate)",
    "depth": f"the page nests elements deeper than {MAX_DEPTH} (or headings in headings "
    f"deeper than {MAX_HEADINGS}), past what is read",
    "heading": f"a heading of the page is longer than {MAX_HEADING_TEXT} characters, past what "
    "is read",
}
