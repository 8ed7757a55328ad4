"""The options every command shares, declared once (`check`'s network ones are in `network`,
`export`'s and `fix`'s own in `export_options`, the formats each command offers in `formats`).

A flag means the same thing in every command (sqlite-utils' shared decorators, as typer
`Annotated` aliases); each environment variable is the config table's, shown in `--help`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from .. import __version__
from ..config import CONFIG_ENV
from ..defaults import DEFAULT_PENDING_DAYS
from ..findings import ExitCode
from .formats import AddFormat, CheckFormat, ReportFormat
from .network import env

__all__ = ["named"]


def named(given: list[Path] | None, option: Path | None) -> list[Path]:
    """The registries named on the command line: the arguments, then `--registry/-r`."""
    return [*(given or []), *([option] if option else [])]


Registries = Annotated[
    list[Path] | None,
    typer.Argument(
        metavar="REGISTRY",
        show_default=False,
        help="Registry file(s) (default: the config's `registry`, else ./registry.yaml).",
    ),
]
RegistryOpt = Annotated[
    Path | None,
    typer.Option(
        "--registry",
        "-r",
        metavar="FILE",
        show_default=False,
        help="Registry file; the same as the argument (env var: ANCHORS_REGISTRY).",
    ),
]
AddRegistryOpt = Annotated[
    Path | None,
    typer.Option(
        "--registry",
        "-r",
        metavar="FILE",
        show_default=False,
        help="Registry to merge the briefings into, created if missing (default: the config's "
        "`registry`, else ./registry.yaml; env var: ANCHORS_REGISTRY).",
    ),
]
ConfigOpt = Annotated[
    Path | None,
    typer.Option(
        "--config",
        "-c",
        metavar="FILE",
        envvar=CONFIG_ENV,
        show_envvar=True,
        help="Read settings from this file only (anchors.toml or pyproject.toml) instead of "
        "looking for them from the registry's folder up to the repository root.",
    ),
]
TodayOpt = Annotated[
    str | None,
    typer.Option(metavar="YYYY-MM-DD", help="Date to judge future IDs against; default: today."),
]
QuietOpt = Annotated[
    bool,
    typer.Option("--quiet", "-q", help="No progress, summary or warnings on stderr; errors still."),
]
HistoryOpt = Annotated[
    str | None,
    typer.Option(
        metavar="FILE",
        **env("history"),
        help=(
            "History database (default: .anchors/history.sqlite beside the registry); "
            "ANCHORS_HISTORY_DAYS=N keeps N days of observations (check)."
        ),
    ),
]

CheckFormatOpt = Annotated[
    CheckFormat | None,
    typer.Option(
        "--format",
        "-f",
        show_default=False,
        help="Default: text on a terminal, concise in a pipe. concise: one finding a line "
        "(file:line: code anchor message); github: workflow annotations; sarif: code scanning; "
        "junit: a test report (one case per anchor); gitlab: GitLab Code Quality.",
    ),
]
AddFormatOpt = Annotated[
    AddFormat | None,
    typer.Option(
        "--format",
        "-f",
        show_default=False,
        help="Default: text on a terminal (what changed, and how many did not), concise in a "
        "pipe (one line per anchor: file:line: change anchor section title).",
    ),
]
ReportFormatOpt = Annotated[ReportFormat, typer.Option("--format", "-f")]

Offline = Annotated[bool, typer.Option("--offline", help="No network: format, schema, duplicates.")]
Only = Annotated[
    str | None,
    typer.Option(
        "--only", metavar="CODES", help="Report only these finding codes (comma-separated)."
    ),
]
BriefingOpt = Annotated[
    list[Path] | None,
    typer.Option(
        "--briefing",
        metavar="FILE",
        help="Also compare what this briefing claims (state, dates, venue, titles); repeatable.",
    ),
]
CacheDir = Annotated[
    str | None,
    typer.Option(
        metavar="DIR",
        **env("cache_dir"),
        help="Folder for the cache and history (default: .anchors beside the registry).",
    ),
]
NoCache = Annotated[bool, typer.Option("--no-cache", help="Ignore and keep no cache.")]
ChangedSince = Annotated[
    str | None,
    typer.Option(
        metavar="REF", help="Check online only the anchors added or changed since this git ref."
    ),
]

DocumentOpt = Annotated[
    list[Path] | None,
    typer.Option(
        "--document",
        metavar="FILE",
        show_default=False,
        help="The living document (Markdown) the registry feeds: its numbered sections are "
        "held against the entries' `section`; repeatable, replaces the config's `document`. "
        "Never written.",
    ),
]
AddDocumentOpt = Annotated[
    list[Path] | None,
    typer.Option(
        "--document",
        metavar="FILE",
        show_default=False,
        help="The living document (Markdown) the briefings cite (`inference.md §1.1`): each "
        "such reference is held against its numbered sections; repeatable, replaces the "
        "config's `document`. Never written.",
    ),
]
PendingDays = Annotated[
    int | None,
    typer.Option(
        metavar="DAYS",
        min=0,
        help=f"Days an entry may wait for its section of the --document before it is overdue "
        f"(default {DEFAULT_PENDING_DAYS}), counted to --today (report: --now).",
    ),
]

BriefingsArg = Annotated[
    list[Path], typer.Argument(metavar="BRIEFING", help="Briefing files (Markdown).")
]
BriefingDate = Annotated[
    str | None,
    typer.Option(
        "--date",
        metavar="YYYY-MM-DD",
        help="The briefing's date, over the one its title or file name gives.",
    ),
]
AddDryRun = Annotated[bool, typer.Option("--dry-run", help="Show the merge, write nothing.")]
Gate = Annotated[
    bool,
    typer.Option(
        "--check",
        help=(
            "CI gate: write nothing; exit 1 if the registry is not up to date with the briefings "
            "(something would be added or continued), 0 if it is."
        ),
    ),
]
Strict = Annotated[
    bool,
    typer.Option(
        "--strict",
        help="Warnings fail too (exit 1): duplicates, conflicts, unbacked claims, "
        "IDs later than their briefing.",
    ),
]
Window = Annotated[str, typer.Option(metavar="DURATION", help="Window length: 7d, 36h, 2w.")]
Now = Annotated[
    str | None,
    typer.Option(
        metavar="TIME", help="Report as of this time (ISO 8601, UTC if no zone); default: now."
    ),
]
ReportOutput = Annotated[
    Path | None,
    typer.Option(
        "--output",
        "-o",
        metavar="FILE",
        help="Write here (a regular file, written atomically); - for stdout.",
    ),
]
FullReport = Annotated[
    str | None,
    typer.Option(
        "--full-report",
        metavar="URL|PATH",
        help="Where the full report is kept (e.g. the CI run's page with the JSON report as an "
        "artifact): named, as a link, where the Markdown cuts rows to fit a GitHub issue.",
    ),
]
SummaryFile = Annotated[
    Path | None,
    typer.Option(
        "--summary",
        metavar="FILE",
        help="Also write this run's Markdown rendering to FILE, whatever --format is "
        "(e.g. a CI job summary beside SARIF).",
    ),
]


def _version(value: bool) -> None:
    if value:
        typer.echo(f"anchors {__version__}")
        raise typer.Exit(ExitCode.OK)


Debug = Annotated[
    bool,
    typer.Option(
        "--debug",
        help="Show the traceback of an internal error (exit 70); also ANCHORS_DEBUG=1.",
    ),
]
Version = Annotated[
    bool, typer.Option("--version", "-V", callback=_version, help="Show the version.")
]
