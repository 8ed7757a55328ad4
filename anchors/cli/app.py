"""The `anchors` command: parse arguments, call the library, render, map to an exit code.

Exit codes: 0 clean, 1 findings (or invalid citations), 2 unusable input or arguments,
130/143/129 interrupted by SIGINT/SIGTERM/SIGHUP.
"""

from __future__ import annotations

import signal
import sys
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NoReturn, TypeVar

import typer

from .. import __version__
from . import options as o
from .group import Command, Group, error_line
from .values import codes as _codes
from .values import date_value as _date
from .values import duration as _duration
from .values import instant as _instant
from ..render.console import configure, stderr, warn
from ..errors import AnchorsError, StorageError, UsageError
from ..findings import exit_code
from .runner import STOPS as _STOPS
from .runner import Terminated as _Terminated
from .runner import on_stop as _on_stop
from .runner import run as _run

if TYPE_CHECKING:
    from ..extract.claims import Claims
    from ..config import Settings
    from ..registry.model import Registry
    from ..registry.validate import CheckResult

T = TypeVar("T")

__all__ = ["app", "main"]

app = typer.Typer(
    cls=Group, rich_markup_mode=None, pretty_exceptions_enable=False, no_args_is_help=True,
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
    help="Citation and arXiv anchor registry with link checking.\n\n"
         "Settings: flag > ANCHORS_* environment > anchors.toml / [tool.anchors] > default.")


def _fail(exc: BaseException, code: int = 2) -> NoReturn:
    sys.stderr.write(error_line(str(exc)))  # printed even with --quiet
    raise typer.Exit(code)


def _say(message: str) -> None:
    """A notice that shows even with --quiet: a silent wait looks like a hang."""
    sys.stderr.write(f"anchors: {message}\n")


@app.command(cls=Command)
def add(
    briefings: Annotated[list[Path], typer.Argument(
        metavar="BRIEFING", help="Briefing files (Markdown).")],
    registry: o.RegistryOpt = None,
    config: o.ConfigOpt = None,
    when: Annotated[str | None, typer.Option(
        "--date", metavar="YYYY-MM-DD", help="Briefing date when the briefing names none.")] = None,
    today: o.TodayOpt = None,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Show the merge, write nothing.")] = False,
    gate: Annotated[bool, typer.Option("--check", help=(
        "CI gate: write nothing; exit 1 if the registry is not up to date with the briefings "
        "(something would be added or continued), 0 if it is."))] = False,
    fmt: o.AddFormatOpt = o.AddFormat.TEXT,
    strict: Annotated[bool, typer.Option(
        "--strict", help="Warnings fail too (exit 1): duplicates, conflicts, unbacked claims, "
        "IDs later than their briefing.")] = False,
    quiet: o.QuietOpt = False,
) -> None:
    """Merge briefings into the registry: new vs continued, earliest date, duplicates.

    Only `add` creates a registry (with a header comment), and says so.

    Example: anchors add briefings/2026-09-24-inference-e1.md -r registry.yaml

    In CI: anchors add --check briefings/*.md
    """
    from ..extract.citations import read_briefing
    from ..merge import add as do_add
    from ..render import OutputFormat, summary, write_add

    configure(quiet)
    try:
        _, path = o.settings_for([], registry, config, {})
        override = _date(when, "--date")
        day = _date(today, "--today") or date.today()
        parsed = [read_briefing(b, override) for b in briefings]
        result = do_add(path, parsed, day, dry_run=dry_run or gate, on_wait=_say)
    except AnchorsError as exc:
        _fail(exc)
    for b in parsed:
        if not b.citations and not b.invalid:
            warn(f"{b.path}: no citations found")
    write_add(result, OutputFormat(fmt.value), dry_run or gate, sys.stdout)
    stderr.print(summary.add_line(result, dry_run, gate))
    failed = exit_code(result.findings, strict) or (gate and not result.up_to_date)
    raise typer.Exit(1 if failed else 0)


@app.command(cls=Command)
def check(
    registries: o.Registries = None,
    registry: o.RegistryOpt = None,
    config: o.ConfigOpt = None,
    offline: o.Offline = False,
    fmt: o.CheckFormatOpt = None,
    only_codes: o.Only = None,
    concurrency: o.Concurrency = None,
    per_host: o.PerHost = None,
    timeout: o.Timeout = None,
    retry_after_cap: o.RetryAfterCap = None,
    allow_private: o.AllowPrivate = None,
    arxiv_api: o.ArxivApi = None,
    arxiv_delay: o.ArxivDelay = None,
    github_api: o.GithubApi = None,
    doi_api: o.DoiApi = None,
    archive: o.Archive = None,
    wayback_api: o.WaybackApi = None,
    crossref_api: o.CrossrefApi = None,
    arxiv_searches: o.ArxivSearches = None,
    briefing: o.BriefingOpt = None,
    cache_dir: o.CacheDir = None,
    no_cache: o.NoCache = False,
    history: o.HistoryOpt = None,
    changed_since: o.ChangedSince = None,
    today: o.TodayOpt = None,
    quiet: o.QuietOpt = False,
) -> None:
    """Validate registries; online, resolve metadata and check every link.

    A missing file, or one that is not a registry, is exit 2 (nothing is created).

    Example: anchors check registry.yaml lab/registry.yaml --offline --format concise
    """
    from ..extract.citing import add_citing_lines
    from ..config import load_settings
    from ..registry.loader import load
    from ..render import summary, write_check
    from ..registry.validate import check_offline, combine, only

    configure(quiet)
    flags = dict(concurrency=concurrency, per_host=per_host, timeout=timeout,
                 retry_after_cap=retry_after_cap, allow_private=allow_private,
                 arxiv_api=arxiv_api, arxiv_delay=arxiv_delay, github_api=github_api,
                 doi_api=doi_api, cache_dir=cache_dir, history=history, archive=archive,
                 wayback_api=wayback_api, crossref_api=crossref_api, arxiv_searches=arxiv_searches)
    try:
        codes = _codes(only_codes)
        day = _date(today, "--today") or date.today()
        paths = o.registry_paths(registries, registry, config)
        regs = [load(p) for p in paths]  # every file is usable before anything is checked
        results = []
        claims = None
        if not offline:
            from ..extract.claims import briefing_claims

            claims = briefing_claims([str(b) for b in briefing or []])
        for path, reg in zip(paths, regs):
            settings = load_settings(path, flags, config=config)  # each with its own config
            results.append(check_offline(reg, day) if offline else _run(_online(
                reg, path, day, settings, no_cache, changed_since, claims=claims)))
        result = combine(results)
    except AnchorsError as exc:
        _fail(exc)
    result.findings = only(result.findings, codes)
    add_citing_lines(result.findings)
    write_check(result, o.pick_format(fmt, sys.stdout.isatty()), sys.stdout)
    stderr.print(summary.check_line(result))
    raise typer.Exit(exit_code(result.findings))


async def _online(reg: Registry, registry: Path, day: date, settings: Settings, no_cache: bool,
                  changed_since: str | None, only: set[str] | None = None,
                  claims: dict[str, Claims] | None = None) -> CheckResult:
    import os

    from ..check.cache import Cache
    from ..check.run import check_online
    from ..check.clients import open_services
    from ..render.console import progress
    from ..registry.gitdiff import changed_keys
    from ..history import History

    keys = changed_keys(reg, changed_since) if changed_since else only
    cache = Cache(None if no_cache else settings.state_dir(registry) / "cache.json")
    hist: History | None = None
    try:
        hist = History(settings.history_path(registry), on_wait=_say)
    except StorageError as exc:  # a history that cannot be written never costs the findings
        warn(f"{exc}; this check is not recorded")
    try:
        with progress() as bar:
            async with open_services(settings, token=os.environ.get("GITHUB_TOKEN")) as services:
                return await check_online(
                    reg, day, services, cache=cache, history=hist, only_keys=keys,
                    exclude=settings.exclude, accept=settings.accept, progress=bar,
                    claims=claims)
    finally:
        if hist is not None:
            hist.close()
        for problem in (cache.problem, hist.problem if hist else None):
            if problem:
                warn(problem)


@app.command(cls=Command)
def report(
    registries: o.Registries = None,
    registry: o.RegistryOpt = None,
    config: o.ConfigOpt = None,
    since: Annotated[str, typer.Option(metavar="DURATION", help="Window length: 7d, 36h, 2w.")] = "7d",
    now: Annotated[str | None, typer.Option(
        metavar="TIME", help="Report as of this time (ISO 8601, UTC if no zone); default: now.")] = None,
    fmt: o.ReportFormatOpt = o.ReportFormat.MARKDOWN,
    output: Annotated[Path | None, typer.Option(
        "--output", "-o", metavar="FILE",
        help="Write here (a regular file, written atomically); - for stdout.")] = None,
    history: o.HistoryOpt = None,
    quiet: o.QuietOpt = False,
) -> None:
    """Dead-link report from the check history, ready for a GitHub issue.

    Every target failing in its latest checked run is in one failing section. Exit 1 if any
    target is dead or newly dead; 2 if there is nothing to report from (no check in the window).

    Example: anchors report --since 14d --output report.md
    """
    from ..registry.atomic import write_atomic
    from ..registry.loader import load
    from ..render import OutputFormat, report_text, summary
    from ..report.weekly import from_history

    configure(quiet)
    try:
        window, at = _duration(since), _instant(now)
        settings, path = o.settings_for(registries, registry, config, {"history": history})
        reg = load(path) if path.exists() else None
        rep = from_history(settings.history_path(path), at, window, reg)
    except AnchorsError as exc:
        _fail(exc)
    to_file = output is not None and str(output) != "-"
    text = report_text(rep, OutputFormat(fmt.value), str(path), None if to_file else sys.stdout)
    if output is not None and to_file:
        write_atomic(output, text.encode("utf-8"))
    else:
        sys.stdout.write(text)
    stderr.print(summary.report_line(rep))
    raise typer.Exit(1 if rep.anything_dead else 0)


@app.command(cls=Command)
def export(
    registries: o.Registries = None,
    registry: o.RegistryOpt = None,
    config: o.ConfigOpt = None,
    section: Annotated[str | None, typer.Option(
        metavar="SECTION",
        help='Only this section ("§1.3" matches "§1.3 KV Cache"); default: all, grouped.')] = None,
    since: Annotated[str | None, typer.Option(
        metavar="DURATION",
        help="Only anchors cited in a briefing within this long before today: 7d, 2w.")] = None,
    status: Annotated[str | None, typer.Option(
        metavar="STATUS", help="Only new or continued anchors.")] = None,
    fmt: o.ExportFormatOpt = o.ExportFormat.MARKDOWN,
    output: Annotated[Path | None, typer.Option(
        "--output", "-o", metavar="FILE", help="Write here, not stdout.")] = None,
    refresh: Annotated[bool, typer.Option(
        "--refresh",
        help="First look up arXiv/GitHub/DOI metadata missing from the cache (network).")] = False,
    cache_dir: o.CacheDir = None,
    today: o.TodayOpt = None,
    quiet: o.QuietOpt = False,
) -> None:
    """Write a section's anchors as a bibliography, with metadata from the cache (no network).

    Example: anchors export --section "§1.3" --format bibtex -o kv-cache.bib
    """
    from ..registry.atomic import write_atomic
    from ..export import ExportFormat, select
    from ..render.bib import render
    from ..render.summary import plural

    configure(quiet)
    try:
        day = _date(today, "--today") or date.today()
        window = _duration(since) if since else None
        settings, path = o.settings_for(registries, registry, config, {"cache_dir": cache_dir})
        if refresh:
            from ..registry.loader import load

            reg = load(path)
            keys = {k for k in reg.by_key() if not k.startswith("url:")}
            _run(_online(reg, path, day, settings, False, None, only=keys))
        items = select(path, settings.state_dir(path) / "cache.json", section=section,
                       since=window, status=status, today=day)
    except AnchorsError as exc:
        _fail(exc)
    text = render(items, ExportFormat(fmt.value), grouped=section is None)
    if output is not None:
        write_atomic(output, text.encode("utf-8"))
    else:
        sys.stdout.write(text)
    stderr.print(f"exported {plural(len(items), 'anchor')}")
    raise typer.Exit(0)


@app.command(cls=Command)
def fix(
    registries: o.Registries = None,
    registry: o.RegistryOpt = None,
    config: o.ConfigOpt = None,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Print the diff, write nothing.")] = False,
    only: Annotated[str | None, typer.Option(
        metavar="KINDS", help="Only these fixes: redirect,renamed-repo,moved-issue,archive.")] = None,
    history: o.HistoryOpt = None,
    quiet: o.QuietOpt = False,
) -> None:
    """Apply what the latest check learnt: permanent redirects, renamed repos, moved issues, snapshots.

    Exit 0 when written or nothing to fix; with --dry-run, 1 when there is something to fix.
    Example: anchors fix --dry-run --only redirect,renamed-repo
    """
    from ..fix import FixKind
    from ..fix import fix as do_fix
    from ..render.escape import plain
    from ..render.summary import plural

    configure(quiet)
    try:
        kinds = None
        if only:
            try:
                kinds = frozenset(FixKind(k.strip()) for k in only.split(","))
            except ValueError:
                raise UsageError(f"--only {only!r}: choose from "
                                 f"{', '.join(k.value for k in FixKind)}") from None
        settings, path = o.settings_for(registries, registry, config, {"history": history})
        res = do_fix(path, settings.history_path(path), dry_run=dry_run, only=kinds,
                     cache=settings.state_dir(path) / "cache.json")
    except AnchorsError as exc:
        _fail(exc)
    sys.stdout.write("".join(plain(ln) + "\n" for ln in res.diff.splitlines()))
    for url, line, new, why in res.skipped:
        warn(f"{path}:{line}: not moved: {url} {why} ({new})")
    verb = "would fix" if dry_run else "fixed" if res.written else "nothing to fix in"
    stderr.print(f"{verb} {path}: {plural(len(res.fixes), 'change')}")
    raise typer.Exit(1 if dry_run and res.fixes else 0)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"anchors {__version__}")
        raise typer.Exit(0)


@app.callback()
def _root(version: Annotated[bool, typer.Option(
        "--version", "-V", callback=_version, help="Show the version.")] = False,
          ) -> None:
    """Citation and arXiv anchor registry with link checking."""


def main() -> None:
    from .. import streams

    streams.guard()
    for sig in _STOPS:
        signal.signal(sig, _on_stop)
    code: int | str | None = 0
    try:
        app()
    except SystemExit as exc:
        code = exc.code
    except KeyboardInterrupt:
        sys.stderr.write("anchors: interrupted\n")
        code = 130
    except _Terminated as exc:
        sys.stderr.write(f"anchors: {exc.word}\n")
        code = exc.code
    try:
        streams.finish()  # a full disk behind stdout shows here, not in a shutdown traceback
    except AnchorsError as exc:
        sys.stderr.write(error_line(str(exc)))
        code = 2
    sys.exit(code)
