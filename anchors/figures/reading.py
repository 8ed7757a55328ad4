"""A source read for figures: each passage's numbers, found once per source; and the searches
a verdict is made of (a supporting number, a derived pair, near misses, the nearest numbers).

Derived values are formed only inside one passage (a sentence, a table row), from pairs of
numbers of one class, at most `PAIR_WINDOW` numbers apart: a table row's cells or a sentence's
before-and-after, never two numbers from different places of a paper.
"""

from __future__ import annotations

import bisect
import hashlib
import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from functools import lru_cache

from .match import Interval, accepted, close, distance, near_by, supports
from .model import Figure, UnitClass
from .normal import fold
from .parse import numbers_in, source_text
from .passages import Passage, PassageKind, SourceText

__all__ = ["Found", "Read", "derived", "near", "nearest", "passage_hash", "read", "support"]

#: numbers of a passage paired for derived values: each with the next this many
PAIR_WINDOW = 24
#: classes whose ratio is no multiple or percent change of anything
_RATES = frozenset({UnitClass.PERCENT, UnitClass.POINTS, UnitClass.MULTIPLE})
_TABULAR = frozenset({PassageKind.TABLE_ROW, PassageKind.CODE, PassageKind.CAPTION})


@dataclass(frozen=True, slots=True)
class Read:
    """One passage with the numbers it writes."""

    passage: Passage
    #: the passage's text as numbers were read in it (TeX turned into text)
    text: str
    numbers: tuple[Figure, ...]

    @property
    def tabular(self) -> bool:
        """A table row, caption or code block: its units are in a header, so a unitless
        number there is a measurement."""
        return self.passage.kind in _TABULAR


@dataclass(frozen=True, slots=True)
class Found:
    """Where a figure was found: the passage and the source's number(s) for it."""

    read: Read
    numbers: tuple[Figure, ...]
    #: how the source's numbers give the figure, when they do not say it (`100% - 74.1%`)
    said: tuple[str, ...] = ()


@lru_cache(maxsize=32)
def read(source: SourceText) -> tuple[Read, ...]:
    """Every passage of `source` with its numbers (cached: a source serves many figures)."""
    return tuple(Read(p, source_text(p.text), tuple(numbers_in(p.text))) for p in source.passages)


def passage_hash(passage: Passage) -> str:
    """What `source-changed` compares: the passage's text up to case, spacing and forms."""
    return hashlib.sha256(fold(passage.text).encode("utf-8", "surrogatepass")).hexdigest()[:16]


def _single(figure: Figure) -> list[Figure]:
    """A range figure as its two ends, each a figure of its own."""
    if figure.high is None:
        return [figure]
    return [replace(figure, high=None), replace(figure, value=figure.high, high=None)]


def support(figure: Figure, reads: tuple[Read, ...]) -> Found | None:
    """The first passage holding a number that supports the figure (for a range: one passage
    holding both ends), numbers with a unit before unitless ones."""
    parts = _single(figure)
    fallback: Found | None = None
    for reading in reads:
        picked = [
            next((n for n in reading.numbers if supports(p, n, reading.tabular)), None)
            for p in parts
        ]
        if any(n is None for n in picked):
            continue
        got = tuple(n for n in picked if n is not None)
        if all(n.unit is not UnitClass.BARE for n in got):
            return Found(reading, got)
        fallback = fallback or Found(reading, got)
    return fallback


#: where a sentence of prose ends: a pair is formed inside one sentence
_SENTENCE_END_RE = re.compile(r"[.!?;。！？；](?=\s|$)")


def _sentence_of(reading: Read) -> list[int]:
    """For each number of a prose passage, the index of its sentence (0 for a table row or a
    code block: those are one unit each)."""
    if reading.passage.kind is not PassageKind.PROSE:
        return [0] * len(reading.numbers)
    ends = [m.end() for m in _SENTENCE_END_RE.finditer(reading.text)]
    return [bisect.bisect_right(ends, n.start) for n in reading.numbers]


def _pairs(reading: Read) -> Iterator[tuple[Figure, Figure]]:
    """Pairs of numbers of one class inside one sentence, row or code block."""
    sentence = _sentence_of(reading)
    nums = [(n, s) for n, s in zip(reading.numbers, sentence) if n.high is None]
    for i, (first, sa) in enumerate(nums):
        for second, sb in nums[i + 1 : i + 1 + PAIR_WINDOW]:
            if first.unit is not second.unit or sa != sb:
                continue
            if first.unit is not UnitClass.BARE or (
                reading.tabular and first.decimals == second.decimals
            ):
                yield first, second  # unitless cells pair when written alike (one column's format)


def _derive(figure: Figure, first: Figure, second: Figure) -> list[float]:
    """What a pair of one class yields in the figure's unit: a ratio, a relative change or a
    share for quantities; for two rates their difference (points); for two speed-ups their
    relative change. A ratio of two rates or two speed-ups means nothing and is not formed."""
    low, high = sorted((first.value, second.value))
    kind, pair = figure.unit, first.unit
    if pair in _RATES:
        if kind is UnitClass.POINTS or (
            kind is UnitClass.PERCENT and pair is not UnitClass.MULTIPLE
        ):
            return [high - low] if pair is not UnitClass.MULTIPLE else []
        if kind is UnitClass.PERCENT and low > 0:
            return [(high - low) / low * 100, (high - low) / high * 100]
        return []
    if kind is UnitClass.MULTIPLE:
        return [high / low] if low > 0 else []
    if kind is UnitClass.PERCENT:
        if low <= 0:
            return []
        return [(high - low) / low * 100, (high - low) / high * 100, low / high * 100]
    if kind is UnitClass.POINTS:
        return [high - low] if pair is UnitClass.BARE else []
    if pair is kind:
        return [high - low]
    if pair is UnitClass.BARE:
        return [(high - low) * figure.unit_factor]
    return []


def derived(figure: Figure, reads: tuple[Read, ...], near: bool = False) -> Found | None:
    """A pair of one passage whose ratio or difference the figure is (or, with `near`, misses
    by as little as a near miss does)."""
    if figure.high is not None or not figure.checkable:
        return None
    span = accepted(figure.value, figure.step, figure.hedge)
    if near:
        span = span.widened(near_by(figure, figure.value))
    for reading in reads:
        for first, second in _pairs(reading):
            if any(v in span for v in _derive(figure, first, second)):
                return Found(reading, (first, second))
    if figure.unit is UnitClass.PERCENT and not near:
        return _complement(span, reads)
    return None


def _complement(span: Interval, reads: tuple[Read, ...]) -> Found | None:
    """A share the source states the other side of: a 74.1% hit rate is a 25.9% miss rate."""
    for reading in reads:
        ends = {v for n in reading.numbers if n.high is not None for v in (n.value, n.high)}
        for n in reading.numbers:
            if n.unit is not UnitClass.PERCENT or n.high is not None or n.value in ends:
                continue  # the end of a range (`50-73%`) is a bound, no share of anything
            if 0 < n.value < 100 and 100 - n.value in span:
                return Found(reading, (n,), ("100%", n.text))
    return None


def near(figure: Figure, reads: tuple[Read, ...]) -> Found | None:
    """A number or derived value that misses the figure by little (for a range: each end has
    one; a range with one end nowhere is not a near miss)."""
    found: Found | None = None
    for part in _single(figure):
        hit = next(
            (Found(r, (n,)) for r in reads for n in r.numbers if close(part, n, r.tabular)),
            None,
        )
        hit = hit or derived(part, reads, near=True)
        if hit is None:
            return None
        found = found or hit
    return found


def _an_end(n: Figure, reading: Read) -> bool:
    """Whether `n` is one end of a range its passage writes (`2` of `2-4×`)."""
    return any(
        m.high is not None and m.start <= n.start and n.end <= m.end for m in reading.numbers
    )


def nearest(figure: Figure, reads: tuple[Read, ...], count: int = 3) -> list[tuple[Figure, Read]]:
    """The same-class numbers closest to the figure, for a person to judge a not-found."""
    ranges = figure.high is not None  # a range is shown its nearest ranges too
    same = [
        (distance(figure, n), i, n, reading)
        for i, reading in enumerate(reads)
        for n in reading.numbers
        if (n.high is None or ranges) and n.unit is figure.unit
    ]
    same.sort(key=lambda entry: (entry[0], entry[1]))
    out: list[tuple[Figure, Read]] = []
    for _, _, n, reading in same:
        if ranges and n.high is None and _an_end(n, reading):
            continue  # a range is shown whole, not its ends once more
        if all(n.text != m.text for m, _ in out):
            out.append((n, reading))
        if len(out) == count:
            break
    return out
