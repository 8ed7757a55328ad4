"""The report's trend: a Mermaid line chart GitHub draws, and the same numbers in a table.

A chart stays readable at any number of runs: up to `MAX_POINTS` runs are one point each;
beyond that a point is a day (the state after its last run), and beyond that many days a week;
more runs in one day than fit timed labels are periods of that day (10 minutes to 12 hours).
Each x-axis label is short and unique (Mermaid's band axis merges equal labels), and the
table's first column names each point exactly, so two runs in one minute are two rows.
`tests/consumers/test_mermaid.py` draws the chart with the real Mermaid in headless Chromium
and checks that no two labels overlap.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from .budget import Part
from .summary import plural

if TYPE_CHECKING:
    from ..report.transitions import TrendPoint

__all__ = ["MAX_POINTS", "ChartPoint", "chart_points", "trend_part"]

#: the most points the x-axis holds with labels of a day ("09-24") side by side
MAX_POINTS = 12
#: the most points whose labels carry a time too ("09-24 06:00")
MAX_TIMED = 6
#: a day's periods in minutes, each dividing the next: the first leaving at most MAX_TIMED
SPANS = (5, 10, 30, 60, 120, 360, 720)
#: the chart's size in Mermaid's units (GitHub scales it to the page)
WIDTH, HEIGHT = 900, 420

#: the series in drawing order: (name, colour word, colour). Where GitHub draws the chart there
#: is no legend, so the palette is set and the text above names the colours. "failing" is what
#: a run could not reach and did not find dead (the report's "not dead" section), which is not
#: the report's "Flaky" (a link that failed and worked in turn): one word, one meaning.
SERIES = (("OK", "green", "#1a7f37"), ("failing", "amber", "#bf8700"), ("dead", "red", "#cf222e"))


@dataclass(frozen=True, slots=True)
class ChartPoint:
    """One point of the chart: a run, or the last state of a day or week of runs."""

    label: str
    when: str
    ok: int
    failing: int
    dead: int


def _utc(point: TrendPoint) -> datetime:
    return datetime.fromtimestamp(point.at, UTC)


def _unique(labels: list[str], finer: list[str]) -> list[str]:
    """Equal labels replaced by their finer spelling, and any still equal numbered."""
    count = Counter(labels)
    out = [f if count[x] > 1 else x for x, f in zip(labels, finer, strict=True)]
    count, seen = Counter(out), Counter[str]()
    for i, label in enumerate(out):
        if count[label] > 1:
            seen[label] += 1
            out[i] = f"{label} #{seen[label]}"
    return out


def _spelt(points: list[TrendPoint], fmt: str) -> list[str]:
    """Each point's time in `fmt`, made unique: with seconds where minutes repeat, then #n."""
    return _unique([f"{_utc(p):{fmt}}" for p in points], [f"{_utc(p):{fmt}:%S}" for p in points])


def _per_run(points: list[TrendPoint]) -> list[ChartPoint]:
    days = [f"{_utc(p):%m-%d}" for p in points]
    labels = _spelt(points, "%m-%d %H:%M") if len(set(days)) < len(days) else days
    whens = _spelt(points, "%Y-%m-%d %H:%M")
    return [
        ChartPoint(label, when, p.ok, p.flaky, p.dead)
        for label, when, p in zip(labels, whens, points, strict=True)
    ]


def _last_of(
    groups: dict[datetime, list[TrendPoint]], label: str, what: Callable[[datetime], str]
) -> list[ChartPoint]:
    """The last point of each group, labelled by its start in `label`'s format; the table says
    `what(start)` and how many runs, or the time of a group's one run."""
    out = []
    for start, group in groups.items():
        last, n = group[-1], len(group)
        when = f"{what(start)} ({n} runs)" if n > 1 else f"{_utc(last):%Y-%m-%d %H:%M}"
        out.append(ChartPoint(f"{start:{label}}", when, last.ok, last.flaky, last.dead))
    return out


def _grouped(points: list[TrendPoint], key: str) -> list[ChartPoint]:
    """The last point of each day (`key` "day") or week (Monday to Sunday, UTC)."""
    groups: dict[datetime, list[TrendPoint]] = {}
    for point in points:
        day = _utc(point).replace(hour=0, minute=0, second=0, microsecond=0)
        groups.setdefault(day if key == "day" else day - timedelta(days=day.weekday()), []).append(
            point
        )
    if key == "day":
        return _last_of(groups, "%m-%d", lambda day: f"{day:%Y-%m-%d}")
    return _last_of(groups, "wk %m-%d", lambda day: f"week of {day:%Y-%m-%d}")


def _periods(points: list[TrendPoint]) -> tuple[str, list[ChartPoint]]:
    """The runs of one day as the last point of each period of the shortest span that leaves
    at most MAX_TIMED of them: every run counted, each label a time of that day."""
    for minutes in SPANS:
        groups: dict[datetime, list[TrendPoint]] = {}
        for point in points:
            at = _utc(point)
            into = (at.hour * 60 + at.minute) // minutes * minutes
            start = at.replace(hour=into // 60, minute=into % 60, second=0, microsecond=0)
            groups.setdefault(start, []).append(point)
        if len(groups) <= MAX_TIMED:
            break
    span = f"{minutes}-minute" if minutes < 60 else f"{minutes // 60}-hour"
    step = timedelta(minutes=minutes)
    return f"{span} period", _last_of(
        groups, "%m-%d %H:%M", lambda at: f"{at:%Y-%m-%d %H:%M}–{at + step:%H:%M}"
    )


def chart_points(points: list[TrendPoint]) -> tuple[str, list[ChartPoint]]:
    """What a point is ("run", "day", "week", or a period of one day) and the points to draw:
    every run while they fit, else days, else weeks (the latest), else periods of the day."""
    days = {_utc(p).date() for p in points}
    if len(points) <= MAX_POINTS and (len(days) == len(points) or len(points) <= MAX_TIMED):
        return "run", _per_run(points)
    if len(days) == 1:
        return _periods(points)
    if len(days) <= MAX_POINTS:
        return "day", _grouped(points, "day")
    return "week", _grouped(points, "week")[-MAX_POINTS:]


def _init() -> str:
    palette = ", ".join(c for *_, c in SERIES)
    config = {
        "xyChart": {"width": WIDTH, "height": HEIGHT},
        "themeVariables": {"xyChart": {"plotColorPalette": palette}},
    }
    return "%%{init: " + json.dumps(config) + "}%%"


def trend_part(points: list[TrendPoint], partial: int = 0) -> Part | None:
    """The trend section, or None without runs; the table's rows may be cut, the chart not.
    `partial` runs of the window did not finish: they are no point, and the text says so."""
    if not points:
        return None
    left_out = (
        f" {plural(partial, 'run')} that did not finish (interrupted, or still running) "
        f"{'is' if partial == 1 else 'are'} not shown: half a run is not the registry's state."
        if partial
        else ""
    )
    per, shown = chart_points(points)
    labels = ", ".join(f'"{p.label}"' for p in shown)
    top = max(p.ok + p.failing + p.dead for p in shown) or 1
    key = ", ".join(f"{word} {name}" for name, word, _ in SERIES)
    said = key.replace("failing", "failing (failed, but not found dead)")
    head = [
        "### Trend",
        "",
        f"Anchors at each {per}, one line each: {said}. The table below has the same numbers."
        + left_out,
        "",
        "```mermaid",
        _init(),
        "xychart-beta",
        f'    title "Anchors per {per}: {key}"',
        f"    x-axis [{labels}]",
        f'    y-axis "anchors" 0 --> {top}',
        *(
            f'    line "{name}" [{", ".join(str(getattr(p, name.lower())) for p in shown)}]'
            for name, _, _ in SERIES
        ),
        "```",
        "",
        f"| {per} | OK | failing | dead |",
        "|---|---|---|---|",
    ]
    rows = tuple(f"| {p.when} | {p.ok} | {p.failing} | {p.dead} |" for p in shown)
    return Part(tuple(head), rows, noun=per, name="The trend")
