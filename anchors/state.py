"""Where anchors keeps its own files: one `.anchors/` folder beside the (real) registry.

The registry's lock, the cache and the history live there together, so a repository gets one
untracked folder, and that folder ignores itself (a `.gitignore` holding `*`, as pytest and
ruff do for their caches). A symlinked registry's state sits beside its target, so the link
and the target share one lock.
"""

from __future__ import annotations

import os
from pathlib import Path

from .errors import StorageError, UsageError

__all__ = ["GITIGNORE", "STATE_DIR", "ensure", "folder", "lock_path"]

STATE_DIR = ".anchors"
GITIGNORE = "# Created by anchors: its lock, cache and history; never commit them.\n*\n"


def folder(registry: str | Path, override: str | Path | None = None) -> Path:
    """The state folder for `registry` (not created): `override` if given, else `.anchors/`."""
    if override:
        p = Path(override)
        if p.exists() and not p.is_dir():
            raise UsageError(f"cache_dir {override}: is a file, not a folder")
        return p
    return Path(os.path.realpath(registry)).parent / STATE_DIR


def ensure(path: Path) -> Path:
    """Create the state folder if needed (with its `.gitignore`); StorageError if it cannot be."""
    if path.is_dir():
        return path
    try:
        path.mkdir(parents=True)
    except FileExistsError:
        # Decided by what is there now, not by a look taken before: another anchors (or another
        # thread) may have made the folder between the two, and then it is ours to use too.
        if path.is_dir():
            return path
        raise StorageError(str(path), "cannot keep state here: it is not a folder") from None
    except OSError as exc:
        raise StorageError.from_os(exc, "create the state folder", path) from None
    try:
        (path / ".gitignore").write_text(GITIGNORE, encoding="utf-8")
    except OSError as exc:
        raise StorageError.from_os(exc, "write", path / ".gitignore") from None
    return path


def lock_path(registry: str | Path) -> Path:
    """The lock file of the real file behind `registry`, in its `.anchors/` folder (created)."""
    real = Path(os.path.realpath(registry))
    return ensure(real.parent / STATE_DIR) / f"{real.name}.lock"
