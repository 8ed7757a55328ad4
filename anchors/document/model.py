"""The living document as anchors reads it: its numbered headings and what each line cites.

The document is the Markdown file the briefings feed (`inference.md`), whose headings carry
section numbers (`## §1.3 KV Cache`, `### 1.3 KV Cache`). A section is its whole normal name
(`sections.normal`), as everywhere in anchors, so after a renumbering `§1.3 推测解码` is not
`§1.3 KV Cache`.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from itertools import islice

from .. import sections
from ..ids.model import AnchorKey

__all__ = ["Heading", "LivingDocument", "Mention", "same_section"]


@dataclass(frozen=True, slots=True)
class Heading:
    """A numbered heading: `section` in its normal spelling, at `line` of the document."""

    section: str
    line: int
    level: int

    @property
    def number(self) -> tuple[int, ...] | None:
        return sections.number(self.section)

    @property
    def name_key(self) -> str:
        """What a renumbering keeps: the name after the number, case-folded."""
        return sections.name(self.section).casefold()


@dataclass(frozen=True, slots=True)
class Mention:
    """One citation of an anchor in the document, with the sections it stands in.

    `within` holds the innermost numbered heading above the line and every numbered heading
    that encloses it (a citation under `§1.3` is also in `§1`), innermost first; it is empty
    above the first numbered heading or under an unnumbered one that closed them.
    """

    key: AnchorKey
    raw: str
    line: int
    within: tuple[str, ...]
    #: the `#fragment` the citation names (without `#`), if any: it travels on the citation,
    #: not on the anchor's key
    fragment: str | None = None

    @property
    def section(self) -> str | None:
        return self.within[0] if self.within else None


@dataclass(frozen=True, slots=True)
class _Index:
    """The headings by what each lookup asks, read once: every entry of the registry asks
    the document whether it has a section, so a scan of the headings per entry made a
    document of 20,000 headings against 200 entries take minutes."""

    count: int
    keys: frozenset[str]
    numbers: frozenset[tuple[int, ...]]
    #: headings by name (with their numbers), and how many share a name and a number
    by_name: dict[str, list[tuple[Heading, tuple[int, ...] | None]]]
    same: Counter[tuple[str, tuple[int, ...] | None]]

    @classmethod
    def of(cls, headings: list[Heading]) -> _Index:
        by_name: dict[str, list[tuple[Heading, tuple[int, ...] | None]]] = {}
        same: Counter[tuple[str, tuple[int, ...] | None]] = Counter()
        for heading in headings:
            number = heading.number
            by_name.setdefault(heading.name_key, []).append((heading, number))
            same[heading.name_key, number] += 1
        numbers = frozenset(n for _, n in same if n is not None)
        keys = frozenset(sections.key(heading.section) for heading in headings)
        return cls(len(headings), keys, numbers, by_name, same)


@dataclass(slots=True)
class LivingDocument:
    """One document: where it is, its numbered headings in order, and its citations."""

    path: str
    headings: list[Heading] = field(default_factory=list)
    mentions: list[Mention] = field(default_factory=list)
    _index: _Index | None = field(default=None, repr=False, compare=False)

    def _indexed(self) -> _Index:
        """The index of the headings, built again only when headings were added."""
        if self._index is None or self._index.count != len(self.headings):
            self._index = _Index.of(self.headings)
        return self._index

    def has_section(self, section: str) -> bool:
        """Whether a heading is `section` (`same_section`), by lookup."""
        index = self._indexed()
        if not sections.name(section):
            number = sections.number(section)
            return number is not None and number in index.numbers
        return sections.key(section) in index.keys

    def renamed(self, section: str, limit: int) -> tuple[list[Heading], int]:
        """The first `limit` headings that have `section`'s name under another number (a
        renumbering), and how many do; two or more leave the new number in doubt. Counted,
        not listed: a name may stand under every heading of the document."""
        name = sections.name(section).casefold()
        if not name:
            return [], 0
        number, index = sections.number(section), self._indexed()
        found = index.by_name.get(name, [])
        first = list(islice((h for h, n in found if n != number), limit))
        return first, len(found) - index.same[name, number]

    def encloses(self, number: tuple[int, ...]) -> bool:
        """Whether a heading's number is a proper prefix of `number` (§2 for §2.5)."""
        numbers = self._indexed().numbers
        return any(number[:i] in numbers for i in range(1, len(number)))


def same_section(heading: str, section: str) -> bool:
    """A heading is a section when their whole names agree; a bare `§1.3` names a number."""
    if not sections.name(section):
        return sections.number(heading) == sections.number(section) is not None
    return sections.key(heading) == sections.key(section)
