"""People's names for a bibliography, read by pybtex once per distinct name."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from .bibvalues import latex

__all__ = ["PersonName", "bib_name", "parsed_name"]


@dataclass(frozen=True, slots=True)
class PersonName:
    """One person's name in BibTeX's parts, as pybtex reads it."""

    #: "von", "van der"...
    prelast: tuple[str, ...]
    last: tuple[str, ...]
    #: "Jr", "III"
    lineage: tuple[str, ...]
    first: tuple[str, ...]
    middle: tuple[str, ...]

    @property
    def family(self) -> str:
        return " ".join(self.prelast + self.last)

    @property
    def given(self) -> str:
        return " ".join(self.first + self.middle)


#: a word BibTeX reads as a separator between two people (`Alice and Bob`), in any case
_AND = re.compile(r"(?:^|[\s,])and(?:[\s,]|$)", re.IGNORECASE)


def parsed_name(name: str) -> PersonName | None:
    """pybtex's reading of one name as one person, or None where it is not one: a string
    pybtex refuses (`Smith, Jr., John, III`: too many commas), one BibTeX would split into two
    people (` and `) or read as "et al." (`others`), or one without a last name."""
    # start-up: pybtex (~75 ms to import) loads only when a bibliography is written
    from pybtex.database import Person  # type: ignore[import-untyped]
    from pybtex.exceptions import PybtexError  # type: ignore[import-untyped]

    if _AND.search(name) or name.strip().lower() == "others":
        return None
    try:
        person = Person(name)
    except PybtexError:
        return None
    if not person.last_names:
        return None
    return PersonName(
        tuple(person.prelast_names),
        tuple(person.last_names),
        tuple(person.lineage_names),
        tuple(person.first_names),
        tuple(person.middle_names),
    )


@lru_cache(maxsize=1 << 16)
def bib_name(name: str, style: str) -> str:
    """An author for BibTeX, read once per distinct name: `Last, First` (pybtex's order: von
    Last, Jr, First Middle) where it is one person, else the whole name as one braced literal
    (`{Alice and Bob}`), which BibTeX never splits or reorders."""
    written = latex(name, style).strip()
    person = parsed_name(written)
    if person is None:
        return "{" + written + "}"
    first, lineage = person.given, " ".join(person.lineage)
    return person.family + (f", {lineage}" if lineage else "") + (f", {first}" if first else "")
