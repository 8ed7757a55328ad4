"""The report's "what changed" part: transitions by registry section, and the per-run trend.

Markdown for the rolling GitHub issue (the trend's chart is in `trend`), and plain data for the
JSON report.
"""

from __future__ import annotations

from datetime import UTC, datetime
from itertools import groupby
from typing import TYPE_CHECKING

from ..sections import key as section_key
from ..sections import normal
from .budget import Part
from .cells import cited, clip, target_cell, text_cell
from .escape import markdown

if TYPE_CHECKING:
    from ..report.transitions import Transition
    from ..report.weekly import Report

__all__ = ["json_changes", "transitions_part"]

_NO_SECTION = "(no section)"


def _day(ts: float) -> str:
    return datetime.fromtimestamp(ts, UTC).strftime("%Y-%m-%d")


def _iso(ts: float) -> str:
    return datetime.fromtimestamp(ts, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _value(value: str | None) -> str:
    """A before or after value: an address is a target (read as the tables read it)."""
    if value is None:
        return ""
    return target_cell("url", value, value) if "://" in value else markdown(clip(value))


_HEAD = ("| change | what | when | was → now | title · cited |", "|---|---|---|---|---|")


def _row(transition: Transition) -> str:
    was_now = " → ".join(x for x in (_value(transition.before), _value(transition.after)) if x)
    # a change a dated claim said otherwise: what it said, then the news
    if transition.news is not None:
        was_now = markdown(clip(str(transition.news)))
    target = target_cell(transition.kind, transition.target, transition.anchor)
    return (
        f"| {transition.change.label} | {target} | {_day(transition.at)} | "
        f"{was_now} | {text_cell(transition.title, cited(transition.cited_in))} |"
    )


def transitions_part(items: list[Transition]) -> Part:
    """What changed, one table per registry section; a table's first row carries its heading,
    so a cut never leaves a heading without rows."""
    head = (f"### What changed ({len(items)})", "")
    if not items:
        return Part((*head, "No issue, paper, repository or link changed in this window."))
    rows: list[str] = []
    # one heading per section however its entries spell it (`sections`), in the first spelling
    for i, (_, grouped) in enumerate(
        groupby(items, key=lambda transition: section_key(transition.registry_section or ""))
    ):
        group = list(grouped)
        section = normal(group[0].registry_section or "") or _NO_SECTION
        lead = ("",) if i else ()  # a blank line ends the table before
        rows.append("\n".join((*lead, f"#### {markdown(section)}", "", *_HEAD, _row(group[0]))))
        rows += [_row(t) for t in group[1:]]
    return Part(head, tuple(rows), noun="change", name="What changed")


def _claim(transition: Transition) -> dict[str, str | None] | None:
    """The dated claim a change overtook, as JSON (None: no claim said otherwise)."""
    n = transition.news
    if n is None:
        return None
    return {
        "said_on": n.said_on.isoformat(),
        "claimed": n.claimed.value,
        "words": n.words,
        "written_at": n.written_at,
        "change": n.change,
        "changed_on": n.changed_on.isoformat() if n.changed_on else None,
        "text": str(n),
    }


def json_changes(report: Report) -> dict[str, object]:
    return {
        "transitions": [
            {
                "change": t.change.value,
                "target": t.target,
                "anchor": t.anchor,
                "kind": t.kind,
                "at": _iso(t.at),
                "before": t.before,
                "after": t.after,
                "registry_section": t.registry_section,
                "title": t.title,
                "cited_in": list(t.cited_in),
                "line": t.line,
                "claim": _claim(t),
            }
            for t in report.transitions
        ],
        "trend": [
            {"run": p.run_id, "at": _iso(p.at), "ok": p.ok, "failing": p.flaky, "dead": p.dead}
            for p in report.trend
        ],
    }
