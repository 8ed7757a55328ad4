"""Every finding a run's living documents give: the registry against them, and what the
briefings at hand say they hold. No network: `check --offline` gives the same findings."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import date

from ..extract.citations import Briefing
from ..findings import Finding
from ..registry.model import Registry
from .compare import compare
from .model import LivingDocument
from .refs import check_refs

__all__ = ["judge", "refs"]


def judge(
    registries: Sequence[Registry],
    documents: Sequence[LivingDocument],
    briefings: Iterable[Briefing],
    today: date,
    pending_days: int,
) -> list[Finding]:
    """`compare`'s findings, then `unknown-section` for each briefing's references to
    sections its document lacks (`add`, `check --briefing`)."""
    if not documents:
        return []
    return compare(registries, documents, today, pending_days) + refs(briefings, documents)


def refs(briefings: Iterable[Briefing], documents: Sequence[LivingDocument]) -> list[Finding]:
    """`unknown-section` for each briefing's references to a section its document lacks."""
    return [f for b in briefings for f in check_refs(b.path, b.refs, documents)]
