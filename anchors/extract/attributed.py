"""Which figures and quotes a briefing attributes to which source (the rulings page,
"Attribution of a figure").

By line: a sentence, table row or list item with exactly one citation attributes its figures
and quotes to it; a `#8242` or `Issue 35851` counts as a citation of the GitHub issue of that
number the same increment cites. By block: an increment whose `来源：`/`URL：` lines name
checkable sources (arXiv papers, GitHub issues and PRs) attributes the figures on its lines
that cite nothing to those sources together. Two or more citations in a sentence attribute
nothing: the briefing does not say which source says what.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from ..figures.model import Attribution
from ..figures.parse import figures_in
from ..figures.quotes import quotes_in
from ..figures.verdict import ClaimKind
from ..ids.kinds import AnchorKind
from ..ids.model import GithubRef
from .model import Attributed, Citation
from .place import Block
from .scan import scan

__all__ = ["Attributed", "attributed"]

#: a line that names the increment's sources: `来源：…`, `URL：…`, `arXiv/URL：…`
_SOURCE_LINE_RE = re.compile(
    r"^\s*(?:[-*+]\s*)?(?:\*\*)?(?:来源|出处|链接|URL|arXiv/URL|arXiv|Sources?|References?"
    r"|Links?)(?:\*\*)?\s*[：:]",
    re.IGNORECASE,
)
_ITEM_RE = re.compile(r"^\s*(?:[-*+]|[0-9]{1,3}[.)])\s+")
#: where a prose sentence ends: `。！？；` or `. ` / `! ` / `? ` (not the point of `72.7`)
_SENTENCE_END_RE = re.compile(r"[。！？；]|[.!?;](?=\s|$)")
_MENTION_RE = re.compile(
    r"(?:#|issues?/|pull/|\b(?:issue|pr)\s{0,3}#?\s{0,3})([0-9]{1,9})(?![0-9])", re.IGNORECASE
)
_CHECKABLE = frozenset({AnchorKind.ARXIV, AnchorKind.GITHUB})


@dataclass(frozen=True, slots=True)
class _Unit:
    """A sentence, row or item: its text and the anchors it cites."""

    text: str
    cites: frozenset[str]


def attributed(
    lines: Sequence[str],
    skipped: Sequence[bool],
    blocks: Sequence[Block],
    citations: Sequence[Citation],
    path: str,
    hits: Mapping[int, Sequence[tuple[int, str]]] | None = None,
) -> list[Attributed]:
    """Every attributed figure and quote of a briefing, in line order, each once per anchor.
    `hits` are the citations the extractor found on each line (by index: (position, key)), so
    a line is not scanned twice; without them each line is scanned here."""
    by_block = _block_sources(lines, blocks, citations)
    numbered = _numbered(blocks, citations)
    out: dict[tuple[str, str, str, int], Attributed] = {}
    for i, line in enumerate(lines):
        if skipped[i] or not _may_hold_claims(line):
            continue
        block = id(blocks[i])
        found = list(hits.get(i, ())) if hits is not None else _scanned(line)
        for unit in _units(line, found, numbered.get(block, {})):
            if len(unit.cites) == 1:
                targets, by = unit.cites, Attribution.LINE
            elif not unit.cites:
                targets, by = by_block.get(block, frozenset()), Attribution.BLOCK
            else:
                continue  # two citations: the briefing does not say which says what
            if not targets or not _may_hold_claims(unit.text):
                continue  # nothing to attribute to, or nothing to attribute: not read at all
            for what, words in _claims(unit.text):
                for anchor in sorted(targets):
                    out.setdefault(
                        (anchor, what.value, words, i),
                        Attributed(anchor, what, words, by, path, i + 1),
                    )
    return list(out.values())


#: what every figure or quote a line may hold has somewhere: a digit (any script's), a quote
#: mark, a Chinese multiple or share, an English multiple word
_MAY_HOLD_RE = re.compile(r'[\d"“「『倍成翻幅]|times|fold|magnitude')


def _may_hold_claims(line: str) -> bool:
    return _MAY_HOLD_RE.search(line) is not None


@lru_cache(maxsize=1024)
def _claims(text: str) -> tuple[tuple[ClaimKind, str], ...]:
    """The figures and quotes a sentence, row or item writes (a repeated row is read once)."""
    figures = [(ClaimKind.FIGURE, f.text) for f in figures_in(text) if f.text]
    return (*figures, *((ClaimKind.QUOTE, q.text) for q in quotes_in(text)))


def _block_sources(
    lines: Sequence[str], blocks: Sequence[Block], citations: Sequence[Citation]
) -> dict[int, frozenset[str]]:
    """Each block's checkable sources: the arXiv and GitHub anchors its source lines cite."""
    found: dict[int, set[str]] = {}
    for cite in citations:
        if cite.key.kind in _CHECKABLE and _SOURCE_LINE_RE.match(lines[cite.line - 1]):
            found.setdefault(id(blocks[cite.line - 1]), set()).add(cite.key.key)
    return {block: frozenset(keys) for block, keys in found.items()}


def _numbered(
    blocks: Sequence[Block], citations: Sequence[Citation]
) -> dict[int, dict[int, set[str]]]:
    """Per block, the GitHub anchors it cites by number: a bare `#8242` there names them."""
    out: dict[int, dict[int, set[str]]] = {}
    for cite in citations:
        if isinstance(cite.key, GithubRef):
            block = out.setdefault(id(blocks[cite.line - 1]), {})
            block.setdefault(cite.key.number, set()).add(cite.key.key)
    return out


def _units(line: str, found: list[tuple[int, str]], numbered: dict[int, set[str]]) -> list[_Unit]:
    """The line as sentences (prose), or as one unit (a table row, a list item)."""
    cited = sorted(_cited(line, found, numbered))
    stripped = line.lstrip()
    if stripped.startswith("|") or _ITEM_RE.match(line):
        return [_Unit(line, frozenset(key for _, key in cited))]
    units: list[_Unit] = []
    start = 0
    for stop in _SENTENCE_END_RE.finditer(line):
        units.append(_sentence(line, start, stop.end(), cited))
        start = stop.end()
    if start < len(line):
        units.append(_sentence(line, start, len(line), cited))
    return units


def _sentence(line: str, start: int, end: int, cited: list[tuple[int, str]]) -> _Unit:
    """The sentence `start:end` and its citations, found by bisecting `cited` (sorted by place):
    a long line of cited sentences is not read once per sentence."""
    lo, hi = bisect_left(cited, (start,)), bisect_left(cited, (end,))
    return _Unit(line[start:end], frozenset(key for _, key in cited[lo:hi]))


def _scanned(line: str) -> list[tuple[int, str]]:
    return [(h.start, h.key.key) for h in scan(line) if h.key is not None]


def _cited(
    line: str, hits: list[tuple[int, str]], numbered: dict[int, set[str]]
) -> list[tuple[int, str]]:
    """(position, anchor key) of each citation on the line, `#N` mentions included."""
    if numbered:
        for mention in _MENTION_RE.finditer(line):
            for key in numbered.get(int(mention[1]), ()):
                hits.append((mention.start(), key))
    return hits
