"""The console entry point: `--version` is answered before the CLI framework is imported.

`anchors --version` runs in pre-commit hooks and CI probes; importing typer (and, through it,
pydantic) costs ~100 ms for a one-line answer.
"""

from __future__ import annotations

import sys

from .. import __version__
from ..errors import StorageError
from . import streams

__all__ = ["main"]


def main() -> None:
    if sys.argv[1:] in (["--version"], ["-V"]):
        streams.guard()  # a reader that went away is exit 2 here too (`streams.settle`)
        try:
            sys.stdout.write(f"anchors {__version__}\n")
        except StorageError as exc:
            sys.stderr.write(f"anchors: error: {exc}\n")
        problem, unusable = streams.settle()
        if problem is not None:
            sys.stderr.write(f"anchors: error: {problem}\n")
        if unusable:
            sys.exit(2)
        return
    from .app import main as cli_main  # start-up: typer only when a command runs

    cli_main()
