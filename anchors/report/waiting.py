"""The report's "Waiting for the living document": per section, the anchors registered for it
that it does not cite yet, oldest first, with their age.

The same judgement as `check --document` (`document.standings`), so the report and the check
never disagree about what waits; the age counts from the entry's latest citation, as `overdue`
does, to the report's `--now`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from ..details import CitedElsewhere, SectionStanding
from ..document import LivingDocument, standings
from ..findings import Code
from ..ids.model import AnchorKind
from ..registry.model import Registry
from ..sections import normal, section_order

__all__ = ["Waiting", "waiting"]


@dataclass(frozen=True, slots=True)
class Waiting:
    """One registered anchor its section does not cite yet."""

    #: the entry's section, in its normal spelling
    section: str
    anchor: str
    kind: AnchorKind
    title: str | None
    #: the date its waiting counts from (its latest citation), and the days since
    since: date | None
    days: int | None
    #: why it waits, as `check` reports it: not-in-document, overdue, section-mismatch,
    #: unknown-section or new-section
    code: Code
    #: the registry line of its entry
    line: int
    #: the section the document cites it under instead, or the heading it was renumbered to
    elsewhere: str | None = None


def waiting(
    registry: Registry, documents: Sequence[LivingDocument], today: date, pending_days: int
) -> list[Waiting]:
    """Every waiting anchor, by section in the document's order, the oldest first in each."""
    out = []
    for standing in standings([registry], documents, today, pending_days):
        if (
            standing.placed or standing.anchor.key is None
        ):  # cited under its renumbered heading: not waiting
            continue
        details = standing.finding.details
        if isinstance(details, CitedElsewhere):
            elsewhere = details.document_section
        elif isinstance(details, SectionStanding):
            elsewhere = details.suggestion
        else:
            elsewhere = None
        out.append(
            Waiting(
                normal(standing.section),
                standing.anchor.label,
                standing.anchor.key.kind,
                standing.anchor.work_title,
                standing.since,
                standing.days,
                standing.finding.code,
                standing.anchor.line,
                elsewhere,
            )
        )
    out.sort(
        key=lambda item: (
            section_order(item.section),
            -(item.days if item.days is not None else -1),
        )
    )
    return out
