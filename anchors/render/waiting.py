"""The report's "Waiting for the living document" (`report --document`): Markdown for the
weekly issue, one table per section, inside the report's size cap (`budget`), and the same
facts for the JSON report."""

from __future__ import annotations

from itertools import groupby
from typing import TYPE_CHECKING

from ..findings import Code
from .budget import Part
from .cells import target_cell, text_cell
from .escape import markdown, markdown_code
from .summary import plural

if TYPE_CHECKING:
    from ..report.waiting import Waiting
    from ..report.weekly import Report

__all__ = ["HEADING", "json_waiting", "waiting_part"]

HEADING = "Waiting for the living document"
_HEAD = ("| anchor | title | waiting since | age | why |", "|---|---|---|---|---|")


def _why(waiting: Waiting) -> str:
    """Why it waits, as Markdown (the sections it names escaped)."""
    if waiting.code is Code.OVERDUE:
        return "**overdue**"
    if waiting.code is Code.SECTION_MISMATCH:
        return f"cited under {markdown(waiting.elsewhere or 'no numbered section')}"
    if waiting.code is Code.UNKNOWN_SECTION:
        return (
            f"renumbered to {markdown(waiting.elsewhere)}"
            if waiting.elsewhere
            else "no such heading"
        )
    if waiting.code is Code.NEW_SECTION:
        return "section not written yet"
    return "not cited yet"


def _row(waiting: Waiting) -> str:
    age = plural(waiting.days, "day") if waiting.days is not None else ""
    since = waiting.since.isoformat() if waiting.since else ""
    target = target_cell(waiting.kind, waiting.anchor, waiting.anchor)
    return f"| {target} | {text_cell(waiting.title)} | {since} | {age} | {_why(waiting)} |"


def waiting_part(report: Report) -> Part | None:
    """The section, when the report was given documents: a table per registry section, each
    table's first row carrying its heading so a cut never leaves a heading alone."""
    if not report.documents:
        return None
    docs = ", ".join(markdown_code(d) for d in report.documents)
    head = (
        f"### {HEADING} ({len(report.waiting)})",
        "",
        (
            f"Registered for a section of {docs} that does not cite them yet, oldest first; "
            f"overdue after {plural(report.pending_days, 'day')}."
        ),
        "",
    )
    if not report.waiting:
        return Part((*head, "Every registered anchor is cited in its section."), name=HEADING)
    rows: list[str] = []
    for i, (section, grouped) in enumerate(
        groupby(report.waiting, key=lambda waiting: waiting.section)
    ):
        group = list(grouped)
        lead = ("",) if i else ()  # a blank line ends the table before
        rows.append("\n".join((*lead, f"#### {markdown(section)}", "", *_HEAD, _row(group[0]))))
        rows += [_row(w) for w in group[1:]]
    return Part(head, tuple(rows), noun="anchor", name=HEADING)


def json_waiting(report: Report) -> dict[str, object]:
    """`waiting`: per section, its anchors oldest first (absent without `--document`)."""
    if not report.documents:
        return {}
    sections = []
    for section, grouped in groupby(report.waiting, key=lambda waiting: waiting.section):
        sections.append(
            {
                "section": section,
                "anchors": [
                    {
                        "anchor": w.anchor,
                        "kind": w.kind,
                        "title": w.title,
                        "since": w.since.isoformat() if w.since else None,
                        "days": w.days,
                        "code": w.code.value,
                        "elsewhere": w.elsewhere,
                        "line": w.line,
                    }
                    for w in grouped
                ],
            }
        )
    return {
        "documents": list(report.documents),
        "pending_days": report.pending_days,
        "waiting": sections,
    }
