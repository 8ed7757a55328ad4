"""The check orchestrator: registry in, findings out. It prints nothing and never writes the registry.

Offline checks come from `validate`. Online, every valid anchor is looked at once: arXiv IDs,
GitHub issues/PRs and DOIs through their APIs (their web pages are not fetched again), every
other URL through the link checker, all concurrently. Results are compared with the registry,
recorded in the history as they arrive, and successes cached; an interrupted run keeps both.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import date
from typing import Any

from .archive import Archiver
from .cache import Cache
from .facts import of_resolution
from .findings import Code, Finding
from .history import History, Row
from .ids import ArxivId, Doi, GithubRef, WebUrl, is_future
from .links import LinkChecker, LinkResult, Outcome
from .registry import Anchor, Registry
from .resolve.base import Resolution, Resolver
from .resolve.wayback import WaybackClient
from .titles import TitleVerdict, compare_titles
from .validate import CheckResult, check_offline, only

__all__ = ["CheckResult", "Services", "check_offline", "check_online", "only"]

_OUTCOME_CODE = {
    Outcome.DEAD: Code.DEAD_LINK,
    Outcome.UNREACHABLE: Code.UNREACHABLE,
    Outcome.UNVERIFIABLE: Code.UNVERIFIABLE,
    Outcome.RATE_LIMITED: Code.RATE_LIMITED,
    Outcome.TLS_ERROR: Code.TLS_ERROR,
    Outcome.BLOCKED: Code.BLOCKED_URL,
    Outcome.REDIRECT: Code.REDIRECT,
}
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
             exclude: list[re.Pattern[str]]) -> dict[str, Anchor]:
    """First entry per canonical key among the anchors to check online (future IDs are not)."""
    out: dict[str, Anchor] = {}
    for a in reg.anchors:
        if a.key is None or a.skip or a.key.key in out:
            continue
        if isinstance(a.key, ArxivId) and is_future(a.key, today):
            continue
        if keys is not None and a.key.key not in keys:
            continue
        if isinstance(a.key, WebUrl) and any(p.search(a.key.url) for p in exclude):
            continue
        out[a.key.key] = a
    return out


async def check_online(reg: Registry, today: date, services: Services, *,
                       cache: Cache | None = None, history: History | None = None,
                       only_keys: set[str] | None = None, exclude: Iterable[str] = (),
                       accept: frozenset[int] = frozenset(),
                       progress: Callable[[int, int], None] | None = None) -> CheckResult:
    result = check_offline(reg, today)
    result.online = True
    cache = cache or Cache(None)
    targets = _targets(reg, today, only_keys, [re.compile(p) for p in exclude])
    recorder = _Recorder(history, reg.path)
    total, done = len(targets), 0
    resolutions: dict[str, Resolution] = {}
    link_results: dict[str, LinkResult] = {}

    def tick(n: int = 1) -> None:
        nonlocal done
        done += n
        if progress:
            progress(done, total)

    pending: dict[str, list[Any]] = {"arxiv": [], "github": [], "doi": [], "url": []}
    for key, a in targets.items():
        kind = key.split(":", 1)[0]
        hit = cache.get(key, _cached(key, a))
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
            recorder.add(Row(key, targets[key].label, kind, res.outcome.value, res.status,
                             res.moved_to, res.error, facts=of_resolution(res)))
            if res.outcome is Outcome.OK:
                cache.put(key, res.to_cache())
        tick(len(got))

    def on_link(r: LinkResult) -> None:
        key = WebUrl(r.url).key
        link_results[key] = r
        recorder.add(Row(r.url, targets[key].label, "url", r.outcome.value, r.status,
                         r.final_url, r.error, r.elapsed_ms))
        if not r.outcome.failed:
            cache.put(key, {"outcome": r.outcome.value, "status": r.status,
                            "final_url": r.final_url})
        tick()

    async def run_links() -> None:
        if not pending["url"] or services.links is None:
            return
        urls = [(k.url, accept | targets[k.key].accept) for k in pending["url"]]
        await services.links.check_many(urls, on_link)

    complete = False
    archiving = Archiver.start(services.wayback, targets, cache, reg.path, today) \
        if services.wayback else None
    try:
        await asyncio.gather(run_resolver("arxiv", services.arxiv),
                             run_resolver("github", services.github),
                             run_resolver("doi", services.doi), run_links())
        complete = True
    finally:
        if archiving is not None:
            result.findings += await archiving.finish(stop_now=not complete)
        recorder.finish(complete)
        cache.save()
        result.checked = len(resolutions) + len(link_results) - result.cached
        result.findings += _compare(reg, targets, resolutions, link_results)
    return result


def _cached(key: str, a: Anchor) -> Callable[[dict[str, Any]], Resolution | LinkResult]:
    """How to read `key`'s cache entry back (raising on a damaged one: a cache miss)."""
    if not key.startswith("url:"):
        return lambda hit: Resolution.from_cache(key, hit)
    return lambda hit: LinkResult(a.key.url, Outcome(hit["outcome"]),  # type: ignore[union-attr]
                                  hit.get("status"), hit.get("final_url"))


def _compare(reg: Registry, targets: dict[str, Anchor], resolutions: dict[str, Resolution],
             links: dict[str, LinkResult]) -> list[Finding]:
    out: list[Finding] = []
    for key, a in targets.items():
        if key in links:
            out += _link_findings(reg.path, a, links[key])
        elif key in resolutions:
            out += _resolution_findings(reg.path, a, resolutions[key])
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
        msg = f"cannot be verified ({r.error}); the site blocks checkers, open it by hand"
    else:
        msg = f"{r.error or r.outcome.value}"
    return [_f(code, path, a, msg, status=r.status, final_url=r.final_url,
               requests=r.requests or None)]


def _resolution_findings(path: str, a: Anchor, r: Resolution) -> list[Finding]:
    key = a.key
    if r.outcome is Outcome.DEAD:
        return [_f(Code.NOT_FOUND, path, a, r.error or "not found", status=r.status)]
    if r.outcome is not Outcome.OK:
        return [_f(_OUTCOME_CODE[r.outcome], path, a, r.error or r.outcome.value, status=r.status)]
    out: list[Finding] = []
    if isinstance(key, (ArxivId, Doi)) and a.title and r.title:
        verdict = compare_titles(a.title, r.title)
        if verdict is TitleVerdict.UNCONFIRMABLE:
            out.append(_f(Code.TITLE_MISMATCH, path, a, "the registry's title has no English "
                          f"title to confirm; the real title is: {r.title}",
                          claimed=a.title, actual=r.title, resolved_title=r.title))
        elif verdict is TitleVerdict.DIFFERENT:
            out.append(_f(Code.TITLE_MISMATCH, path, a,
                          f"the registry's title is not the paper's; the real title is: {r.title}",
                          claimed=a.title, actual=r.title, resolved_title=r.title))
    if isinstance(key, ArxivId):
        if r.withdrawn:
            out.append(_f(Code.WITHDRAWN, path, a, f"arXiv marks it withdrawn: {r.withdrawn}",
                          comment=r.withdrawn))
        if a.version and r.version and a.version > r.version:
            out.append(_f(Code.NOT_FOUND, path, a, f"version v{a.version} does not exist; "
                          f"the latest is v{r.version}", latest_version=r.version))
    if isinstance(key, GithubRef):
        if r.state == "closed":
            what = "merged" if r.merged else (f"closed ({r.state_reason})" if r.state_reason
                                               else "closed")
            kind = "pull request" if r.is_pull else "issue"
            out.append(_f(Code.ISSUE_STATE, path, a, f"the {kind} is {what}, not open",
                          state=r.state, state_reason=r.state_reason, merged=r.merged))
        if r.moved_to:
            out.append(_f(Code.REDIRECT, path, a, f"moved to {r.moved_to}", final_url=r.moved_to))
    return out

