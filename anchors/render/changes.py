"""The report's "what changed" part: transitions by registry section, and the per-run trend.

Markdown for the rolling GitHub issue (a Mermaid chart GitHub draws, with the same numbers in a
table for readers and screen readers), and plain data for the JSON report.
"""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime
from itertools import groupby
from typing import TYPE_CHECKING, Any

from ..sections import key as section_key
from ..sections import normal
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
    # one heading per section however its entries spell it (`sections`), in the first spelling
    for _, grouped in groupby(items, key=lambda t: section_key(t.registry_section or "")):
        group = list(grouped)
        section = normal(group[0].registry_section or "") or _NO_SECTION
        out += [
            f"#### {markdown(section)}",
            "",
            "| change | anchor | when | was | now | title | cited in |",
            "|---|---|---|---|---|---|---|",
        ]
        for t in group:
            out.append(
                f"| {t.change.label} | {markdown_code(t.anchor)} | {_day(t.at)} | "
                f"{_value(t.before)} | {_value(t.after)} | {markdown(t.title or '')} | "
                f"{', '.join(t.cited_in)} |"
            )
        out.append("")
    return out


#: the trend's series in drawing order: (field, name, colour word, colour). xychart-beta draws
#: no legend where GitHub renders it, so the palette is set and the text above names the colours;
#: the names also label the lines where Mermaid does draw a legend.
_SERIES = (
    ("ok", "OK", "green", "#1a7f37"),
    ("flaky", "flaky", "amber", "#bf8700"),
    ("dead", "dead", "red", "#cf222e"),
)
_PALETTE = (
    '%%{init: {"themeVariables": {"xyChart": {"plotColorPalette": "'
    + ", ".join(c for *_, c in _SERIES)
    + '"}}}}%%'
)


def _labels(points: list[TrendPoint]) -> list[str]:
    """Short x-axis labels, each unique (Mermaid's band axis merges equal ones): the day; with
    the time on a day of several runs; numbered for runs in one minute."""

    def at(p: TrendPoint, fmt: str) -> str:
        return datetime.fromtimestamp(p.at, UTC).strftime(fmt)

    days = Counter(at(p, "%m-%d") for p in points)
    out = [at(p, "%m-%d") if days[at(p, "%m-%d")] == 1 else at(p, "%m-%d %H:%M") for p in points]
    same, seen = Counter(out), Counter[str]()
    for i, label in enumerate(out):
        if same[label] > 1:
            seen[label] += 1
            out[i] = f"{label} #{seen[label]}"
    return out


def _trend_md(points: list[TrendPoint]) -> list[str]:
    if not points:
        return []
    labels = ", ".join(f'"{label}"' for label in _labels(points))
    top = max(p.ok + p.flaky + p.dead for p in points) or 1
    key = ", ".join(f"{word} {name}" for _, name, word, _ in _SERIES)
    said = key.replace("flaky", "flaky (failing but not dead)")
    out = [
        "### Trend",
        "",
        f"Anchors at each run, one line each: {said}. The table below has the same numbers.",
        "",
        "```mermaid",
        _PALETTE,
        "xychart-beta",
        f'    title "Anchors per check run: {key}"',
        f"    x-axis [{labels}]",
        f'    y-axis "anchors" 0 --> {top}',
    ]
    for series, name, _, _ in _SERIES:
        out.append(f'    line "{name}" [{", ".join(str(getattr(p, series)) for p in points)}]')
    out += ["```", "", "| run | OK | flaky | dead |", "|---|---|---|---|"]
    out += [
        f"| {datetime.fromtimestamp(p.at, UTC):%Y-%m-%d %H:%M} | {p.ok} | {p.flaky} | {p.dead} |"
        for p in points
    ]
    return out + [""]


def markdown_changes(r: Report) -> list[str]:
    return _transitions_md(r.transitions) + _trend_md(r.trend)


def json_changes(r: Report) -> dict[str, Any]:
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
            }
            for t in r.transitions
        ],
        "trend": [
            {"run": p.run_id, "at": _iso(p.at), "ok": p.ok, "flaky": p.flaky, "dead": p.dead}
            for p in r.trend
        ],
    }
