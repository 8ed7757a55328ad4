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
    for key, anchor in targets.items():
        path = anchor.file or reg.path  # a living document's citation is judged where it is written
        if key in links:
            out += _link_findings(path, anchor, links[key])
        elif key in resolutions:
            resolution, said = resolutions[key], claims.get(key)
            out += _resolution_findings(
                path, anchor, resolution, said, follow.get(key), earlier.get(key)
            )
    return out


def _f(code: Code, path: str, anchor: Anchor, message: str, details: Details) -> Finding:
    return Finding(code, anchor.label, path, anchor.line, message, details)


def _link_findings(path: str, anchor: Anchor, link: LinkResult) -> list[Finding]:
    if link.outcome is Outcome.OK:
        return []
    code = _OUTCOME_CODE[link.outcome]
    soft = (
        soft_404(link.url, link.final_url)
        if link.outcome is Outcome.REDIRECT and link.final_url
        else None
    )
    if soft:
        msg = (
            f"{soft} ({link.final_url}): the page is probably gone (a soft 404); find where "
            "it went, or cite an archived copy"
        )
    elif link.outcome is Outcome.REDIRECT:
        new = landing_url(anchor.raw_id, link.final_url) if link.final_url else link.final_url
        msg = f"moved permanently to {new}; cite the new URL"
    elif link.outcome is Outcome.RATE_LIMITED:
        msg = (
            f"rate-limited{_tries(link)} ({link.error}){_cap(link)}; "
            "not a dead link, check again later"
        )
    elif link.outcome is Outcome.UNVERIFIABLE:
        msg = f"{link.error or 'cannot be verified'}; not a dead link, open it by hand"
    else:
        msg = f"{link.error or link.outcome.value}{_cap(link)}"
    return [
        _f(
            code,
            path,
            anchor,
            msg,
            Answer(link.status, link.final_url, link.requests or None, bool(soft) or None),
        )
    ]


def _tries(link: LinkResult) -> str:
    """What the server saw: " through 3 tries" only when there were retries."""
    return f" through {link.tries} tries" if link.tries > 1 else ""


def _cap(link: LinkResult) -> str:
    return ": a wait longer than --retry-after-cap, not waited for" if link.over_cap else ""


def _resolution_findings(
    path: str,
    anchor: Anchor,
    resolution: Resolution,
    claims: Claims | None,
    follow: FollowUp | None,
    earlier: Facts | None,
) -> list[Finding]:
    if resolution.outcome is Outcome.DEAD:
        return [
            _f(
                Code.NOT_FOUND,
                path,
                anchor,
                resolution.error or "not found",
                Answer(resolution.status),
            )
        ]
    if resolution.outcome is not Outcome.OK:
        message = resolution.error or resolution.outcome.value
        return [
            _f(_OUTCOME_CODE[resolution.outcome], path, anchor, message, Answer(resolution.status))
        ]
    if resolution.facts is None:
        return []
    out = truth.findings(
        path, anchor, resolution.facts, truth.claims_of(anchor, claims), follow, earlier
    )
    if isinstance(resolution.facts, ArxivFacts):
        out += _arxiv_findings(path, anchor, resolution.facts)
    return out


def _arxiv_findings(path: str, anchor: Anchor, arxiv: ArxivFacts) -> list[Finding]:
    """What arXiv itself says of the cited paper: withdrawn, or no such version."""
    found: list[Finding] = []
    if arxiv.withdrawn:
        found.append(
            _f(
                Code.WITHDRAWN,
                path,
                anchor,
                f"arXiv marks it withdrawn: {arxiv.withdrawn}",
                Withdrawn(arxiv.withdrawn),
            )
        )
    if anchor.version and arxiv.version and anchor.version > arxiv.version:
        found.append(
            _f(
                Code.NOT_FOUND,
                path,
                anchor,
                f"version v{anchor.version} does not exist; the latest is v{arxiv.version}",
                LatestVersion(arxiv.version),
            )
        )
    return found
