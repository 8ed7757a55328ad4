"""The living document: its numbered sections against the registry (`check --document`)."""

from __future__ import annotations

from .model import Heading, LivingDocument, Mention, same_section
from .reader import parse_document

__all__ = ["Heading", "LivingDocument", "Mention", "parse_document", "same_section"]
