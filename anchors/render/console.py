"""The one stderr console: progress, summaries and warnings; stdout carries only the report.

Colour and width are separate choices, both rich's: colour follows the terminal, `NO_COLOR` and
`FORCE_COLOR`; width is the terminal's, or `COLUMNS`, or 80 in a pipe.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Coroutine, Iterator
from typing import TYPE_CHECKING, TextIO

from .escape import plain

if TYPE_CHECKING:
    from rich.console import Console

    from ..check.session import Hooks
    from ..result import CheckResult

__all__ = ["configure", "hooks", "notice", "progress", "report_console", "stderr", "warn"]


class ErrConsole:
    """stderr's rich console, built on first use: importing rich costs ~30 ms of a start-up,
    and most runs only print a summary line or a warning, which need none of it."""

    def __init__(self) -> None:
        self._quiet = False
        self._console: Console | None = None

    @property
    def console(self) -> Console:
        if self._console is None:
            from rich.console import Console  # start-up: see the class's docstring

            self._console = Console(
                stderr=True,
                highlight=False,
                soft_wrap=True,
                markup=False,
                emoji=False,
                quiet=self._quiet,
            )
        return self._console

    @property
    def quiet(self) -> bool:
        return self._quiet

    @quiet.setter
    def quiet(self, value: bool) -> None:
        self._quiet = value
        if self._console is not None:
            self._console.quiet = value

    @property
    def is_terminal(self) -> bool:
        return self.console.is_terminal

    def print(self, text: str) -> None:
        """One line (or block) of text as it is: no markup, no highlighting, no style. Until
        rich is in use (a progress display), written as rich writes unstyled text (tabs
        expanded, the controls it drops dropped), without importing it (~30 ms)."""
        if self._quiet:
            return
        if self._console is not None:
            self._console.print(text)
            return
        sys.stderr.write(text.translate(_RICH_DROPS).expandtabs(8) + "\n")
        sys.stderr.flush()


#: the control characters rich's `Text` strips from what it prints (bell, backspace, VT, FF, CR)
_RICH_DROPS = str.maketrans("", "", "\x07\x08\x0b\x0c\x0d")


stderr = ErrConsole()


def configure(quiet: bool) -> None:
    """Quiet silences progress and summaries; errors are still printed."""
    stderr.quiet = quiet


def warn(message: str) -> None:
    stderr.print(f"anchors: warning: {plain(message)}")


def notice(message: str) -> None:
    """A notice that shows even with --quiet: a silent wait (for a lock) looks like a hang."""
    sys.stderr.write(f"anchors: {plain(message)}\n")


def hooks(run: Callable[[Coroutine[object, None, CheckResult]], CheckResult]) -> Hooks:
    """What a check shows here while it runs: warnings, lock waits, progress on a terminal."""
    # the check stands above the renderers (the layer table): its hooks load when one runs
    from ..check.session import Hooks

    return Hooks(warn=warn, on_wait=notice, progress=progress, run=run)


def report_console(out: TextIO) -> Console:
    """A console for the report on stdout (or wherever `out` goes)."""
    from rich.console import Console  # start-up: rich loads when a layout is drawn (`ErrConsole`)

    return Console(file=out, highlight=False, soft_wrap=False, emoji=False, markup=False)


@contextlib.contextmanager
def progress() -> Iterator[Callable[[int, int, int, str], None] | None]:
    """`N/M`, failures so far and the host just answered, on stderr, only on a terminal
    (elsewhere none: a hidden display updated after every answer costs ~20 us a URL)."""
    if not stderr.is_terminal or stderr.quiet:
        yield None
        return
    from rich.progress import BarColumn, Progress, TextColumn  # start-up, as in `ErrConsole`

    columns = (
        TextColumn("{task.fields[count]}"),
        BarColumn(),
        TextColumn("{task.fields[failed]} failed", markup=False),
        TextColumn("{task.fields[current]}", markup=False),
    )
    with Progress(*columns, console=stderr.console, transient=True) as bar:
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
