"""The one stderr console: progress, summaries and warnings; stdout carries only the report."""

from __future__ import annotations

import os
import sys

from rich.console import Console

__all__ = ["stderr", "stdout_console", "configure"]

stderr = Console(stderr=True, highlight=False, soft_wrap=True)


def configure(quiet: bool) -> None:
    """Quiet silences progress and summaries; errors are still printed."""
    stderr.quiet = quiet


def stdout_console() -> Console:
    """A console for reports on stdout, coloured only on a terminal and without NO_COLOR."""
    color = sys.stdout.isatty() and "NO_COLOR" not in os.environ
    return Console(file=sys.stdout, highlight=False, no_color=not color, soft_wrap=False,
                   emoji=False, markup=False, force_terminal=color or None,
                   width=None if color else 200)
