"""One online run's answers as they arrive: each is recorded, cached if good, counted, and
its cited places looked for; what the cache already holds is taken first (`Run.from_cache`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import partial
from typing import Protocol, TypeVar, assert_never
from urllib.parse import urlsplit

from ..findings import Outcome, Unchecked
from ..ids.github import repo_of_url
from ..ids.model import AnchorKey, ArxivId, Doi, GithubRef, WebUrl
from ..net.cache import Cache
from ..net.fragments import Place
from ..net.links import LinkChecker, LinkResult
from ..registry.model import Anchor
from ..resolve.base import Resolution, Resolver
from ..resolve.github_places import GithubPlaces
from ..result import CheckResult
from .cited import CitedPlaces
from .observe import of_link, of_lookup
from .recorder import Recorder

__all__ = ["Pending", "Progress", "Run", "cached_link", "fetch_url", "github_places", "is_repo"]

K = TypeVar("K")
#: how each service is named to the user
SERVICE = {"arxiv": "arXiv", "github": "GitHub", "doi": "DOI"}


class Progress(Protocol):
    """Told after each answer: how many of how many, how many failed, and the host just done."""

    def __call__(self, done: int, total: int, failed: int, current: str, /) -> None: ...


@dataclass(slots=True)
class Pending:
    """The anchors the cache did not answer, by the service that answers each."""

    arxiv: list[ArxivId] = field(default_factory=list)
    github: list[GithubRef | WebUrl] = field(default_factory=list)
    doi: list[Doi] = field(default_factory=list)
    links: list[WebUrl] = field(default_factory=list)

    def add(self, key: AnchorKey) -> None:
        match key:
            case ArxivId():
                self.arxiv.append(key)
            case Doi():
                self.doi.append(key)
            case GithubRef():
                self.github.append(key)
            case WebUrl():
                (self.github if is_repo(key) else self.links).append(key)
            case _:
                assert_never(key)


def is_repo(key: WebUrl) -> bool:
    """A GitHub repository's page is looked up through the API, not fetched."""
    return repo_of_url(key.url) is not None


@dataclass(slots=True)
class Run:
    """One online run's answers as they arrive: each is recorded, cached if good, and counted."""

    targets: dict[str, Anchor]
    cache: Cache
    recorder: Recorder
    progress: Progress | None
    result: CheckResult
    places: CitedPlaces
    resolutions: dict[str, Resolution] = field(default_factory=dict)
    links: dict[str, LinkResult] = field(default_factory=dict)
    done: int = 0
    failed: int = 0
    #: the URL requested (as the registry cites it) -> the anchor's key
    key_of: dict[str, str] = field(default_factory=dict)
    #: per service, how many anchors a spent rate limit left unasked, and its words why
    not_asked: dict[str, tuple[int, str]] = field(default_factory=dict)

    def unasked(self, anchor: Anchor, what: str, why: str) -> None:
        """Entry `anchor` is not checked this run: a spent rate limit left it, or a place it cites,
        unasked (never OK, never failing); counted once per entry."""
        at = (anchor.file or self.recorder.registry, anchor.line)
        if self.result.unchecked.get(at) is Unchecked.RATE_LIMIT:
            return
        self.result.unchecked[at] = Unchecked.RATE_LIMIT
        self.not_asked[what] = (self.not_asked.get(what, (0, ""))[0] + 1, why)

    def tick(self, n: int = 1, bad: int = 0, current: str = "") -> None:
        self.done, self.failed = self.done + n, self.failed + bad
        if self.progress:
            self.progress(self.done, len(self.targets), self.failed, current)

    def from_cache(self) -> Pending:
        """Take what the cache still holds; the rest, by the service that answers it."""
        pending = Pending()
        for key, anchor in self.targets.items():
            assert anchor.key is not None
            target = anchor.key
            link = target if isinstance(target, WebUrl) and not is_repo(target) else None
            hit: LinkResult | Resolution | None = (
                self.cache.get(key, partial(cached_link, link))
                if link is not None
                else self.cache.get(key, partial(Resolution.from_cache, target.kind))
            )
            if not self.places.cached(key, self.cache):
                hit = None  # a page whose cited places are not all known is read again
            if hit is None:
                pending.add(target)
                continue
            self.result.cached += 1
            self.tick()
            if isinstance(hit, LinkResult):
                self.links[key] = hit
            else:
                self.resolutions[key] = hit
        return pending

    async def resolve(self, what: str, keys: list[K], resolver: Resolver[K] | None) -> None:
        if not keys or resolver is None:
            return
        got = await resolver.resolve(keys)
        for key, res in got.items():
            if not res.asked:  # over a rate limit: not checked, nothing learnt or recorded
                self.unasked(self.targets[key], what, res.error or "")
                continue
            self.resolutions[key] = res
            self.recorder.add(key, of_lookup(self.targets[key], res))
            if res.outcome is Outcome.OK:
                self.cache.put(key, res.to_cache())
        self.tick(len(got), sum(r.outcome.failed for r in got.values()), f"{what} API")

    async def check_links(
        self, keys: list[WebUrl], checker: LinkChecker | None, accept: frozenset[int]
    ) -> None:
        # The URL fetched is the one the registry cites; the canonical form is only the key of
        # the cache and the history (so entries written canonically before keep theirs).
        if not keys or checker is None:
            return
        self.key_of = {fetch_url(self.targets[k.key], k): k.key for k in keys}
        urls = [(url, accept | self.targets[key].accept) for url, key in self.key_of.items()]
        readers = {u: r for u, key in self.key_of.items() if (r := self.places.reader(key))}
        if readers:
            await checker.check_many(urls, self.on_link, readers)
        else:  # no page to read: the call as it always was
            await checker.check_many(urls, self.on_link)

    def on_link(self, link: LinkResult) -> None:
        key = self.key_of.get(link.url) or WebUrl(link.url).key
        self.links[key] = link
        self.places.read(key, link, self.cache)
        anchor = self.targets[key]
        assert isinstance(anchor.key, WebUrl)
        self.recorder.add(key, of_link(anchor, anchor.key, link), link.silence)
        if not link.outcome.failed:
            self.cache.put(
                key,
                {"outcome": link.outcome.value, "status": link.status, "final_url": link.final_url},
            )
        self.tick(1, link.outcome.failed, urlsplit(link.url).hostname or link.url)


def fetch_url(anchor: Anchor, key: WebUrl) -> str:
    """The URL to request for a link anchor: as written in the registry, if it is a URL."""
    return anchor.written_url or key.url


def cached_link(key: WebUrl, hit: Mapping[str, object]) -> LinkResult:
    """A link's cache entry read back (raising on a damaged one: a cache miss)."""
    status, final = hit.get("status"), hit.get("final_url")
    return LinkResult(
        key.url,
        Outcome(hit["outcome"]),
        status if isinstance(status, int) else None,
        final if isinstance(final, str) else None,
    )


async def github_places(run: Run, places: GithubPlaces | None) -> None:
    """The cited GitHub comments and lines of anchors that checked out, asked after the
    anchors themselves (serially, as every GitHub request)."""
    answered: list[tuple[str, LinkResult | Resolution]] = [
        *run.links.items(),
        *run.resolutions.items(),
    ]
    asks = run.places.open_github({k for k, r in answered if not r.outcome.failed})
    if not asks or places is None:
        return
    got = await places.check(cited.github for cited in asks if cited.github is not None)
    for cited in asks:
        verdict = got.get(cited.github) if cited.github else None
        if verdict is not None and verdict.place is Place.UNASKED:
            run.unasked(cited.at, "github", verdict.why)
        else:
            run.places.judged(cited, verdict, run.cache)
