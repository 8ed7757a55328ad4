"""A source's text as passages: the unit a figure is searched in and its evidence points at.

A passage is one sentence-sized place of a source: a paragraph, a table row, a caption, a
footnote, a comment. Derived figures (a ratio or difference of two numbers) are only formed
inside one passage, so a table row or a sentence must be one passage, not a whole page.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

__all__ = ["Passage", "PassageKind", "SourceText"]


class PassageKind(str, Enum):
    PROSE = "prose"
    TABLE_ROW = "table-row"
    CAPTION = "caption"
    CODE = "code"
    #: an image's alt text: what the image shows cannot be read (a benchmark screenshot), so
    #: a figure near one may be in it; never evidence itself
    IMAGE = "image"


@dataclass(frozen=True)
class Passage:
    #: the text as the source gives it, TeX and math already turned into plain text
    text: str
    #: where a person finds it: "abstract v2", "HTML v2, Table 3", "comment 1234567890"
    where: str
    kind: PassageKind = PassageKind.PROSE
    #: which state of the place was read, so an edit is told from a figure never there: a
    #: comment's `updated_at`, a review's `submitted_at`; "" where the source's own version
    #: (the paper's "v2", in `SourceText.scope`) says it
    version: str = ""


@dataclass(frozen=True)
class SourceText:
    """What was read of one source (one paper version, one thread), and how much of it.

    A figure missing from an incomplete source is `unverifiable`, never `not-found`: `gaps` says
    what was not read (a failed or truncated comment page, no HTML), in words a person reads.
    """

    passages: tuple[Passage, ...]
    #: what was read, for the finding: "abstract v2", "HTML v2", "body + 63 comments"
    scope: str
    #: reasons the whole source was not read; empty when it was
    gaps: tuple[str, ...] = ()

    @property
    def complete(self) -> bool:
        return not self.gaps
