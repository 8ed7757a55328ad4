"""Which registry entries a renumbering of the document left pointing at no heading, and the
heading each now means: what `anchors fix --document` rewrites (`unknown-section`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..registry.model import Anchor, Registry
from .model import Heading, LivingDocument

__all__ = ["Renumbering", "moved_to", "renumberings"]


@dataclass(frozen=True, slots=True)
class Renumbering:
    """Entry `entry` (its position in the registry) names `old`, which no document has; the
    headings with its name under another number are `to` (one: the new section)."""

    entry: int
    anchor: Anchor
    old: str
    to: tuple[str, ...]


def moved_to(
    documents: Sequence[LivingDocument], section: str
) -> list[tuple[LivingDocument, Heading]]:
    """The headings `section`'s name stands under now, when no document has `section` itself."""
    if any(d.has_section(section) for d in documents):
        return []
    return [(d, h) for d in documents for h in d.renamings(section)]


def renumberings(reg: Registry, documents: Sequence[LivingDocument]) -> list[Renumbering]:
    """Every entry (duplicates too) whose section was renumbered, in registry order."""
    out = []
    for i, a in enumerate(reg.anchors):
        if a.section:
            moved = moved_to(documents, a.section)
            if moved:
                out.append(Renumbering(i, a, a.section, tuple(h.section for _, h in moved)))
    return out
