"""One number and what stands around it: its scale, unit, currency, hedge and sign, or why it
is no figure (a version, an ID, a section, a model size, a card, a name with a digit in it).

Every look around a number is a `match` or a bounded search in a window of a few characters,
so reading a number costs the same whatever the text holds.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from .model import Hedge, UnitClass
from .units import Around, currency_before, hedge_after, hedge_before, scale_after, unit_after

__all__ = ["Token", "core_re", "token"]

#: a number as written: `1,234,567` (six groups at most, so a run of groups is never rescanned
#: from each of its commas), `72.7`, `3.2e4`
_DIGITS = (
    r"(?:[0-9]{1,3}(?:,[0-9]{3}){1,6}+(?![0-9])|[0-9]++)(?:\.[0-9]++)?+"
    r"(?:e[-+]?[0-9]{1,3}(?![0-9]))?+"
)
#: a briefing's numbers: not after a letter, `.`, `#`, `§`, `/` (`v0.5`, `#8242`, `24/7`)
_BRIEFING_CORE_RE = re.compile(r"(?<![A-Za-z0-9_.#§@/\\^±])" + _DIGITS)
#: a source's numbers: `/` separates two of them in a table cell (`14.33/6895.75`)
_SOURCE_CORE_RE = re.compile(r"(?<![A-Za-z0-9_.#§@\\^±])" + _DIGITS)
_ARXIV_RE = re.compile(r"[0-9]{4}\.[0-9]{4,5}")
_NAMES_BEFORE_RE = re.compile(
    r"(?:(?<![A-Za-z])(?:v|V|No\.|Table|Tab\.|Fig\.|Figure|Section|Sec\.|Eq\.|version|release"
    r"|Issue|issue|PR|pull|Top|top|Step|step|Layer|layer|Appendix|Algorithm|Line|line)"
    r"|第|表|图|版本|§|#|±)[ \t]{0,2}$"
)
_BRIEFING_SEQUEL_RE = re.compile(r"\.[0-9xX*]|[/:][0-9]|[A-Za-z0-9_]")
_SOURCE_SEQUEL_RE = re.compile(r"\.[0-9xX*]|:[0-9]|[A-Za-z0-9_]")
_HARDWARE_RE = re.compile(r"[ \t]{0,2}(?:[A-Z]{1,4}[0-9]{2,4}|GPUs?(?![A-Za-z])|nodes?|cards?|卡)")
_HARDWARE_BEFORE_RE = re.compile(r"[A-Z]{1,4}[0-9]{2,4}[A-Za-z]?[ \t]{0,2}$")
_MODEL_SIZE_RE = re.compile(
    r"[ \t-]?(?:params?|parameters?|参数|context|ctx|model|MoE|dense|A[0-9]|模型)"
)
_PLUS_MINUS_RE = re.compile(r"[ \t]{0,2}±[ \t]{0,2}[0-9][0-9.,]{0,20}")
_CLOSES_RANGE_RE = re.compile(r"[0-9%×xX倍][ \t]{0,2}(?:-|~|to|至|到|—)[ \t]{0,2}$")
_RATIO_RE = re.compile(r"/[0-9]")
_WORD_NEXT_RE = re.compile(r"[ \t]{0,2}[A-Za-z\u4e00-\u9fff]")


@dataclass(frozen=True, slots=True)
class Token:
    """A number and what stands around it, before ranges are joined."""

    unit: UnitClass | None
    value: float
    step: float
    decimals: int
    start: int
    end: int
    hedge: Hedge = Hedge.EXACT
    #: scale times unit factor: what a range's unitless low end is multiplied by
    factor: float = 1.0
    unit_factor: float = 1.0


def core_re(source: bool) -> re.Pattern[str]:
    return _SOURCE_CORE_RE if source else _BRIEFING_CORE_RE


def _number(core: str) -> tuple[float, float, int]:
    """(value, step, decimals) of `1,234.5` or `3.2e4`."""
    mantissa, _, exponent = core.replace(",", "").partition("e")
    frac = mantissa.partition(".")[2]
    power = int(exponent) if exponent else 0
    return float(mantissa) * 10.0**power, 10.0 ** (power - len(frac)), max(0, len(frac) - power)


#: what may follow a briefing's figure (a unit, a scale, a range, a hedge); what may come
#: right before one with no unit after it (a currency, `×`)
_MAY_FOLLOW_RE = re.compile(
    r"[ \t]{0,2}[A-Za-zμ%×倍万亿千百个条篇张台人项例次秒分小天元美欧成毫微纳多余+\-~到至—±左上以]"
)
_MAY_PRECEDE = frozenset("$¥€×DBY")


#: what a number's reading looks at, before and after it (every look is bounded by these)
_BEFORE, _AFTER = 32, 96


def token(plain: str, match: re.Match[str], source: bool) -> Token | None:
    """The number at `match` with its scale, unit and hedges; None when it is no figure. It is read
    in a window around the number, and a window seen before is not read again (a long text of
    one repeated row costs what its distinct rows cost)."""
    lo = max(0, match.start() - _BEFORE)
    window = plain[lo : match.end() + _AFTER]
    found = _token(window, match.start() - lo, match.end() - lo, source)
    if found is None or lo == 0:
        return found
    return Token(
        found.unit, found.value, found.step, found.decimals, found.start + lo, found.end + lo,
        found.hedge, found.factor, found.unit_factor,
    )  # fmt: skip


@lru_cache(maxsize=4096)
def _token(plain: str, start: int, end: int, source: bool) -> Token | None:
    core = plain[start:end]
    alone = not _MAY_FOLLOW_RE.match(plain, end)
    if not source and alone and (start == 0 or plain[start - 1] not in _MAY_PRECEDE):
        return None  # `1,` `(3)`: nothing a figure is made of stands beside it
    if _not_a_figure(plain, core, start, end, source):
        return None
    value, step, decimals = _number(core)
    scale_word, factor = "", 1.0
    if (scaled := scale_after(plain, end)) is not None:
        scale_word, factor, end = scaled
    if (spread := _PLUS_MINUS_RE.match(plain, end)) is not None:
        end = spread.end()  # `998.41 ± 114.47 t/s`: the unit comes after the spread
    more = plain[end : end + 1] in ("多", "余", "+") and not plain[end + 1 : end + 2].isdigit()
    unit = unit_after(plain, end + 1 if more else end)
    prefix = currency_before(plain, start) or _times_before(plain, start)
    kind = _kind(plain, scale_word, unit, prefix, start, end)
    if kind is None:
        return None
    unit_class, unit_factor = kind
    if unit is not None and unit_class is unit.unit:
        end = unit.pos
    elif more:
        end += 1
    if not source and _RATIO_RE.match(plain, end):
        return None  # `1k/1k`, `3/4`: a ratio or a configuration, not a figure
    if prefix is not None and unit_class is prefix.unit:
        start = prefix.pos
    hedge, start, end = _hedges(plain, start, end, more)
    total = factor * unit_factor
    return Token(
        unit_class, value * total, step * total, decimals, start, end, hedge, total, unit_factor
    )


def _kind(
    plain: str, scale: str, unit: Around | None, prefix: Around | None, start: int, end: int
) -> tuple[UnitClass | None, float] | None:
    """The class a number has from its unit, prefix and scale; None when what stands around
    it makes it no figure (a model size, a card, `2 x 3`, `×30 layers`)."""
    if unit is not None and unit.unit is not None:
        after = plain[unit.pos : unit.pos + 12]
        letter = plain[end : unit.pos].strip() in ("x", "X", "×")
        if letter and unit.unit is UnitClass.MULTIPLE and _multiplies(after):
            return None  # `2 x 3`, `8x A100`
        if unit.unit is UnitClass.SIZE and (
            _HARDWARE_RE.match(after)
            or _HARDWARE_BEFORE_RE.search(plain, max(0, start - 10), start)
        ):
            return None  # `80GB H100`, `A100 80GB`: a card's memory, not a measurement
        if prefix is not None and prefix.unit is not UnitClass.MULTIPLE:
            return prefix.unit, 1.0  # `$1.5M tokens`: money
        if scale == "B" and unit.unit is not UnitClass.COUNT:
            return None
        return unit.unit, unit.factor
    if scale and _MODEL_SIZE_RE.match(plain, end):
        return None
    if prefix is not None:
        if prefix.unit is UnitClass.MULTIPLE and _WORD_NEXT_RE.match(plain, end):
            return None  # `×30 layers` multiplies a count, it is no speed-up
        return prefix.unit, 1.0
    if scale == "B":
        return None  # `70B`, `8B`: a model's size
    return (UnitClass.COUNT, 1.0) if scale else (None, 1.0)


def _multiplies(after: str) -> bool:
    """What follows an `x` makes it a product or a count of cards, not a speed-up."""
    return after[:3].strip()[:1].isdigit() or bool(_HARDWARE_RE.match(after))


def _times_before(plain: str, start: int) -> Around | None:
    """A `×` written before the number (`×2`, `× 1.5`)."""
    at = start
    while at > 0 and start - at < 2 and plain[at - 1] in " \t":
        at -= 1
    if at > 0 and plain[at - 1] == "×":
        return Around(UnitClass.MULTIPLE, 1.0, at - 1)
    return None


def _not_a_figure(plain: str, core: str, start: int, end: int, source: bool) -> bool:
    """Versions, IDs, section and table numbers, names with a number in them."""
    glued = start > 1 and plain[start - 1] in "-/" and plain[start - 2].isalpha()
    if glued and not _CLOSES_RANGE_RE.search(plain, max(0, start - 8), start):
        return True  # `Llama-3`, `A/3` (but `2.7x-3.5x` is a range)
    sequel = _SOURCE_SEQUEL_RE if source else _BRIEFING_SEQUEL_RE
    if sequel.match(plain, end) and not _unit_or_scale(plain, end):
        return True  # `0.5.2`, `0.7.x`, `4o`, `3D`, `24/7`
    if _ARXIV_RE.fullmatch(core):
        return True
    if _NAMES_BEFORE_RE.search(plain, max(0, start - 14), start):
        return True
    # `1990s`, `2026年`
    return len(core) == 4 and core[:2] in ("19", "20") and plain[end : end + 1] in ("s", "年")


def _unit_or_scale(plain: str, end: int) -> bool:
    if plain[end : end + 1] in ("/", ":", "."):
        return False
    return unit_after(plain, end) is not None or scale_after(plain, end) is not None


def _hedges(plain: str, start: int, end: int, more: bool) -> tuple[Hedge, int, int]:
    """The hedge before (`约`, `>`) or after (`左右`, `以上`) the figure, and its new span.
    The second end of a range (`3~5%`) takes no hedge or sign from the range's connector."""
    hedge = Hedge.OVER if more else Hedge.EXACT
    if _CLOSES_RANGE_RE.search(plain, max(0, start - 8), start):
        return hedge, start, end
    sign = start - 1 if start > 0 and plain[start - 1] in "+-" else start
    before = hedge_before(plain, sign)
    if before is not None:
        hedge, start = before.hedge, before.pos
    else:
        start = sign
    after = hedge_after(plain, end)
    if after is not None:
        hedge, end = after.hedge, after.pos
    return hedge, start, end
