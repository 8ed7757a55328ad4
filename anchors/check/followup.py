"""arXiv follow-ups for title mismatches only: the cited version's title, or a title search,
asked once per written title and cached."""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial

from ..findings import Outcome
from ..history.facts import ArxivFacts
from ..ids.model import ArxivId
from ..net.cache import Cache
from ..registry.claims import Claims
from ..registry.model import Anchor
from ..resolve.base import ArxivLookup, FollowUp, Mismatch, Resolution
from . import truth

__all__ = ["follow_up"]


async def follow_up(
    targets: dict[str, Anchor],
    resolutions: dict[str, Resolution],
    arxiv: ArxivLookup | None,
    claims: Mapping[str, Claims],
    cache: Cache,
) -> dict[str, FollowUp]:
    """Extra arXiv requests for title mismatches only (the cited version, a title search),
    cached."""
    out: dict[str, FollowUp] = {}
    wanted: dict[str, Mismatch] = {}
    for key, anchor in targets.items():
        resolution = resolutions.get(key)
        if (
            not isinstance(anchor.key, ArxivId)
            or resolution is None
            or not isinstance(resolution.facts, ArxivFacts)
        ):
            continue
        title = truth.claims_of(anchor, claims.get(key)).title
        if (
            resolution.outcome is Outcome.OK
            and title
            and truth.is_title_mismatch(title, resolution.facts.title)
        ):
            done = cache.get(f"{key}#follow-up", partial(FollowUp.from_cache, written=title))
            if done is not None:
                out[key] = done
            else:
                wanted[key] = Mismatch(anchor.key, title, resolution.facts)
    if wanted and arxiv is not None:
        for key, f in (await arxiv.follow_up(wanted)).items():
            out[key] = f
            if f.complete:
                cache.put(f"{key}#follow-up", f.to_cache(wanted[key].written))
    return out
