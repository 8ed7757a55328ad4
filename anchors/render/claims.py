"""Every figure and quote a check judged: `check --verbose`'s lines and `check --format json`'s
`claims` records (docs/formats.md). The findings carry only the warnings; these carry every
verdict, with its reason and evidence, so a person (or a script) can see why a figure passed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .escape import plain

if TYPE_CHECKING:
    from ..figures.checked import ClaimCheck
    from ..result import CheckResult

__all__ = ["claim_lines", "json_claims"]


def _what(c: ClaimCheck) -> str:
    return "source" if c.not_read else c.verdict.what.value


def claim_lines(r: CheckResult) -> list[str]:
    """`--verbose`: one line per verdict, in registry order, each where it was written."""
    out = []
    for c in r.claims:
        v = c.verdict
        where = f" ({c.at})" if c.at else ""
        if c.not_read:
            head = f"{v.kind.value} (source not read): {len(c.claims)} figures and quotes"
            out.append(f"{c.anchor}: {head}: {v.claim}")
            continue
        block = f" [block: {', '.join(c.sources)}]" if c.sources else ""
        out.append(f"{c.anchor}: {v.message}{where}{block}")
    return [plain(line) for line in out]


def _record(c: ClaimCheck) -> dict[str, object]:
    v, ev = c.verdict, c.verdict.evidence
    return {
        "anchor": c.anchor,
        "key": c.key,
        "file": c.file,
        "line": c.line,
        "what": _what(c),
        "claim": None if c.not_read else v.claim,
        "claims": list(c.claims),
        "by": c.by.value if c.by is not None else None,
        "said_on": c.said_on.isoformat() if c.said_on else None,
        "at": c.at or None,
        "briefing_at": {"file": c.place.file, "line": c.place.line} if c.place else None,
        "verdict": v.kind.value,
        "reason": v.reason.value if v.reason is not None else None,
        "message": v.message,
        "evidence": (
            {"where": ev.where, "snippet": ev.snippet, "said": list(ev.said)} if ev else None
        ),
        "nearest": list(v.nearest),
        "scope": v.scope or None,
        "detail": v.detail or None,
        "sources": list(c.sources),
    }


def json_claims(r: CheckResult) -> list[dict[str, object]]:
    """One record per checked figure or quote (one per anchor whose source is not read)."""
    return [_record(c) for c in r.claims]
