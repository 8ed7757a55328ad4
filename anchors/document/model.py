"""The living document as anchors reads it: its numbered headings and what each line cites.

The document is the Markdown file the briefings feed (`inference.md`), whose headings carry
section numbers (`## §1.3 KV Cache`, `### 1.3 KV Cache`). A section is its whole normal name
(`sections.normal`), as everywhere in anchors, so after a renumbering `§1.3 推测解码` is not
`§1.3 KV Cache`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

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


@dataclass(slots=True)
class LivingDocument:
    """One document: where it is, its numbered headings in order, and its citations."""

    path: str
    headings: list[Heading] = field(default_factory=list)
    mentions: list[Mention] = field(default_factory=list)

    def has_section(self, section: str) -> bool:
        return any(same_section(h.section, section) for h in self.headings)

    def renamings(self, section: str) -> list[Heading]:
        """The headings that have `section`'s name under another number (a renumbering); two
        or more leave the new number in doubt."""
        name = sections.name(section).casefold()
        if not name:
            return []
        return [
            h for h in self.headings if h.name_key == name and h.number != sections.number(section)
        ]


def same_section(heading: str, section: str) -> bool:
    """A heading is a section when their whole names agree; a bare `§1.3` names a number."""
    if not sections.name(section):
        return sections.number(heading) == sections.number(section) is not None
    return sections.key(heading) == sections.key(section)
