"""The report's "what changed" part: transitions by registry section, and the per-run trend.

Markdown for the rolling GitHub issue (a Mermaid chart GitHub draws, with the same numbers in a
table for readers and screen readers), and plain data for the JSON report.
"""

from __future__ import annotations

from datetime import UTC, datetime
from itertools import groupby
from typing import TYPE_CHECKING, Any

from .escape import markdown, markdown_code

if TYPE_CHECKING:
    from ..report.transitions import Transition, TrendPoint
    from ..report.weekly import Report

__all__ = ["json_changes", "markdown_changes"]

_NO_SECTION = "(no section)"


def _day(ts: float) -> str:
    return datetime.fromtimestamp(ts, UTC).strftime("%Y-%m-%d")


def _iso(ts: float) -> str:
    return datetime.fromtimestamp(ts, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _value(v: str | None) -> str:
    if v is None:
        return ""
    return markdown_code(v) if "://" in v else markdown(v)


def _transitions_md(items: list[Transition]) -> list[str]:
    out = [f"### What changed ({len(items)})", ""]
    if not items:
        return out + ["No issue, paper, repository or link changed in this window.", ""]
    for section, group in groupby(items, key=lambda t: t.registry_section or _NO_SECTION):
        out += [f"#### {markdown(section)}", "",
                "| change | anchor | when | was | now | title | cited in |",
                "|---|---|---|---|---|---|---|"]
        for t in group:
            out.append(f"| {t.change.label} | {markdown_code(t.anchor)} | {_day(t.at)} | "
                       f"{_value(t.before)} | {_value(t.after)} | {markdown(t.title or '')} | "
                       f"{', '.join(t.cited_in)} |")
        out.append("")
    return out


def _trend_md(points: list[TrendPoint]) -> list[str]:
    if not points:
        return []
    labels = ", ".join(f'"{_day(p.at)[5:]}"' for p in points)
    top = max(p.ok + p.flaky + p.dead for p in points) or 1
    out = ["### Trend", "", "OK, flaky (failing but not dead) and dead anchors at each run:", "",
           "```mermaid", "xychart-beta", '    title "Anchors per check run"',
           f"    x-axis [{labels}]", f'    y-axis "anchors" 0 --> {top}']
    for series in ("ok", "flaky", "dead"):
        out.append(f"    line [{', '.join(str(getattr(p, series)) for p in points)}]")
    out += ["```", "", "| run | OK | flaky | dead |", "|---|---|---|---|"]
    out += [f"| {datetime.fromtimestamp(p.at, UTC):%Y-%m-%d %H:%M} | {p.ok} | "
            f"{p.flaky} | {p.dead} |" for p in points]
    return out + [""]


def markdown_changes(r: Report) -> list[str]:
    return _transitions_md(r.transitions) + _trend_md(r.trend)


def json_changes(r: Report) -> dict[str, Any]:
    return {
        "transitions": [{
            "change": t.change.value, "target": t.target, "anchor": t.anchor, "kind": t.kind,
            "at": _iso(t.at), "before": t.before, "after": t.after,
            "registry_section": t.registry_section, "title": t.title,
            "cited_in": list(t.cited_in), "line": t.line,
        } for t in r.transitions],
        "trend": [{"run": p.run_id, "at": _iso(p.at), "ok": p.ok, "flaky": p.flaky,
                   "dead": p.dead} for p in r.trend],
    }
