"""What a weekly report reads of the history, in one descent: the window's observations (after
those that say where each target stood before it), the runs that did not finish, and the
figures' and quotes' verdict changes, each typed, from one read-only opening."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from ..figures.verdict import VerdictKind
from .claimread import claim_changes
from .claims import ClaimSeen
from .observation import Observation
from .store import History

__all__ = ["Window", "read_window"]


@dataclass(frozen=True, slots=True)
class Window:
    """The history of one registry's runs from `read_from` to `until`, as a report reads it."""

    #: oldest first; before the window, only what says where each target stood when it began
    observations: list[Observation]
    #: the runs that did not finish (interrupted, or still running)
    partial: frozenset[int]
    #: the claims' verdict changes in the report's own window, each with the verdict before it
    claims: list[tuple[ClaimSeen, VerdictKind | None]]


def read_window(
    path: Path,
    read_from: float,
    since: float,
    until: float,
    registry: str | os.PathLike[str] | None = None,
    chosen: bool = False,
) -> Window:
    """`registry`'s runs (None: every run) in [read_from, until], its claim changes in
    [since, until]; `chosen`: the user named the history (see `History.read_only`)."""
    history = History.read_only(path, chosen)
    try:
        runs = history.runs(read_from, until)
        claims = claim_changes(history, since, until, registry)
        observations = history.window(read_from, until, registry)
    finally:
        history.close()
    return Window(observations, frozenset(run.id for run in runs if not run.complete), claims)
