"""`anchors check` as one call: what to check in a frozen `options.CheckOptions`, the run's
setup and teardown here, so the CLI only parses and renders.

An online run needs state beside the registry (the cache, the history), the git diff for
`--changed-since`, the network clients and the GitHub token; all of it is opened in
`open_session` and closed there again, on success, on error and on Ctrl-C alike, so a test can
show that nothing leaks. The library prints nothing: warnings, lock waits and progress go to
the caller's `Hooks`.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable, Coroutine, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from ..config import Settings
from ..errors import StorageError, UsageError
from ..findings import CITED_IN_BRIEFINGS
from ..ids.model import AnchorKind
from ..options import CheckOptions
from ..registry.loader import load
from ..registry.pipes import is_stream
from ..registry.validate import check_offline
from ..result import combine
from . import inputs

if TYPE_CHECKING:  # an offline check imports none of the online machinery (bench/startup.py)
    from ..document import LivingDocument
    from ..extract.claims import Claims
    from ..history import History
    from ..history.hook import AfterFactory
    from ..net.cache import Cache
    from ..registry.model import Anchor, Registry
    from ..result import CheckResult
    from .run import Progress, Services

    #: builds the clients from the settings (and the token); `clients.open_services` in use
    ServicesFactory = Callable[..., contextlib.AbstractAsyncContextManager[Services]]

__all__ = ["Hooks", "Session", "check", "check_one", "open_session", "refresh"]


def _nothing(message: str) -> None:
    """The default hook: a library caller that wants no messages gets none."""


def _asyncio_run(coro: Coroutine[object, None, CheckResult]) -> CheckResult:
    import asyncio  # only an online run pays for it (an offline check starts in ~100 ms)

    return asyncio.run(coro)


@dataclass(frozen=True, slots=True)
class Hooks:
    """What the caller sees of a run; every default is silent."""

    #: a problem that costs nothing found (a history that cannot be written, a damaged cache)
    warn: Callable[[str], None] = _nothing
    #: told when a lock is waited for, so a wait does not look like a hang
    on_wait: Callable[[str], None] | None = None
    #: opens a progress display for one registry's online run
    progress: Callable[[], contextlib.AbstractContextManager[Progress | None]] | None = None
    #: runs the async work (the CLI's runner turns SIGTERM into a cancellation)
    run: Callable[[Coroutine[object, None, CheckResult]], CheckResult] = _asyncio_run


@dataclass(frozen=True, slots=True)
class Session:
    """What an online run has open: closed by `open_session`, never by its user."""

    cache: Cache
    history: History | None
    services: Services


def _history(path: Path, hooks: Hooks, chosen: bool) -> History | None:
    # start-up: the history (sqlite3) is opened by an online run only
    from ..history import History
    from ..history.opening import rebuilding
    from ..history.schema import DamagedHistory, NewerHistory

    try:  # a damaged one of ours is set aside, a new one started
        return rebuilding(
            path, partial(History, path, on_wait=hooks.on_wait, chosen=chosen), hooks.warn
        )
    except (StorageError, NewerHistory, DamagedHistory) as exc:  # never costs the findings
        hooks.warn(f"{exc}; this check is not recorded")
        return None


@contextlib.asynccontextmanager
async def open_session(
    registry: Path,
    settings: Settings,
    *,
    no_cache: bool = False,
    hooks: Hooks = Hooks(),
    services: ServicesFactory | None = None,
    after: AfterFactory | None = None,
) -> AsyncIterator[Session]:
    """The cache, the history and the network clients for checking `registry`, closed after.

    `services` builds the clients (default: `clients.open_services`, with the token from the
    settings); tests pass their own to swap the transport.
    """
    # start-up: the network stack (httpx, aiohttp) and the state beside the registry are an
    # online run's alone; `check --offline` imports none of them (tests/test_entry.py)
    from ..files.state import untrusted
    from ..net.cache import Cache, state_warnings
    from ..resolve.github_api import ETAG_TTL
    from .clients import open_services

    factory = services or open_services
    chose = settings.chose_cache
    cache = Cache(None if no_cache else settings.cache_path(registry), chosen=chose)
    etags = Cache(settings.etags_path(registry), ttls={"etag": ETAG_TTL}, chosen=chose)
    where = settings.history_path(registry)
    history_why = untrusted(where, settings.chose_history)
    history = None if history_why else _history(where, hooks, settings.chose_history)
    try:
        opened = (
            factory(settings, token=settings.api_token(), etags=etags)
            if after is None
            else factory(settings, token=settings.api_token(), etags=etags, after=after)
        )
        async with opened as clients:
            yield Session(cache, history, clients)
    finally:
        etags.save()
        if history is not None:
            history.close()
        said = history_why or (history.problem if history else None)
        for line in state_warnings((cache, etags), where, said, recorded=not history_why):
            hooks.warn(line)


@contextlib.contextmanager
def _progress(hooks: Hooks) -> Iterator[Progress | None]:
    if hooks.progress is None:
        yield None
        return
    with hooks.progress() as bar:
        yield bar


async def check_one(
    reg: Registry,
    registry: Path,
    settings: Settings,
    options: CheckOptions,
    hooks: Hooks = Hooks(),
    claims: Mapping[str, Claims] | None = None,
    services: ServicesFactory | None = None,
    after: AfterFactory | None = None,
    extra: Sequence[Anchor] = (),
    cited: Sequence[Anchor] = (),
) -> CheckResult:
    """One registry online, inside its own session; `extra` are a living document's citations
    the registries lack, checked with this registry's anchors."""
    from .run import check_online  # start-up: the online machinery, never for --offline

    keys: set[str] | None = set(options.only_keys) if options.only_keys is not None else None
    if options.changed_since:
        from ..registry.gitdiff import changed_keys  # start-up: git, only for --changed-since

        keys = changed_keys(reg, options.changed_since)
    with _progress(hooks) as bar:
        async with open_session(
            registry,
            settings,
            no_cache=options.no_cache,
            hooks=hooks,
            services=services,
            after=after,
        ) as session:
            result = await check_online(
                reg,
                options.today,
                session.services,
                cache=session.cache,
                history=session.history,
                only_keys=keys,
                exclude=settings.exclude,
                accept=settings.accept,
                progress=bar,
                claims=claims,
                extra=extra,
                cited=cited,
                max_unreachable=settings.max_unreachable,
            )
            if session.history is not None and settings.history_days:
                session.history.prune(settings.history_days)  # `history_days`: what is kept
    for note in result.notes:
        hooks.warn(note)
    return result


def check(
    paths: Sequence[Path],
    options: CheckOptions,
    hooks: Hooks = Hooks(),
    after: AfterFactory | None = None,
) -> CheckResult:
    """`anchors check`: every file is loaded (so each is usable) before any is checked; each
    is checked with its own settings; one result, filtered to `options.codes`. `after` builds
    the hook that runs beside each registry's check (a new `archive.hook.RunHook()`
    for `--archive`); without it, a run archives nothing."""
    online = not options.offline
    for path in paths if online else ():
        _not_a_stream(path)
    regs = [load(path, stream_ok=options.offline) for path in paths]
    settings = [options.settings(path) for path in paths]
    docs = inputs.documents(settings)  # an unusable document is exit 2 before anything is asked
    briefings = inputs.briefings(options.briefings, online, bool(docs))
    claims = None
    if online:
        from ..extract.citations import claims_of  # start-up: no extractor for --offline

        claims = claims_of(briefings)
        _secrets_usable(settings)
    result = combine(_each_registry(paths, regs, settings, docs, options, hooks, claims, after))
    if docs:
        from ..document import judge  # start-up: the living document's rules, only with one

        result.documents = [doc.path for doc in docs]
        result.cited.update(inputs.document_cited(docs))
        result.findings += judge(regs, docs, briefings, options.today, settings[0].pending_days)
    result.narrow(options.codes)
    if any(finding.code in CITED_IN_BRIEFINGS for finding in result.findings):
        from ..extract.citing import add_citing_lines  # the extractor: only for a dead link

        result.findings = add_citing_lines(result.findings)
    return result


def _secrets_usable(settings: Sequence[Settings]) -> None:
    """Exit 2 before anything is asked or written: archive.org keys for `--archive-save`, and
    a GitHub token never sent in clear text."""
    for each in settings:
        if each.archive_save:
            each.save_keys()
        each.api_token()


def _each_registry(
    paths: Sequence[Path],
    regs: list[Registry],
    settings: list[Settings],
    docs: list[LivingDocument],
    options: CheckOptions,
    hooks: Hooks,
    claims: Mapping[str, Claims] | None,
    after: AfterFactory | None,
) -> list[CheckResult]:
    """Each registry's result, offline or online; the documents' own citations are checked
    once, in the first registry's run."""
    if options.offline:
        return [check_offline(reg, options.today) for reg in regs]
    narrowed = bool(options.changed_since) or options.only_keys is not None
    extra = inputs.document_anchors(regs, docs, True, narrowed)
    cited = inputs.document_fragments(docs)
    results = []
    for path, reg, own in zip(paths, regs, settings):
        one = check_one(
            reg, path, own, options, hooks, claims, after=after, extra=extra, cited=cited
        )
        results.append(hooks.run(one))
        extra = []
    return results


def _not_a_stream(path: Path) -> None:
    """An online run keeps its cache and history beside the registry; a pipe has no folder."""
    if is_stream(path):
        raise UsageError(
            f"{path}: a registry from a pipe or standard input is checked --offline only (an "
            "online check keeps its cache and history beside the registry); save it to a file"
        )


def refresh(registry: Path, settings: Settings, today: date, hooks: Hooks = Hooks()) -> CheckResult:
    """`export --refresh`: every ID anchor resolved again (plain links are not: an export needs
    metadata, not liveness), refilling the cache the export reads."""
    _not_a_stream(registry)
    reg = load(registry)
    keys = frozenset(
        key
        for key, anchor in reg.by_key().items()
        if anchor.key is not None and anchor.key.kind is not AnchorKind.URL
    )
    return hooks.run(check_one(reg, registry, settings, CheckOptions(today, only_keys=keys), hooks))
