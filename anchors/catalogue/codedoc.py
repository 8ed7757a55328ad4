"""The shape of one finding code's documentation, shared by the catalogue's modules."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["CodeDoc"]


@dataclass(frozen=True, slots=True)
class CodeDoc:
    """One code's documentation; each field is one sentence of plain text (Markdown `code` ok)."""

    #: a few words, as a rule name (SARIF `shortDescription`)
    title: str
    #: when it is reported (SARIF `fullDescription`)
    description: str
    #: a situation that gives it
    example: str
    #: what to do about it (SARIF `help`)
    fix: str
