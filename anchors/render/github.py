"""GitHub Actions workflow commands: one `::error file=…,line=…::message` line per finding."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..findings import Severity
from .escape import annotation

if TYPE_CHECKING:
    from ..validate import CheckResult

__all__ = ["check_result"]

_COMMAND = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def _prop(value: str) -> str:
    return annotation(value).replace(",", "%2C").replace(":", "%3A")


def check_result(r: CheckResult) -> str:
    lines = []
    for f in r.findings:
        props = f"file={_prop(f.file)}"
        if f.line:
            props += f",line={f.line}"
        props += f",title={_prop(f.code.value)}"
        anchor = f"{f.anchor}: " if f.anchor else ""
        lines.append(f"::{_COMMAND[f.severity]} {props}::{annotation(anchor + f.message)}")
    return "".join(line + "\n" for line in lines)
