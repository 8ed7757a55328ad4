"""Each command's output formats as one typed table: the `Renderer` of each format over that
command's own result (`ADD` renders a `MergeResult`, `CHECK` a `CheckResult`...), so handing a
renderer the wrong result is a type error. Each renderer imports its module when used: each
costs start-up time.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Generic, Never, Protocol, TextIO, TypeVar

from ..findings import ordered
from .console import report_console

if TYPE_CHECKING:
    from rich.console import RenderableType

    from ..export import ExportItem
    from ..merging.merge import MergeResult
    from ..report.weekly import Report
    from ..result import CheckResult

__all__ = [
    "ADD",
    "CHECK",
    "EXPORT",
    "RENDERERS",
    "REPORT",
    "Outputs",
    "Pieces",
    "Renderer",
    "Target",
]


@dataclass(frozen=True, slots=True)
class Target:
    """Where the text goes and what a renderer needs to know besides the result."""

    #: the stream written to (its width, colour and encoding matter); None: a UTF-8 file
    out: TextIO | None
    #: `add --dry-run`/`--check`: nothing was written
    dry_run: bool = False
    #: the registry a report is for, as named
    registry: str = ""
    #: `export` without `--section`: grouped by section
    grouped: bool = True
    #: `export --format bibtex`: the family of styles the entries are for (`bib.STYLES`)
    bib_style: str = "classic"
    #: the weekly report: where the full (JSON) report is kept, named in the lines that say
    #: rows were cut to fit a GitHub issue (a URL or a path); None: the command that prints it
    full_report: str | None = None
    #: `check --strict`: warnings fail too (JUnit shows them as failures)
    strict: bool = False


R = TypeVar("R")
R_contra = TypeVar("R_contra", contravariant=True)
#: the results that carry findings
FindingsT = TypeVar("FindingsT", "MergeResult", "CheckResult")


class Renderer(Protocol[R_contra]):
    """One format of one command's result: its whole text."""

    def __call__(self, result: R_contra, target: Target, /) -> str: ...


class Pieces(Protocol[R_contra]):
    """One format written a piece at a time: the same text a `Renderer` gives whole."""

    def __call__(self, result: R_contra, target: Target, /) -> Iterator[str]: ...


def _same(result: R) -> R:
    return result


@dataclass(frozen=True, slots=True)
class Outputs(Generic[R]):
    """One command's formats: what renders each, and how its text leaves."""

    command: str
    renderers: Mapping[str, Renderer[R]]
    #: formats `write` sends a piece at a time (so a 100k-anchor export never holds its text)
    streamed: Mapping[str, Pieces[R]] = field(default_factory=dict)
    #: JSON outputs (`escape.inert_json` keeps the runner from reading a command in them), and
    #: those a stream must be able to hold (non-ASCII becomes \u escapes where it cannot)
    json: frozenset[str] = frozenset()
    fitted: frozenset[str] = frozenset()
    #: the result as every format shows it (findings in the one order)
    order: Callable[[R], R] = _same


def _ordered(result: FindingsT) -> FindingsT:
    return replace(result, findings=ordered(result.findings))


def _rich(renderable: Callable[[int], RenderableType], target: Target) -> str:
    """Terminal layouts: drawn at the console's width, with colour only on a terminal."""
    console = report_console(target.out or io.StringIO())
    with console.capture() as captured:
        console.print(renderable(console.width), crop=False)
    return captured.get()


# each renderer's module is imported when its format is asked for (start-up: see above)


def _add_text(result: MergeResult, target: Target) -> str:
    from .text import add_result

    return _rich(lambda width: add_result(result, width), target)


def _add_concise(result: MergeResult, target: Target) -> str:
    from .concise import add_concise

    return add_concise(result)


def _add_json(result: MergeResult, target: Target) -> str:
    from .json import add_result

    return add_result(result, target.dry_run)


def _check_text(result: CheckResult, target: Target) -> str:
    from .text import check_result

    return _rich(lambda width: check_result(result, width), target)


def _check_concise(result: CheckResult, target: Target) -> str:
    from .concise import concise

    return concise(result)


def _check_json(result: CheckResult, target: Target) -> str:
    from .json import check_result

    return check_result(result)


def _check_github(result: CheckResult, target: Target) -> str:
    from .github import check_result

    return check_result(result)


def _check_markdown(result: CheckResult, target: Target) -> str:
    from .markdown import check_result

    return check_result(result)


def _check_sarif(result: CheckResult, target: Target) -> str:
    from .sarif import check_result

    return check_result(result)


def _check_junit(result: CheckResult, target: Target) -> str:
    from .junit import check_result

    return check_result(result, target.strict)


def _check_gitlab(result: CheckResult, target: Target) -> str:
    from .gitlab import check_result

    return check_result(result)


def _report_junit(rep: Report, target: Target) -> str:
    from .junit import report

    return report(rep, target.registry)


def _report_markdown(rep: Report, target: Target) -> str:
    from .markdown import report

    return report(rep, target.registry, target.full_report)


def _report_json(rep: Report, target: Target) -> str:
    from .json import report

    return report(rep, target.registry)


def _export_markdown(items: list[ExportItem], target: Target) -> str:
    from .reading import markdown_list

    return markdown_list(items, target.grouped)


def _bibtex(items: list[ExportItem], target: Target) -> str:
    from .bib import bibtex

    return bibtex(items, target.bib_style)


def _bib_chunks(items: list[ExportItem], target: Target) -> Iterator[str]:
    from .bib import bibtex_chunks

    return bibtex_chunks(items, target.bib_style)


def _csl_chunks(items: list[ExportItem], target: Target) -> Iterator[str]:
    from .csl import csl_chunks

    return csl_chunks(items)


def _csl_json(items: list[ExportItem], target: Target) -> str:
    return "".join(_csl_chunks(items, target))


ADD: Outputs[MergeResult] = Outputs(
    "add",
    {"text": _add_text, "concise": _add_concise, "json": _add_json},
    json=frozenset({"json"}),
    fitted=frozenset({"json"}),
    order=_ordered,
)
CHECK: Outputs[CheckResult] = Outputs(
    "check",
    {
        "text": _check_text,
        "concise": _check_concise,
        "json": _check_json,
        "github": _check_github,
        "markdown": _check_markdown,
        "sarif": _check_sarif,
        "junit": _check_junit,
        "gitlab": _check_gitlab,
    },
    json=frozenset({"json", "sarif", "gitlab"}),
    fitted=frozenset({"json", "sarif", "gitlab"}),
    order=_ordered,
)
REPORT: Outputs[Report] = Outputs(
    "report",
    {"markdown": _report_markdown, "json": _report_json, "junit": _report_junit},
    json=frozenset({"json"}),
    fitted=frozenset({"json"}),
)
EXPORT: Outputs[list[ExportItem]] = Outputs(
    "export",
    {"markdown": _export_markdown, "bibtex": _bibtex, "csl-json": _csl_json},
    streamed={"csl-json": _csl_chunks, "bibtex": _bib_chunks},
    json=frozenset({"csl-json"}),
)
#: Every (command, `--format`) there is, and what renders it (for the tables' users: the
#: `--format` choices, the tests that every choice renders).
RENDERERS: dict[tuple[str, str], Renderer[Never]] = {
    (o.command, fmt): r for o in (ADD, CHECK, REPORT, EXPORT) for fmt, r in o.renderers.items()
}
