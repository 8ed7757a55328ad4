"""Cited `#fragments`: which places the registry's citations name, and what their verdicts mean.

A fragment travels on the citation, not on the anchor's key: entries (or a living document's
citations) that cite one page with different fragments are one anchor, checked once, with a
place to look for per fragment. Which fragments are places at all is `fragments.fragment_kind`.
A page's places are looked for in its HTML, read by the link checker (only pages cited with a
fragment are read, and at most `FRAGMENT_BODY_LIMIT`); GitHub's comments and lines are asked of
its API (`resolve.github_places`). Fragments of other github.com pages are not checked: GitHub
builds them with script, so their HTML has no such ids, and so are not those of pages a service
answers for without fetching them (arXiv, DOIs, repositories).

A place not found is `missing-fragment`, a warning: the link itself is fine. One that could not
be looked for (past the bound, the deadline) is `unverifiable`, never missing. Found places are
cached like any success; a missing one is looked for again next run.
"""

from __future__ import annotations

from collections.abc import Container, Iterable, Mapping
from dataclasses import dataclass, field
from urllib.parse import urlsplit

import httpx

from ..details import Fragment
from ..findings import Code, Finding
from ..net.cache import Cache
from ..net.charsets import charset_of
from ..net.fragments import (
    FragmentKind,
    GithubTarget,
    PageSearch,
    Place,
    Placed,
    fragment_kind,
    github_target,
)
from ..net.links import LinkResult, ReaderFor
from ..registry.model import Anchor

__all__ = ["Cited", "CitedPlaces", "cited_places"]

_HTML_TYPES = ("text/html", "application/xhtml+xml")
_GITHUB_HOSTS = ("github.com", "www.github.com")


@dataclass(frozen=True, slots=True)
class Cited:
    """One fragment a citation names, and the entry that cites it (where its finding points)."""

    #: the anchor's key: one place per key and fragment
    key: str
    fragment: str
    at: Anchor = field(compare=False)
    #: the comment or lines it names on GitHub; None for a place in a page's HTML
    github: GithubTarget | None = field(default=None, compare=False)

    @property
    def cache_key(self) -> str:
        return f"{self.key}#place={self.fragment}"


@dataclass(slots=True)
class CitedPlaces:
    """The run's cited places by anchor key, and the verdicts as they come."""

    html: dict[str, list[Cited]] = field(default_factory=dict)
    github: dict[str, list[Cited]] = field(default_factory=dict)
    verdicts: dict[Cited, Placed] = field(default_factory=dict)

    def cached(self, key: str, cache: Cache) -> bool:
        """Take the cached verdicts of `key`'s places; True when all the places in its page
        were cached (else the page must be read again)."""
        for cited in (*self.html.get(key, ()), *self.github.get(key, ())):
            if cache.get(cited.cache_key) is not None:
                self.verdicts[cited] = Placed(Place.FOUND)
        return all(cited in self.verdicts for cited in self.html.get(key, ()))

    def reader(self, key: str) -> ReaderFor | None:
        """What reads the page of link `key` for its cited places, if any are still open."""
        wanted = [c.fragment for c in self.html.get(key, ()) if c not in self.verdicts]
        if not wanted:
            return None

        def read(resp: httpx.Response) -> PageSearch | None:
            content_type = resp.headers.get("content-type", "text/html")
            kind = content_type.partition(";")[0].strip().lower()
            return PageSearch(wanted, charset_of(content_type)) if kind in _HTML_TYPES else None

        return read

    def read(self, key: str, link: LinkResult, cache: Cache) -> None:
        """The verdicts the page of link `key` gave (when it was read: a failed link has none)."""
        if link.outcome.failed or not isinstance(link.page, PageSearch):
            return
        found = link.page.verdicts()
        for cited in self.html.get(key, ()):
            if cited.fragment in found:
                self.judged(cited, found[cited.fragment], cache)

    def open_github(self, done: Container[str]) -> list[Cited]:
        """The GitHub places still to ask for, of anchors whose own check went well (`done`)."""
        return [
            c
            for key, cs in self.github.items()
            if key in done
            for c in cs
            if c not in self.verdicts
        ]

    def judged(self, cited: Cited, verdict: Placed | None, cache: Cache) -> None:
        if verdict is None:
            return
        self.verdicts[cited] = verdict
        if verdict.place is Place.FOUND:
            cache.put(cited.cache_key, {"found": True})

    def findings(self, path: str) -> list[Finding]:
        """`missing-fragment` and `unverifiable` for the places not found."""
        out = []
        for cited, verdict in self.verdicts.items():
            if verdict.place is Place.FOUND:
                continue
            missing = verdict.place is Place.MISSING
            code = Code.MISSING_FRAGMENT if missing else Code.UNVERIFIABLE
            tail = "the link itself is fine" if missing else "not a dead link, open it by hand"
            out.append(
                Finding(
                    code,
                    cited.at.label,
                    cited.at.file or path,
                    cited.at.line,
                    f"#{cited.fragment}: {verdict.why}; {tail}",
                    Fragment(cited.fragment),
                )
            )
        return out


def cited_places(
    anchors: Iterable[Anchor], targets: Mapping[str, Anchor], links: Container[str]
) -> CitedPlaces:
    """The places cited by `anchors` of the run's `targets` (by key); an HTML place only for
    pages the link checker fetches (`links`), off github.com."""
    out = CitedPlaces()
    seen: set[tuple[str, str]] = set()
    for anchor in anchors:
        url = anchor.written_url
        if anchor.key is None or anchor.key.key not in targets or url is None:
            continue
        kind = fragment_kind(url)
        fragment = url.partition("#")[2]
        key = anchor.key.key
        if kind is FragmentKind.NONE or (key, fragment) in seen:
            continue
        seen.add((key, fragment))
        if kind is FragmentKind.GITHUB:
            out.github.setdefault(key, []).append(Cited(key, fragment, anchor, github_target(url)))
        elif key in links and (urlsplit(url).hostname or "").lower() not in _GITHUB_HOSTS:
            out.html.setdefault(key, []).append(Cited(key, fragment, anchor))
    return out
