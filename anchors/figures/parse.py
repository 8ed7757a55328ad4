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
from dataclasses import replace

from .chinese import ChineseFigure, chinese_figures
from .model import Figure, Hedge, UnitClass
from .normal import Normal, normalise, normalise_tex
from .tokens import Token, core_re, token
from .units import hedge_after, hedge_before

__all__ = ["figures_in", "numbers_in", "source_text"]

_CONNECTOR = r"[ \t]{0,2}(?:-|~|to(?![A-Za-z])|至|到|—)[ \t]{0,2}"
#: what joins the two ends of a range (`3-5%`, `3%~5%`, `3 to 5×`, `3至5倍`)
_GAP_RE = re.compile(_CONNECTOR)
_OPENS_RANGE_RE = re.compile(_CONNECTOR + r"[0-9]")
#: dates, times and URLs hold digits that are no figure: masked before the scan
_MASK_RE = re.compile(
    r"(?<![0-9])(?:[0-9]{4}[-/.][0-9]{1,2}[-/.][0-9]{1,2}|[0-9]{1,2}:[0-9]{2}(?::[0-9]{2})?)"
    r"(?![0-9])|https?://[^\s<>()（）]{1,2048}+"
)
#: what every date, time and URL `_MASK_RE` masks holds: a digit, a separator and a digit
_MASK_HINT_RE = re.compile(r"[0-9][-/.:][0-9]")
_VAGUE_EN_RE = re.compile(
    r"(?<![A-Za-z])(?:(?:several|many|multiple|dozens[ \t]of)[ \t]times|an?[ \t]order[ \t]of"
    r"[ \t]magnitude|orders[ \t]of[ \t]magnitude)(?![A-Za-z])",
    re.IGNORECASE,
)
#: what every word multiple holds (`-fold`, `doubled`, `tripled`, `quadrupled`)
_MULTIPLE_HINT_RE = re.compile(r"fold|doubl|tripl|quadrupl")
_FOLD_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8}
_FOLD_WORDS |= {"nine": 9, "ten": 10, "doubl": 2, "tripl": 3, "quadrupl": 4}
_WORD_MULTIPLE_RE = re.compile(
    r"(?<![A-Za-z])(?:(?P<n>two|three|four|five|six|seven|eight|nine|ten)[ -]?fold"
    r"|(?P<v>doubl|tripl|quadrupl)(?:ed|es))(?![A-Za-z])",
    re.IGNORECASE,
)
#: a text with more numbers than this is read up to it: a briefing line or a source passage
#: (a sentence, a row, a comment) holds far fewer, and the cost of a text stays bounded
MAX_NUMBERS = 8192


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
    masked = "http" in norm.text or _MASK_HINT_RE.search(norm.text) is not None
    plain = _MASK_RE.sub(lambda span: " " * len(span.group()), norm.text) if masked else norm.text
    taken = bytearray(len(plain) + 1)
    out = _words(norm, plain, taken)
    out.extend(_figures(norm, plain, _numbers(plain, taken, bare), bare, text))
    return sorted((f if f.text else _as_written(f, text) for f in out), key=lambda f: f.start)


def _words(norm: Normal, plain: str, taken: bytearray) -> list[Figure]:
    """Figures written in words: Chinese numerals, `twofold`, `doubled`, the vague ones. Their
    characters are marked in `taken`, so no digit inside them is read again."""
    out: list[Figure] = []
    for found in chinese_figures(plain):
        if isinstance(found, tuple):
            lo, hi = found
            out.append(_vague(norm, lo, hi))
        else:
            lo, hi = found.start, found.end
            out.append(_cn(norm, plain, found))
        taken[lo:hi] = b"\x01" * (hi - lo)
    lower = plain.lower()
    # the English word patterns run only where their words can be (most lines have none)
    for match in _VAGUE_EN_RE.finditer(plain) if ("time" in lower or "magnitude" in lower) else ():
        out.append(_vague(norm, match.start(), match.end()))
    for match in _WORD_MULTIPLE_RE.finditer(plain) if _MULTIPLE_HINT_RE.search(lower) else ():
        value = float(_FOLD_WORDS[(match["n"] or match["v"]).lower()])
        out.append(_cn(norm, plain, ChineseFigure(UnitClass.MULTIPLE, value, 1.0, *match.span())))
    return out


def _numbers(plain: str, taken: bytearray, bare: bool) -> list[Token]:
    """Every number written in digits, with what stands around it (at most `MAX_NUMBERS`)."""
    tokens: list[Token] = []
    for seen, match in enumerate(core_re(bare).finditer(plain)):
        if seen >= MAX_NUMBERS or len(tokens) >= MAX_NUMBERS:
            break
        if taken[match.start()]:
            continue
        found = token(plain, match, bare)
        if found is not None and (
            found.unit is not None or bare or _OPENS_RANGE_RE.match(plain, found.end)
        ):
            tokens.append(found)
    return tokens


def _as_written(figure: Figure, text: str) -> Figure:
    return replace(figure, text=text[figure.start : figure.end].strip())


def _vague(norm: Normal, start: int, end: int) -> Figure:
    begin, finish = norm.span(start, end)
    return Figure(UnitClass.VAGUE, 0.0, 0.0, start=begin, end=finish)


def _cn(norm: Normal, plain: str, found: ChineseFigure) -> Figure:
    before = hedge_before(plain, found.start)
    after = hedge_after(plain, found.end)
    hedge = Hedge.OVER if found.more else Hedge.EXACT
    start, end = found.start, found.end
    if before is not None:
        hedge, start = before.hedge, before.pos
    if after is not None:
        hedge, end = after.hedge, after.pos
    begin, finish = norm.span(start, end)
    return Figure(
        found.unit, found.value, found.step, hedge, None, "", begin, finish, found.decimals
    )


def _figures(norm: Normal, plain: str, tokens: list[Token], bare: bool, text: str) -> list[Figure]:
    """Tokens as figures, `3-5%` and `3%~5%` joined into ranges."""
    out: list[Figure] = []
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        nxt = tokens[i + 1] if i + 1 < len(tokens) else None
        if nxt is not None and _is_range(plain, tok, nxt):
            low = tok.value * (1.0 if tok.unit else nxt.factor)
            hedge = nxt.hedge if nxt.hedge is not Hedge.EXACT else tok.hedge
            out.append(_figure(norm, nxt, tok.start, low, nxt.value, hedge, text))
            if bare:  # a source's range also states each end (`from 120 ms to 80 ms`)
                step = tok.step * (1.0 if tok.unit else nxt.factor)
                first = replace(
                    tok, unit=nxt.unit, value=low, step=step, unit_factor=nxt.unit_factor
                )
                out += [_figure(norm, first, tok.start, low, None, Hedge.EXACT, text)]
                out += [_figure(norm, nxt, nxt.start, nxt.value, None, nxt.hedge, text)]
            i += 2
            continue
        if tok.unit is not None or bare:
            out.append(_figure(norm, tok, tok.start, tok.value, None, tok.hedge, text))
        i += 1
    return out


_FROM_RE = re.compile(r"(?:(?<![A-Za-z])from|从|由)[ \t]{0,2}$", re.IGNORECASE)


def _is_range(plain: str, tok: Token, nxt: Token) -> bool:
    """`3-5%`, `3%~5%`, `2.7x-3.5x`: two numbers of one unit joined by a connector, low then
    high; `from 120 ms to 80 ms` and `从 312ms 到 251ms` are a change, not a range."""
    if nxt.unit is None or tok.unit not in (None, nxt.unit):
        return False
    if not _GAP_RE.fullmatch(plain, tok.end, nxt.start):
        return False
    low = tok.value * (1.0 if tok.unit else nxt.factor)
    if low >= nxt.value:
        return False
    return not _FROM_RE.search(plain, max(0, tok.start - 8), tok.start)


def _figure(
    norm: Normal,
    tok: Token,
    start: int,
    low: float,
    high: float | None,
    hedge: Hedge,
    text: str,
) -> Figure:
    begin, finish = norm.span(start, tok.end)
    if high is not None and low > high:
        low, high = high, low
    unit = tok.unit or UnitClass.BARE
    written = text[begin:finish].strip()
    return Figure(
        unit, low, tok.step, hedge, high, written, begin, finish, tok.decimals, tok.unit_factor
    )
