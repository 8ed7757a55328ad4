"""Figures and quotes in "What changed": a claim the check newly found not in its source
(`figure-not-found`, `quote-not-found`), or whose source changed under it (`source-changed`).

The history logs each claim's verdict when it changes (`history.claims`), so a warning logged
inside the window is new news, told once: the run that first saw it. Pure: the logged changes
and the registry's entries in, transitions out.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from ..figures.verdict import ClaimKind, VerdictKind
from ..history.claims import ClaimSeen
from ..history.observation import target_of
from ..registry.model import Anchor
from .transitions import Change, Transition

__all__ = ["claim_transitions"]

_CHANGE = {
    (VerdictKind.NOT_FOUND, ClaimKind.FIGURE): Change.FIGURE_NOT_FOUND,
    (VerdictKind.NOT_FOUND, ClaimKind.QUOTE): Change.QUOTE_NOT_FOUND,
    (VerdictKind.SOURCE_CHANGED, ClaimKind.FIGURE): Change.SOURCE_CHANGED,
    (VerdictKind.SOURCE_CHANGED, ClaimKind.QUOTE): Change.SOURCE_CHANGED,
}


def claim_transitions(
    changes: Iterable[tuple[ClaimSeen, VerdictKind | None]],
    anchor_of: Callable[[str], Anchor | None] | None = None,
) -> list[Transition]:
    """A transition per claim that became `not-found` or `source-changed` (its verdict before
    was another); with `anchor_of` (a registry), only for an entry it still holds."""
    out = []
    for seen, before in changes:
        change = _CHANGE.get((seen.verdict, seen.what))
        entry = anchor_of(seen.key.key) if anchor_of is not None else None
        if change is None or before is seen.verdict or (anchor_of and entry is None):
            continue
        said = f'"{seen.words}"' + (f" ({seen.at})" if seen.at else "")
        out.append(
            Transition(
                change=change,
                target=target_of(seen.key),
                anchor=entry.label if entry else str(seen.key),
                kind=seen.key.kind,
                at=seen.checked_at,
                before=said,
                after=seen.message or seen.verdict.value,
                registry_section=entry.section if entry else None,
                title=entry.work_title if entry else None,
                cited_in=tuple(d.isoformat() for d in entry.cited_in) if entry else (),
                line=entry.line if entry else None,
            )
        )
    return out
