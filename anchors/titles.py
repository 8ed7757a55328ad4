"""Fuzzy title comparison: is the title written next to a citation the paper's real title?

Briefings shorten titles to their main part ("Edge0"), change case and punctuation, and add a
Chinese gloss after the English title. Those are the same title; a different paper is not.
"""

from __future__ import annotations

import re
import unicodedata

from rapidfuzz import fuzz

__all__ = ["SIMILARITY_THRESHOLD", "normalise", "same_title"]

#: rapidfuzz ratio (0-100) at or above which two normalised titles count as the same
SIMILARITY_THRESHOLD = 88.0
_CJK_RE = re.compile(r"[\u3000-\u30ff\u3400-\u9fff\uac00-\ud7af\uff00-\uffef]")
_PUNCT_RE = re.compile(r"[^\w\s]+")
_SPACE_RE = re.compile(r"\s+")


def normalise(title: str) -> str:
    """Case-folded, punctuation-free title with any trailing CJK gloss cut off."""
    t = unicodedata.normalize("NFKC", title)
    m = _CJK_RE.search(t)
    if m and m.start() > 0 and _CJK_RE.sub("", t[: m.start()]).strip():
        t = t[: m.start()]
    t = _PUNCT_RE.sub(" ", t.casefold()).replace("_", " ")
    return _SPACE_RE.sub(" ", t).strip()


def _main_part(title: str) -> str:
    for sep in (":", " - ", " — ", "："):
        if sep in title:
            return title.split(sep, 1)[0]
    return title


def same_title(written: str, actual: str) -> bool:
    """True when `written` is a faithful (possibly shortened or glossed) form of `actual`."""
    a, b = normalise(written), normalise(actual)
    if not a or not b:
        return True  # a purely Chinese gloss says nothing about the English title
    if a == b:
        return True
    main_a, main_b = normalise(_main_part(written)), normalise(_main_part(actual))
    if (main_a and main_a == b) or (main_b and a == main_b):
        return True
    if b.startswith(a) and len(a) >= 0.6 * len(b):
        return True
    return fuzz.ratio(a, b) >= SIMILARITY_THRESHOLD
