"""A run that could not see the network must not pass: too many anchors without any answer.

The outage rule (`links.network_down`) stops a run in which nothing answered. A runner whose
network is half broken gets past it: one API answers, the rest time out, and every anchor is a
mere `unreachable` warning, exit 0. So when more than a share of the anchors checked online got
no answer at all (outcome `unreachable`: no connection, no name, a timeout; a site that answered
and refused is an answer) from three places or more, the run says it could not judge (exit 2).
What did answer is recorded as always, and unreachable is never dead. One or two silent places
(hosts, or an API) are warnings, whatever the share: a PR run of a few anchors on one site.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit

from ..findings import Outcome
from ..ids.model import AnchorKind
from ..net.linkresult import LinkResult
from ..registry.model import Anchor
from ..resolve.base import Resolution

__all__ = ["MIN_PLACES", "Silence", "silence", "verdict"]

#: fewer silent places (hosts, APIs) than this never stop a run, as with the outage rule
MIN_PLACES = 3
_API = {
    AnchorKind.ARXIV: "the arXiv API",
    AnchorKind.DOI: "doi.org",
    AnchorKind.GITHUB: "the GitHub API",
}


@dataclass(frozen=True, slots=True)
class Silence:
    """The anchors of one run that got no answer, and the places (hosts, APIs) they were asked."""

    anchors: int = 0
    places: frozenset[str] = frozenset()


def silence(
    targets: Mapping[str, Anchor],
    links: Mapping[str, LinkResult],
    resolutions: Mapping[str, Resolution],
) -> Silence:
    """Which anchors checked online got no answer at all, and where they were asked."""
    hosts = [urlsplit(r.url).hostname or r.url for r in links.values() if _silent(r.outcome)]
    apis = [_api(targets[k]) for k, res in resolutions.items() if _silent(res.outcome)]
    return Silence(len(hosts) + len(apis), frozenset(hosts + apis))


def _silent(outcome: Outcome) -> bool:
    return outcome is Outcome.UNREACHABLE


def _api(anchor: Anchor) -> str:
    """The service asked about `anchor` (a repository's page is asked of the GitHub API)."""
    return (
        _API[anchor.key.kind]
        if anchor.key is not None and anchor.key.kind in _API
        else "the GitHub API"
    )


def verdict(checked: int, quiet: Silence, share: float) -> str | None:
    """Why the run cannot judge its anchors, or None: more than `share` of the `checked`
    anchors unanswered, from `MIN_PLACES` places or more."""
    if len(quiet.places) < MIN_PLACES or quiet.anchors <= share * checked:
        return None
    return (
        f"{quiet.anchors} of {checked} anchors checked online got no answer at all (no "
        f"connection, no name, a timeout) from {len(quiet.places)} hosts and services: more than "
        f"{share:.0%}, so this run could not judge them (is this machine's network broken?); "
        "what answered is recorded, nothing is called dead. Raise the share with "
        "--max-unreachable or ANCHORS_MAX_UNREACHABLE"
    )
