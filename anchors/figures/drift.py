"""`source-changed`: a figure or quote supported before is not now, because the text it was
found in changed (an edited comment) or is gone (a new arXiv version replaced the abstract).

The check keeps, per claim, a `Support`: where it was found, a hash of that passage and its
snippet. It lives in the check's history (`.anchors/`), not in the registry: the registry is
the user's file and `check` never writes it, and a verdict learnt by this machine is history,
kept under the same trust rules as every other fact a run learns. Drift is told apart from a
figure that was never there by the passage at the same place: changed or gone is drift; the
same text still there means the figure was never in it (or the matcher changed), so the
verdict of today stands.
"""

from __future__ import annotations

from dataclasses import dataclass

from .model import Attribution
from .normal import fold
from .passages import SourceText
from .reading import passage_hash
from .verdict import ClaimKind, Reason, Verdict, VerdictKind

__all__ = ["Support", "claim_key", "recheck", "support_of"]

_NEVER_DRIFT = frozenset({Reason.VAGUE, Reason.TRANSLATED, Reason.SOURCE_NOT_READ, Reason.BLOCK})
#: field sizes a stored record may have (the history is read back as untrusted data)
_MAX_FIELD = {"where": 200, "passage_sha": 64, "snippet": 400, "seen": 32}


@dataclass(frozen=True, slots=True)
class Support:
    """What a check keeps of a supported or derived claim, to tell drift later."""

    #: the passage it was found in: `abstract v2`, `HTML v2, Table 3`, `comment 1234567890`
    where: str
    #: `reading.passage_hash` of that passage (its text up to case, spacing and forms)
    passage_sha: str
    #: the snippet shown then, for the `source-changed` message
    snippet: str
    #: the day it was last seen supported (ISO date), set by the check
    seen: str = ""

    def to_json(self) -> dict[str, str]:
        return {"where": self.where, "passage_sha": self.passage_sha, "snippet": self.snippet,
                "seen": self.seen}  # fmt: skip

    @classmethod
    def from_json(cls, data: object) -> Support | None:
        """A stored record, or None when it is not one (a history is read as untrusted)."""
        if not isinstance(data, dict):
            return None
        fields: dict[str, str] = {}
        for name, limit in _MAX_FIELD.items():
            value = data.get(name, "")
            if not isinstance(value, str) or len(value) > limit:
                return None
            fields[name] = value
        if not fields["where"] or not fields["passage_sha"]:
            return None
        return cls(**fields)


def claim_key(anchor: str, what: ClaimKind, words: str, by: Attribution) -> str:
    """The key a claim's `Support` is kept under: the anchor, the claim as folded, how it was
    attributed (the same figure in two briefings is one claim about one source)."""
    return f"{what.value}\x1f{by.value}\x1f{anchor}\x1f{fold(words)}"


def support_of(verdict: Verdict, seen: str = "") -> Support | None:
    """The record to keep for a `supported` or `derived` verdict; None for any other."""
    ev = verdict.evidence
    if ev is None or verdict.kind not in (VerdictKind.SUPPORTED, VerdictKind.DERIVED):
        return None
    return Support(ev.where, ev.passage_sha, ev.snippet[: _MAX_FIELD["snippet"]], seen)


def recheck(now: Verdict, before: Support | None, source: SourceText) -> Verdict:
    """`now`, or `source-changed` when the claim was supported before and the passage it was
    found in has changed or is gone from a source read whole enough to know."""
    if before is None or now.kind in (VerdictKind.SUPPORTED, VerdictKind.DERIVED):
        return now
    if now.reason in _NEVER_DRIFT:
        return now
    same_place = [p for p in source.passages if p.where == before.where]
    if any(passage_hash(p) == before.passage_sha for p in same_place):
        return now  # the text it was found in is unchanged: the source did not move
    if not same_place and not source.complete:
        return now  # its place may be in what was not read: unverifiable stands
    change = "that text has changed" if same_place else "it is no longer in the source"
    detail = f"supported before in {before.where} ({before.snippet}); {change}"
    if before.seen:
        detail += f" (last seen {before.seen})"
    return Verdict(
        VerdictKind.SOURCE_CHANGED, now.what, now.claim, None, None, now.nearest, source.scope,
        detail,
    )  # fmt: skip
