"""How runs name their registry, and which runs a reader of one registry reads."""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from ..files.state import STATE_DIR

__all__ = ["Run", "history_home", "registry_id", "selected"]


@dataclass(frozen=True, slots=True)
class Run:
    """One `check` of a registry, as `runs` holds it."""

    id: int
    started_at: float
    finished_at: float | None
    complete: bool


def history_home(history: str | os.PathLike[str]) -> Path:
    """The folder a history belongs to: the one holding `.anchors/` for `.anchors/history.sqlite`,
    else the history file's own folder (real paths)."""
    folder = Path(os.path.realpath(history)).parent
    return folder.parent if folder.name == STATE_DIR else folder


def registry_id(registry: str | os.PathLike[str], home: Path) -> str:
    """How a run names its registry: its real path (`..` and symlinks resolved), relative to the
    history's `home` when it lies under it, else absolute.

    Every registry in a folder shares that folder's history, so a reader must tell their runs
    apart, and `a.yaml`, `./a.yaml`, its absolute path and a symlink to it are one registry.
    Relative to the home, the name still holds when the checkout is copied or renamed, or the
    history is downloaded elsewhere (see `_recorded` for how names are read back).
    """
    real = Path(os.path.realpath(registry))
    return real.relative_to(home).as_posix() if real.is_relative_to(home) else str(real)


def _recorded(name: str, home: Path) -> set[str]:
    """The real paths a recorded name may mean: a relative name is the home's (as new runs
    write it) or, from an older anchors that stored it as typed, the folder the check ran in,
    which is the home or the current folder as often as not."""
    if os.path.isabs(name):
        return {os.path.realpath(name)}
    return {os.path.realpath(home / name), os.path.realpath(name)}


def selected(
    recorded: Iterable[str], home: Path, registry: str | os.PathLike[str] | None
) -> list[str] | None:
    """The recorded registry names whose runs a reader of `registry` reads; None for all.

    A recorded name that means `registry` (see `_recorded`) picks its runs. When none does but
    every run is of one registry (all names resolve to one file in the home), the history was
    moved or copied with it (another checkout, a CI artifact) and is all of it; only a history
    that holds several registries is filtered."""
    if registry is None:
        return None
    names = [n for n in recorded if "\0" not in n]  # a file's bytes, never a path
    want = os.path.realpath(registry)
    mine = [n for n in names if want in _recorded(n, home)]
    if mine or len({os.path.realpath(home / n) for n in names}) > 1:
        return mine
    return None
