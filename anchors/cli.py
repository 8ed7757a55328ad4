"""The `anchors` command: parse arguments, call the library, render, map to an exit code.

Exit codes: 0 clean, 1 findings (or invalid citations), 2 unusable input or arguments,
130/143/129 interrupted by SIGINT/SIGTERM/SIGHUP.
"""

from __future__ import annotations

import signal
import sys
from collections.abc import Coroutine
from datetime import date, datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn, Optional, TypeVar

import click
import typer
from typer.core import TyperGroup

from . import __version__
from .console import configure, stderr, stdout_console
from .errors import AnchorsError, StorageError, UsageError
from .findings import Code, exit_code, summary
from .defaults import (
    DEFAULT_CONCURRENCY,
    DEFAULT_PER_HOST,
    DEFAULT_RETRY_AFTER_CAP,
    DEFAULT_TIMEOUT,
)
from .render import OutputFormat

if TYPE_CHECKING:
    from .claims import Claims
    from .config import Settings
    from .registry import Registry
    from .validate import CheckResult

T = TypeVar("T")

__all__ = ["app", "main"]

class _Commands(TyperGroup):
    """The one place an error becomes `anchors: error: <what, where>` and exit 2.

    Library code raises the AnchorsError family (errors.py) and turns OSError into
    StorageError where it knows what it was doing; a stray OSError still gets the same line.
    """

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except AnchorsError as exc:
            _fail(exc)
        except OSError as exc:
            _fail(StorageError.from_os(exc, "continue"))


app = typer.Typer(cls=_Commands, add_completion=False, pretty_exceptions_enable=False,
                  no_args_is_help=True,
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
    from .render.escape import plain

    sys.stderr.write(f"anchors: error: {plain(str(exc))}\n")  # printed even with --quiet
    raise typer.Exit(code)


def _warn(message: str) -> None:
    stderr.print(f"anchors: warning: {message}", markup=False)


def _say(message: str) -> None:
    """A notice that shows even with --quiet: a silent wait looks like a hang."""
    sys.stderr.write(f"anchors: {message}\n")


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
    gate: Annotated[bool, typer.Option("--check", help=(
        "CI gate: write nothing; exit 1 if the registry is not up to date with the briefings "
        "(something would be added or continued), 0 if it is."))] = False,
    fmt: Annotated[OutputFormat, typer.Option("--format", "-f")] = OutputFormat.TEXT,
    strict: Annotated[bool, typer.Option(help="Duplicates, conflicts and unbacked claims fail (exit 1).")] = False,
    quiet: QuietOpt = False,
) -> None:
    """Merge briefings into the registry: new vs continued, earliest date, duplicates.

    Only `add` creates a registry (with a header comment), and says so.
    Example: anchors add briefings/2026-09-24-e1.md --registry registry.yaml
    In CI: anchors add --check briefings/*.md
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
        result = do_add(registry, parsed, day, dry_run=dry_run or gate, on_wait=_say)
    except AnchorsError as exc:
        _fail(exc)
    for b in parsed:
        if not b.citations and not b.invalid:
            stderr.print(f"anchors: warning: {b.path}: no citations found", markup=False)
    if fmt is OutputFormat.JSON:
        sys.stdout.write(rjson.add_result(result, dry_run or gate))
    else:
        stdout_console().print(rtext.add_result(result))
    stderr.print(rtext.add_summary(result, dry_run, gate), markup=False)
    failed = bool(result.invalid) or (strict and bool(result.duplicates or result.conflicts
                                                        or result.unbacked)) \
        or (gate and not result.up_to_date)
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


def _render_check(result: CheckResult, fmt: OutputFormat) -> None:
    # each renderer is imported only when chosen: markdown's pulls in the report (~50 ms)
    if fmt is OutputFormat.JSON:
        from .render import json as rjson

        sys.stdout.write(rjson.check_result(result))
    elif fmt is OutputFormat.GITHUB:
        from .render import github as rgithub

        sys.stdout.write(rgithub.check_result(result))
    elif fmt is OutputFormat.MARKDOWN:
        from .render import markdown as rmd

        sys.stdout.write(rmd.check_result(result))
    else:
        from .render import text as rtext

        stdout_console().print(rtext.check_result(result))


def _history_path(registry: Path, settings: Settings) -> Path:
    """The one rule for where the history lives, shared by `check` and `report`."""
    if settings.history:
        return Path(settings.history)
    return _state_dir(registry, settings) / "history.sqlite"


def _state_dir(registry: Path, settings: Settings) -> Path:
    from .state import folder

    return folder(registry, settings.cache_dir)


@app.command()
def check(
    registries: Annotated[Optional[list[Path]], typer.Argument(
        help="Registry files (default ./registry.yaml); findings name their file.",
        show_default=False)] = None,
    offline: Annotated[bool, typer.Option(help="No network: format, schema, duplicates.")] = False,
    fmt: Annotated[OutputFormat, typer.Option("--format", "-f")] = OutputFormat.TEXT,
    only_codes: Annotated[Optional[str], typer.Option(
        "--only", help="Report only these codes (comma-separated).")] = None,
    concurrency: Annotated[Optional[int], typer.Option(
        help=f"Requests in flight at most (default {DEFAULT_CONCURRENCY}).")] = None,
    per_host: Annotated[Optional[int], typer.Option(
        help=f"Requests in flight per host at most (default {DEFAULT_PER_HOST}).")] = None,
    timeout: Annotated[Optional[float], typer.Option(
        help=f"Seconds for one request, body included (default {DEFAULT_TIMEOUT:g}).")] = None,
    retry_after_cap: Annotated[Optional[float], typer.Option(
        help=f"Longest Retry-After honoured, in seconds (default {DEFAULT_RETRY_AFTER_CAP:g}).")] = None,
    allow_private: Annotated[Optional[bool], typer.Option(
        "--allow-private", help="Check loopback and private addresses too.")] = None,
    arxiv_api: Annotated[Optional[str], typer.Option(help="arXiv API endpoint.")] = None,
    arxiv_delay: Annotated[Optional[float], typer.Option(
        help="Seconds between arXiv API requests (arXiv asks for 3; lower only for a mirror).")] = None,
    github_api: Annotated[Optional[str], typer.Option(help="GitHub REST API root.")] = None,
    doi_api: Annotated[Optional[str], typer.Option(help="DOI resolver root.")] = None,
    archive: Annotated[Optional[bool], typer.Option(
        "--archive", help="Also look up Wayback snapshots for URL anchors (see `fix`).")] = None,
    wayback_api: Annotated[Optional[str], typer.Option(
        help="Wayback availability API endpoint.")] = None,
    crossref_api: Annotated[Optional[str], typer.Option(
        help="Crossref REST API root, for retractions and corrections.")] = None,
    arxiv_searches: Annotated[Optional[int], typer.Option(
        help="Title searches (\"did you mean\") per run at most; 0 turns them off.")] = None,
    briefing: Annotated[Optional[list[Path]], typer.Option(
        help="Also compare what this briefing claims (state, dates, venue, titles).")] = None,
    cache_dir: Annotated[Optional[str], typer.Option(
        help="Folder for the cache and history (default .anchors beside the registry).")] = None,
    no_cache: Annotated[bool, typer.Option("--no-cache", help="Ignore and keep no cache.")] = False,
    history: Annotated[Optional[str], typer.Option(
        help="History database (default .anchors/history.sqlite).")] = None,
    changed_since: Annotated[Optional[str], typer.Option(
        help="Check online only the anchors added or changed since this git ref.")] = None,
    today: TodayOpt = None,
    quiet: QuietOpt = False,
) -> None:
    """Validate registries; online, resolve metadata and check every link.

    A missing file, or one that is not a registry, is exit 2 (nothing is created).
    Example: anchors check registry.yaml lab/registry.yaml --offline --format github
    """
    from .registry import load
    from .validate import check_offline, combine, only

    configure(quiet)
    try:
        codes = _codes(only_codes)
        day = _date(today, "--today") or date.today()
        paths = registries or [Path(DEFAULT_REGISTRY)]
        regs = [load(p) for p in paths]  # every file is usable before anything is checked
        results = []
        for registry, reg in zip(paths, regs):
            if offline:
                results.append(check_offline(reg, day))
                continue
            flags = dict(concurrency=concurrency, per_host=per_host, timeout=timeout,
                         retry_after_cap=retry_after_cap, allow_private=allow_private,
                         arxiv_api=arxiv_api, arxiv_delay=arxiv_delay, github_api=github_api,
                         doi_api=doi_api, cache_dir=cache_dir, history=history,
                         archive=archive, wayback_api=wayback_api,
                         crossref_api=crossref_api, arxiv_searches=arxiv_searches)
            from .claims import briefing_claims
            from .config import load_settings

            settings = load_settings(registry, flags)
            claims = briefing_claims([str(b) for b in briefing or []])
            results.append(_run(_online(reg, registry, day, settings, no_cache, changed_since,
                                        quiet, claims=claims)))
        result = combine(results)
    except AnchorsError as exc:
        _fail(exc)
    result.findings = only(result.findings, codes)
    _render_check(result, fmt)
    s = summary(result.findings)
    extra = f", {result.cached} from cache" if result.cached else ""
    many = f" in {len(result.registries)} registries" if len(result.registries) > 1 else ""
    stderr.print(f"{result.anchors} anchors{many} ({result.checked} checked online{extra}): "
                 f"{s['error']} errors, {s['warning']} warnings, {s['info']} notes"
                 if result.online else f"{result.anchors} anchors{many}: {s['error']} errors, "
                 f"{s['warning']} warnings, {s['info']} notes", markup=False)
    raise typer.Exit(exit_code(result.findings))


async def _online(reg: Registry, registry: Path, day: date, settings: Settings, no_cache: bool,
                  changed_since: str | None, quiet: bool,
                  only: set[str] | None = None, claims: dict[str, Claims] | None = None) -> CheckResult:
    import os

    from rich.progress import Progress

    from .cache import Cache
    from .check import check_online
    from .clients import open_services
    from .gitdiff import changed_keys
    from .history import History

    keys = changed_keys(reg, changed_since) if changed_since else only
    cache = Cache(None if no_cache else _state_dir(registry, settings) / "cache.json")
    hist: History | None = None
    try:
        hist = History(_history_path(registry, settings), on_wait=_say)
    except StorageError as exc:  # a history that cannot be written never costs the findings
        _warn(f"{exc}; this check is not recorded")
    show = stderr.is_terminal and not quiet
    try:
        with Progress(console=stderr, transient=True, disable=not show) as bar:
            task = bar.add_task("checking", total=None)
            async with open_services(settings, token=os.environ.get("GITHUB_TOKEN")) as services:
                return await check_online(
                    reg, day, services, cache=cache, history=hist, only_keys=keys,
                    exclude=settings.exclude, accept=settings.accept,
                    progress=lambda d, t: bar.update(task, completed=d, total=t),
                    claims=claims)
    finally:
        if hist is not None:
            hist.close()
        for problem in (cache.problem, hist.problem if hist else None):
            if problem:
                _warn(problem)


def _run(coro: Coroutine[Any, Any, T]) -> T:
    """asyncio.run, with SIGTERM cancelling the work like SIGINT does (finally blocks run)."""
    import asyncio

    async def main() -> T:
        task = asyncio.current_task()
        loop = asyncio.get_running_loop()
        terminated: list[int] = []

        def on_term(signum: int) -> None:
            terminated.append(signum)
            if task is not None:
                task.cancel()

        for sig in _STOPS:
            loop.add_signal_handler(sig, on_term, sig)
        try:
            return await coro
        except asyncio.CancelledError:
            if terminated:
                raise _Terminated(terminated[0]) from None
            raise
        finally:
            for sig in _STOPS:
                loop.remove_signal_handler(sig)

    try:
        return asyncio.run(main())
    except KeyboardInterrupt:  # --quiet silences summaries, never this line
        sys.stderr.write("anchors: interrupted; what was checked so far is saved\n")
        raise typer.Exit(130) from None
    except _Terminated as exc:
        sys.stderr.write(f"anchors: {exc.word}; what was checked so far is saved\n")
        raise typer.Exit(exc.code) from None


def _duration(value: str) -> float:
    import re

    m = re.fullmatch(r"\s*(\d{1,9})\s*([hdw])\s*", value)
    if not m:
        raise UsageError(f"--since {value!r} is not a duration (e.g. 7d, 36h, 2w)")
    seconds = int(m[1]) * {"h": 3600, "d": 86400, "w": 604800}[m[2]]
    if seconds > _MAX_WINDOW:
        raise UsageError(f"--since {value!r} is longer than 100 years")
    return seconds


def _instant(value: str | None) -> float:
    if value is None:
        import time

        return time.time()
    try:
        t = datetime.fromisoformat(value)
        t = t if t.tzinfo else t.replace(tzinfo=timezone.utc)
        if not _EARLIEST <= t <= _LATEST:
            raise ValueError
    except (ValueError, OverflowError):
        raise UsageError(f"--now {value!r} is not a time between 2000 and 9000 "
                         "(e.g. 2026-10-01T00:00Z)") from None
    return t.timestamp()


#: Bounds that keep every date a report prints (the window's start included) representable.
_MAX_WINDOW = 100 * 366 * 86400
_EARLIEST = datetime(2000, 1, 1, tzinfo=timezone.utc)
_LATEST = datetime(9000, 1, 1, tzinfo=timezone.utc)


@app.command()
def report(
    registry: RegistryOpt = Path(DEFAULT_REGISTRY),
    since: Annotated[str, typer.Option(help="Window length: 7d, 36h, 2w.")] = "7d",
    now: Annotated[Optional[str], typer.Option(
        help="Report as of this time (ISO 8601, UTC if no zone); default: now.")] = None,
    fmt: Annotated[OutputFormat, typer.Option("--format", "-f")] = OutputFormat.MARKDOWN,
    output: Annotated[Optional[Path], typer.Option(
        "--output", "-o", help="Write here (a regular file, written atomically); - for stdout.")] = None,
    history: Annotated[Optional[str], typer.Option(
        help="History database (default .anchors/history.sqlite beside the registry).")] = None,
    quiet: QuietOpt = False,
) -> None:
    """Dead-link report from the check history, ready for a GitHub issue. Exit 1 if anything is dead.

    Example: anchors report --since 14d --output report.md
    """
    from .atomic import write_atomic
    from .config import load_settings
    from .registry import load
    from .render import json as rjson
    from .render import markdown as rmd
    from .report import from_history

    configure(quiet)
    try:
        _formats(fmt, (OutputFormat.MARKDOWN, OutputFormat.JSON))
        window, at = _duration(since), _instant(now)
        db = _history_path(registry, load_settings(registry, {"history": history}))
        reg = load(registry) if registry.exists() else None
        rep = from_history(db, at, window, reg)
    except AnchorsError as exc:
        _fail(exc)
    text = rjson.report(rep, str(registry)) if fmt is OutputFormat.JSON else rmd.report(rep, str(registry))
    if output is not None and str(output) != "-":
        write_atomic(output, text.encode("utf-8"))
    else:
        sys.stdout.write(text)
    c = rep.counts()
    stderr.print(f"{rep.runs} runs: {c['newly-dead']} newly dead, {c['dead']} dead, "
                 f"{c['flaky']} flaky, {c['recovered']} recovered", markup=False)
    raise typer.Exit(1 if rep.anything_dead else 0)


@app.command()
def export(
    registry: RegistryOpt = Path(DEFAULT_REGISTRY),
    section: Annotated[Optional[str], typer.Option(
        help='Only this section ("§1.3" matches "§1.3 KV Cache"); default: all, grouped.')] = None,
    since: Annotated[Optional[str], typer.Option(
        help="Only anchors cited in a briefing within this long before today: 7d, 2w.")] = None,
    status: Annotated[Optional[str], typer.Option(help="Only new or continued anchors.")] = None,
    fmt: Annotated[str, typer.Option("--format", "-f", help="markdown, bibtex or csl-json.")] = "markdown",
    output: Annotated[Optional[Path], typer.Option("--output", "-o", help="Write here, not stdout.")] = None,
    refresh: Annotated[bool, typer.Option(
        help="First look up arXiv/GitHub/DOI metadata missing from the cache (network).")] = False,
    cache_dir: Annotated[Optional[str], typer.Option(help="Folder of the cache.")] = None,
    today: TodayOpt = None,
    quiet: QuietOpt = False,
) -> None:
    """Write a section's anchors as a bibliography, with metadata from the cache (no network).

    Example: anchors export --section "§1.3" --format bibtex -o kv-cache.bib
    """
    from .atomic import write_atomic
    from .config import load_settings
    from .export import ExportFormat, render, select

    configure(quiet)
    try:
        try:
            form = ExportFormat(fmt)
        except ValueError:
            raise UsageError(f"--format {fmt} is not available here (choose markdown, bibtex, "
                             "csl-json)") from None
        day = _date(today, "--today") or date.today()
        window = _duration(since) if since else None
        settings = load_settings(registry, {"cache_dir": cache_dir})
        if refresh:
            from .registry import load

            reg = load(registry)
            keys = {k for k in reg.by_key() if not k.startswith("url:")}
            _run(_online(reg, registry, day, settings, False, None, True, only=keys))
        items = select(registry, _state_dir(registry, settings) / "cache.json", section=section,
                       since=window, status=status, today=day)
    except AnchorsError as exc:
        _fail(exc)
    text = render(items, form, grouped=section is None)
    if output is not None:
        write_atomic(output, text.encode("utf-8"))
    else:
        sys.stdout.write(text)
    stderr.print(f"exported {len(items)} anchors", markup=False)
    raise typer.Exit(0)


@app.command()
def fix(
    registry: RegistryOpt = Path(DEFAULT_REGISTRY),
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Print the diff, write nothing.")] = False,
    only: Annotated[Optional[str], typer.Option(
        help="Only these fixes: redirect,renamed-repo,moved-issue,archive.")] = None,
    history: Annotated[Optional[str], typer.Option(
        help="History database (default .anchors/history.sqlite beside the registry).")] = None,
    quiet: QuietOpt = False,
) -> None:
    """Apply what the latest check learnt: permanent redirects, renamed repos, moved issues, snapshots.

    Exit 0 when written or nothing to fix; with --dry-run, 1 when there is something to fix.
    Example: anchors fix --dry-run --only redirect,renamed-repo
    """
    from .config import load_settings
    from .fix import FixKind
    from .fix import fix as do_fix
    from .render.escape import plain

    configure(quiet)
    try:
        kinds = None
        if only:
            try:
                kinds = frozenset(FixKind(k.strip()) for k in only.split(","))
            except ValueError:
                raise UsageError(f"--only {only!r}: choose from "
                                 f"{', '.join(k.value for k in FixKind)}") from None
        settings = load_settings(registry, {"history": history})
        res = do_fix(registry, _history_path(registry, settings), dry_run=dry_run, only=kinds,
                     cache=_state_dir(registry, settings) / "cache.json")
    except AnchorsError as exc:
        _fail(exc)
    sys.stdout.write("".join(plain(ln) + "\n" for ln in res.diff.splitlines()))
    for url, line, new, why in res.skipped:
        stderr.print(f"anchors: {registry}:{line}: not moved: {plain(url)} {why} "
                     f"({plain(new)})", markup=False)
    verb = "would fix" if dry_run else "fixed" if res.written else "nothing to fix in"
    stderr.print(f"{verb} {registry}: {len(res.fixes)} changes", markup=False)
    raise typer.Exit(1 if dry_run and res.fixes else 0)


@app.callback(invoke_without_command=True)
def _root(version: Annotated[bool, typer.Option("--version", help="Show the version.")] = False) -> None:
    if version:
        typer.echo(f"anchors {__version__}")
        raise typer.Exit(0)


#: Signals that end a run like Ctrl-C does, keeping what was learnt: name and exit code.
_STOPS = {signal.SIGTERM: ("terminated", 143), signal.SIGHUP: ("hung up", 129)}


def _on_stop(signum: int, frame: object) -> None:
    raise _Terminated(signum)


class _Terminated(BaseException):
    def __init__(self, signum: int = signal.SIGTERM) -> None:
        super().__init__(signum)
        self.word, self.code = _STOPS.get(signal.Signals(signum), ("terminated", 143))


def main() -> None:
    from . import streams

    streams.guard()
    for sig in _STOPS:
        signal.signal(sig, _on_stop)
    code: int | str | None = 0
    try:
        app(standalone_mode=True)
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
        sys.stderr.write(f"anchors: error: {exc}\n")
        code = 2
    sys.exit(code)
