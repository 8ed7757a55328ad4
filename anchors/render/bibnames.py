"""People's names for a bibliography, read by pybtex once per distinct name."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from .bibvalues import latex

__all__ = ["bib_name", "parsed_name"]

#: a word BibTeX reads as a separator between two people (`Alice and Bob`), in any case
_AND = re.compile(r"(?:^|[\s,])and(?:[\s,]|$)", re.IGNORECASE)


def parsed_name(name: str) -> Any:
    """pybtex's reading of one name as one person, or None where it is not one: a string
    pybtex refuses (`Smith, Jr., John, III`: too many commas), one BibTeX would split into two
    people (` and `) or read as "et al." (`others`), or one without a last name."""
    from pybtex.database import Person  # type: ignore[import-untyped]
    from pybtex.exceptions import PybtexError  # type: ignore[import-untyped]

    if _AND.search(name) or name.strip().lower() == "others":
        return None
    try:
        p = Person(name)
    except PybtexError:
        return None
    return p if p.last_names else None


@lru_cache(maxsize=1 << 16)
def bib_name(name: str, style: str) -> str:
    """An author for BibTeX, read once per distinct name: `Last, First` (pybtex's order: von
    Last, Jr, First Middle) where it is one person, else the whole name as one braced literal
    (`{Alice and Bob}`), which BibTeX never splits or reorders."""
    t = latex(name, style).strip()
    p = parsed_name(t)
    if p is None:
        return "{" + t + "}"
    last = " ".join(p.prelast_names + p.last_names)
    first = " ".join(p.first_names + p.middle_names)
    lineage = " ".join(p.lineage_names)
    return last + (f", {lineage}" if lineage else "") + (f", {first}" if first else "")
