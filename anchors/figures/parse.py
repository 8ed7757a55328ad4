"""Figures in a text: every number with a unit class (`72.7%`, `2.3×`, `1.5万`, `12,701ms`,
`近七成`), its hedge and its precision; and, for a source, the unitless numbers too.

Not figures, so never a verdict: versions (`v0.5.2`, `0.7.x`), dates and times, arXiv IDs,
`#8242`, `§1.3`, model sizes and hardware (`70B`, `H100`, `80GB H100`, `8xA100`), list marks,
and numbers glued to a name (`Llama-3`, `TP8`, `GPT-4o`). A number with no unit is no figure
in a briefing; in a source it is `BARE` (a table cell under a `Speedup (×)` header).
The scan is one pass of linear patterns; what stands around a number is read in bounded windows.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from .chinese import ChineseFigure, chinese_figures
from .model import Figure, Hedge, UnitClass
from .normal import Normal, normalise, normalise_tex
from .units import Around, currency_before, hedge_after, hedge_before, scale_after, unit_after

__all__ = ["figures_in", "numbers_in", "source_text"]

_CORE_RE = re.compile(
    r"(?<![A-Za-z0-9_.#§@/\\^])"
    r"(?:[0-9]{1,3}(?:,[0-9]{3})++(?![0-9])|[0-9]++)(?:\.[0-9]++)?+(?:e[-+]?[0-9]{1,3}(?![0-9]))?+"
)
#: dates, times and URLs hold digits that are no figure: masked before the scan
_MASK_RE = re.compile(
    r"(?<![0-9])(?:[0-9]{4}[-/.][0-9]{1,2}[-/.][0-9]{1,2}|[0-9]{1,2}:[0-9]{2}(?::[0-9]{2})?)"
    r"(?![0-9])|https?://[^\s<>()（）]{1,2048}+"
)
_ARXIV_RE = re.compile(r"[0-9]{4}\.[0-9]{4,5}")
_NAMES_BEFORE_RE = re.compile(
    r"(?:(?<![A-Za-z])(?:v|V|No\.|Table|Tab\.|Fig\.|Figure|Section|Sec\.|Eq\.|version|release"
    r"|Issue|issue|PR|pull|Top|top|Step|step|Layer|layer|Appendix|Algorithm|Line|line)"
    r"|第|表|图|版本|§|#)[ \t]{0,2}$"
)
_SEQUEL_RE = re.compile(r"\.[0-9xX*]|[/:][0-9]|[A-Za-z0-9_]")
_HARDWARE_RE = re.compile(r"[ \t]{0,2}(?:[A-Z]{1,4}[0-9]{2,4}|GPUs?(?![A-Za-z])|nodes?|cards?|卡)")
_MODEL_SIZE_RE = re.compile(
    r"[ \t-]?(?:params?|parameters?|参数|context|ctx|model|MoE|dense|A[0-9]|模型)"
)
_CONNECTOR = r"[ \t]{0,2}(?:-|~|to(?![A-Za-z])|至|到|—)[ \t]{0,2}"
#: what joins the two ends of a range (`3-5%`, `3%~5%`, `3 to 5×`, `3至5倍`)
_GAP_RE = re.compile(_CONNECTOR)
_OPENS_RANGE_RE = re.compile(_CONNECTOR + r"[0-9]")
_CLOSES_RANGE_RE = re.compile(r"[0-9%×xX倍]" + _CONNECTOR + "$")
_RATIO_RE = re.compile(r"/[0-9]")
_VAGUE_EN_RE = re.compile(
    r"(?<![A-Za-z])(?:(?:several|many|multiple|dozens[ \t]of)[ \t]times|an?[ \t]order[ \t]of"
    r"[ \t]magnitude|orders[ \t]of[ \t]magnitude)(?![A-Za-z])",
    re.IGNORECASE,
)
_FOLD_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8}
_FOLD_WORDS |= {"nine": 9, "ten": 10, "doubl": 2, "tripl": 3, "quadrupl": 4}
_WORD_MULTIPLE_RE = re.compile(
    r"(?<![A-Za-z])(?:(?P<n>two|three|four|five|six|seven|eight|nine|ten)[ -]?fold"
    r"|(?P<v>doubl|tripl|quadrupl)(?:ed|es))(?![A-Za-z])",
    re.IGNORECASE,
)
#: a text with more numbers than this is read up to it (a source passage is sentence-sized)
MAX_NUMBERS = 4096


@dataclass(frozen=True, slots=True)
class _Token:
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


def source_text(text: str) -> str:
    """A source passage as the number reader sees it: leftover TeX turned into text."""
    return normalise_tex(text) if ("\\" in text or "$" in text) else text


def figures_in(text: str) -> list[Figure]:
    """The figures a briefing line writes: numbers with a unit class, and vague ones."""
    return _scan(text, bare=False)


def numbers_in(text: str) -> list[Figure]:
    """Every number a source passage writes, unitless ones as `BARE` (TeX read as text)."""
    return _scan(source_text(text), bare=True)


def _scan(text: str, bare: bool) -> list[Figure]:
    norm = normalise(text)
    plain = _MASK_RE.sub(lambda m: " " * len(m.group()), norm.text)
    taken = bytearray(len(plain) + 1)
    out: list[Figure] = []
    for found in chinese_figures(plain):
        lo, hi = found if isinstance(found, tuple) else (found.start, found.end)
        taken[lo:hi] = b"\x01" * (hi - lo)
        out.append(_vague(norm, lo, hi) if isinstance(found, tuple) else _cn(norm, plain, found))
    for m in _VAGUE_EN_RE.finditer(plain):
        out.append(_vague(norm, m.start(), m.end()))
    for m in _WORD_MULTIPLE_RE.finditer(plain):
        value = float(_FOLD_WORDS[(m["n"] or m["v"]).lower()])
        out.append(_cn(norm, plain, ChineseFigure(UnitClass.MULTIPLE, value, 1.0, *m.span())))
    tokens: list[_Token] = []
    for m in _CORE_RE.finditer(plain):
        if taken[m.start()] or len(tokens) >= MAX_NUMBERS:
            continue
        token = _token(plain, m)
        if token is None:
            continue
        if token.unit is not None or bare or _OPENS_RANGE_RE.match(plain, token.end):
            tokens.append(token)
    out.extend(_figures(norm, plain, tokens, bare))
    return sorted((_as_written(f, text) for f in out), key=lambda f: f.start)


def _as_written(figure: Figure, text: str) -> Figure:
    written = text[figure.start : figure.end].strip()
    return figure if written == figure.text else replace(figure, text=written)


def _vague(norm: Normal, start: int, end: int) -> Figure:
    a, b = norm.span(start, end)
    return Figure(UnitClass.VAGUE, 0.0, 0.0, start=a, end=b)


def _cn(norm: Normal, plain: str, found: ChineseFigure) -> Figure:
    before = hedge_before(plain, found.start)
    after = hedge_after(plain, found.end)
    hedge = Hedge.OVER if found.more else Hedge.EXACT
    start, end = found.start, found.end
    if before is not None:
        hedge, start = before.hedge, before.pos
    if after is not None:
        hedge, end = after.hedge, after.pos
    a, b = norm.span(start, end)
    return Figure(found.unit, found.value, found.step, hedge, None, "", a, b, found.decimals)


def _number(core: str) -> tuple[float, float, int]:
    """(value, step, decimals) of `1,234.5` or `3.2e4`."""
    mantissa, _, exponent = core.replace(",", "").partition("e")
    frac = mantissa.partition(".")[2]
    power = int(exponent) if exponent else 0
    return float(mantissa) * 10.0**power, 10.0 ** (power - len(frac)), max(0, len(frac) - power)


def _token(plain: str, m: re.Match[str]) -> _Token | None:
    """The number at `m` with its scale, unit and hedges; None when it is no figure."""
    core, start, end = m.group(), m.start(), m.end()
    if _not_a_figure(plain, core, start, end):
        return None
    value, step, decimals = _number(core)
    scale_word, factor = "", 1.0
    if (scaled := scale_after(plain, end)) is not None:
        scale_word, factor, end = scaled
    more = plain[end : end + 1] in ("多", "余", "+") and not plain[end + 1 : end + 2].isdigit()
    unit = unit_after(plain, end + 1 if more else end)
    prefix = currency_before(plain, start) or _times_before(plain, start)
    kind = _kind(plain, scale_word, unit, prefix, end)
    if kind is None:
        return None
    unit_class, unit_factor = kind
    if unit is not None and unit_class is unit.unit:
        end = unit.pos
    elif more:
        end += 1
    if _RATIO_RE.match(plain, end):
        return None  # `1k/1k`, `3/4`: a ratio or a configuration, not a figure
    if prefix is not None and unit_class is prefix.unit:
        start = prefix.pos
    hedge, start, end = _hedges(plain, start, end, more)
    total = factor * unit_factor
    return _Token(
        unit_class, value * total, step * total, decimals, start, end, hedge, total, unit_factor
    )


def _kind(
    plain: str, scale: str, unit: Around | None, prefix: Around | None, end: int
) -> tuple[UnitClass | None, float] | None:
    """The class a number has from its unit, prefix and scale; None when what follows makes
    it no figure (a model size, a hardware count, `2 x 3`, `×30 layers`)."""
    if unit is not None and unit.unit is not None:
        after = plain[unit.pos : unit.pos + 12]
        if unit.unit is UnitClass.MULTIPLE and plain[end : unit.pos].strip() in ("x", "X", "×"):
            if after[:3].strip()[:1].isdigit() or _HARDWARE_RE.match(after):
                return None  # `2 x 3`, `8x A100`
        if unit.unit is UnitClass.SIZE and _HARDWARE_RE.match(after):
            return None  # `80GB H100` names a card
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


_WORD_NEXT_RE = re.compile(r"[ \t]{0,2}[A-Za-z\u4e00-\u9fff]")


def _times_before(plain: str, start: int) -> Around | None:
    """A `×` written before the number (`×2`, `× 1.5`)."""
    j = start
    while j > 0 and start - j < 2 and plain[j - 1] in " \t":
        j -= 1
    if j > 0 and plain[j - 1] == "×":
        return Around(UnitClass.MULTIPLE, 1.0, j - 1)
    return None


def _not_a_figure(plain: str, core: str, start: int, end: int) -> bool:
    """Versions, IDs, section and table numbers, names with a number in them."""
    if start > 1 and plain[start - 1] in "-/" and plain[start - 2].isalpha():
        return True  # `Llama-3`, `A/3`
    if _SEQUEL_RE.match(plain, end) and not _unit_or_scale(plain, end):
        return True  # `0.5.2`, `0.7.x`, `4o`, `3D`, `24/7`
    if _ARXIV_RE.fullmatch(core):
        return True
    if _NAMES_BEFORE_RE.search(plain, max(0, start - 14), start):
        return True
    if len(core) == 4 and core[:2] in ("19", "20") and plain[end : end + 1] in ("s", "年"):
        return True  # `1990s`, `2026年`
    return False


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
    sign = start - 1 if start > 0 and plain[start - 1] in "+-±" else start
    before = hedge_before(plain, sign)
    if before is not None:
        hedge, start = before.hedge, before.pos
    else:
        start = sign
    after = hedge_after(plain, end)
    if after is not None:
        hedge, end = after.hedge, after.pos
    return hedge, start, end


def _figures(norm: Normal, plain: str, tokens: list[_Token], bare: bool) -> list[Figure]:
    """Tokens as figures, `3-5%` and `3%~5%` joined into ranges."""
    out: list[Figure] = []
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        nxt = tokens[i + 1] if i + 1 < len(tokens) else None
        if (
            nxt is not None
            and nxt.unit is not None
            and tok.unit in (None, nxt.unit)
            and _GAP_RE.fullmatch(plain, tok.end, nxt.start)
        ):
            low = tok.value * (1.0 if tok.unit else nxt.factor)
            hedge = nxt.hedge if nxt.hedge is not Hedge.EXACT else tok.hedge
            out.append(_figure(norm, nxt, tok.start, low, nxt.value, hedge))
            if bare:  # a source's range also states each end (`from 120 ms to 80 ms`)
                step = tok.step * (1.0 if tok.unit else nxt.factor)
                first = replace(tok, unit=nxt.unit, value=low, step=step, unit_factor=nxt.unit_factor)
                out += [_figure(norm, first, tok.start, low, None, Hedge.EXACT)]
                out += [_figure(norm, nxt, nxt.start, nxt.value, None, nxt.hedge)]
            i += 2
            continue
        if tok.unit is not None or bare:
            out.append(_figure(norm, tok, tok.start, tok.value, None, tok.hedge))
        i += 1
    return out


def _figure(
    norm: Normal, tok: _Token, start: int, low: float, high: float | None, hedge: Hedge
) -> Figure:
    a, b = norm.span(start, tok.end)
    if high is not None and low > high:
        low, high = high, low
    unit = tok.unit or UnitClass.BARE
    return Figure(unit, low, tok.step, hedge, high, "", a, b, tok.decimals, tok.unit_factor)
