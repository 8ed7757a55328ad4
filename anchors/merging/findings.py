"""What `anchors add` reports, in check's vocabulary: each finding built in one place.

Invalid and future IDs, IDs later than their briefing, an anchor listed twice in one briefing,
a title or section that differs from the first mention's or the registry's, and continuity
claims the registry does not back.
"""

from __future__ import annotations

from datetime import date

from ..details import Conflict, DuplicateLines, Unbacked
from ..errors import RegistryError
from ..extract.citations import Briefing, Citation, InvalidCitation
from ..extract.claims import UnbackedClaim, continuity_gap
from ..findings import Code, Finding, Severity
from ..registry.model import Anchor, Registry

__all__ = [
    "conflict",
    "duplicate",
    "future",
    "invalid",
    "later",
    "refuse",
    "unbacked",
    "unbacked_claim",
]


def invalid(i: InvalidCitation) -> Finding:
    return Finding(Code.INVALID_ID, i.raw, i.path, i.line, f"{i.reason}; not written")


def future(cite: Citation, yymm: str, today: date) -> Finding:
    return Finding(
        Code.FUTURE_ID,
        cite.raw,
        cite.path,
        cite.line,
        f"{yymm} is later than today ({today:%Y-%m}): arXiv has not issued it; not written",
    )


def later(cite: Citation, briefing: Briefing) -> Finding:
    return Finding(
        Code.LATER_THAN_BRIEFING,
        cite.raw,
        cite.path,
        cite.line,
        f"later than the briefing's own month ({briefing.date:%Y-%m}); written, but check "
        "the ID and the briefing's date",
    )


def duplicate(lead: Citation, briefing: Briefing, lines: list[int]) -> Finding:
    others = ", ".join(map(str, lines[1:]))
    return Finding(
        Code.DUPLICATE,
        lead.raw,
        briefing.path,
        lines[0],
        f"listed again on line{'s' if len(lines) > 2 else ''} {others} of the same "
        "briefing; merged into one entry",
        DuplicateLines(tuple(lines)),
        level=Severity.WARNING,
    )


def conflict(
    anchor: str, path: str, line: int, name: str, kept: str, other: str, against: Anchor | None
) -> Finding:
    whose = "the first mention's" if against is None else "the registry's"
    # the registry line is where the kept value is, for the person reconciling the two
    details = Conflict(
        name,
        kept,
        other,
        "briefing" if against is None else "registry",
        against.line if against is not None else None,
    )
    return Finding(
        Code.CONFLICT,
        anchor,
        path,
        line,
        f'{name} "{other}" differs from {whose} "{kept}", which is kept',
        details,
    )


def unbacked(claim: UnbackedClaim) -> Finding:
    return Finding(
        Code.UNBACKED_CLAIM,
        claim.anchor,
        claim.path,
        claim.line,
        claim.message,
        Unbacked(
            claim.claimed.isoformat() if claim.claimed else "continued",
            claim.registry.isoformat() if claim.registry else None,
        ),
    )


def unbacked_claim(cites: list[Citation], first: date | None, known: bool) -> Finding | None:
    """The first continuity claim in `cites` that the registry (so far) does not back: not
    holding the anchor (`known` False), or holding it from a date later than `first`."""
    for cite in cites:
        gap = continuity_gap(
            cite.raw, cite.path, cite.line, cite.claim, cite.claimed_date, first, known
        )
        if gap is not None:
            return unbacked(gap)
    return None


def refuse(reg: Registry) -> RegistryError:
    """Why `add` will not splice into this registry: its first unsafe problem, and how many."""
    problem = reg.unsafe[0]
    n = len(reg.unsafe) - 1
    more = f" (and {n} more problem{'s' if n > 1 else ''})" if n else ""
    return RegistryError(reg.path, f"{problem.message}{more}; fix it before adding", problem.line)
