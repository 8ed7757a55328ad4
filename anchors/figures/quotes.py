"""Quotes: strings of at least 12 characters in "…", “…”, 「…」 or 『…』, and how much of one a
source holds verbatim.

A quote is supported when it is found after folding (case, whitespace, quote and dash forms,
NFKC), or when at least 85% of it survives as one contiguous run: the longest common substring
of the folded quote and a folded passage, read with a suffix automaton of the quote, so the
cost is linear in the passage. A quote assembled from scattered words has no long run.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .model import Quote
from .normal import fold

__all__ = ["MIN_QUOTE", "Run", "longest_run", "quotes_in"]

MIN_QUOTE = 12
MAX_QUOTE = 1000
#: the share of a quote that must survive as one run
SURVIVES = 0.85
_QUOTE_RE = re.compile(
    r"“([^“”\n]{1,1000}+)”|\"([^\"\n]{1,1000}+)\"|「([^「」\n]{1,1000}+)」|『([^『』\n]{1,1000}+)』"
)
_CODE_RE = re.compile(r"`[^`\n]{0,2000}+`")


def quotes_in(text: str) -> list[Quote]:
    """The quotes a line writes (inline code is no quote: `--model "a/b"`)."""
    plain = _CODE_RE.sub(lambda match: " " * len(match.group()), text) if "`" in text else text
    out = []
    for match in _QUOTE_RE.finditer(plain):
        group = next(g for g in range(1, 5) if match.group(g) is not None)
        inner = match.group(group)
        body = inner.strip()
        if len(body) >= MIN_QUOTE:
            lead = len(inner) - len(inner.lstrip())
            start = match.start(group) + lead
            out.append(Quote(text[start : start + len(body)], start, start + len(body)))
    return out


@dataclass(frozen=True, slots=True)
class Run:
    """The longest part of a quote a text holds as one run."""

    #: its length over the folded quote's
    share: float
    #: where it ends in the folded text, and its length
    end: int
    length: int


class _Automaton:
    """The suffix automaton of one folded quote: every substring of it, in linear space."""

    def __init__(self, text: str) -> None:
        self.next: list[dict[str, int]] = [{}]
        self.link = [-1]
        self.size = [0]
        last = 0
        for char in text:
            last = self._extend(last, char)

    def _extend(self, last: int, char: str) -> int:
        cur = len(self.size)
        self.next.append({})
        self.link.append(0)
        self.size.append(self.size[last] + 1)
        state = last
        while state != -1 and char not in self.next[state]:
            self.next[state][char] = cur
            state = self.link[state]
        if state != -1:
            next_state = self.next[state][char]
            if self.size[state] + 1 == self.size[next_state]:
                self.link[cur] = next_state
            else:
                clone = len(self.size)
                self.next.append(dict(self.next[next_state]))
                self.link.append(self.link[next_state])
                self.size.append(self.size[state] + 1)
                while state != -1 and self.next[state].get(char) == next_state:
                    self.next[state][char] = clone
                    state = self.link[state]
                self.link[next_state] = self.link[cur] = clone
        return cur


def longest_run(quote: str, texts: list[str]) -> tuple[int, Run]:
    """Which of `texts` holds the longest run of `quote` (both folded), and that run."""
    folded = fold(quote)[:MAX_QUOTE]
    if not folded:
        return -1, Run(0.0, 0, 0)
    auto = _Automaton(folded)
    best, best_run = -1, Run(0.0, 0, 0)
    for index, text in enumerate(texts):
        plain = fold(text)
        if folded in plain:
            end = plain.index(folded) + len(folded)
            return index, Run(1.0, end, len(folded))
        run = _scan(auto, plain)
        if run[1] > best_run.length:
            best, best_run = index, Run(run[1] / len(folded), run[0], run[1])
    return best, best_run


def _scan(auto: _Automaton, text: str) -> tuple[int, int]:
    """(end, length) of the longest substring of the quote that `text` holds."""
    state = length = best = best_end = 0
    nxt, link, size = auto.next, auto.link, auto.size
    for i, char in enumerate(text):
        while state and char not in nxt[state]:
            state = link[state]
            length = size[state]
        if char in nxt[state]:
            state = nxt[state][char]
            length += 1
        if length > best:
            best, best_end = length, i + 1
    return best_end, best
