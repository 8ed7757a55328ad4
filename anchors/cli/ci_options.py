"""The options a CI job gives `check` and `report` besides the format: more outputs of the same
run (JUnit beside a log, Code Quality beside annotations), `--strict`, and `--verbose`; and how
`check` shows its result with them."""

from __future__ import annotations

import sys
from collections.abc import Iterable
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, TypeVar

import typer

from ..render.console import stderr
from .formats import pick_format

if TYPE_CHECKING:
    from ..render import Outputs, Target
    from ..result import CheckResult

__all__ = ["CheckStrict", "OutputGitlab", "OutputJunit", "Verbose", "show_check", "write_also"]

Result = TypeVar("Result")

OutputJunit = Annotated[
    Path | None,
    typer.Option(
        "--output-junit",
        metavar="FILE",
        help="Also write this run's JUnit XML to FILE, whatever --format is (Jenkins, GitLab, "
        "Gitea/Forgejo test reports).",
    ),
]
OutputGitlab = Annotated[
    Path | None,
    typer.Option(
        "--output-gitlab",
        metavar="FILE",
        help="Also write this run's GitLab Code Quality report to FILE, whatever --format is.",
    ),
]
CheckStrict = Annotated[
    bool,
    typer.Option(
        "--strict",
        help="Warnings fail too (exit 1; JUnit failures): titles, claims, unreachable and "
        "rate-limited links.",
    ),
]
Verbose = Annotated[
    bool,
    typer.Option(
        "--verbose",
        "-v",
        help="After the summary, one line per site (registrable domain): anchors checked, "
        "failing, unverified, rate-limited, median answer time; then one line per figure or "
        "quote checked against its source, with its verdict and evidence.",
    ),
]


def write_also(
    outputs: Outputs[Result],
    result: Result,
    target: Target,
    files: Iterable[tuple[str, Path | None]],
) -> None:
    """The same result in each (format, file) given a file: never a second run."""
    from ..render import write  # start-up: `--help` imports no renderer

    for shown, path in files:
        if path is not None:
            write(outputs, shown, result, sys.stdout, path, target)


def show_check(
    result: CheckResult,
    fmt: Enum | None,
    strict: bool,
    also: Iterable[tuple[str, Path | None]],
    verbose: bool,
) -> None:
    """`check`'s result in its format on stdout, in each other file asked for, then its summary
    (and with `--verbose`, a line per site and per figure checked) on stderr."""
    # start-up: `--help` imports no renderer
    from ..render import CHECK, Target, summary, write
    from ..render.claims import claim_lines

    shape = Target(None, strict=strict)
    write(CHECK, pick_format(fmt, sys.stdout.isatty()).value, result, sys.stdout, None, shape)
    write_also(CHECK, result, shape, also)  # the same run's findings: never a second check
    stderr.print(summary.check_line(result))
    for line in [*summary.host_lines(result), *claim_lines(result)] if verbose else ():
        stderr.print(line)
