"""What stands around a number: its scale (`万`, `k`, `million`), its unit (`%`, `×`, `tok/s`,
`ms`, `GB`), its currency, and the hedge before or after it (`约`, `nearly`, `以上`, `300+`).

Each reader looks at a bounded window next to the number (`match` at a position, or a search
in the few characters before it), so the cost per number is constant and the scan of a whole
text stays linear whatever the text holds.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .model import Hedge, UnitClass

__all__ = ["Around", "currency_before", "hedge_after", "hedge_before", "scale_after", "unit_after"]

_U = UnitClass
_NOT_WORD = r"(?![A-Za-z])"
_BINARY = {"K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40, "P": 2**50}
_DECIMAL = {"K": 1e3, "k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15, "E": 1e18}


@dataclass(frozen=True, slots=True)
class Around:
    """What a window next to a number held: a class and factor, or a hedge, and where it ends
    (after a suffix) or starts (before a prefix)."""

    unit: UnitClass | None
    factor: float
    pos: int
    hedge: Hedge = Hedge.EXACT


_TIME = {
    "ns": 1e-9,
    "nsec": 1e-9,
    "纳秒": 1e-9,
    "μs": 1e-6,
    "us": 1e-6,
    "微秒": 1e-6,
    "ms": 1e-3,
    "msec": 1e-3,
    "毫秒": 1e-3,
    "s": 1.0,
    "sec": 1.0,
    "secs": 1.0,
    "second": 1.0,
    "seconds": 1.0,
    "秒": 1.0,
    "min": 60.0,
    "mins": 60.0,
    "minute": 60.0,
    "minutes": 60.0,
    "分钟": 60.0,
    "h": 3600.0,
    "hr": 3600.0,
    "hrs": 3600.0,
    "hour": 3600.0,
    "hours": 3600.0,
    "小时": 3600.0,
    "day": 86400.0,
    "days": 86400.0,
    "天": 86400.0,
}
_UNIT_RE = re.compile(
    r"[ \t]{0,2}(?:"
    r"(?P<points>(?:percentage|percent)[ \t]?points?(?![A-Za-z])|个?百分点|p\.p\.|pp(?![A-Za-z])"
    r"|pts?(?![A-Za-z])|points?(?![A-Za-z]))"
    r"|(?P<percent>%|percent(?![A-Za-z])|per[ \t]?cent(?![A-Za-z]))"
    r"|(?P<multiple>[xX×](?![A-Za-z0-9])|-?fold(?![A-Za-z])|倍|times(?=[ \t](?:faster|slower"
    r"|more|higher|lower|larger|smaller|better|fewer|less|as|the|speedup|speed-up|throughput)"
    r"|[ \t]?[.,;:!?)）]|$))"
    r"|(?P<throughput>(?:(?:output|input|generated|prompt|total|decode|prefill)[ \t])?"
    r"(?:(?:tokens?|toks?|t)[ \t]?/[ \t]?(?:s|sec|second)(?![A-Za-z])(?:/(?:gpu|GPU|user|req))?"
    r"|tokens?[ \t](?:per|/)[ \t]?(?:second|sec|s)(?![A-Za-z])|(?:tps|TPS)(?![A-Za-z])))"
    r"|(?P<rate>(?:requests?|reqs?)[ \t]?/[ \t]?(?:s|sec|second)(?![A-Za-z])"
    r"|(?:qps|QPS|rps|RPS)(?![A-Za-z])|it/s)"
    r"|(?P<bw>(?P<bwp>[KkMGTP])(?P<bwi>i?)B[ \t]?/[ \t]?s(?![A-Za-z]))"
    r"|(?P<size>(?P<sp>[KkMGTP])(?P<si>i?)B(?![A-Za-z/]))"
    r"|(?P<compute>(?P<cp>[GTPE])FLOP(?:S|s|/s)(?![A-Za-z])|TOPS(?![A-Za-z]))"
    r"|(?P<time>(?:nsec|ns|μs|us|msec|ms|secs|seconds|second|sec|s|minutes|minute|mins|min"
    r"|hours|hour|hrs|hr|h|days|day)(?![A-Za-z])|纳秒|微秒|毫秒|秒|分钟|小时|天)"
    r"|(?P<usd>(?:USD|dollars?)(?![A-Za-z])|美元|美金)"
    r"|(?P<cny>(?:RMB|CNY)(?![A-Za-z])|元|人民币)"
    r"|(?P<eur>(?:EUR|euros?)(?![A-Za-z])|欧元)"
    r"|(?P<count>(?:tokens?|requests?|GPUs?|gpus?|users?|samples?|prompts?|queries|comments?"
    r"|stars?|downloads?|instances?)(?![A-Za-z])|次|个|条|篇|张|台|人|项|例)"
    r")"
)


def unit_after(text: str, pos: int) -> Around | None:
    """The unit written at `pos` (after at most two spaces), its class and its factor to the
    class's base unit; None when there is none."""
    match = _UNIT_RE.match(text, pos)
    if match is None:
        return None
    kind = match.lastgroup
    if kind in ("bwi", "bwp", "si", "sp", "cp"):  # named sub-groups end last: their parent
        kind = {"bwi": "bw", "bwp": "bw", "si": "size", "sp": "size", "cp": "compute"}[kind]
    unit, factor = _class_of(kind or "", match)
    return Around(unit, factor, match.end())


def _class_of(kind: str, match: re.Match[str]) -> tuple[UnitClass, float]:
    simple = {
        "points": _U.POINTS,
        "percent": _U.PERCENT,
        "multiple": _U.MULTIPLE,
        "throughput": _U.THROUGHPUT,
        "rate": _U.REQUEST_RATE,
        "usd": _U.USD,
        "cny": _U.CNY,
        "eur": _U.EUR,
        "count": _U.COUNT,
    }
    if kind in simple:
        return simple[kind], 1.0
    if kind in ("bw", "size"):
        prefix, binary = (
            (match["bwp"], match["bwi"]) if kind == "bw" else (match["sp"], match["si"])
        )
        base = _BINARY[prefix.upper()] if binary else _DECIMAL[prefix]
        return (_U.BANDWIDTH if kind == "bw" else _U.SIZE), float(base)
    if kind == "compute":
        return _U.COMPUTE, _DECIMAL[match["cp"]] if match["cp"] else 1e12
    return _U.TIME, _TIME[match["time"].strip()]


_SCALES = {
    "万亿": 1e12,
    "千亿": 1e11,
    "百亿": 1e10,
    "十亿": 1e9,
    "亿": 1e8,
    "千万": 1e7,
    "百万": 1e6,
    "十万": 1e5,
    "万": 1e4,
    "千": 1e3,
    "k": 1e3,
    "K": 1e3,
    "M": 1e6,
    "B": 1e9,
    "thousand": 1e3,
    "million": 1e6,
    "mn": 1e6,
    "billion": 1e9,
    "bn": 1e9,
    "trillion": 1e12,
}
_SCALE_RE = re.compile(
    r"[ \t]?(?:万亿|千亿|百亿|十亿|亿|千万|百万|十万|万|千(?![克米瓦]))"
    r"|(?:[kKMB]|bn|mn)(?![A-Za-z])"
    r"|[ \t]?(?:thousand|million|billion|trillion)(?![A-Za-z])"
)


def scale_after(text: str, pos: int) -> tuple[str, float, int] | None:
    """The scale word written right after a number (`万`, `k`, ` million`): (word, factor, end)."""
    match = _SCALE_RE.match(text, pos)
    if match is None:
        return None
    word = match.group().strip()
    return word, _SCALES[word], match.end()


_CURRENCY_RE = re.compile(r"(?:US\$|\$|¥|€|(?:USD|RMB|CNY|EUR)[ \t]?)$")
_CURRENCY = {"$": _U.USD, "US$": _U.USD, "USD": _U.USD, "¥": _U.CNY, "RMB": _U.CNY}


def currency_before(text: str, pos: int) -> Around | None:
    """A currency sign or code written right before `pos` (`$4.06`, `¥30`, `USD 5`)."""
    match = _CURRENCY_RE.search(text, max(0, pos - 5), pos)
    if match is None:
        return None
    code = match.group().strip()
    unit = _CURRENCY.get(code, _U.EUR if code in ("€", "EUR") else _U.CNY)
    return Around(unit, 1.0, match.start())


_UP_TO_VERBS = (
    "",
    "提升",
    "提高",
    "加速",
    "降低",
    "减少",
    "增长",
    "增加",
    "节省",
    "可达",
    "达到",
    "达",
)
#: hedge words written before a number, as plain words (a space matches any one space or tab)
_HEDGE_WORDS: dict[Hedge, tuple[str, ...]] = {
    Hedge.UNDER: ("不到", "不足", "不超过", "少于", "低于", "小于", "至多", "less than",
                  "fewer than", "under", "below", "at most", "no more than", "<=", "<", "≤"),
    Hedge.UP_TO: tuple(f"{head}{can}{verb}" for head in ("最高", "最多") for can in ("", "可")
                       for verb in _UP_TO_VERBS)
    + ("高达", "多达", "up to", "as much as", "as high as", "as many as"),
    Hedge.OVER: ("超过", "超出", "逾", "多于", "高于", "大于", "至少", "more than", "over",
                 "above", "at least", "exceeding", "exceeds", "exceed", ">=", ">", "≥"),
    Hedge.NEARLY: ("接近", "将近", "近", "nearly", "almost", "close to", "逼近"),
    Hedge.ABOUT: ("~", "≈", "约为", "大约", "大概", "大致", "约", "roughly", "about", "around",
                  "approximately", "approx.", "approx", "circa"),
}  # fmt: skip


def _reversed_words() -> str:
    """The pattern that reads the hedge ending right before a number, on the reversed window:
    a `match` at the window's start (not a search across it), longest words first."""
    groups = []
    for hedge, words in _HEDGE_WORDS.items():
        alts = []
        for word in sorted(set(words), key=len, reverse=True):
            body = "[ \\t]".join(re.escape(part) for part in word[::-1].split(" "))
            alts.append(body + ("(?![A-Za-z])" if word[0].isascii() and word[0].isalpha() else ""))
        groups.append(f"(?P<{hedge.name.lower()}>{'|'.join(alts)})")
    return r"[ \t]{0,2}(?:" + "|".join(groups) + ")"


#: the hedge before a number, matched on the reversed text before it (see `hedge_before`)
_HEDGE_BEFORE_REVERSED_RE = re.compile(_reversed_words(), re.IGNORECASE)
_HEDGE_WINDOW = 24
_HEDGE_AFTER_RE = re.compile(
    r"[ \t]{0,2}(?:(?P<about>左右|上下|or[ \t]so(?![A-Za-z]))"
    r"|(?P<over>以上|\+(?![0-9])|or[ \t]more(?![A-Za-z]))"
    r"|(?P<under>以下|以内|or[ \t](?:less|fewer)(?![A-Za-z])))"
)
_HEDGES = {
    "under": Hedge.UNDER,
    "upto": Hedge.UP_TO,
    "over": Hedge.OVER,
    "nearly": Hedge.NEARLY,
    "about": Hedge.ABOUT,
}


def hedge_before(text: str, pos: int) -> Around | None:
    """The hedge written right before `pos` (`约 `, `nearly `, `>`, `不到`), with its start."""
    window = text[max(0, pos - _HEDGE_WINDOW) : pos][::-1]
    match = _HEDGE_BEFORE_REVERSED_RE.match(window)
    if match is None or match.lastgroup is None:
        return None
    return Around(None, 1.0, pos - match.end(), Hedge[match.lastgroup.upper()])


def hedge_after(text: str, pos: int) -> Around | None:
    """A hedge written after a figure (`70% 左右`, `300+`, `5 倍以上`), with its end."""
    match = _HEDGE_AFTER_RE.match(text, pos)
    if match is None or match.lastgroup is None:
        return None
    return Around(None, 1.0, match.end(), _HEDGES[match.lastgroup])
