"""A source's running text made into sentences.

Passages are sentence-sized (a derived figure is a pair of numbers in one sentence), so a
paragraph is split at sentence ends: `.`, `!`, `?` followed by a space and not after a common
abbreviation ("e.g.", "et al.", "Fig."), and Chinese `。！？` anywhere. A decimal point is never
an end (no space follows it). TeX is made text before, in `normal.normalise_tex` alone.

Every pattern here is linear: a run is matched possessively and only from its first character
(a lookbehind refuses its middle), so a million dots cost one pass, not a million.
"""

from __future__ import annotations

import re

__all__ = ["sentences", "squash"]

_SPACE_RE = re.compile(r"\s+")
#: a sentence end: Latin punctuation and the whitespace after it, or Chinese punctuation
_END_RE = re.compile(r"(?<![.!?])[.!?]++[\"'”’)\]]*+\s+|(?<![。！？])[。！？]++[”’」』）]*+\s*+")
#: the word just before a full stop that does not end a sentence
_WORD_BEFORE_RE = re.compile(r"([A-Za-z]{1,6})\.[\"'”’)\]]*+\s++$")
_ABBREVIATIONS = frozenset(
    {"e.g", "i.e", "al", "fig", "figs", "eq", "eqs", "sec", "vs", "approx", "resp", "cf", "etc",
     "tab", "ref", "no", "dr", "mr", "ms", "prof", "st", "ca"}
)  # fmt: skip


def squash(text: str) -> str:
    """Runs of whitespace as one space, none at the ends."""
    return _SPACE_RE.sub(" ", text).strip()


def sentences(text: str) -> list[str]:
    """`text` (already squashed or not) as its sentences, in order, none empty."""
    out: list[str] = []
    start = 0
    for match in _END_RE.finditer(text):
        if match.group()[0] == "." and _abbreviation(text, match.start(), match.end()):
            continue
        piece = squash(text[start : match.end()])
        if piece:
            out.append(piece)
        start = match.end()
    rest = squash(text[start:])
    if rest:
        out.append(rest)
    return out


def _abbreviation(text: str, dot: int, end: int) -> bool:
    """The full stop at `dot` follows an abbreviation, or the next word starts lower case."""
    if end < len(text) and text[end].islower():
        return True
    before = _WORD_BEFORE_RE.search(text, max(0, dot - 8), end)
    if before is None:
        return False
    word = before.group(1).lower()
    head = text[max(0, before.start() - 2) : before.start()].lower()
    return word in _ABBREVIATIONS or f"{head}{word}" in _ABBREVIATIONS or len(word) == 1
