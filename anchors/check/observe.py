"""An answer of this run as the observation the history keeps: a link's verdict, or a lookup's
outcome with the facts it learnt."""

from __future__ import annotations

from collections.abc import Iterable

from ..errors import HistoryError
from ..findings import Outcome
from ..history import History
from ..history.facts import Facts, IssueFacts, RepoFacts
from ..history.observation import Observation
from ..ids.model import AnchorKind, WebUrl
from ..net.links import LinkResult
from ..registry.model import Anchor
from ..resolve.base import Resolution

__all__ = ["earlier_facts", "of_link", "of_lookup"]


def of_link(anchor: Anchor, key: WebUrl, link: LinkResult) -> Observation:
    return Observation(
        key, anchor.label, link.outcome, link.status, link.final_url, link.error, link.elapsed_ms
    )


def of_lookup(anchor: Anchor, res: Resolution) -> Observation:
    """A lookup of `anchor`. A repository's page, asked of the API, is observed as the link it is:
    a rename is its permanent redirect. A failed lookup learnt nothing, so it has no facts."""
    assert anchor.key is not None
    moved = _moved_to(res.facts)
    outcome = res.outcome
    if isinstance(anchor.key, WebUrl) and outcome is Outcome.OK and moved:
        outcome = Outcome.REDIRECT
    facts = res.facts if not res.outcome.failed and not _empty(res.facts) else None
    return Observation(anchor.key, anchor.label, outcome, res.status, moved, res.error, facts=facts)


def _moved_to(facts: Facts | None) -> str | None:
    return facts.moved_to if isinstance(facts, IssueFacts | RepoFacts) else None


def _empty(facts: Facts | None) -> bool:
    return facts is None or facts == type(facts)()


def earlier_facts(
    history: History | None, targets: Iterable[Anchor], registry: str
) -> dict[str, Facts]:
    """What earlier runs of `registry` learnt of the issues and papers about to be checked, so
    news (a close, a publication) is noted once: by the run that first sees it."""
    news = (AnchorKind.GITHUB, AnchorKind.ARXIV)
    keys = [a.key for a in targets if a.key is not None and a.key.kind in news]
    if history is None or not keys:
        return {}
    try:
        return history.facts_before(keys, history.clock(), registry)
    except HistoryError:  # a history that cannot be read costs the run nothing but the memory
        return {}
