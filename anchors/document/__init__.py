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

__all__ = [
    "DEFAULT_PENDING_DAYS",
    "Heading",
    "LivingDocument",
    "Mention",
    "Standing",
    "check_refs",
    "compare",
    "judge",
    "parse_document",
    "read_documents",
    "refs",
    "same_section",
    "standings",
    "unregistered",
    "unregistered_anchors",
]
