"""Markdown output for `check`: a table per severity, safe to paste into an issue."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..findings import Severity, summary
from .escape import markdown, markdown_code

if TYPE_CHECKING:
    from ..check import CheckResult

__all__ = ["check_result"]


def check_result(r: CheckResult) -> str:
    counts = summary(r.findings)
    out = [f"## anchors check: {markdown(r.registry)}", "",
           f"{r.anchors} anchors checked on {r.today.isoformat()} "
           f"({'online' if r.online else 'offline'}): {counts['error']} errors, "
           f"{counts['warning']} warnings, {counts['info']} notes.", ""]
    for sev in Severity:
        rows = [f for f in r.findings if f.severity is sev]
        if not rows:
            continue
        out += [f"### {sev.value.capitalize()}s", "", "| code | line | anchor | message |",
                "|---|---|---|---|"]
        for f in rows:
            out.append(f"| {f.code.value} | {f.line or ''} | {markdown_code(f.anchor)} | "
                       f"{markdown(f.message)} |")
        out.append("")
    return "\n".join(out) + "\n"
