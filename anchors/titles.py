"""Title truth: is the title written next to a citation the paper's real title?

Briefings are written with LLM help, so their worst error is a real ID next to a title that is
almost right: one word or number changed (`Goodput`→`Throughput`, `V3`→`V2`), two words
swapped, the right name with another subtitle. A fuzzy ratio cannot see those, so the rule is
exact: after undoing the variations a person tolerates (case, punctuation and dashes, TeX and
HTML spellings, a dropped subtitle, a gloss after the English title), the written title must
*be* the paper's title or its main title. Anything else is a different title.

Tolerated glosses: anything after ` · `, ` • `, `（`, `｜`, ` | ` or ` - `, and a Chinese gloss
after a space (which may begin with a few English tokens such as `PD` or `671B MoE`).
"""

from __future__ import annotations

import html
import itertools
import re
from enum import Enum

from .unicodenorm import normalize

__all__ = ["TitleVerdict", "compare_titles", "normalise", "same_title"]


class TitleVerdict(str, Enum):
    SAME = "same"
    DIFFERENT = "different"
    #: the written title holds no English words (a Chinese-only description): nothing to confirm
    UNCONFIRMABLE = "unconfirmable"


_CJK_RE = re.compile(
    r"[\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uff00-\uffef]"
)
_LATIN_RE = re.compile(r"[A-Za-z0-9]")
#: separators after which the rest is a gloss, not part of the title
#: (a run of spaces is read from its first character only, `(?<!\s)\s++`: `finditer` would
#: read it again from each of its characters)
_GLOSS_SEP_RE = re.compile(r"(?<!\s)\s++[·•|]\s+|(?:(?<!\s)\s++)?[（｜【]|(?<!\s)\s++[-–—]\s+")
#: separators before which is the main title (the subtitle dropped)
_MAIN_SEP_RE = re.compile(r"(?:(?<!\s)\s++)?[:：]\s*|(?<!\s)\s++[-–—]+\s+|(?:(?<!\s)\s++)?—\s*")
#: English tokens a Chinese gloss may start with (`PD 分离`, `671B MoE 技术报告`)
_MAX_GLOSS_TOKENS = 4
#: separators a gloss may follow, first to last, that are tried
_MAX_GLOSS_FORMS = 8
_SUBTITLE_MARKS = (":", "：", "-", "–", "—")
#: what may follow a bare name: "DeepSeek-V3" is "DeepSeek-V3 Technical Report"
_REPORT_WORDS = frozenset({"technical", "report", "tech"})
_TEX_TEXT_RE = re.compile(
    r"\\(?:text|textbf|textit|mathrm|mathbf|mathit|mathcal|emph|textsc)\s*\{([^{}]*)\}"
)
_TEX_SCRIPT_RE = re.compile(r"[\^_]\{([^{}]*)\}|[\^_](\w)")
_TEX_SYMBOLS = {
    r"\infty": "∞",
    r"\&": "&",
    r"\%": "%",
    r"\$": "$",
    r"\times": "×",
    r"\alpha": "α",
    r"\beta": "β",
    r"\gamma": "γ",
    r"\lambda": "λ",
    r"\mu": "μ",
    r"\pi": "π",
    r"\sigma": "σ",
    r"\tau": "τ",
    r"\epsilon": "ε",
    r"\delta": "δ",
}
_TEX_CMD_RE = re.compile(r"\\([A-Za-z]+)")
_WORD_RE = re.compile(r"\w+")
_SPACES_RE = re.compile(r"\s+")
_NOTICE_PREFIX_RE = re.compile(r"^\s*(?:RETRACTED(?: ARTICLE)?|WITHDRAWN)\s*:\s*")


def _untex(text: str) -> str:
    """TeX spellings to plain text: `H$_2$O`→`H2O`, `$\\text{Memory}^3$`→`Memory3`."""
    if "\\" not in text and "$" not in text and "^" not in text:
        return text
    for tex, plain in _TEX_SYMBOLS.items():
        text = text.replace(tex, plain)
    for _ in range(3):  # nested \text{..} inside scripts
        text = _TEX_TEXT_RE.sub(r"\1", text)
    text = _TEX_SCRIPT_RE.sub(lambda script: script[1] or script[2], text)
    text = _TEX_CMD_RE.sub(r"\1", text)
    return text.replace("$", "").replace("{", "").replace("}", "")


def _clean(title: str) -> str:
    """Entities decoded and TeX undone (full-width gloss marks such as `（` are kept)."""
    text = title
    for _ in range(2):  # `&amp;#39;` is an entity written twice
        text = html.unescape(text)
    return _untex(text)


def _key(text: str) -> str:
    """The comparison key: letters and digits only, case-folded, spaces and punctuation gone.

    Dropping spaces too makes `KV-Cache`, `KV cache` and `KVCache` one key, while any changed,
    added or reordered word still changes it.
    """
    folded = normalize("NFKC", text).casefold()  # `³`→`3`, full-width→ASCII
    return "".join(ch for ch in folded if ch.isalnum())


def normalise(title: str) -> str:
    """Case-folded words of the cleaned title, single-spaced (for display and tests)."""
    text = normalize("NFKC", _clean(title)).casefold()
    return " ".join(_WORD_RE.findall(text)).replace("_", " ")


def _written_forms(written: str) -> set[str]:
    """Keys of the written title and of its title part before each possible gloss."""
    forms = {written}
    # the first few separators: each form costs the title's length to key (a title of 2,000
    # `（` made 2,000 forms: 6 s), and no title has more than a few parts before its gloss
    seps = itertools.islice(_GLOSS_SEP_RE.finditer(written), _MAX_GLOSS_FORMS)
    forms.update(written[: m.start()] for m in seps if m.start() > 0)
    cjk = _CJK_RE.search(written)
    if cjk:
        head = written[: cjk.start()]
        forms.add(head)
        spaces = [m.start() for m in _SPACES_RE.finditer(head.rstrip())]
        # English words after a colon are a subtitle, not a gloss:
        # `Edge0: MoE SSD 卸载` is not Edge0
        forms.update(
            head[:i]
            for i in spaces[-_MAX_GLOSS_TOKENS:]
            if i > 0 and not head[:i].rstrip().endswith(_SUBTITLE_MARKS)
        )
    return {k for k in map(_key, forms) if k}


def _actual_forms(actual: str) -> set[str]:
    # publishers prefix a retracted work's title ("RETRACTED: ..."); `retracted` reports that.
    # The title as it stands is a form too: a citation that copied the prefix is the same title.
    forms = {_key(actual)}
    actual = _NOTICE_PREFIX_RE.sub("", actual)
    forms.add(_key(actual))
    match = _MAIN_SEP_RE.search(actual)
    if match and match.start() > 0:
        forms.add(_key(actual[: match.start()]))
    forms.add(_report_name(actual) or "")
    return {f for f in forms if f}


def _report_name(actual: str) -> str | None:
    """`DeepSeek-V3 Technical Report` names `DeepSeek-V3`; a bare name stands for the report."""
    words = actual.split()
    n = len(words)
    while n > 1 and _key(words[n - 1]) in _REPORT_WORDS:
        n -= 1
    return _key(" ".join(words[:n])) if n < len(words) else None


def compare_titles(written: str, actual: str) -> TitleVerdict:
    """SAME when `written` is `actual` or its main title, up to the tolerated variations."""
    # each run of whitespace made one space (no key holds spaces): the separator patterns went
    # over a run again from each of its characters (a title of 80,000 spaces: 87 s)
    wrote, got = " ".join(_clean(written).split()), " ".join(_clean(actual).split())
    if not _LATIN_RE.search(_CJK_RE.sub("", wrote)) and _CJK_RE.search(wrote):
        return TitleVerdict.UNCONFIRMABLE
    if not _key(wrote) or not _key(got):
        return TitleVerdict.UNCONFIRMABLE
    if _written_forms(wrote) & _actual_forms(got):
        return TitleVerdict.SAME
    return TitleVerdict.DIFFERENT


def same_title(written: str, actual: str) -> bool:
    """True unless the written title is positively another title (nothing to confirm is True)."""
    return compare_titles(written, actual) is not TitleVerdict.DIFFERENT
