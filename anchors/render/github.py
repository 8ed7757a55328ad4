"""GitHub Actions workflow commands: one `::error file=…,line=…::message` line per finding, at
the briefing line a figure came from when the check found it (`places`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..findings import Severity
from .escape import annotation
from .places import cited_lines, primary

if TYPE_CHECKING:
    from ..result import CheckResult

__all__ = ["check_result"]

_COMMAND = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def _prop(value: str) -> str:
    return annotation(value).replace(",", "%2C").replace(":", "%3A")


def _command(severity: Severity, file: str, line: int | None, title: str, message: str) -> str:
    props = f"file={_prop(file)}" + (f",line={line}" if line else "") + f",title={_prop(title)}"
    return f"::{_COMMAND[severity]} {props}::{annotation(message)}"


def check_result(result: CheckResult) -> str:
    """One annotation per finding; a dead URL also at each briefing line that cites it."""
    lines = []
    for f in result.findings:
        anchor = f"{f.anchor}: " if f.anchor else ""
        file, line, briefing = primary(f)
        entry = f" (in the registry at {f.file}:{f.line})" if briefing else ""
        lines.append(_command(f.severity, file, line, f.code.value, anchor + f.message + entry))
        for cited in cited_lines(f):
            lines.append(
                _command(
                    f.severity,
                    cited.file,
                    cited.line,
                    f.code.value,
                    f"{anchor}{f.message} (in the registry at {f.file}:{f.line})",
                )
            )
    return "".join(line + "\n" for line in lines)
