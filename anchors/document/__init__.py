"""The living document: its numbered sections against the registry (`--document`)."""

from __future__ import annotations

from .compare import (
    DEFAULT_PENDING_DAYS,
    Standing,
    compare,
    standings,
    unregistered,
    unregistered_anchors,
)
from .judge import judge, refs
from .load import read_documents
from .model import Heading, LivingDocument, Mention, same_section
from .reader import parse_document
from .refs import check_refs
from .renumber import Renumbering, renumberings

__all__ = [
    "DEFAULT_PENDING_DAYS",
    "Heading",
    "LivingDocument",
    "Mention",
    "Renumbering",
    "Standing",
    "check_refs",
    "compare",
    "judge",
    "parse_document",
    "read_documents",
    "refs",
    "renumberings",
    "same_section",
    "standings",
    "unregistered",
    "unregistered_anchors",
]
