"""Renderers: one function per output format, each taking a result and returning text.

Only this package turns untrusted strings into output, always through `escape`. `write_check`,
`write_add` and `report_text` pick the renderer; every format shows findings in one order.
"""

from __future__ import annotations

from enum import Enum
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from pathlib import Path

    from ..merge import MergeResult
    from ..registry.validate import CheckResult
    from ..report.weekly import Report

__all__ = ["OutputFormat", "emit", "report_text", "write_add", "write_check"]


class OutputFormat(str, Enum):
    TEXT = "text"
    CONCISE = "concise"
    JSON = "json"
    GITHUB = "github"
    MARKDOWN = "markdown"
    SARIF = "sarif"


def write_check(result: CheckResult, fmt: OutputFormat, out: TextIO) -> None:
    """Write the findings in `fmt`; text goes through a console that knows the width."""
    from dataclasses import replace

    from ..findings import ordered

    result = replace(result, findings=ordered(result.findings))
    if fmt is OutputFormat.TEXT:
        from . import text
        from .console import report_console

        console = report_console(out)
        console.print(text.check_result(result, console.width), crop=False)
        return
    if fmt is OutputFormat.CONCISE:
        from .text import concise as render
    elif fmt is OutputFormat.JSON:
        from .json import check_result as render
    elif fmt is OutputFormat.GITHUB:
        from .github import check_result as render
    elif fmt is OutputFormat.MARKDOWN:
        from .markdown import check_result as render
    else:
        from .sarif import check_result as render
    rendered = render(result)
    if fmt in (OutputFormat.JSON, OutputFormat.SARIF):
        from .json import fit

        rendered = fit(rendered, out)
    out.write(rendered)


def write_add(result: MergeResult, fmt: OutputFormat, dry_run: bool, out: TextIO) -> None:
    """Like `write_check`: the findings in the one order, through the same renderers."""
    from dataclasses import replace

    from ..findings import ordered

    result = replace(result, findings=ordered(result.findings))
    if fmt is OutputFormat.JSON:
        from .json import add_result, fit

        out.write(fit(add_result(result, dry_run), out))
        return
    from .console import report_console
    from .text import add_result as text_add

    console = report_console(out)
    console.print(text_add(result, console.width), crop=False)


def report_text(rep: Report, fmt: OutputFormat, registry: str, out: TextIO | None = None) -> str:
    """The report as text; JSON for `out` is escaped to fit its encoding (files are UTF-8)."""
    if fmt is OutputFormat.JSON:
        from .json import fit, report

        text = report(rep, registry)
        return fit(text, out) if out is not None else text
    from .markdown import report as md_report

    return md_report(rep, registry)


def emit(text: str, output: Path | None, out: TextIO) -> None:
    """To `output` (a regular file, replaced atomically: a reader never sees half), else `out`."""
    if output is None:
        out.write(text)
    else:
        from ..registry.atomic import write_atomic

        write_atomic(output, text.encode("utf-8"))
