"""The check orchestrator: registry in, findings out. It prints nothing and never writes the
registry.

Offline checks come from `validate`. Online, every valid anchor is looked at once: arXiv IDs,
GitHub issues/PRs and DOIs through their APIs (their web pages are not fetched again), every
other URL through the link checker, all concurrently. Results are compared with the registry,
recorded in the history as they arrive, and successes cached; an interrupted run keeps both. A
failure without an answer counts only where the network spoke in the same run (`recorder`).
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date
from functools import partial
from typing import Protocol, TypeVar, assert_never
from urllib.parse import urlsplit

from ..errors import NetworkDown
from ..extract.claims import Claims
from ..findings import Outcome, Unchecked
from ..history import History
from ..ids.github import repo_of_url
from ..ids.model import AnchorKey, ArxivId, Doi, GithubRef, WebUrl, is_future
from ..registry.model import Anchor, Registry
from ..registry.validate import check_offline
from ..result import CheckResult, only
from .archive import Archiver
from .cache import Cache
from .followup import follow_up
from .links import LinkChecker, LinkResult
from .observe import of_link, of_lookup
from .recorder import Recorder, unproven
from .resolve.base import ArxivLookup, FollowUp, Resolution, Resolver
from .resolve.savepagenow import SavePageNow
from .resolve.wayback import WaybackClient
from .verdicts import compare

__all__ = ["CheckResult", "Progress", "Services", "check_offline", "check_online", "only"]

K = TypeVar("K")
#: how each service is named to the user
_SERVICE = {"arxiv": "arXiv", "github": "GitHub", "doi": "DOI"}


class Progress(Protocol):
    """Told after each answer: how many of how many, how many failed, and the host just done."""

    def __call__(self, done: int, total: int, failed: int, current: str, /) -> None: ...


@dataclass(slots=True)
class Services:
    """The network clients a check uses; tests and benchmarks inject their own."""

    links: LinkChecker | None = None
    arxiv: ArxivLookup | None = None
    github: Resolver[GithubRef | WebUrl] | None = None
    doi: Resolver[Doi] | None = None
    #: set for `check --archive`: Wayback snapshots are looked up beside the check
    wayback: WaybackClient | None = None
    #: set for `check --archive-save`: captures asked for where the archive has none
    saver: SavePageNow | None = None


def _targets(
    reg: Registry,
    today: date,
    keys: set[str] | None,
    exclude: list[re.Pattern[str]],
    result: CheckResult,
    extra: Iterable[Anchor] = (),
) -> dict[str, Anchor]:
    """First entry per canonical key among the anchors to check online (future IDs are not),
    then the `extra` ones (a living document's citations the registry lacks) not among them.

    Counts the entries left out on purpose in `result.skipped` and `result.excluded`, and says
    why in `result.unchecked` (an `extra` anchor is never skipped: a narrowed run has none).
    """
    out: dict[str, Anchor] = {}
    for a in (*reg.anchors, *extra):
        if a.key is None or a.key.key in out:
            continue
        if a.skip or (keys is not None and a.key.key not in keys):
            result.skipped += 1
            why = Unchecked.SKIPPED if a.skip else Unchecked.UNCHANGED
            result.unchecked[reg.path, a.line] = why
            continue
        if isinstance(a.key, ArxivId) and is_future(a.key, today):
            continue
        if isinstance(a.key, WebUrl) and any(p.search(a.key.url) for p in exclude):
            if a.file is None:  # the counts are of the registry's entries
                result.excluded += 1
                result.unchecked[reg.path, a.line] = Unchecked.EXCLUDED
            continue
        out[a.key.key] = a
    return out


@dataclass(slots=True)
class _Pending:
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
                (self.github if _is_repo(key) else self.links).append(key)
            case _:
                assert_never(key)


def _is_repo(key: WebUrl) -> bool:
    """A GitHub repository's page is looked up through the API, not fetched."""
    return repo_of_url(key.url) is not None


@dataclass(slots=True)
class _Run:
    """One online run's answers as they arrive: each is recorded, cached if good, and counted."""

    targets: dict[str, Anchor]
    cache: Cache
    recorder: Recorder
    progress: Progress | None
    result: CheckResult
    resolutions: dict[str, Resolution] = field(default_factory=dict)
    links: dict[str, LinkResult] = field(default_factory=dict)
    done: int = 0
    failed: int = 0
    #: the URL requested (as the registry cites it) -> the anchor's key
    key_of: dict[str, str] = field(default_factory=dict)
    #: per service, how many anchors a spent rate limit left unasked, and its words why
    not_asked: dict[str, tuple[int, str]] = field(default_factory=dict)

    def tick(self, n: int = 1, bad: int = 0, current: str = "") -> None:
        self.done, self.failed = self.done + n, self.failed + bad
        if self.progress:
            self.progress(self.done, len(self.targets), self.failed, current)

    def from_cache(self) -> _Pending:
        """Take what the cache still holds; the rest, by the service that answers it."""
        pending = _Pending()
        for key, a in self.targets.items():
            assert a.key is not None
            k = a.key
            link = k if isinstance(k, WebUrl) and not _is_repo(k) else None
            hit: LinkResult | Resolution | None = (
                self.cache.get(key, partial(_cached_link, link))
                if link is not None
                else self.cache.get(key, partial(Resolution.from_cache, k.kind))
            )
            if hit is None:
                pending.add(k)
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
                self.result.unchecked[self.recorder.registry, self.targets[key].line] = (
                    Unchecked.RATE_LIMIT
                )
                self.not_asked[what] = (self.not_asked.get(what, (0, ""))[0] + 1, res.error or "")
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
        await checker.check_many(urls, self.on_link)

    def on_link(self, r: LinkResult) -> None:
        key = self.key_of.get(r.url) or WebUrl(r.url).key
        self.links[key] = r
        a = self.targets[key]
        assert isinstance(a.key, WebUrl)
        self.recorder.add(key, of_link(a, a.key, r), r.silence)
        if not r.outcome.failed:
            self.cache.put(
                key, {"outcome": r.outcome.value, "status": r.status, "final_url": r.final_url}
            )
        self.tick(1, r.outcome.failed, urlsplit(r.url).hostname or r.url)


async def check_online(
    reg: Registry,
    today: date,
    services: Services,
    *,
    cache: Cache | None = None,
    history: History | None = None,
    only_keys: set[str] | None = None,
    exclude: Iterable[str] = (),
    accept: frozenset[int] = frozenset(),
    progress: Progress | None = None,
    claims: Mapping[str, Claims] | None = None,
    extra: Iterable[Anchor] = (),
) -> CheckResult:
    """Check every target online; `claims` (by anchor key) adds a briefing's claims; `extra`
    are anchors written elsewhere (a living document's), checked once each with the registry's.

    `progress(done, total, failed, current)` follows along. Whatever happens, what was learnt
    is recorded, cached and judged before this returns or raises.
    """
    start = time.monotonic()
    result = check_offline(reg, today)
    result.online = True
    cache = cache or Cache(None)
    patterns = [re.compile(p) for p in exclude]
    targets = _targets(reg, today, only_keys, patterns, result, extra)
    run = _Run(targets, cache, Recorder(history, reg.path, services.links), progress, result)
    pending = run.from_cache()
    complete = network_down = False
    archiving = (
        Archiver.start(services.wayback, targets, cache, reg.path, today, services.saver)
        if services.wayback
        else None
    )
    follow: dict[str, FollowUp] = {}
    try:
        await asyncio.gather(
            run.resolve("arxiv", pending.arxiv, services.arxiv),
            run.resolve("github", pending.github, services.github),
            run.resolve("doi", pending.doi, services.doi),
            run.check_links(pending.links, services.links, accept),
        )
        if archiving is not None:  # captures are asked for only of pages that answered
            answered: list[tuple[str, LinkResult | Resolution]] = [
                *run.links.items(),
                *run.resolutions.items(),
            ]
            archiving.checked(
                k
                for k, r in answered
                if isinstance(targets[k].key, WebUrl) and not r.outcome.failed
            )
        follow = await follow_up(targets, run.resolutions, services.arxiv, claims or {}, cache)
        complete = True
    except NetworkDown as exc:
        network_down = True
        raise NetworkDown(f"{exc} Nothing from this run is recorded.") from None
    finally:
        for key, why in run.recorder.finish(complete, network_down=network_down).items():
            if key in run.links:  # not dead on the network's silence alone
                run.links[key] = unproven(run.links[key], why)
        try:  # whatever the archive did, what the check learnt is saved and judged
            if archiving is not None:
                result.findings += await archiving.finish(stop_now=not complete)
        finally:
            cache.save()
            result.checked = len(run.resolutions) + len(run.links) - result.cached
            result.notes += [
                f"{why}: {n} {_SERVICE[what]} anchor{'s' if n != 1 else ''} not checked this run "
                "(those checked longest ago went first)"
                for what, (n, why) in run.not_asked.items()
            ]
            result.elapsed = time.monotonic() - start
            result.findings += compare(
                reg, targets, run.resolutions, run.links, claims or {}, follow
            )
    return result


def fetch_url(a: Anchor, key: WebUrl) -> str:
    """The URL to request for a link anchor: as written in the registry, if it is a URL."""
    return a.written_url or key.url


def _cached_link(key: WebUrl, hit: Mapping[str, object]) -> LinkResult:
    """A link's cache entry read back (raising on a damaged one: a cache miss)."""
    status, final = hit.get("status"), hit.get("final_url")
    return LinkResult(
        key.url,
        Outcome(hit["outcome"]),
        status if isinstance(status, int) else None,
        final if isinstance(final, str) else None,
    )
