"""The formats each command offers, and the one rule for `check` and `add` without `--format`
(here, not in `options`, so `--help` imports no renderer)."""

from __future__ import annotations

from enum import Enum

from ..render import OutputFormat

__all__ = [
    "FORMATS",
    "AddFormat",
    "BibStyle",
    "CheckFormat",
    "ExportFormat",
    "ReportFormat",
    "pick_format",
]


class AddFormat(str, Enum):
    TEXT = "text"
    CONCISE = "concise"
    JSON = "json"


#: check offers every format there is
CheckFormat = OutputFormat


class ReportFormat(str, Enum):
    MARKDOWN = "markdown"
    JSON = "json"
    JUNIT = "junit"


class ExportFormat(str, Enum):
    """The choices of `export.ExportFormat`, here so `--help` does not import the exporter."""

    MARKDOWN = "markdown"
    BIBTEX = "bibtex"
    CSL_JSON = "csl-json"


class BibStyle(str, Enum):
    """The choices of `render.bib.STYLES`, here so `--help` does not import the exporter."""

    CLASSIC = "classic"
    BIBLATEX = "biblatex"


#: Each command's `--format` choices; `render.RENDERERS` has a renderer for each and no more
#: (tests/test_formats.py).
FORMATS: dict[str, type[Enum]] = {
    "add": AddFormat,
    "check": CheckFormat,
    "report": ReportFormat,
    "export": ExportFormat,
}


def pick_format(fmt: Enum | None, stdout_is_terminal: bool) -> OutputFormat:
    """`check` and `add` with no `--format`: the readable layout on a terminal, one line a
    finding (or an anchor) in a pipe."""
    if fmt is None:
        return OutputFormat.TEXT if stdout_is_terminal else OutputFormat.CONCISE
    return OutputFormat(fmt.value)
