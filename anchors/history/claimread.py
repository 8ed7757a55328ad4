"""Reading what checks kept of the figures and quotes (`claims`): the check's supports, the
report's verdict changes, of one registry's targets."""

from __future__ import annotations

import os
import sqlite3

from ..figures.drift import Support
from ..figures.verdict import VerdictKind
from ..ids.model import AnchorKey
from .claims import ClaimSeen, claim_log, supports
from .names import history_home, selected
from .schema import error_for
from .store import History

__all__ = ["claim_changes", "supports_of"]


def _targets(history: History, registry: str | os.PathLike[str] | None) -> dict[int, AnchorKey]:
    names = [n for (n,) in history.db.execute("SELECT DISTINCT registry FROM targets")]
    return history.reader.targets(selected(names, history_home(history.path), registry))


def supports_of(history: History, registry: str) -> dict[str, Support]:
    """Where earlier checks of `registry` found its claims, by claim key; nothing when the
    history cannot say (a check without them tells no drift, never a false one)."""
    try:
        return supports(history.db, _targets(history, registry))
    except sqlite3.Error:
        return {}


def claim_changes(
    history: History, since: float, until: float, registry: str | os.PathLike[str] | None = None
) -> list[tuple[ClaimSeen, VerdictKind | None]]:
    """The claims' verdict changes in [since, until], each with the verdict logged before it."""
    try:
        return claim_log(history.db, _targets(history, registry), since, until)
    except sqlite3.Error as exc:
        raise error_for(exc, str(history.path)) from None
