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
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date

from ..config.patterns import UrlPattern, url_pattern
from ..defaults import DEFAULT_MAX_UNREACHABLE
from ..errors import NetworkDown
from ..extract.claims import Claims
from ..findings import Finding, Unchecked
from ..history import History, samework
from ..history.claimread import supports_of
from ..history.facts import Facts
from ..history.hook import AfterCheck, Begun
from ..ids.model import ArxivId, Doi, GithubRef, WebUrl, is_future
from ..net.cache import Cache
from ..net.links import LinkChecker, LinkResult
from ..registry.model import Anchor, Registry
from ..registry.validate import check_offline
from ..resolve.base import ArxivFullText, ArxivLookup, FollowUp, Resolution, Resolver
from ..resolve.github_places import GithubPlaces
from ..result import CheckResult, only
from .arrivals import SERVICE, Pending, Progress, Run, github_places, is_repo
from .cited import CitedPlaces, cited_places
from .claimsources import ClaimSources, ThreadReader
from .figures import ClaimsChecked, check_claims
from .followup import follow_up
from .observe import earlier_facts
from .recorder import Recorder, unproven
from .silence import silence, verdict
from .verdicts import compare

__all__ = ["CheckResult", "Progress", "Services", "check_offline", "check_online", "only"]


@dataclass(slots=True)
class Services:
    """The network clients a check uses; tests and benchmarks inject their own."""

    links: LinkChecker | None = None
    arxiv: ArxivLookup | None = None
    github: Resolver[GithubRef | WebUrl] | None = None
    doi: Resolver[Doi] | None = None
    #: work beside the check that ends after it (`check --archive`: the archive's hook)
    after: AfterCheck | None = None
    #: GitHub comments and lines cited by `#fragment`, asked of the API
    places: GithubPlaces | None = None
    #: arXiv papers' HTML full texts, at the API's pace (a figure not in the abstract)
    arxiv_html: ArxivFullText | None = None
    #: GitHub issue and pull request threads, whole (figures and quotes attributed to them)
    threads: ThreadReader | None = None


def _targets(
    reg: Registry,
    today: date,
    keys: set[str] | None,
    exclude: list[UrlPattern],
    result: CheckResult,
    extra: Iterable[Anchor] = (),
) -> dict[str, Anchor]:
    """First entry per canonical key among the anchors to check online (future IDs are not),
    then the `extra` ones (a living document's citations the registry lacks) not among them.

    Counts the entries left out on purpose in `result.skipped` and `result.excluded`, and says
    why in `result.unchecked` (an `extra` anchor is never skipped: a narrowed run has none).
    """
    chosen: dict[str, Anchor] = {}
    for anchor in (*reg.anchors, *extra):
        if anchor.key is None or anchor.key.key in chosen:
            continue
        if anchor.skip or (keys is not None and anchor.key.key not in keys):
            result.skipped += 1
            why = Unchecked.SKIPPED if anchor.skip else Unchecked.UNCHANGED
            result.unchecked[reg.path, anchor.line] = why
            continue
        if isinstance(anchor.key, ArxivId) and is_future(anchor.key, today):
            continue
        if isinstance(anchor.key, WebUrl) and any(
            pattern.search(anchor.key.url) for pattern in exclude
        ):
            if anchor.file is None:  # the counts are of the registry's entries
                result.excluded += 1
                result.unchecked[reg.path, anchor.line] = Unchecked.EXCLUDED
            continue
        chosen[anchor.key.key] = anchor
    return chosen


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
    cited: Iterable[Anchor] = (),
    max_unreachable: float = DEFAULT_MAX_UNREACHABLE,
) -> CheckResult:
    """Check every target online; `claims` (by anchor key) adds a briefing's claims; `extra`
    are anchors written elsewhere (a living document's), checked once each with the registry's;
    `cited` are citations written elsewhere whose `#fragments` are looked for in their pages;
    more than `max_unreachable` of the anchors asked without any answer sets `cannot_judge`.

    `progress(done, total, failed, current)` follows along. Whatever happens, what was learnt
    is recorded, cached and judged before this returns or raises.
    """
    start = time.monotonic()
    cache = cache or Cache(None)
    result, targets, places = _select(reg, today, only_keys, exclude, tuple(extra), cited)
    run = Run(targets, cache, Recorder(history, reg.path, services.links), progress, result, places)
    earlier = earlier_facts(history, targets.values(), reg.path)
    pending = run.from_cache()
    if services.after is not None:
        services.after.start(Begun(reg.path, targets, today, cache, history))
    asked, complete, network_down = _Asked(), False, False
    try:
        asked = await _ask(run, pending, services, accept, claims or {}, history, today)
        complete = True
    except NetworkDown as exc:
        network_down = True
        raise NetworkDown(f"{exc} Nothing from this run is recorded.") from None
    finally:
        _unproven_by_silence(run, complete, network_down)
        try:  # whatever the hook did, what the check learnt is saved and judged
            await _finish_hook(services.after, run, complete)
        finally:
            cache.save()
            _count(run, reg.path, time.monotonic() - start, max_unreachable)
            result.findings += _judged(reg, run, claims or {}, asked, earlier)
    return result


def _select(
    reg: Registry,
    today: date,
    only_keys: set[str] | None,
    exclude: Iterable[str],
    extra: tuple[Anchor, ...],
    cited: Iterable[Anchor],
) -> tuple[CheckResult, dict[str, Anchor], CitedPlaces]:
    """What this run checks: the offline result it starts from (the anchors left out counted
    in it), the targets, and the places their citations name."""
    result = check_offline(reg, today)
    result.online = True
    targets = _targets(
        reg, today, only_keys, [url_pattern(pattern) for pattern in exclude], result, extra
    )
    # a fragment travels on the citation: every entry (and document citation) of a key counts
    places = cited_places((*reg.anchors, *extra, *cited), targets, _fetched(targets))
    return result, targets, places


def _fetched(targets: Mapping[str, Anchor]) -> set[str]:
    """The keys whose page the link checker fetches (a repository's is GitHub's to answer)."""
    return {
        key
        for key, anchor in targets.items()
        if isinstance(anchor.key, WebUrl) and not is_repo(anchor.key)
    }


@dataclass(slots=True)
class _Asked:
    """What the run learnt beyond the first answers: arXiv's follow-ups on a title mismatch,
    and the figures and quotes judged against their sources (empty until asked)."""

    follow: dict[str, FollowUp] = field(default_factory=dict)
    claimed: ClaimsChecked = field(default_factory=ClaimsChecked)


async def _ask(
    run: Run,
    pending: Pending,
    services: Services,
    accept: frozenset[int],
    claims: Mapping[str, Claims],
    history: History | None,
    today: date,
) -> _Asked:
    """Every service at once, then what their answers call for: the follow-ups, the places
    cited in GitHub threads, and the claims against their sources."""
    await asyncio.gather(
        run.resolve("arxiv", pending.arxiv, services.arxiv),
        run.resolve("github", pending.github, services.github),
        run.resolve("doi", pending.doi, services.doi),
        run.check_links(pending.links, services.links, accept),
    )
    follow = await follow_up(run.targets, run.resolutions, services.arxiv, claims, run.cache)
    await github_places(run, services.places)
    registry = run.recorder.registry
    claimed = await _claims(registry, run.targets, run, services, run.cache, history, today)
    return _Asked(follow, claimed)


def _unproven_by_silence(run: Run, complete: bool, network_down: bool) -> None:
    """The history is told how the run ended; a link whose failure the network's silence alone
    explains is not dead (`recorder`)."""
    for key, why in run.recorder.finish(complete, network_down=network_down).items():
        if key in run.links:
            run.links[key] = unproven(run.links[key], why)


async def _finish_hook(after: AfterCheck | None, run: Run, complete: bool) -> None:
    """The work beside the check (`--archive`) ends with it, told which pages answered."""
    if after is None:
        return
    answered = _answered(run.targets, [*run.links.items(), *run.resolutions.items()])
    run.result.findings += await after.finish(answered, stop_now=not complete)


def _count(run: Run, registry: str, elapsed: float, max_unreachable: float) -> None:
    """What the summary counts: anchors asked, those left unasked and why, each link's answer
    time; and whether too many got no answer at all for the run to judge (`silence`)."""
    result = run.result
    result.checked = len(run.resolutions) + len(run.links) - result.cached
    result.notes += [
        f"{why}: {n} {SERVICE[what]} anchor{'s' if n != 1 else ''} not checked this run "
        "(those checked longest ago went first)"
        for what, (n, why) in run.not_asked.items()
    ]
    result.elapsed = elapsed
    for key, link in run.links.items():
        if link.tries or link.requests:  # asked this run, not taken from the cache
            anchor = run.targets[key]
            result.answer_ms[anchor.file or registry, anchor.line] = link.elapsed_ms
    quiet = silence(run.targets, run.links, run.resolutions)
    result.cannot_judge = verdict(result.checked, quiet, max_unreachable)


def _judged(
    reg: Registry,
    run: Run,
    claims: Mapping[str, Claims],
    asked: _Asked,
    earlier: Mapping[str, Facts],
) -> list[Finding]:
    """The findings of the answers: each against its entry, the places cited, the claims,
    and two entries that name the same work."""
    targets = run.targets
    found = compare(reg, targets, run.resolutions, run.links, claims, asked.follow, earlier)
    found += run.places.findings(reg.path)
    found += asked.claimed.findings
    run.result.claims = asked.claimed.checks
    facts = {key: answer.facts for key, answer in run.resolutions.items()}
    keys = {key: anchor.key for key, anchor in targets.items() if anchor.key is not None}
    found += samework.findings(reg.path, samework.pairs(keys, facts), targets)
    return found


async def _claims(
    registry: str,
    targets: dict[str, Anchor],
    run: Run,
    services: Services,
    cache: Cache,
    history: History | None,
    today: date,
) -> ClaimsChecked:
    """The figures and quotes the entries keep, judged (`figures`); what was learnt kept in
    the history, whose earlier supports tell `source-changed` (none without a history)."""
    before = supports_of(history, registry) if history is not None else {}
    sources = ClaimSources(services.arxiv_html, services.threads, cache)
    claimed = await check_claims(registry, targets, run.resolutions, sources, before, today)
    if history is not None:
        history.keep_claims(registry, claimed.seen)
    return claimed


def _answered(
    targets: Mapping[str, Anchor], results: Iterable[tuple[str, LinkResult | Resolution]]
) -> frozenset[str]:
    """The pages that answered the check (a link check, or GitHub for a repository page)."""
    return frozenset(
        key
        for key, answer in results
        if isinstance(targets[key].key, WebUrl) and not answer.outcome.failed
    )
