"""The check orchestrator: registry in, findings out. It prints nothing and never writes the registry.

Offline checks come from `validate`. Online, every valid anchor is looked at once: arXiv IDs,
GitHub issues/PRs and DOIs through their APIs (their web pages are not fetched again), every
other URL through the link checker, all concurrently. Results are compared with the registry,
recorded in the history as they arrive, and successes cached; an interrupted run keeps both.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import partial
from datetime import date
from typing import Any, Protocol
from urllib.parse import urlsplit

from . import truth
from .archive import Archiver
from .cache import Cache
from ..extract.claims import Claims
from .facts import of_resolution
from ..findings import Code, Finding
from ..history import History, Row
from ..ids.model import ArxivId, WebUrl, is_future
from .links import LinkChecker, LinkResult, Outcome
from ..registry.model import Anchor, Registry
from .resolve.base import Resolution, Resolver
from .resolve.github import repo_of_url
from .resolve.wayback import WaybackClient
from .truth import FollowUp
from ..registry.validate import CheckResult, check_offline, only

__all__ = ["CheckResult", "Progress", "Services", "check_offline", "check_online", "only"]

_OUTCOME_CODE = {
    Outcome.DEAD: Code.DEAD_LINK,
    Outcome.UNREACHABLE: Code.UNREACHABLE,
    Outcome.UNVERIFIABLE: Code.UNVERIFIABLE,
    Outcome.RATE_LIMITED: Code.RATE_LIMITED,
    Outcome.TLS_ERROR: Code.TLS_ERROR,
    Outcome.BLOCKED: Code.BLOCKED_URL,
    Outcome.REDIRECT: Code.REDIRECT,
}


class Progress(Protocol):
    """Told after each answer: how many of how many, how many failed, and the host just done."""

    def __call__(self, done: int, total: int, failed: int, current: str, /) -> None: ...


#: History flushes after this many rows, so an interrupted run loses at most these.
_FLUSH_EVERY = 50


@dataclass(slots=True)
class Services:
    """The network clients a check uses; tests and benchmarks inject their own."""

    links: LinkChecker | None = None
    arxiv: Resolver | None = None
    github: Resolver | None = None
    doi: Resolver | None = None
    #: set for `check --archive`: Wayback snapshots are looked up beside the check
    wayback: WaybackClient | None = None


class _Recorder:
    """Buffers history rows and flushes them in small transactions."""

    def __init__(self, history: History | None, registry: str) -> None:
        self.history = history
        self.run_id = history.start_run(registry) if history else 0
        self.rows: list[Row] = []

    def add(self, row: Row) -> None:
        if self.history is None:
            return
        self.rows.append(row)
        if len(self.rows) >= _FLUSH_EVERY:
            self.flush()

    def flush(self) -> None:
        if self.history is not None and self.rows:
            self.history.record(self.run_id, self.rows)
            self.rows = []

    def finish(self, complete: bool) -> None:
        if self.history is not None:
            self.flush()
            self.history.finish_run(self.run_id, complete)


def _targets(reg: Registry, today: date, keys: set[str] | None,
             exclude: list[re.Pattern[str]], result: CheckResult) -> dict[str, Anchor]:
    """First entry per canonical key among the anchors to check online (future IDs are not).

    Counts what is left out on purpose in `result.skipped` and `result.excluded`.
    """
    out: dict[str, Anchor] = {}
    for a in reg.anchors:
        if a.key is None or a.key.key in out:
            continue
        if a.skip or (keys is not None and a.key.key not in keys):
            result.skipped += 1
            continue
        if isinstance(a.key, ArxivId) and is_future(a.key, today):
            continue
        if isinstance(a.key, WebUrl) and any(p.search(a.key.url) for p in exclude):
            result.excluded += 1
            continue
        out[a.key.key] = a
    return out


async def check_online(reg: Registry, today: date, services: Services, *,
                       cache: Cache | None = None, history: History | None = None,
                       only_keys: set[str] | None = None, exclude: Iterable[str] = (),
                       accept: frozenset[int] = frozenset(),
                       progress: Progress | None = None,
                       claims: Mapping[str, Claims] | None = None) -> CheckResult:
    """Check every target online; `claims` (by anchor key) adds a briefing's claims.

    `progress(done, total, failed, current)` follows along.
    """
    start = time.monotonic()
    result = check_offline(reg, today)
    result.online = True
    cache = cache or Cache(None)
    targets = _targets(reg, today, only_keys, [re.compile(p) for p in exclude], result)
    recorder = _Recorder(history, reg.path)
    total, done, failed = len(targets), 0, 0
    resolutions: dict[str, Resolution] = {}
    link_results: dict[str, LinkResult] = {}

    def tick(n: int = 1, bad: int = 0, current: str = "") -> None:
        nonlocal done, failed
        done, failed = done + n, failed + bad
        if progress:
            progress(done, total, failed, current)

    pending: dict[str, list[Any]] = {"arxiv": [], "github": [], "doi": [], "url": []}
    for key, a in targets.items():
        kind = _kind(a)
        hit = cache.get(key, _cached(key, a, kind))
        if hit is not None:
            result.cached += 1
            tick()
            if isinstance(hit, LinkResult):
                link_results[key] = hit
            else:
                resolutions[key] = hit
            continue
        pending[kind].append(a.key)

    async def run_resolver(kind: str, resolver: Resolver | None) -> None:
        keys = pending[kind]
        if not keys or resolver is None:
            return
        got = await resolver.resolve(keys)
        for key, res in got.items():
            resolutions[key] = res
            target, row_kind, outcome = key, kind, res.outcome.value
            page = targets[key].key
            if isinstance(page, WebUrl):  # a repository page, asked of the API, is recorded
                target, row_kind = page.url, "url"  # as the link it is, a rename as a redirect
                if res.outcome is Outcome.OK and res.moved_to:
                    outcome = Outcome.REDIRECT.value
            recorder.add(Row(target, targets[key].label, row_kind, outcome, res.status,
                             res.moved_to, res.error, facts=of_resolution(res)))
            if res.outcome is Outcome.OK:
                cache.put(key, res.to_cache())
        tick(len(got), sum(r.outcome.failed for r in got.values()), f"{kind} API")

    # The URL fetched is the one the registry cites; the canonical form is only the key of the
    # cache and the history (so entries written canonically by earlier versions keep theirs).
    fetch = {k.key: fetch_url(targets[k.key]) for k in pending["url"]}
    key_of = {url: key for key, url in fetch.items()}

    def on_link(r: LinkResult) -> None:
        key = key_of.get(r.url) or WebUrl(r.url).key
        link_results[key] = r
        recorder.add(Row(key.split(":", 1)[1], targets[key].label, "url", r.outcome.value,
                         r.status, r.final_url, r.error, r.elapsed_ms))
        if not r.outcome.failed:
            cache.put(key, {"outcome": r.outcome.value, "status": r.status,
                            "final_url": r.final_url})
        tick(1, r.outcome.failed, urlsplit(r.url).hostname or r.url)

    async def run_links() -> None:
        if not pending["url"] or services.links is None:
            return
        urls = [(fetch[k.key], accept | targets[k.key].accept) for k in pending["url"]]
        await services.links.check_many(urls, on_link)

    complete = False
    archiving = Archiver.start(services.wayback, targets, cache, reg.path, today) \
        if services.wayback else None
    follow: dict[str, FollowUp] = {}
    try:
        await asyncio.gather(run_resolver("arxiv", services.arxiv),
                             run_resolver("github", services.github),
                             run_resolver("doi", services.doi), run_links())
        follow = await _follow_up(targets, resolutions, services.arxiv, claims or {}, cache)
        complete = True
    finally:
        if archiving is not None:
            result.findings += await archiving.finish(stop_now=not complete)
        recorder.finish(complete)
        cache.save()
        result.checked = len(resolutions) + len(link_results) - result.cached
        result.elapsed = time.monotonic() - start
        result.findings += _compare(reg, targets, resolutions, link_results, claims or {},
                                    follow)
    return result


def fetch_url(a: Anchor) -> str:
    """The URL to request for a link anchor: as written in the registry, if it is a URL."""
    raw = a.raw_id.strip()
    return raw if a.id_field == "url" and raw.lower().startswith(("http://", "https://")) \
        else a.key.url  # type: ignore[union-attr]


def _cached(key: str, a: Anchor, kind: str) -> Callable[[dict[str, Any]], Resolution | LinkResult]:
    """How to read `key`'s cache entry back (raising on a damaged one: a cache miss)."""
    if kind != "url":
        return lambda hit: Resolution.from_cache(key, hit)
    return lambda hit: LinkResult(a.key.url, Outcome(hit["outcome"]),  # type: ignore[union-attr]
                                  hit.get("status"), hit.get("final_url"))


def _kind(a: Anchor) -> str:
    """Which service answers for an anchor: a GitHub repository's page is an API lookup."""
    assert a.key is not None
    if isinstance(a.key, WebUrl) and repo_of_url(a.key.url):
        return "github"
    return a.key.key.split(":", 1)[0]


async def _follow_up(targets: dict[str, Anchor], resolutions: dict[str, Resolution],
                     arxiv: Resolver | None, claims: Mapping[str, Claims],
                     cache: Cache) -> dict[str, FollowUp]:
    """Extra arXiv requests for title mismatches only (the cited version, a title search), cached."""
    ask = getattr(arxiv, "follow_up", None)
    out: dict[str, FollowUp] = {}
    wanted = {}
    for key, a in targets.items():
        r = resolutions.get(key)
        if not isinstance(a.key, ArxivId) or r is None or r.outcome is not Outcome.OK:
            continue
        title = truth.claims_of(a, claims.get(key)).title
        if title and truth.is_title_mismatch(title, r.title):
            done = cache.get(f"{key}#follow-up", partial(FollowUp.from_cache, written=title))
            if done is not None:
                out[key] = done
            else:
                wanted[key] = (a.key, title, r)
    if wanted and ask is not None:
        found: dict[str, FollowUp] = await ask(wanted)
        for key, f in found.items():
            out[key] = f
            if f.complete:
                cache.put(f"{key}#follow-up", f.to_cache(wanted[key][1]))
    return out


def _compare(reg: Registry, targets: dict[str, Anchor], resolutions: dict[str, Resolution],
             links: dict[str, LinkResult], claims: Mapping[str, Claims],
             follow: Mapping[str, FollowUp]) -> list[Finding]:
    out: list[Finding] = []
    for key, a in targets.items():
        if key in links:
            out += _link_findings(reg.path, a, links[key])
        elif key in resolutions:
            out += _resolution_findings(reg.path, a, resolutions[key], claims.get(key),
                                        follow.get(key))
    return out


def _f(code: Code, path: str, a: Anchor, message: str, **details: Any) -> Finding:
    return Finding(code, a.label, path, a.line, message,
                   {k: v for k, v in details.items() if v is not None})


def _link_findings(path: str, a: Anchor, r: LinkResult) -> list[Finding]:
    if r.outcome is Outcome.OK:
        return []
    code = _OUTCOME_CODE[r.outcome]
    if r.outcome is Outcome.REDIRECT:
        msg = f"moved permanently to {r.final_url}; cite the new URL"
    elif r.outcome is Outcome.RATE_LIMITED:
        msg = f"rate-limited through retries ({r.error}); not a dead link, check again later"
    elif r.outcome is Outcome.UNVERIFIABLE:
        msg = f"{r.error or 'cannot be verified'}; not a dead link, open it by hand"
    else:
        msg = f"{r.error or r.outcome.value}"
    return [_f(code, path, a, msg, status=r.status, final_url=r.final_url,
               requests=r.requests or None)]


def _resolution_findings(path: str, a: Anchor, r: Resolution, claims: Claims | None,
                         follow: FollowUp | None) -> list[Finding]:
    key = a.key
    if r.outcome is Outcome.DEAD:
        return [_f(Code.NOT_FOUND, path, a, r.error or "not found", status=r.status)]
    if r.outcome is not Outcome.OK:
        return [_f(_OUTCOME_CODE[r.outcome], path, a, r.error or r.outcome.value, status=r.status)]
    out = truth.findings(path, a, r, truth.claims_of(a, claims), follow)
    if isinstance(key, ArxivId):
        if r.withdrawn:
            out.append(_f(Code.WITHDRAWN, path, a, f"arXiv marks it withdrawn: {r.withdrawn}",
                          comment=r.withdrawn))
        if a.version and r.version and a.version > r.version:
            out.append(_f(Code.NOT_FOUND, path, a, f"version v{a.version} does not exist; "
                          f"the latest is v{r.version}", latest_version=r.version))
    return out
