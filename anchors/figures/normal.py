"""Text as the figure and quote readers see it: NFKC, one form of each minus, dash, tilde and
space, TeX's markup turned into the characters it prints.

`normalise` keeps, for every character it gives, the offset of the character it came from, so
a figure is reported as written (`７０％` stays `７０％` in the finding). `normalise_tex` is the
one place TeX is read, for arXiv's raw TeX (an abstract's `72.7\\%`, `$2.3\\times$`,
`$\\sim$10\\%`, a LaTeXML `alttext`): the source readers call it (then squash the spaces) before
they cut a text into passages, and the figure reader calls it on any passage that still holds a
backslash or a `$`. Both are one pass over the text.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

__all__ = ["Normal", "fold", "normalise", "normalise_tex"]

#: characters NFKC gets wrong for numbers: the full-width comma and ideographic comma must not
#: join `4，600` into one number; circled and superscript digits are list marks and footnotes,
#: not digits (NFKC makes `①` a `1` and `10²` a `102`); every minus and dash reads `-`
_OVERRIDES: dict[str, str] = {
    "，": "，",
    "、": "、",
    "\u2212": "-",
    "\u2010": "-",
    "\u2011": "-",
    "\u2012": "-",
    "\u2013": "-",
    "\u2014": "—",
    "\u2015": "—",
    "\ufe63": "-",
    "\u223c": "~",
    "\u301c": "~",
    "\u2053": "~",
    "\u2248": "≈",
    "\u2715": "×",
    "\u2716": "×",
    "\u00a0": " ",
    "\u2009": " ",
    "\u202f": " ",
    "\u3000": " ",
    "\u00b5": "μ",
    "\u200b": "",
    "\u200c": "",
    "\u200d": "",
    "\u2060": "",
    "\ufeff": "",
    "\u00ad": "",
    **{chr(c): " " for c in range(0x2460, 0x2500)},  # ①…⑳, ⑴…, ⒈…, Ⓐ…, ⓫…
    **{chr(c): " " for c in range(0x2776, 0x2794)},  # ❶…❿, ➀…➓
    **{chr(c): "^" for c in (0x00B9, 0x00B2, 0x00B3, *range(0x2070, 0x207F))},
}


@lru_cache(maxsize=8192)
def _char(char: str) -> str:
    if char in _OVERRIDES:
        return _OVERRIDES[char]
    if char < "\x80":
        return char
    return unicodedata.normalize("NFKC", char)


@dataclass(frozen=True, slots=True)
class Normal:
    """Normalised text and, for each of its characters, where it came from in the original."""

    text: str
    #: `origin[i]` is the original offset of `text[i]`; one more entry, the original's length
    origin: tuple[int, ...]

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The original's (start, end) for the normalised `text[start:end]`."""
        if end <= start:
            return self.origin[start], self.origin[start]
        return self.origin[start], self.origin[end - 1] + 1


_OVERRIDDEN_RE = re.compile("[" + re.escape("".join(_OVERRIDES)) + "]")
#: the characters NFKC (or an override) may change: not ASCII and not a CJK unified ideograph
#: (those are NFKC-stable; the compatibility ideographs at U+F900 are not, and are read), so a
#: Chinese line is walked only at its punctuation and full-width forms
_MAY_CHANGE_RE = re.compile("[^\x00-\x7f\u3400-\u4dbf\u4e00-\u9fff]")


def normalise(text: str) -> Normal:
    """NFKC character by character (so every output character knows its origin)."""
    if text.isascii() or (
        unicodedata.is_normalized("NFKC", text) and not _OVERRIDDEN_RE.search(text)
    ):
        return Normal(text, tuple(range(len(text) + 1)))
    out: list[str] = []
    origin: list[int] = []
    at = 0
    for match in _MAY_CHANGE_RE.finditer(text):
        i, char = match.start(), match.group()
        n = _char(char)
        if n == char:
            continue
        out.append(text[at:i])
        origin.extend(range(at, i))
        if n:
            out.append(n)
            origin.extend([i] * len(n))
        at = i + 1
    out.append(text[at:])
    origin.extend(range(at, len(text) + 1))
    return Normal("".join(out), tuple(origin))


# -- TeX --------------------------------------------------------------------------------------

#: TeX's one-symbol commands: an escaped character prints itself, a TeX space or line break
#: is a space, an accent or a hyphenation point (`\\'e`, `\\-`) prints nothing of its own
_TEX_ONE = {**{c: c for c in "%$&_#{}"}, **dict.fromkeys(",;:! \\\n\t", " ")}
_TEX_SYMBOLS = {
    "times": "×",
    "texttimes": "×",
    "sim": "~",
    "thicksim": "~",
    "approx": "≈",
    "simeq": "≈",
    "geq": "≥",
    "ge": "≥",
    "geqslant": "≥",
    "leq": "≤",
    "le": "≤",
    "leqslant": "≤",
    "textgreater": ">",
    "textless": "<",
    "gt": ">",
    "lt": "<",
    "pm": "±",
    "mu": "μ",
    "cdot": "·",
    "ldots": "…",
    "dots": "…",
    "textasciitilde": "~",
    "textdollar": "$",
    "textpercent": "%",
    "percent": "%",
    "to": "→",
    "rightarrow": "→",
    "quad": " ",
    "qquad": " ",
}
#: commands whose braced argument is a key, not text: `\cite{a2020}`, `\ref{tab:3}`
_TEX_DROP_ARG = r"(?:cite[tp]?|citep?\*?|ref|eqref|autoref|cref|Cref|label|url|href)"
_TEX_RE = re.compile(
    rf"\\{_TEX_DROP_ARG}\{{[^{{}}]{{0,300}}\}}"  # a key in braces: dropped with its command
    r"|\\[%$&_#{}]"  # an escaped character: itself
    r"|(?<=[0-9])\\,(?=[0-9]{3}(?![0-9]))"  # `1\\,000`: a thin space between thousands
    r"|\\[,;:! ]"  # a TeX space
    r"|\\\\"  # a line break
    r"|\\[A-Za-z]{1,30}\*?"  # a command: its symbol, or nothing (`\textbf` keeps its argument)
    r"|\\[^A-Za-z]"  # any other one-symbol command: an accent (`\\'e`), a hyphenation point
    r"|\{,\}"  # `1{,}000`: a thousands separator
    r"|---?|``|''"  # TeX's dashes and quotes
    r"|[{}$~]"  # grouping, math shift, TeX's non-breaking space
)
#: a text holding none of these has no TeX to read
_TEX_MARKS = ("\\", "$", "{", "~", "--", "``", "''")
_SCI_RE = re.compile(r"([0-9])\s{0,2}×\s{0,2}10\s{0,2}\^\s{0,2}([-+]?[0-9]{1,3})(?![0-9])")
_SPACES_RE = re.compile(r"[ \t]{2,}")


def _tex_piece(match: re.Match[str]) -> str:
    piece = match.group()
    if piece[0] == "\\":
        if piece == "\\," and match.start() > 0 and match.string[match.start() - 1].isdigit():
            return ","
        if len(piece) == 2 and not piece[1].isalpha():
            return _TEX_ONE.get(piece[1], "")
        if piece.startswith(("\\cite", "\\ref", "\\eqref", "\\autoref", "\\cref", "\\Cref")):
            return " "
        if piece.startswith(("\\label", "\\url", "\\href")):
            return " "
        name = piece[1:].rstrip("*")
        return _TEX_SYMBOLS.get(name, "")
    return {"{,}": ",", "---": "—", "--": "-", "``": "“", "''": "”", "~": " "}.get(piece, "")


def normalise_tex(text: str) -> str:
    """Plain text of a TeX fragment as arXiv serves it: `72.7\\%` is `72.7%`, `$2.3\\times$`
    is `2.3×`, `$\\sim$10\\%` is `~10%`, `$3.2\\times 10^{4}$` is `3.2e4`, `\\textbf{x}` is x,
    an unescaped `~` (a non-breaking space) is a space. Linear: one pass of one pattern."""
    if not any(mark in text for mark in _TEX_MARKS):
        return text
    plain = _TEX_RE.sub(_tex_piece, text)
    plain = _SCI_RE.sub(r"\1e\2", plain.replace("^ ", "^"))
    return _SPACES_RE.sub(" ", plain)


# -- quotes -----------------------------------------------------------------------------------

_QUOTE_FORMS = str.maketrans(
    {
        **dict.fromkeys("“”„‟«»「」『』〝〞＂", '"'),
        **dict.fromkeys("‘’‚‛′`´", "'"),
        **dict.fromkeys("‐‑‒–—―−﹣－", "-"),
        "×": "x",
    }
)
_WS_RE = re.compile(r"\s+")


def fold(text: str) -> str:
    """Text as quotes are compared: NFKC, case folded, one form of each quote and dash, one
    space for any run of whitespace."""
    plain = unicodedata.normalize("NFKC", text.translate(_QUOTE_FORMS)).casefold()
    return _WS_RE.sub(" ", plain.translate(_QUOTE_FORMS)).strip()
