"""The `anchors` command: parse arguments, call the library, render, map to an exit code.

Each command builds its options (`options`) from its flags, calls its `commands.run_*`, renders
the result and picks the exit code, nothing else. Exit codes are `findings.ExitCode`: 0 clean,
1 findings (or invalid citations), 2 unusable input, arguments or output, 70 an internal error,
130/143/129 interrupted by SIGINT/SIGTERM/SIGHUP. An `AnchorsError` from the library becomes
its one `anchors: error:` line in `group.Command`, an unexpected exception its `internal error`
line in `group.Group`, never here.
"""

from __future__ import annotations

import sys
from datetime import date, timedelta
from typing import TYPE_CHECKING

import typer

from ..commands import run_add, run_check, run_export, run_fix, run_report
from ..defaults import REPORT_WINDOW
from ..errors import NetworkDown
from ..findings import ExitCode, exit_code
from ..options import (
    AddOptions,
    CheckOptions,
    ExportOptions,
    FixOptions,
    OneRegistry,
    ReportOptions,
)
from ..render.console import configure, hooks, notice, stderr, warn
from . import ci_options as ci
from . import export_options as eo
from . import flags
from . import formats as fm
from . import options as o
from .group import Command, Group
from .runner import run as run_async  # SIGTERM cancels it as Ctrl-C does; what was learnt stays
from .runner import serve
from .streams import end
from .values import codes as code_values
from .values import date_value, duration, instant

if TYPE_CHECKING:
    from ..export import ExportItem

__all__ = ["app", "main"]

app = typer.Typer(
    cls=Group,
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
    no_args_is_help=True,
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
    help="Citation and arXiv anchor registry with link checking.\n\n"
    "Settings: flag > ANCHORS_* environment > anchors.toml / [tool.anchors] > default.",
)


@app.command(cls=Command)
@flags.with_settings(flags.ADD_SETTINGS, after="strict")
def add(
    briefings: o.BriefingsArg,
    registry: o.AddRegistryOpt = None,
    config: o.ConfigOpt = None,
    briefing_date: o.BriefingDate = None,
    today: o.TodayOpt = None,
    dry_run: o.AddDryRun = False,
    gate: o.Gate = False,
    fmt: o.AddFormatOpt = None,
    strict: o.Strict = False,
    quiet: o.QuietOpt = False,
    **settings: object,
) -> None:
    """Merge briefings into the registry: new vs continued, earliest date, duplicates.

    Only `add` creates a registry (with a header comment), and says so.

    Example: anchors add briefings/2026-09-24-inference-e1.md -r registry.yaml

    In CI: anchors add --check briefings/*.md
    """
    from ..render import ADD, Target, summary, write  # start-up: `--help` imports no renderer

    configure(quiet)
    options = AddOptions(
        registry=OneRegistry.find(o.named([], registry), config, settings),
        briefings=tuple(briefings),
        briefing_date=date_value(briefing_date, "--date"),
        today=date_value(today, "--today") or date.today(),
        dry_run=dry_run,
        gate=gate,
    )
    result = run_add(options, on_wait=notice)
    for line in summary.add_warnings(result.read):
        warn(line)
    shown = fm.pick_format(fmt, sys.stdout.isatty()).value
    write(ADD, shown, result, sys.stdout, target=Target(None, dry_run=not options.writes))
    if (taken := summary.starting_point_line(result, not options.writes)) is not None:
        stderr.print(taken)
    stderr.print(summary.add_line(result, dry_run, gate))
    raise typer.Exit(exit_code(result.findings, strict, stale=gate and not result.up_to_date))


@app.command(cls=Command)
@flags.with_settings(flags.CHECK_SETTINGS, after="codes")
def check(
    registries: o.Registries = None,
    registry: o.RegistryOpt = None,
    config: o.ConfigOpt = None,
    offline: o.Offline = False,
    fmt: o.CheckFormatOpt = None,
    codes: o.Only = None,
    briefings: o.BriefingOpt = None,
    no_cache: o.NoCache = False,
    changed_since: o.ChangedSince = None,
    today: o.TodayOpt = None,
    strict: ci.CheckStrict = False,
    summary_file: o.SummaryFile = None,
    output_junit: ci.OutputJunit = None,
    output_gitlab: ci.OutputGitlab = None,
    verbose: ci.Verbose = False,
    quiet: o.QuietOpt = False,
    **settings: object,
) -> None:
    """Validate registries; online, resolve metadata and check every link.

    A missing file, or one that is not a registry, is exit 2 (nothing is created).

    Example: anchors check registry.yaml lab/registry.yaml --offline --format concise
    """
    configure(quiet)
    options = CheckOptions(
        today=date_value(today, "--today") or date.today(),
        offline=offline,
        codes=code_values(codes),
        briefings=tuple(briefings or ()),
        no_cache=no_cache,
        changed_since=changed_since,
        config=config,
        flags=tuple(settings.items()),
        registries=tuple(o.named(registries, registry)),
    )
    result = run_check(options, hooks(run_async))
    also = (("markdown", summary_file), ("junit", output_junit), ("gitlab", output_gitlab))
    ci.show_check(result, fmt, strict, also, verbose)
    if result.cannot_judge:  # what was found is shown; the gate still cannot pass
        raise NetworkDown(result.cannot_judge)
    raise typer.Exit(exit_code(result.findings, strict))


@app.command(cls=Command)
@flags.with_settings(flags.REPORT_SETTINGS, after="output")
def report(
    registries: o.Registries = None,
    registry: o.RegistryOpt = None,
    config: o.ConfigOpt = None,
    since: o.Window = REPORT_WINDOW,
    now: o.Now = None,
    fmt: o.ReportFormatOpt = fm.ReportFormat.MARKDOWN,
    output: o.ReportOutput = None,
    summary_file: o.SummaryFile = None,
    output_junit: ci.OutputJunit = None,
    full_report: o.FullReport = None,
    quiet: o.QuietOpt = False,
    **settings: object,
) -> None:
    """Dead-link report from the check history, ready for a GitHub issue.

    Every target failing in its latest checked run is in one failing section. Exit 1 if any
    target is dead or newly dead; 2 if there is nothing to report from (no check in the window).

    Example: anchors report --since 14d --output report.md
    """
    from ..render import REPORT, Target, summary, write  # start-up: `--help` imports no renderer

    configure(quiet)
    window, at = timedelta(seconds=duration(since)), instant(now)
    where = OneRegistry.find(o.named(registries, registry), config, settings)
    weekly = run_report(ReportOptions(where, since=window, now=at))
    to_file = None if output is None or str(output) == "-" else output
    named = Target(None, registry=str(where.path), full_report=full_report)
    write(REPORT, fmt.value, weekly, sys.stdout, to_file, named)
    ci.write_also(REPORT, weekly, named, (("markdown", summary_file), ("junit", output_junit)))
    stderr.print(summary.report_line(weekly))
    raise typer.Exit(ExitCode.FINDINGS if weekly.anything_dead else ExitCode.OK)


@app.command(cls=Command)
@flags.with_settings(flags.EXPORT_SETTINGS, after="refresh")
def export(
    registries: o.Registries = None,
    registry: o.RegistryOpt = None,
    config: o.ConfigOpt = None,
    section: eo.Section = None,
    since: eo.CitedWithin = None,
    status: eo.StatusOpt = None,
    fmt: eo.ExportFormatOpt = fm.ExportFormat.MARKDOWN,
    bib_style: eo.BibStyleOpt = fm.BibStyle.CLASSIC,
    output: eo.ExportOutput = None,
    refresh: eo.Refresh = False,
    today: o.TodayOpt = None,
    quiet: o.QuietOpt = False,
    **settings: object,
) -> None:
    """Write a section's anchors as a bibliography, with metadata from the cache (no network).

    Example: anchors export --section "§1.3" --format bibtex -o kv-cache.bib
    """
    # start-up: `--help` imports no renderer
    from ..render import EXPORT, Target, write
    from ..render.summary import export_line, export_warnings

    configure(quiet)
    day = date_value(today, "--today") or date.today()
    window = timedelta(seconds=duration(since)) if since else None
    where = OneRegistry.find(o.named(registries, registry), config, settings)
    options = ExportOptions(
        where, section=section, since=window, status=status, refresh=refresh, today=day
    )
    items = run_export(options, hooks(run_async) if refresh else None)
    grouped = section is None or _several_sections(items)
    shape = Target(None, grouped=grouped, bib_style=bib_style.value)
    write(EXPORT, fmt.value, items, sys.stdout, output, shape)
    for line in export_warnings(items, where.path):
        warn(line)
    stderr.print(export_line(items))
    raise typer.Exit(ExitCode.OK)


@app.command(cls=Command)
@flags.with_settings(flags.FIX_SETTINGS, after="only")
def fix(
    registries: o.Registries = None,
    registry: o.RegistryOpt = None,
    config: o.ConfigOpt = None,
    dry_run: eo.FixDryRun = False,
    only: eo.FixKinds = None,
    quiet: o.QuietOpt = False,
    **settings: object,
) -> None:
    """Apply what the latest check learnt: permanent redirects, renamed repos, moved issues,
    snapshots; with --document, the sections a renumbering of the document moved.

    Exit 0 when written or nothing to fix; with --dry-run, 1 when there is something to fix.
    Example: anchors fix --dry-run --only redirect,renamed-repo
    """
    # start-up: `--help` imports no renderer, and the fixer's vocabulary only for `fix`
    from ..fix import parse_kinds
    from ..render.escape import diff_lines
    from ..render.summary import fix_line, fix_skipped

    configure(quiet)
    kinds = parse_kinds(only)
    where = OneRegistry.find(o.named(registries, registry), config, settings)
    fixed = run_fix(FixOptions(where, dry_run=dry_run, only=kinds))
    sys.stdout.write(diff_lines(fixed.diff))
    end(sys.stdout)  # whole: a reader sees it before the summary, or is known to have gone
    for line in fix_skipped(fixed, where.path):
        warn(line)
    stderr.print(fix_line(fixed, where.path, dry_run))
    raise typer.Exit(ExitCode.FINDINGS if dry_run and fixed.fixes else ExitCode.OK)


def _several_sections(items: list[ExportItem]) -> bool:
    """One section is ready to paste under its heading; several (`§1`, a bare `§1.3`) get
    headings."""
    from ..sections import key as section_key  # start-up: its patterns only for `export`

    return len({section_key(item.section or "") for item in items}) > 1


@app.callback()
def _root(version: o.Version = False, debug: o.Debug = False) -> None:
    """Citation and arXiv anchor registry with link checking."""


def main() -> None:
    serve(app)
