"""The resolved facts a check records with each observation, by name, in one place.

A fact is what a lookup learnt about an anchor that can change between checks: a GitHub
issue's state, an arXiv paper's latest version and title, a venue DOI, where a page moved.
The history stores them as a JSON object per row, so a resolver that learns a new fact needs
no schema change; the report compares consecutive observations to find transitions.
"""

from __future__ import annotations

from typing import Any

from .resolve.base import Resolution

__all__ = ["NOT_FACTS", "of_resolution"]

#: fields of a `Resolution` that describe the lookup, not the anchor
NOT_FACTS = frozenset({"key", "outcome", "status", "error"})


def of_resolution(res: Resolution) -> dict[str, Any] | None:
    """The facts of a successful lookup (None for a failed one: it learnt nothing)."""
    if res.outcome.failed:
        return None
    data = res.to_cache()
    facts = {k: v for k, v in data.items() if k not in NOT_FACTS}
    # `merged` and `is_pull` are dropped by to_cache when false; a PR's "not merged" is a fact
    if res.is_pull:
        facts["merged"] = res.merged
    return facts or None
