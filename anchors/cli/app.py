"""The `anchors` command: parse arguments, call the library, render, map to an exit code.

Exit codes are `findings.ExitCode`: 0 clean, 1 findings (or invalid citations), 2 unusable
input, arguments or output, 70 an internal error, 130/143/129 interrupted by SIGINT/SIGTERM/
SIGHUP. An `AnchorsError` from the library becomes its one `anchors: error:` line in
`group.Command`, an unexpected exception its `internal error` line in `group.Group`, never here.
"""

from __future__ import annotations

import sys
from datetime import date

import typer

from ..config import all_registries, one_registry
from ..defaults import REPORT_WINDOW
from ..errors import NetworkDown
from ..findings import ExitCode, exit_code
from ..render.console import configure, hooks, notice, stderr, warn
from . import ci_options as ci
from . import export_options as eo
from . import formats as fm
from . import network as n
from . import options as o
from .group import Command, Group
from .runner import run as _run  # SIGTERM cancels a run as Ctrl-C does; what was checked is kept
from .values import codes as _codes
from .values import date_value as _date
from .values import duration as _duration
from .values import instant as _instant

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
def add(
    briefings: o.BriefingsArg,
    registry: o.AddRegistryOpt = None,
    config: o.ConfigOpt = None,
    when: o.BriefingDate = None,
    today: o.TodayOpt = None,
    dry_run: o.AddDryRun = False,
    gate: o.Gate = False,
    fmt: o.AddFormatOpt = None,
    strict: o.Strict = False,
    document: o.AddDocumentOpt = None,
    quiet: o.QuietOpt = False,
) -> None:
    """Merge briefings into the registry: new vs continued, earliest date, duplicates.

    Only `add` creates a registry (with a header comment), and says so.

    Example: anchors add briefings/2026-09-24-inference-e1.md -r registry.yaml

    In CI: anchors add --check briefings/*.md
    """
    from ..document import read_documents, refs
    from ..extract.citations import read_briefing
    from ..merging.merge import add as do_add
    from ..render import ADD, Target, summary, write

    configure(quiet)
    settings, path = one_registry(o.named([], registry), {"document": document}, config)
    override = _date(when, "--date")
    day = _date(today, "--today") or date.today()
    parsed = [read_briefing(b, override) for b in briefings]
    docs = read_documents(settings.document)
    result = do_add(path, parsed, day, dry_run=dry_run or gate, on_wait=notice)
    result.findings += refs(parsed, docs)
    for line in summary.add_warnings(parsed):
        warn(line)
    shown = fm.pick_format(fmt, sys.stdout.isatty()).value
    write(ADD, shown, result, sys.stdout, target=Target(None, dry_run=dry_run or gate))
    if (taken := summary.starting_point_line(result, dry_run or gate)) is not None:
        stderr.print(taken)
    stderr.print(summary.add_line(result, dry_run, gate))
    raise typer.Exit(exit_code(result.findings, strict, stale=gate and not result.up_to_date))


@app.command(cls=Command)
def check(
    ctx: typer.Context,
    registries: o.Registries = None,
    registry: o.RegistryOpt = None,
    config: o.ConfigOpt = None,
    offline: o.Offline = False,
    fmt: o.CheckFormatOpt = None,
    only_codes: o.Only = None,
    concurrency: n.Concurrency = None,
    per_host: n.PerHost = None,
    timeout: n.Timeout = None,
    retry_after_cap: n.RetryAfterCap = None,
    max_unreachable: n.MaxUnreachable = None,
    allow_private: n.AllowPrivate = None,
    arxiv_api: n.ArxivApi = None,
    arxiv_html: n.ArxivHtml = None,
    arxiv_delay: n.ArxivDelay = None,
    github_api: n.GithubApi = None,
    doi_api: n.DoiApi = None,
    archive: n.Archive = None,
    wayback_api: n.WaybackApi = None,
    archive_save: n.ArchiveSave = None,
    save_api: n.SaveApi = None,
    crossref_api: n.CrossrefApi = None,
    arxiv_searches: n.ArxivSearches = None,
    exclude: n.Exclude = None,
    accept: n.Accept = None,
    briefing: o.BriefingOpt = None,
    cache_dir: o.CacheDir = None,
    no_cache: o.NoCache = False,
    history: o.HistoryOpt = None,
    changed_since: o.ChangedSince = None,
    document: o.DocumentOpt = None,
    pending_days: o.PendingDays = None,
    today: o.TodayOpt = None,
    strict: ci.CheckStrict = False,
    summary_file: o.SummaryFile = None,
    output_junit: ci.OutputJunit = None,
    output_gitlab: ci.OutputGitlab = None,
    verbose: ci.Verbose = False,
    quiet: o.QuietOpt = False,
) -> None:
    """Validate registries; online, resolve metadata and check every link.

    A missing file, or one that is not a registry, is exit 2 (nothing is created).

    Example: anchors check registry.yaml lab/registry.yaml --offline --format concise
    """
    from ..archive.hook import RunHook
    from ..check.session import CheckOptions
    from ..check.session import check as run_check
    from ..render import CHECK, Target, summary, write
    from ..render.claims import claim_lines

    configure(quiet)
    options = CheckOptions(
        today=_date(today, "--today") or date.today(),
        offline=offline,
        codes=_codes(only_codes),
        briefings=tuple(briefing or ()),
        no_cache=no_cache,
        changed_since=changed_since,
        config=config,
        flags=o.given(ctx.params, o.CHECK_SETTINGS),
    )
    paths = all_registries(o.named(registries, registry), config)
    result = run_check(paths, options, hooks(_run), after=RunHook())
    shape = Target(None, strict=strict)
    write(CHECK, fm.pick_format(fmt, sys.stdout.isatty()).value, result, sys.stdout, None, shape)
    also = (("markdown", summary_file), ("junit", output_junit), ("gitlab", output_gitlab))
    ci.write_also(CHECK, result, shape, also)  # the same run's findings: never a second check
    stderr.print(summary.check_line(result))
    for line in [*summary.host_lines(result), *claim_lines(result)] if verbose else ():
        stderr.print(line)
    if result.cannot_judge:  # what was found is shown; the gate still cannot pass
        raise NetworkDown(result.cannot_judge)
    raise typer.Exit(exit_code(result.findings, strict))


@app.command(cls=Command)
def report(
    registries: o.Registries = None,
    registry: o.RegistryOpt = None,
    config: o.ConfigOpt = None,
    since: o.Window = REPORT_WINDOW,
    now: o.Now = None,
    fmt: o.ReportFormatOpt = fm.ReportFormat.MARKDOWN,
    output: o.ReportOutput = None,
    history: o.HistoryOpt = None,
    document: o.DocumentOpt = None,
    pending_days: o.PendingDays = None,
    summary_file: o.SummaryFile = None,
    output_junit: ci.OutputJunit = None,
    full_report: o.FullReport = None,
    quiet: o.QuietOpt = False,
) -> None:
    """Dead-link report from the check history, ready for a GitHub issue.

    Every target failing in its latest checked run is in one failing section. Exit 1 if any
    target is dead or newly dead; 2 if there is nothing to report from (no check in the window).

    Example: anchors report --since 14d --output report.md
    """
    from ..render import REPORT, Target, summary, write
    from ..report.weekly import for_registry

    configure(quiet)
    window, at = _duration(since), _instant(now)
    flags = {"history": history, "document": document, "pending_days": pending_days}
    settings, path = one_registry(o.named(registries, registry), flags, config)
    rep = for_registry(path, settings, at, window)
    to = None if output is None or str(output) == "-" else output
    named = Target(None, registry=str(path), full_report=full_report)
    write(REPORT, fmt.value, rep, sys.stdout, to, named)
    ci.write_also(REPORT, rep, named, (("markdown", summary_file), ("junit", output_junit)))
    stderr.print(summary.report_line(rep))
    raise typer.Exit(ExitCode.FINDINGS if rep.anything_dead else ExitCode.OK)


@app.command(cls=Command)
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
    cache_dir: o.CacheDir = None,
    today: o.TodayOpt = None,
    quiet: o.QuietOpt = False,
) -> None:
    """Write a section's anchors as a bibliography, with metadata from the cache (no network).

    Example: anchors export --section "§1.3" --format bibtex -o kv-cache.bib
    """
    from ..export import export as do_export
    from ..render import EXPORT, Target, write
    from ..render.summary import export_line, export_warnings
    from ..sections import key as section_key

    configure(quiet)
    day = _date(today, "--today") or date.today()
    window = _duration(since) if since else None
    settings, path = one_registry(o.named(registries, registry), {"cache_dir": cache_dir}, config)
    if refresh:
        from ..check.session import refresh as refresh_cache

        refresh_cache(path, settings, day, hooks(_run))
    items = do_export(
        path,
        settings,
        today=day,
        section=section,
        since=window,
        status=status,
    )
    # one section: ready to paste under its heading; several (`§1`, a bare `§1.3`): headings
    grouped = section is None or len({section_key(i.section or "") for i in items}) > 1
    shape = Target(None, grouped=grouped, bib_style=bib_style.value)
    write(EXPORT, fmt.value, items, sys.stdout, output, shape)
    for line in export_warnings(items, path):
        warn(line)
    stderr.print(export_line(items))
    raise typer.Exit(ExitCode.OK)


@app.command(cls=Command)
def fix(
    registries: o.Registries = None,
    registry: o.RegistryOpt = None,
    config: o.ConfigOpt = None,
    dry_run: eo.FixDryRun = False,
    only: eo.FixKinds = None,
    history: o.HistoryOpt = None,
    cache_dir: o.CacheDir = None,
    document: o.DocumentOpt = None,
    quiet: o.QuietOpt = False,
) -> None:
    """Apply what the latest check learnt: permanent redirects, renamed repos, moved issues,
    snapshots; with --document, the sections a renumbering of the document moved.

    Exit 0 when written or nothing to fix; with --dry-run, 1 when there is something to fix.
    Example: anchors fix --dry-run --only redirect,renamed-repo
    """
    from ..fix import fix_registry, parse_kinds
    from ..render.escape import diff_lines
    from ..render.summary import fix_line, fix_skipped
    from .streams import end

    configure(quiet)
    kinds = parse_kinds(only)
    flags = {"history": history, "cache_dir": cache_dir, "document": document}
    settings, path = one_registry(o.named(registries, registry), flags, config)
    res = fix_registry(path, settings, dry_run=dry_run, only=kinds)
    sys.stdout.write(diff_lines(res.diff))
    end(sys.stdout)  # whole: a reader sees it before the summary, or is known to have gone
    for line in fix_skipped(res, path):
        warn(line)
    stderr.print(fix_line(res, path, dry_run))
    raise typer.Exit(ExitCode.FINDINGS if dry_run and res.fixes else ExitCode.OK)


@app.callback()
def _root(version: o.Version = False, debug: o.Debug = False) -> None:
    """Citation and arXiv anchor registry with link checking."""


def main() -> None:
    from .runner import serve

    serve(app)
