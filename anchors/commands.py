"""The five commands as functions: what `anchors add|check|report|export|fix` compute, minus
the rendering, for a program to drive.

Each finds its registry and settings as the command does (the config files from the
registry's folder up, then `ANCHORS_*`, then `settings`, which stands where flags do) and
returns the result the command renders. tests/test_commands.py runs both on the same input.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Iterable, Mapping
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from .config import Settings, all_registries, one_registry
from .errors import UsageError
from .findings import Code

if TYPE_CHECKING:
    from .check.session import Hooks
    from .export import ExportItem
    from .fix import FixKind, FixResult
    from .merging.merge import MergeResult
    from .report.weekly import Report
    from .result import CheckResult

__all__ = ["add", "check", "export", "fix", "report"]

StrPath = str | Path
#: what `settings` may name: every setting a flag, the environment or a config file can give
_SETTINGS = frozenset(f.name for f in dataclasses.fields(Settings)) - {
    "sources",
    "github_token",
    "ia_keys",
}


def _flags(settings: Mapping[str, object] | None) -> dict[str, object]:
    unknown = sorted(set(settings or ()) - _SETTINGS)
    if unknown:
        known = ", ".join(sorted(_SETTINGS))
        raise UsageError(f"unknown setting {unknown[0]!r} (settings: {known})")
    return dict(settings or {})


def _named(registry: StrPath | None) -> list[Path]:
    return [Path(registry)] if registry is not None else []


def _config(config: StrPath | None) -> Path | None:
    return Path(config) if config is not None else None


def add(
    *briefings: StrPath,
    registry: StrPath | None = None,
    briefing_date: date | None = None,
    today: date | None = None,
    dry_run: bool = False,
    config: StrPath | None = None,
    settings: Mapping[str, object] | None = None,
) -> MergeResult:
    """`anchors add`: merge the briefings into the registry and save it (unless `dry_run`);
    `result.up_to_date` is what `add --check` asks; with a `document` setting, the briefings'
    references to it are checked too."""
    from .document import read_documents, refs
    from .extract.citations import read_briefing
    from .merging.merge import add as merge_and_save

    conf, path = one_registry(_named(registry), _flags(settings), _config(config))
    parsed = [read_briefing(b, briefing_date) for b in briefings]
    docs = read_documents(conf.document)
    result = merge_and_save(path, parsed, today or date.today(), dry_run=dry_run)
    result.findings += refs(parsed, docs)
    return result


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
    """`anchors check`: every registry named (else the config's, else ./registry.yaml)."""
    from .archive.hook import RunHook
    from .check.session import CheckOptions, Hooks
    from .check.session import check as run

    options = CheckOptions(
        today=today or date.today(),
        offline=offline,
        codes=frozenset(Code(c) for c in only) if only is not None else None,
        briefings=tuple(Path(b) for b in briefings),
        no_cache=no_cache,
        changed_since=changed_since,
        config=_config(config),
        flags=tuple(_flags(settings).items()),
    )
    paths = all_registries([Path(r) for r in registries], options.config)
    return run(paths, options, hooks or Hooks(), after=RunHook())


def report(
    registry: StrPath | None = None,
    *,
    since: timedelta = timedelta(days=7),
    now: datetime | None = None,
    config: StrPath | None = None,
    settings: Mapping[str, object] | None = None,
) -> Report:
    """`anchors report`: the window of `since` ending `now`, from the registry's history."""
    from .report.weekly import for_registry

    conf, path = one_registry(_named(registry), _flags(settings), _config(config))
    at = now.timestamp() if now is not None else time.time()
    return for_registry(path, conf, at, since.total_seconds())


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
    """`anchors export`: the items to write, with metadata from the cache (`refresh` first
    looks up what is missing, online)."""
    from .check.session import Hooks
    from .check.session import refresh as refresh_cache
    from .export import export as collect

    conf, path = one_registry(_named(registry), _flags(settings), _config(config))
    day = today or date.today()
    if refresh:
        refresh_cache(path, conf, day, hooks or Hooks())
    return collect(
        path,
        conf,
        today=day,
        section=section,
        since=since.total_seconds() if since is not None else None,
        status=status,
    )


def fix(
    registry: StrPath | None = None,
    *,
    dry_run: bool = False,
    only: Iterable[FixKind | str] | None = None,
    config: StrPath | None = None,
    settings: Mapping[str, object] | None = None,
) -> FixResult:
    """`anchors fix`: apply (unless `dry_run`) what the latest check learnt; `result.diff` is
    the unified diff."""
    from .fix import FixKind, fix_registry

    kinds = frozenset(FixKind(k) for k in only) if only is not None else None
    conf, path = one_registry(_named(registry), _flags(settings), _config(config))
    return fix_registry(path, conf, dry_run=dry_run, only=kinds)
