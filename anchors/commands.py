"""The five commands as functions: what `anchors add|check|report|export|fix` compute, minus
the rendering. The CLI calls `run_add` … `run_fix` with the options it built from its flags;
a program can too, or use `add` … `fix`, which build the same options from keywords.

Each finds its registry and settings as the command does (the config files from the
registry's folder up, then `ANCHORS_*`, then `settings`, which stands where flags do) and
returns the result the command renders. tests/test_commands.py runs both on the same input.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from .findings import Code
from .options import (
    AddOptions,
    CheckOptions,
    ExportOptions,
    FixOptions,
    OneRegistry,
    ReportOptions,
    setting_flags,
)

if TYPE_CHECKING:
    from .check.session import Hooks
    from .export import ExportItem
    from .fix import FixKind, FixResult
    from .merging.merge import MergeResult
    from .report.weekly import Report
    from .result import CheckResult

__all__ = [
    "add",
    "check",
    "export",
    "fix",
    "report",
    "run_add",
    "run_check",
    "run_export",
    "run_fix",
    "run_report",
]

StrPath = str | Path


def _paths(registry: StrPath | None) -> tuple[Path, ...]:
    return (Path(registry),) if registry is not None else ()


def _config(config: StrPath | None) -> Path | None:
    return Path(config) if config is not None else None


def run_add(options: AddOptions, on_wait: Callable[[str], None] | None = None) -> MergeResult:
    """`anchors add`: merge the briefings into the registry and save it (unless `dry_run` or
    `gate`); `result.up_to_date` is what `add --check` asks; with a `document` setting, the
    briefings' references to it are checked too. `on_wait` is told when the lock is waited for."""
    # start-up: `anchors --help` imports this module; each command pays for its own machinery
    from .document import read_documents, refs
    from .extract.citations import read_briefing
    from .merging.merge import add as merge_and_save

    parsed = [read_briefing(briefing, options.briefing_date) for briefing in options.briefings]
    documents = read_documents(options.registry.settings.document)
    dry_run = not options.writes
    result = merge_and_save(
        options.registry.path, parsed, options.today, dry_run=dry_run, on_wait=on_wait
    )
    result.findings += refs(parsed, documents)
    result.read = parsed
    return result


def run_check(options: CheckOptions, hooks: Hooks | None = None) -> CheckResult:
    """`anchors check`: every registry named (else the config's, else ./registry.yaml)."""
    from .archive.hook import RunHook  # start-up: the archive's client, only for a check
    from .check.session import Hooks  # start-up: an offline check stays light (bench/startup.py)
    from .check.session import check as run

    return run(options.registry_paths(), options, hooks or Hooks(), after=RunHook())


def run_report(options: ReportOptions) -> Report:
    """`anchors report`: the window of `since` ending `now`, from the registry's history."""
    from .report.weekly import for_registry  # start-up: the report, only for `report`

    at = options.now.timestamp() if options.now is not None else time.time()
    where = options.registry
    return for_registry(where.path, where.settings, at, options.since.total_seconds())


def run_export(options: ExportOptions, hooks: Hooks | None = None) -> list[ExportItem]:
    """`anchors export`: the items to write, with metadata from the cache (`refresh` first
    looks up what is missing, online)."""
    # start-up: the exporter (and, with --refresh, the check) only for `export`
    from .check.session import Hooks
    from .check.session import refresh as refresh_cache
    from .export import export as collect

    where = options.registry
    if options.refresh:
        refresh_cache(where.path, where.settings, options.today, hooks or Hooks())
    return collect(
        where.path,
        where.settings,
        today=options.today,
        section=options.section,
        since=options.since.total_seconds() if options.since is not None else None,
        status=options.status,
    )


def run_fix(options: FixOptions) -> FixResult:
    """`anchors fix`: apply (unless `dry_run`) what the latest check learnt; `result.diff` is
    the unified diff."""
    from .fix import fix_registry  # start-up: the fixer, only for `fix`

    where = options.registry
    return fix_registry(where.path, where.settings, dry_run=options.dry_run, only=options.only)


def add(
    *briefings: StrPath,
    registry: StrPath | None = None,
    briefing_date: date | None = None,
    today: date | None = None,
    dry_run: bool = False,
    config: StrPath | None = None,
    settings: Mapping[str, object] | None = None,
) -> MergeResult:
    """`run_add` with the options from keywords (`settings` stands where flags do)."""
    options = AddOptions(
        registry=OneRegistry.find(_paths(registry), _config(config), settings),
        briefings=tuple(Path(briefing) for briefing in briefings),
        briefing_date=briefing_date,
        today=today or date.today(),
        dry_run=dry_run,
    )
    return run_add(options)


def check(
    *registries: StrPath,
    offline: bool = False,
    today: date | None = None,
    only: Iterable[Code | str] | None = None,
    briefings: Iterable[StrPath] = (),
    no_cache: bool = False,
    changed_since: str | None = None,
    config: StrPath | None = None,
    settings: Mapping[str, object] | None = None,
    hooks: Hooks | None = None,
) -> CheckResult:
    """`run_check` with the options from keywords (`only`: finding codes)."""
    options = CheckOptions(
        today=today or date.today(),
        offline=offline,
        codes=frozenset(Code(code) for code in only) if only is not None else None,
        briefings=tuple(Path(briefing) for briefing in briefings),
        no_cache=no_cache,
        changed_since=changed_since,
        config=_config(config),
        flags=setting_flags(settings),
        registries=tuple(Path(registry) for registry in registries),
    )
    return run_check(options, hooks)


def report(
    registry: StrPath | None = None,
    *,
    since: timedelta = timedelta(days=7),
    now: datetime | None = None,
    config: StrPath | None = None,
    settings: Mapping[str, object] | None = None,
) -> Report:
    """`run_report` with the options from keywords."""
    options = ReportOptions(
        OneRegistry.find(_paths(registry), _config(config), settings), since=since, now=now
    )
    return run_report(options)


def export(
    registry: StrPath | None = None,
    *,
    section: str | None = None,
    since: timedelta | None = None,
    status: str | None = None,
    refresh: bool = False,
    today: date | None = None,
    config: StrPath | None = None,
    settings: Mapping[str, object] | None = None,
    hooks: Hooks | None = None,
) -> list[ExportItem]:
    """`run_export` with the options from keywords."""
    options = ExportOptions(
        registry=OneRegistry.find(_paths(registry), _config(config), settings),
        section=section,
        since=since,
        status=status,
        refresh=refresh,
        today=today or date.today(),
    )
    return run_export(options, hooks)


def fix(
    registry: StrPath | None = None,
    *,
    dry_run: bool = False,
    only: Iterable[FixKind | str] | None = None,
    config: StrPath | None = None,
    settings: Mapping[str, object] | None = None,
) -> FixResult:
    """`run_fix` with the options from keywords (`only`: kinds of fix)."""
    from .fix import FixKind  # start-up: the fixer, only for `fix`

    kinds = frozenset(FixKind(kind) for kind in only) if only is not None else None
    where = OneRegistry.find(_paths(registry), _config(config), settings)
    options = FixOptions(where, dry_run=dry_run, only=kinds)
    return run_fix(options)
