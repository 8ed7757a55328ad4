"""The vocabulary of figures: a number with its unit class, how it is hedged, how precisely it
was written; a quote; and how a briefing attributes either to a source.

A `Figure` is the same record whether it was read from a briefing line or from a source
passage, so one comparison serves both. Values are kept in the unit class's base unit
(seconds, bytes, tokens per second); `step` is one unit of the last digit written, scaled the
same way, which is what "within half a unit of the last written digit" is measured in.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

__all__ = ["Attribution", "Figure", "Hedge", "Quote", "UnitClass"]


class UnitClass(str, Enum):
    """What a number counts. Numbers of two classes never support each other (the one
    exception, `N×` against `+p%`, is the matcher's, not the class's)."""

    PERCENT = "percent"
    MULTIPLE = "multiple"
    POINTS = "points"
    TIME = "time"
    SIZE = "size"
    THROUGHPUT = "throughput"
    REQUEST_RATE = "request-rate"
    BANDWIDTH = "bandwidth"
    COMPUTE = "compute"
    USD = "usd"
    CNY = "cny"
    EUR = "eur"
    COUNT = "count"
    #: a source number written without a unit (a table cell under a `Speedup (×)` header)
    BARE = "bare"
    #: `several times`, `数十倍`, `大幅`: a figure no number can support
    VAGUE = "vague"


class Hedge(str, Enum):
    """How a figure is qualified, and so which source values it admits."""

    EXACT = "exact"
    #: `~`, `约`, `about`, `左右`, `around`: ± max(half a unit, 10%)
    ABOUT = "about"
    #: `近`, `nearly`, `almost`: [0.85 v, v]
    NEARLY = "nearly"
    #: `超过`, `over`, `more than`, `>`, `300+`: at least v
    OVER = "over"
    #: `不到`, `under`, `less than`, `<`, `≤`: at most v
    UNDER = "under"
    #: `up to`, `最高`: the largest value, matched as written
    UP_TO = "up-to"


class Attribution(str, Enum):
    """How a briefing ties a figure to its source (the rulings page, "Attribution of a figure")."""

    #: exactly one citation in the sentence, table row or list item: every verdict
    LINE = "line"
    #: an increment's `来源：`/`URL：` sources: `supported` or `unverifiable`, never a warning
    BLOCK = "block"


@dataclass(frozen=True, slots=True)
class Figure:
    """A number with a unit class, as one text writes it."""

    unit: UnitClass
    #: the value in the class's base unit; the low end of a range
    value: float
    #: one unit of the last written digit, in the base unit (`8.2%` → 0.1, `1.5万` → 1000)
    step: float
    hedge: Hedge = Hedge.EXACT
    #: the high end of a range (`3-5%`); None for a single value
    high: float | None = None
    #: the text as written, hedge and unit included (`~70%`, `近七成`, `1,234 tok/s`)
    text: str = ""
    #: where `text` is in the text it was read from
    start: int = 0
    end: int = 0
    #: number of decimals written (`72.70` → 2)
    decimals: int = 0
    #: the unit's factor to the base unit (`ms` → 0.001; a scale word is in `value` already),
    #: so a unitless source cell is compared with the number as written (`12,701ms` → 12701)
    unit_factor: float = 1.0

    @property
    def written(self) -> float:
        """The value in the unit written (`12,701ms` → 12701, `1.5万` → 15000)."""
        return self.value / self.unit_factor

    @property
    def checkable(self) -> bool:
        """False for a vague figure: no number can support `several times`."""
        return self.unit is not UnitClass.VAGUE


@dataclass(frozen=True, slots=True)
class Quote:
    """A quoted string as written (without its quote marks), with where it is."""

    text: str
    start: int = 0
    end: int = 0

    @property
    def latin(self) -> bool:
        """True when it is written in Latin script: only those are compared verbatim."""
        letters = [c for c in self.text if c.isalpha()]
        if not letters:
            return False
        latin = sum(1 for c in letters if c.isascii() or "\u00c0" <= c <= "\u024f")
        return latin * 10 >= len(letters) * 9
