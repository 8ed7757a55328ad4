"""The options a CI job gives `check` and `report` besides the format: more outputs of the same
run (JUnit beside a log, Code Quality beside annotations), `--strict`, and `--verbose`."""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, TypeVar

import typer

if TYPE_CHECKING:
    from ..render import Outputs, Target

__all__ = ["CheckStrict", "OutputGitlab", "OutputJunit", "Verbose", "write_also"]

R = TypeVar("R")

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
    outputs: Outputs[R], result: R, target: Target, files: Iterable[tuple[str, Path | None]]
) -> None:
    """The same result in each (format, file) given a file: never a second run."""
    from ..render import write

    for fmt, path in files:
        if path is not None:
            write(outputs, fmt, result, sys.stdout, path, target)
