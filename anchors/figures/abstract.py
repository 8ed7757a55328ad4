"""An arXiv abstract as passages: the Atom `<summary>` the metadata lookup already fetched.

The API gives the abstract of the version it returns in raw TeX (`72.7\\%`, `$2.3\\times$`);
each sentence is one passage, its TeX made into text (`normal.normalise_tex`), its place
"abstract v2". The abstract is read first: a figure found there costs no request.
"""

from __future__ import annotations

from .normal import normalise_tex
from .passages import Passage, PassageKind, SourceText
from .prose import sentences, squash

__all__ = ["MAX_ABSTRACT_CHARS", "abstract_scope", "passages_from_abstract"]

#: arXiv caps abstracts at 1,920 characters; a longer one is cut here, never read whole
MAX_ABSTRACT_CHARS = 20_000


def abstract_scope(version: int | None) -> str:
    """What reading the abstract covers, in a finding's words: "abstract v2"."""
    return f"abstract v{version}" if version else "abstract"


def passages_from_abstract(summary: str, version: int | None) -> SourceText:
    """The sentences of `summary` (the abstract of `version`), each a passage."""
    where = abstract_scope(version)
    text = squash(summary[:MAX_ABSTRACT_CHARS])
    gaps = (
        ("the abstract is longer than arXiv allows; its end was not read",)
        if (len(summary) > MAX_ABSTRACT_CHARS)
        else ()
    )
    found = tuple(
        Passage(squash(normalise_tex(s)), where, PassageKind.PROSE)
        for s in sentences(text)
        if s.strip()
    )
    return SourceText(tuple(p for p in found if p.text), where, gaps)
