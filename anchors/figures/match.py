"""Whether a source number supports a figure: the issue's matching rules, as intervals.

A figure admits the values within half a unit of its last written digit (`8%` is 7.5–8.5,
`1.5万` is 14,500–15,500; `8234` is never widened to 8,000); hedges widen that: `~`/`约`
by max(half a unit, 10%), `近`/`nearly` to [0.85 v, v], `超过`/`over` to at least v,
`不到`/`under` to at most v; `up to` is matched as written. Only numbers of the same unit class
count, with one exception: `N×`/`N倍` also admits +N·100% and +(N-1)·100% (Chinese and English
read "N 倍" differently, and the ambiguity is never a reason to flag). A unitless source cell
counts when it writes the same number at least as precisely (`72.7` under a `%` header).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .model import Figure, Hedge, UnitClass

__all__ = ["Interval", "accepted", "close", "near_by", "supports"]

#: a near miss is off by about one unit of the last digit written (at most 10% of the
#: figure) or by half a percent of it, beyond what the figure admits
#: the relative band a percent must fall in to read as a multiple (`2×` and +100%)
_CROSS = {Hedge.EXACT: 0.05, Hedge.UP_TO: 0.05, Hedge.ABOUT: 0.10}
_EPS = 1e-9


@dataclass(frozen=True, slots=True)
class Interval:
    low: float
    high: float

    def __contains__(self, value: float) -> bool:
        slack = _EPS * max(1.0, abs(value))
        return self.low - slack <= value <= self.high + slack

    def widened(self, by: float) -> Interval:
        return Interval(max(0.0, self.low - by), self.high + by)

    def within(self, low: float, high: float) -> Interval:
        return Interval(max(self.low, low), min(self.high, high))


def accepted(value: float, step: float, hedge: Hedge) -> Interval:
    """The values a figure of `value`, written to `step`, admits under `hedge`."""
    half = step / 2
    if hedge is Hedge.ABOUT:
        wide = max(half, 0.1 * value)
        return Interval(max(0.0, value - wide), value + wide)
    if hedge is Hedge.NEARLY:
        return Interval(0.85 * value, value)
    if hedge is Hedge.OVER:
        return Interval(value, math.inf)
    if hedge is Hedge.UNDER:
        return Interval(0.0, value)
    return Interval(max(0.0, value - half), value + half)


def ends(figure: Figure) -> list[Interval]:
    """One interval per value the figure states: one, or both ends of a range."""
    values = [figure.value] if figure.high is None else [figure.value, figure.high]
    return [accepted(v, figure.step, figure.hedge) for v in values]


def _cross(figure: Figure, value: float) -> Interval:
    """The band a percent's multiple reading must fall in (`2×`: 1.9–2.1, so +100% or +200%)."""
    band = _CROSS.get(figure.hedge)
    span = accepted(value, figure.step, figure.hedge)
    return span if band is None else span.within(value * (1 - band), value * (1 + band))


def readings(figure: Figure, number: Figure, tabular: bool) -> list[float]:
    """The values `number` stands for in `figure`'s unit: its own value when the classes are
    the same; +p% read as ×(1+p/100) and ×(p/100) for a multiple, and ×m as +(m-1)·100% and
    +m·100% for a percent (the readings of "N 倍"); a unitless cell as written."""
    if number.unit is figure.unit:
        return [number.value]
    if figure.unit is UnitClass.MULTIPLE and number.unit is UnitClass.PERCENT:
        return [1 + number.value / 100, number.value / 100]
    if figure.unit is UnitClass.PERCENT and number.unit is UnitClass.MULTIPLE:
        return [(number.value - 1) * 100, number.value * 100]
    if number.unit is UnitClass.BARE and (tabular or number.decimals > 0):
        return [number.value * figure.unit_factor]
    return []


def supports(figure: Figure, number: Figure, tabular: bool = False) -> bool:
    """True when `number` (read in a source) supports a single-valued `figure`."""
    if not figure.checkable or number.high is not None:
        return False
    if number.unit is UnitClass.BARE:
        return (tabular or number.decimals > 0) and _as_written(figure, number)
    for value in readings(figure, number, tabular):
        if number.unit is figure.unit:
            if value in accepted(figure.value, figure.step, figure.hedge):
                return True
        elif value in _cross(figure, figure.value):
            return True
    return False


def _as_written(figure: Figure, number: Figure) -> bool:
    """A unitless number supports a figure written with the same digits, or one of at least two
    significant digits it rounds to (`72.68` in a `%` column supports `72.7%`, `3.985715` in a
    speed-up column `3.99×`). A one-digit figure (`5×`) is too coarse to be read into any cell
    of a table: only a cell that says `5` supports it."""
    unit_step = figure.step / figure.unit_factor
    if number.step > unit_step * (1 + _EPS):
        return False
    written = figure.written
    if abs(number.value - written) <= _EPS * max(1.0, abs(written)):
        return True
    if _significant(written, unit_step) < 2:
        return False
    span = accepted(figure.value, figure.step, figure.hedge)
    return number.value * figure.unit_factor in span


def _significant(value: float, step: float) -> int:
    """Significant digits of a number written to `step` (`72.7` → 3, `5` → 1, `0.05` → 1)."""
    if value <= 0 or step <= 0:
        return 0
    return int(math.floor(math.log10(value) + _EPS) - math.floor(math.log10(step) + _EPS)) + 1


def near_by(figure: Figure, target: float) -> float:
    """How far beyond the accepted values a number still is a near miss."""
    return max(min(figure.step, 0.1 * abs(target)), 0.005 * abs(target))


def close(figure: Figure, number: Figure, tabular: bool = False) -> bool:
    """True when `number` misses the figure by little (`near_by`): a paraphrase may have
    rounded it, so it is no proof the figure is absent. A percent read as a reduction (-50% as
    `2×` lower) counts here, in the same narrow band as the other readings of a multiple."""
    if not figure.checkable or number.high is not None:
        return False
    if number.unit is UnitClass.BARE:
        coarse = _significant(figure.written, figure.step / figure.unit_factor) < 2
        if coarse or not (tabular or number.decimals > 0):
            return False  # `5×` is near every cell between 4.5 and 5.5 of any table
    targets = [figure.value] if figure.high is None else [figure.value, figure.high]
    for target in targets:
        if figure.unit is UnitClass.MULTIPLE and number.unit is UnitClass.PERCENT:
            share = number.value / 100
            values = [1 + share, share] + ([1 / (1 - share)] if 0 < share < 1 else [])
            span = _cross(figure, target).widened(near_by(figure, target))
        elif figure.unit is UnitClass.PERCENT and number.unit is UnitClass.MULTIPLE:
            values = readings(figure, number, tabular)
            span = _cross(figure, target).widened(near_by(figure, target))
        else:
            values = readings(figure, number, tabular)
            span = accepted(target, figure.step, figure.hedge).widened(near_by(figure, target))
        if any(v in span for v in values):
            return True
    return False


def distance(figure: Figure, number: Figure) -> float:
    """How far a same-class number is from the figure, relative to it (for the nearest list); a
    range end to end (`2-24×` is nearest `2-4×`, then `4×`)."""
    if figure.high is None:
        return abs(number.value - figure.value) / max(abs(figure.value), _EPS)
    high = number.value if number.high is None else number.high
    lows = abs(number.value - figure.value) / max(abs(figure.value), _EPS)
    return lows + abs(high - figure.high) / max(abs(figure.high), _EPS)
