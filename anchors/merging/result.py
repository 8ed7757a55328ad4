"""What merging briefings into a registry gives (`MergeResult`): the entries to add, the
changes to make, and what a person should look at, in check's vocabulary."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING

from ..findings import Code, Finding, summary
from ..registry.model import Entry, Status

if TYPE_CHECKING:  # a type only: an offline check imports no extractor (tests/test_entry.py)
    from ..extract.model import Briefing

__all__ = ["Change", "MergeResult"]


class Change(str, Enum):
    """What a merge does to one anchor of the briefings (`add`'s output, JSON `change`)."""

    ADDED = "added"
    #: cited before, and this merge changes its entry (a date, the status, a field filled)
    CONTINUED = "continued"
    #: already recorded with everything these briefings say
    UNCHANGED = "unchanged"


@dataclass(slots=True)
class MergeResult:
    registry: str
    entries: dict[str, Entry] = field(default_factory=dict)
    added: list[str] = field(default_factory=list)
    continued: list[str] = field(default_factory=list)
    #: where each key was first cited in these briefings (path, line)
    cited_at: dict[str, tuple[str, int]] = field(default_factory=dict)
    #: what a person should look at, in check's vocabulary (`findings.exit_code` decides)
    findings: list[Finding] = field(default_factory=list)
    written: bool = False
    #: the registry file did not exist (`add` creates it, with its header comment)
    new_file: bool = False
    #: the registry had no entry (new, or empty): the briefings' own history of each anchor
    #: (first-anchored dates, "continued") was taken as it is, with no `unbacked-claim`
    starting_point: bool = False
    #: how many briefings were merged
    briefings: int = 0
    #: the briefings as read (`add` says which had no citation at all)
    read: list[Briefing] = field(default_factory=list)

    def of(self, *codes: Code) -> list[Finding]:
        """The findings with these codes (every format shows them in `findings.ordered`)."""
        return [f for f in self.findings if f.code in codes]

    def counts(self) -> dict[str, int]:
        """What the stderr line and JSON `summary` count, computed once, here."""
        n = Counter(f.code for f in self.findings)
        return {
            "added": len(self.added),
            "continued_per_briefing": len(self.continued_per_briefing),
            "continued": len(self.extended),
            "duplicates": n[Code.DUPLICATE],
            "conflicts": n[Code.CONFLICT],
            "invalid": n[Code.INVALID_ID] + n[Code.FUTURE_ID],
            "unbacked_claims": n[Code.UNBACKED_CLAIM],
            **summary(self.findings),
        }

    def change_of(self) -> dict[str, Change]:
        """Each entry's change, in the entries' order: one pass over sets, never a list
        searched per key (that made rendering 40k citations quadratic)."""
        added, extended = set(self.added), set(self.extended)
        return {
            key: Change.ADDED
            if key in added
            else Change.CONTINUED
            if key in extended
            else Change.UNCHANGED
            for key in self.entries
        }

    @property
    def changes(self) -> list[Entry]:
        return [e for e in self.entries.values() if e.existing is None or e.changed_fields()]

    @property
    def continued_per_briefing(self) -> list[str]:
        """Added anchors written `continued`: the briefings say they were cited before (a
        first-anchored date earlier than the briefing's own, or "续用")."""
        return [k for k in self.added if self.entries[k].status is Status.CONTINUED]

    @property
    def extended(self) -> list[str]:
        """Continued anchors the merge actually changes (a new date, status or filled field)."""
        return [k for k in self.continued if self.entries[k].changed_fields()]

    @property
    def up_to_date(self) -> bool:
        """Nothing would be added or continued: the registry already holds these briefings."""
        return not self.changes
