"""Whether a briefing's words for an issue and the issue's title share anything (`wrong-target`).

People write the same thing differently: an identifier is read in its parts (`ASGITransport`:
asgi, transport; `py3.10`: py, 3.10), and two words agree when they begin alike (proxy and
proxies, reload and reloader), so only a description with no word in common is a wrong target.
Measured on real PR titles and how changelogs describe them (tests/data/issue_targets.yaml).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

__all__ = ["content_words", "share_a_word"]

#: words that say nothing about which issue it is (GitHub's own vocabulary, stop words)
_STOP = frozenset(
    [
        "a",
        "an",
        "the",
        "and",
        "or",
        "of",
        "for",
        "in",
        "on",
        "to",
        "with",
        "from",
        "by",
        "at",
        "as",
        "is",
        "are",
        "be",
        "was",
        "were",
        "it",
        "its",
        "this",
        "that",
        "these",
        "those",
        "not",
        "no",
        "via",
        "vs",
        "using",
        "use",
        "when",
        "after",
        "before",
        "into",
        "over",
        "under",
        "up",
        "down",
        "out",
        "bug",
        "bugs",
        "issue",
        "issues",
        "pr",
        "pull",
        "request",
        "feature",
        "fix",
        "fixed",
        "add",
        "adds",
        "support",
        "github",
        "error",
    ]
)
_TOKEN_RE = re.compile(r"[A-Za-z][A-Za-z0-9+_]*(?:\.\d+)*|\d+(?:\.\d+)+")
#: an identifier's parts: `ASGITransport` -> ASGI, Transport; `raw_path` -> raw, path
_PART_RE = re.compile(r"\d+(?:\.\d+)+|[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")
#: how many leading letters two words must share to be one word in two forms
_SAME_START = 4


def content_words(text: str, ignore: Iterable[str] = ()) -> set[str]:
    """The words of `text` that can say which issue it is, lower-cased, identifiers in parts."""
    skip = _STOP | {w.lower() for w in ignore}
    out: set[str] = set()
    for token in _TOKEN_RE.findall(text):
        for word in {token.strip("_"), *_PART_RE.findall(token)}:
            w = word.lower()
            if len(w) > 1 and not w.isdigit() and w not in skip:  # a version (3.10) is a word
                out.add(w)
    return out


def _alike(a: str, b: str) -> bool:
    if a == b:
        return True
    n = min(len(a), len(b))
    return n >= _SAME_START and a[:_SAME_START] == b[:_SAME_START]


def share_a_word(said: set[str], live: set[str]) -> bool:
    """True when some word of one is a form of some word of the other."""
    return any(_alike(a, b) for a in said for b in live)
