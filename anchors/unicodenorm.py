"""Unicode normalization of text anchors did not write, in linear time.

`unicodedata.normalize` puts each run of combining marks in canonical order by insertion, so it
is quadratic in a run's length: "a" and 80,000 alternating marks took 5 s, 320,000 took 78 s,
in a title a service sent or a heading of a cited page. Unicode's Stream-Safe Text Format (UAX
#15) bounds a run at 30 non-starters, more than any writing system uses; `normalize` keeps the
first 30 marks of each longer run, then normalizes, so its cost is linear in the text.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Literal

__all__ = ["MAX_MARKS", "normalize"]

#: marks kept in a row (UAX #15's stream-safe limit on non-starters)
MAX_MARKS = 30
#: a run of non-ASCII characters long enough to hold a run of marks too long
_LONG_RUN = re.compile(f"[^\\x00-\\x7f]{{{MAX_MARKS + 1},}}")

Form = Literal["NFC", "NFKC", "NFD", "NFKD"]


def normalize(form: Form, text: str) -> str:
    """`unicodedata.normalize(form, text)` of `text` made stream-safe first (see above)."""
    if not text.isascii():
        text = _LONG_RUN.sub(_stream_safe, text)
    return unicodedata.normalize(form, text)


def _stream_safe(run: re.Match[str]) -> str:
    """`run` without the marks past MAX_MARKS in a row."""
    out, marks = [], 0
    for ch in run.group():
        if _mark(ch):
            marks += 1
            if marks > MAX_MARKS:
                continue
        else:
            marks = 0
        out.append(ch)
    return "".join(out)


def _mark(ch: str) -> bool:
    """A non-starter, or what decomposes to one: a character with a combining class, of
    category M (U+0F73 decomposes to two marks), or whose decomposition begins with a mark
    (halfwidth U+FF9E is U+3099 once compatibility-decomposed)."""
    if unicodedata.combining(ch) or unicodedata.category(ch)[0] == "M":
        return True
    first = unicodedata.decomposition(ch).rpartition(">")[2].split()[:1]
    return bool(first) and unicodedata.combining(chr(int(first[0], 16))) != 0
