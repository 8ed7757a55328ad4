"""What online answers mean for the registry: each answer against its entry, as findings.

The orchestrator (`run`) gathers answers; this module only judges them, so a new outcome or a
new way a resolution can disagree with the registry is one function here.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..details import Answer, Details, LatestVersion, Withdrawn
from ..extract.claims import Claims
from ..findings import Code, Finding, Outcome
from ..history.facts import ArxivFacts, Facts
from ..ids.landing import landing_url, soft_404
from ..net.links import LinkResult
from ..registry.model import Anchor, Registry
from ..resolve.base import FollowUp, Resolution
from . import truth

__all__ = ["compare"]

_OUTCOME_CODE = {
    Outcome.DEAD: Code.DEAD_LINK,
    Outcome.UNREACHABLE: Code.UNREACHABLE,
    Outcome.UNVERIFIABLE: Code.UNVERIFIABLE,
    Outcome.RATE_LIMITED: Code.RATE_LIMITED,
    Outcome.TLS_ERROR: Code.TLS_ERROR,
    Outcome.BLOCKED: Code.BLOCKED_URL,
    Outcome.REDIRECT: Code.REDIRECT,
}


def compare(
    reg: Registry,
    targets: dict[str, Anchor],
    resolutions: dict[str, Resolution],
    links: dict[str, LinkResult],
    claims: Mapping[str, Claims],
    follow: Mapping[str, FollowUp],
    earlier: Mapping[str, Facts] | None = None,
) -> list[Finding]:
    """Findings for every target answered; `earlier` are the facts earlier runs learnt (by
    key), so news is noted by the run that first sees it."""
    out: list[Finding] = []
    earlier = earlier or {}
    for key, a in targets.items():
        path = a.file or reg.path  # a living document's citation is judged where it is written
        if key in links:
            out += _link_findings(path, a, links[key])
        elif key in resolutions:
            r, said = resolutions[key], claims.get(key)
            out += _resolution_findings(path, a, r, said, follow.get(key), earlier.get(key))
    return out


def _f(code: Code, path: str, a: Anchor, message: str, details: Details) -> Finding:
    return Finding(code, a.label, path, a.line, message, details)


def _link_findings(path: str, a: Anchor, r: LinkResult) -> list[Finding]:
    if r.outcome is Outcome.OK:
        return []
    code = _OUTCOME_CODE[r.outcome]
    soft = soft_404(r.url, r.final_url) if r.outcome is Outcome.REDIRECT and r.final_url else None
    if soft:
        msg = (
            f"{soft} ({r.final_url}): the page is probably gone (a soft 404); find where "
            "it went, or cite an archived copy"
        )
    elif r.outcome is Outcome.REDIRECT:
        new = landing_url(a.raw_id, r.final_url) if r.final_url else r.final_url
        msg = f"moved permanently to {new}; cite the new URL"
    elif r.outcome is Outcome.RATE_LIMITED:
        msg = f"rate-limited{_tries(r)} ({r.error}){_cap(r)}; not a dead link, check again later"
    elif r.outcome is Outcome.UNVERIFIABLE:
        msg = f"{r.error or 'cannot be verified'}; not a dead link, open it by hand"
    else:
        msg = f"{r.error or r.outcome.value}{_cap(r)}"
    return [
        _f(
            code,
            path,
            a,
            msg,
            Answer(r.status, r.final_url, r.requests or None, bool(soft) or None),
        )
    ]


def _tries(r: LinkResult) -> str:
    """What the server saw: " through 3 tries" only when there were retries."""
    return f" through {r.tries} tries" if r.tries > 1 else ""


def _cap(r: LinkResult) -> str:
    return ": a wait longer than --retry-after-cap, not waited for" if r.over_cap else ""


def _resolution_findings(
    path: str,
    a: Anchor,
    r: Resolution,
    claims: Claims | None,
    follow: FollowUp | None,
    earlier: Facts | None,
) -> list[Finding]:
    if r.outcome is Outcome.DEAD:
        return [_f(Code.NOT_FOUND, path, a, r.error or "not found", Answer(r.status))]
    if r.outcome is not Outcome.OK:
        message = r.error or r.outcome.value
        return [_f(_OUTCOME_CODE[r.outcome], path, a, message, Answer(r.status))]
    if r.facts is None:
        return []
    out = truth.findings(path, a, r.facts, truth.claims_of(a, claims), follow, earlier)
    if isinstance(r.facts, ArxivFacts):
        f = r.facts
        if f.withdrawn:
            out.append(
                _f(
                    Code.WITHDRAWN,
                    path,
                    a,
                    f"arXiv marks it withdrawn: {f.withdrawn}",
                    Withdrawn(f.withdrawn),
                )
            )
        if a.version and f.version and a.version > f.version:
            out.append(
                _f(
                    Code.NOT_FOUND,
                    path,
                    a,
                    f"version v{a.version} does not exist; the latest is v{f.version}",
                    LatestVersion(f.version),
                )
            )
    return out
