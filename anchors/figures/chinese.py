"""Figures written in Chinese numerals: `百分之七十二点七`, `七成`/`近七成`, `三倍`, `两倍`,
`一点五倍`, `翻倍`, `翻两番`, `五个百分点`, `十余倍`; and the vague ones (`数十倍`, `大幅`).

The value of a numeral run (`七十二点七`, `一千二百`, `三万亿`) is cn2an's (`cn2an.cn2an(run,
"smart")`): a maintained converter that knows the grammar of 万/亿 groups, 零 and 两. Around it
this module does what cn2an leaves to its caller: which runs are figures at all (only before
`倍`, `成`, `个百分点` or after `百分之`, and not inside a word such as `统一成` or `一成不变`),
`成` as tenths, `翻N番` as 2^N, a trailing `万`/`亿` as a scale with its precision, `多`/`余` as
"more than", and bounded run lengths. cn2an's `transform` is not used: it rewrites the text
(figures must keep their place) and its date pattern backtracks over long numeral runs.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

from .model import UnitClass

__all__ = ["ChineseFigure", "chinese_figures", "numeral_value"]

_DIGITS = "零〇一二两三四五六七八九"
_NUMERAL = f"[{_DIGITS}十百千万亿点]"
#: a run of numerals from its first character (never from inside a longer run), 24 at most
_RUN = f"(?<!{_NUMERAL}){_NUMERAL}{{1,24}}+"
#: a run that is a figure: after 百分之, or before 倍 / 成 / 个百分点, with 多/余 between
_FIGURE_RE = re.compile(
    rf"(?P<pct>百分之)(?P<prun>{_RUN})"
    rf"|(?P<run>{_RUN})(?P<more>[多余])?(?P<unit>个百分点|百分点|倍|成(?![本功为员果熟长立交型品就绩年都分]))"
    r"|(?P<fan>翻(?:(?P<n>[一两二三四五])番|倍|番))"
    r"|(?P<vague>数十倍|几十倍|十几倍|数百倍|几百倍|上百倍|上千倍|数倍|几倍|成倍|大幅)"
)
#: characters that make a numeral part of a word (`统一`, `第一`, `唯一`, `之一`, `进一步`)
_WORD_BEFORE = frozenset("第统唯同之进逐某单划均专其每另任")
#: Chinese-numeral figures read in one text at most (as `parse.MAX_NUMBERS` for digits)
MAX_FIGURES = 2048
_FAN = {"一": 2.0, "二": 4.0, "两": 4.0, "三": 8.0, "四": 16.0, "五": 32.0}
_SCALE = {"万亿": 1e12, "亿": 1e8, "万": 1e4}


@dataclass(frozen=True, slots=True)
class ChineseFigure:
    unit: UnitClass
    value: float
    step: float
    start: int
    end: int
    #: `十余倍` is more than ten times
    more: bool = False
    decimals: int = 0


@lru_cache(maxsize=1024)
def numeral_value(run: str) -> tuple[float, float, int] | None:
    """(value, step, decimals) of a numeral run (`七十二点七` → 72.7, 0.1, 1; `三万` → 30000,
    10000, 0); None when it is not one number."""
    run = run.replace("〇", "零")
    scale, body = 1.0, run
    for word, factor in _SCALE.items():  # `一点五万`: cn2an reads 1.5, the 万 is ours
        if run.endswith(word) and len(run) > len(word) and "点" in run:
            scale, body = factor, run[: -len(word)]
            break
    decimals = len(body.split("点", 1)[1]) if "点" in body else 0
    if decimals > 12 or body.count("点") > 1 or body.startswith("点") or body.endswith("点"):
        return None
    value = _cn2an(body)
    if value is None:
        return None
    step = 10.0**-decimals * scale
    if decimals == 0 and scale == 1.0:  # `三万`: the last digit written is a 万
        for word, factor in _SCALE.items():
            if run.endswith(word):
                step = factor
                break
    return value * scale, step, decimals


def _cn2an(body: str) -> float | None:
    # NOTE: imported here, not at the top: building its converters costs ~90 ms, paid only by a
    # briefing or source that writes a Chinese numeral figure (bench/startup.py's budget)
    import cn2an  # type: ignore[import-untyped]

    if body in ("十", "百", "千"):
        return {"十": 10.0, "百": 100.0, "千": 1000.0}[body]
    try:
        value = cn2an.cn2an(body, "smart")
    except (ValueError, KeyError, IndexError):
        return None
    return float(value) if isinstance(value, (int, float)) else None


def chinese_figures(text: str) -> Iterator[ChineseFigure | tuple[int, int]]:
    """Each Chinese-numeral figure in `text`; a vague one (`数十倍`) as its (start, end)."""
    for count, match in enumerate(_matches(text)):
        if count >= MAX_FIGURES:
            return
        if match["vague"]:
            yield match.start(), match.end()
        elif match["fan"]:
            value = _FAN.get(match["n"] or "一", 2.0)
            yield ChineseFigure(UnitClass.MULTIPLE, value, 1.0, match.start(), match.end())
        elif (found := _numeral_figure(text, match)) is not None:
            yield found


#: the characters every Chinese-numeral figure holds: the full pattern runs only near them
_ANCHOR_RE = re.compile(r"[倍成翻幅]|百分")


def _matches(text: str) -> Iterator[re.Match[str]]:
    """`_FIGURE_RE`'s matches, looked for only in short windows around `倍`, `成`, `翻`, `幅`
    and `百分` (a figure's numerals stand at most 26 characters before or after them)."""
    lo = hi = -1
    for marker in _ANCHOR_RE.finditer(text):
        start, end = max(0, marker.start() - 26), marker.end() + 28
        if start <= hi:
            hi = end
            continue
        if hi > lo:
            yield from _FIGURE_RE.finditer(text, lo, hi)
        lo, hi = start, end
    if hi > lo:
        yield from _FIGURE_RE.finditer(text, lo, hi)


def _numeral_figure(text: str, match: re.Match[str]) -> ChineseFigure | None:
    run = match["prun"] or match["run"]
    start = match.start()
    if not match["pct"] and start > 0 and text[start - 1] in _WORD_BEFORE:
        return None
    if match["unit"] == "成" and (run == "一" or len(run) > 3):  # `一成不变`; 成 counts tenths
        return None
    parsed = numeral_value(run)
    if parsed is None:
        return None
    value, step, decimals = parsed
    if match["pct"]:
        return ChineseFigure(UnitClass.PERCENT, value, step, start, match.end(), decimals=decimals)
    unit = match["unit"]
    if unit == "成":
        return ChineseFigure(UnitClass.PERCENT, value * 10, step * 10, start, match.end())
    kind = UnitClass.MULTIPLE if unit == "倍" else UnitClass.POINTS
    return ChineseFigure(kind, value, step, start, match.end(), bool(match["more"]), decimals)
