"""The `anchors` command: parse arguments, call the library, render, map to an exit code.

Exit codes: 0 clean, 1 findings (or invalid citations), 2 unusable input or arguments,
130/143 interrupted by SIGINT/SIGTERM.
"""

from __future__ import annotations

import signal
import sys
from datetime import date
from pathlib import Path
from typing import Annotated, NoReturn, Optional

import typer

from . import __version__
from .console import configure, stderr, stdout_console
from .errors import AnchorsError, UsageError
from .findings import Code
from .render import OutputFormat

__all__ = ["app", "main"]

app = typer.Typer(add_completion=False, pretty_exceptions_enable=False, no_args_is_help=True,
                  help="Citation and arXiv anchor registry with link checking.")

DEFAULT_REGISTRY = "registry.yaml"

RegistryOpt = Annotated[Path, typer.Option("--registry", "-r", help="Registry file.")]
TodayOpt = Annotated[Optional[str], typer.Option(
    help="Date to judge future IDs against (YYYY-MM-DD); default: today.")]
QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", help="No progress or summary on stderr.")]


def _date(value: str | None, name: str) -> date | None:
    if value is None:
        return None
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise UsageError(f"{name} {value!r} is not a date (YYYY-MM-DD)") from None


def _fail(exc: BaseException, code: int = 2) -> NoReturn:
    stderr.print(f"anchors: error: {exc}", markup=False, highlight=False)
    raise typer.Exit(code)


def _formats(fmt: OutputFormat, allowed: tuple[OutputFormat, ...]) -> None:
    if fmt not in allowed:
        raise UsageError(f"--format {fmt.value} is not available here "
                         f"(choose {', '.join(f.value for f in allowed)})")


@app.command()
def add(
    briefings: Annotated[list[Path], typer.Argument(help="Briefing files (Markdown).")],
    registry: RegistryOpt = Path(DEFAULT_REGISTRY),
    when: Annotated[Optional[str], typer.Option(
        "--date", help="Briefing date when the briefing names none (YYYY-MM-DD).")] = None,
    today: TodayOpt = None,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Show the merge, write nothing.")] = False,
    fmt: Annotated[OutputFormat, typer.Option("--format", "-f")] = OutputFormat.TEXT,
    strict: Annotated[bool, typer.Option(help="Duplicates and conflicts fail (exit 1).")] = False,
    quiet: QuietOpt = False,
) -> None:
    """Merge briefings into the registry: new vs continued, earliest date, duplicates.

    Example: anchors add briefings/2026-09-24-e1.md --registry registry.yaml
    """
    from .extract import read_briefing
    from .merge import add as do_add
    from .render import json as rjson
    from .render import text as rtext

    configure(quiet)
    try:
        _formats(fmt, (OutputFormat.TEXT, OutputFormat.JSON))
        override = _date(when, "--date")
        day = _date(today, "--today") or date.today()
        parsed = [read_briefing(b, override) for b in briefings]
        result = do_add(registry, parsed, day, dry_run=dry_run)
    except AnchorsError as exc:
        _fail(exc)
    if fmt is OutputFormat.JSON:
        sys.stdout.write(rjson.add_result(result, dry_run))
    else:
        stdout_console().print(rtext.add_result(result))
    verb = "would change" if dry_run else "wrote" if result.written else "no change to"
    stderr.print(f"{verb} {registry}: {len(result.added)} added, {len(result.continued)} "
                 f"continued, {len(result.duplicates)} duplicates, {len(result.conflicts)} "
                 f"conflicts, {len(result.invalid)} invalid", markup=False)
    failed = bool(result.invalid) or (strict and bool(result.duplicates or result.conflicts))
    raise typer.Exit(1 if failed else 0)


def _codes(value: str | None) -> frozenset[Code] | None:
    if not value:
        return None
    out = set()
    for part in value.split(","):
        try:
            out.add(Code(part.strip()))
        except ValueError:
            raise UsageError(f"--only: unknown code {part.strip()!r} "
                             f"(codes: {', '.join(c.value for c in Code)})") from None
    return frozenset(out)


@app.command()
def check(
    registry: Annotated[Path, typer.Argument(help="Registry file.")] = Path(DEFAULT_REGISTRY),
    offline: Annotated[bool, typer.Option(help="No network: format, schema, duplicates.")] = False,
    fmt: Annotated[OutputFormat, typer.Option("--format", "-f")] = OutputFormat.TEXT,
    only_codes: Annotated[Optional[str], typer.Option(
        "--only", help="Report only these codes (comma-separated).")] = None,
    today: TodayOpt = None,
    quiet: QuietOpt = False,
) -> None:
    """Validate the registry; online, resolve metadata and check every link.

    Example: anchors check registry.yaml --offline --format github
    """
    from .check import check_offline, only
    from .registry import load
    from .render import github as rgithub
    from .render import json as rjson
    from .render import markdown as rmd
    from .render import text as rtext

    configure(quiet)
    try:
        codes = _codes(only_codes)
        day = _date(today, "--today") or date.today()
        reg = load(registry)
        result = check_offline(reg, day)
    except AnchorsError as exc:
        _fail(exc)
    result.findings = only(result.findings, codes)
    if fmt is OutputFormat.JSON:
        sys.stdout.write(rjson.check_result(result))
    elif fmt is OutputFormat.GITHUB:
        sys.stdout.write(rgithub.check_result(result))
    elif fmt is OutputFormat.MARKDOWN:
        sys.stdout.write(rmd.check_result(result))
    else:
        stdout_console().print(rtext.check_result(result))
    from .findings import exit_code, summary

    s = summary(result.findings)
    stderr.print(f"{result.anchors} anchors: {s['error']} errors, {s['warning']} warnings, "
                 f"{s['info']} notes", markup=False)
    raise typer.Exit(exit_code(result.findings))


@app.callback(invoke_without_command=True)
def _root(version: Annotated[bool, typer.Option("--version", help="Show the version.")] = False) -> None:
    if version:
        typer.echo(f"anchors {__version__}")
        raise typer.Exit(0)


def _on_sigterm(signum: int, frame: object) -> None:
    raise _Terminated()


class _Terminated(BaseException):
    pass


def main() -> None:
    signal.signal(signal.SIGTERM, _on_sigterm)
    try:
        app(standalone_mode=True)
    except KeyboardInterrupt:
        stderr.print("anchors: interrupted; what was checked is saved", markup=False)
        sys.exit(130)
    except _Terminated:
        stderr.print("anchors: terminated; what was checked is saved", markup=False)
        sys.exit(143)
