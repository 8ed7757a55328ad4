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


def _what(check: ClaimCheck) -> str:
    return "source" if check.not_read else check.verdict.what.value


def claim_lines(result: CheckResult) -> list[str]:
    """`--verbose`: one line per verdict, in registry order, each where it was written."""
    out = []
    for check in result.claims:
        verdict = check.verdict
        where = f" ({check.at})" if check.at else ""
        if check.not_read:
            head = f"{verdict.kind.value} (source not read): {len(check.claims)} figures and quotes"
            out.append(f"{check.anchor}: {head}: {verdict.claim}")
            continue
        block = f" [block: {', '.join(check.sources)}]" if check.sources else ""
        out.append(f"{check.anchor}: {verdict.message}{where}{block}")
    return [plain(line) for line in out]


def _record(check: ClaimCheck) -> dict[str, object]:
    verdict, ev = check.verdict, check.verdict.evidence
    return {
        "anchor": check.anchor,
        "key": check.key,
        "file": check.file,
        "line": check.line,
        "what": _what(check),
        "claim": None if check.not_read else verdict.claim,
        "claims": list(check.claims),
        "by": check.by.value if check.by is not None else None,
        "said_on": check.said_on.isoformat() if check.said_on else None,
        "at": check.at or None,
        "briefing_at": {"file": check.place.file, "line": check.place.line}
        if check.place
        else None,
        "verdict": verdict.kind.value,
        "reason": verdict.reason.value if verdict.reason is not None else None,
        "message": verdict.message,
        "evidence": (
            {"where": ev.where, "snippet": ev.snippet, "said": list(ev.said)} if ev else None
        ),
        "nearest": list(verdict.nearest),
        "scope": verdict.scope or None,
        "detail": verdict.detail or None,
        "sources": list(check.sources),
    }


def json_claims(result: CheckResult) -> list[dict[str, object]]:
    """One record per checked figure or quote (one per anchor whose source is not read)."""
    return [_record(c) for c in result.claims]
