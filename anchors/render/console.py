"""The one stderr console: progress, summaries and warnings; stdout carries only the report.

Colour and width are separate choices, both rich's: colour follows the terminal, `NO_COLOR` and
`FORCE_COLOR`; width is the terminal's, or `COLUMNS`, or 80 in a pipe.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Coroutine, Iterator
from typing import TYPE_CHECKING, Any, TextIO

from rich.console import Console

if TYPE_CHECKING:
    from ..check.session import Hooks
    from ..result import CheckResult

__all__ = ["configure", "hooks", "notice", "progress", "report_console", "stderr", "warn"]

stderr = Console(stderr=True, highlight=False, soft_wrap=True, markup=False, emoji=False)


def configure(quiet: bool) -> None:
    """Quiet silences progress and summaries; errors are still printed."""
    stderr.quiet = quiet


def warn(message: str) -> None:
    from .escape import plain

    stderr.print(f"anchors: warning: {plain(message)}")


def notice(message: str) -> None:
    """A notice that shows even with --quiet: a silent wait (for a lock) looks like a hang."""
    from .escape import plain

    sys.stderr.write(f"anchors: {plain(message)}\n")


def hooks(run: Callable[[Coroutine[Any, Any, CheckResult]], CheckResult]) -> Hooks:
    """What a check shows here while it runs: warnings, lock waits, progress on a terminal."""
    from ..check.session import Hooks

    return Hooks(warn=warn, on_wait=notice, progress=progress, run=run)


def report_console(out: TextIO) -> Console:
    """A console for the report on stdout (or wherever `out` goes)."""
    return Console(file=out, highlight=False, soft_wrap=False, emoji=False, markup=False)


@contextlib.contextmanager
def progress() -> Iterator[Callable[[int, int, int, str], None] | None]:
    """`N/M`, failures so far and the host just answered, on stderr, only on a terminal
    (elsewhere none: a hidden display updated after every answer costs ~20 us a URL)."""
    if not stderr.is_terminal or stderr.quiet:
        yield None
        return
    from rich.progress import BarColumn, Progress, TextColumn

    from .escape import plain

    columns = (
        TextColumn("{task.fields[count]}"),
        BarColumn(),
        TextColumn("{task.fields[failed]} failed", markup=False),
        TextColumn("{task.fields[current]}", markup=False),
    )
    with Progress(*columns, console=stderr, transient=True) as bar:
        task = bar.add_task("checking", total=None, failed=0, current="", count="starting")

        def update(done: int, total: int, failed: int, current: str) -> None:
            bar.update(
                task,
                completed=done,
                total=total,
                failed=failed,
                current=plain(current),
                count=f"{done}/{total}",
            )

        yield update
