"""Which registry entries a renumbering of the document left pointing at no heading, and the
heading each now means: what `anchors fix --document` rewrites (`unknown-section`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..registry.model import Anchor, Registry
from .model import Heading, LivingDocument

__all__ = ["KEPT", "Renumbering", "moved_to", "renumberings"]


@dataclass(frozen=True, slots=True)
class Renumbering:
    """Entry `entry` (its position in the registry) names `old`, which no document has; the
    headings with its name under another number are `to` (one: the new section)."""

    entry: int
    anchor: Anchor
    old: str
    #: the first KEPT of them, and how many there are
    to: tuple[str, ...]
    total: int


#: headings named per renumbered entry; the rest are counted (`Renumbering.total`)
KEPT = 20


def moved_to(
    documents: Sequence[LivingDocument], section: str, limit: int = KEPT
) -> tuple[list[tuple[LivingDocument, Heading]], int]:
    """The first `limit` headings `section`'s name stands under now, and how many, when no
    document has `section` itself."""
    if any(doc.has_section(section) for doc in documents):
        return [], 0
    first: list[tuple[LivingDocument, Heading]] = []
    total = 0
    for doc in documents:
        found, count = doc.renamed(section, limit - len(first))
        first += [(doc, h) for h in found]
        total += count
    return first, total


def renumberings(reg: Registry, documents: Sequence[LivingDocument]) -> list[Renumbering]:
    """Every entry (duplicates too) whose section was renumbered, in registry order."""
    out = []
    for i, anchor in enumerate(reg.anchors):
        if anchor.section:
            moved, total = moved_to(documents, anchor.section)
            if total:
                to = tuple(h.section for _, h in moved)
                out.append(Renumbering(i, anchor, anchor.section, to, total))
    return out
