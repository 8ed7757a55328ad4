"""Where anchors keeps its own files: one `.anchors/` folder beside the (real) registry.

The registry's lock, the cache and the history live there together, so a repository gets one
untracked folder, and that folder ignores itself (a `.gitignore` holding `*`, as pytest and
ruff do for their caches). A symlinked registry's state sits beside its target, so the link
and the target share one lock.

What is found there is not trusted: a pull request can commit a `.anchors/` of its choosing.
A `.anchors` that is a symlink out of the repository is refused; a state file that is a
symlink is never followed (read as absent, replaced rather than written through); and a state
file git tracks was written by whoever committed it, so it is ignored with a warning (a
committed cache must not decide a verdict, a committed history must not feed a report). Where
git cannot say (not installed, failing, or no git checkout at all: a tarball, `git archive`, a
Docker context), a state file is taken for committed, unless the user named its place with a
flag or the environment.
"""

from __future__ import annotations

import os
import stat
import subprocess
from collections.abc import Sequence
from pathlib import Path

from ..errors import StorageError, UsageError
from .repo import inside, repository_root

__all__ = [
    "GITIGNORE",
    "STATE_DIR",
    "ensure",
    "folder",
    "lock_path",
    "not_used",
    "read",
    "untrusted",
]

STATE_DIR = ".anchors"
GITIGNORE = "# Created by anchors: its lock, cache and history; never commit them.\n*\n"


def folder(registry: str | Path, override: str | Path | None = None) -> Path:
    """The state folder for `registry` (not created): `override` if given, else `.anchors/`."""
    if override:
        folder_path = Path(override)
        if folder_path.exists() and not folder_path.is_dir():
            raise UsageError(f"cache_dir {override}: is a file, not a folder")
        return folder_path
    return _own(Path(os.path.realpath(registry)).parent)


def _own(base: Path) -> Path:
    """`base/.anchors`, unless it is a symlink leading out of `base`'s repository."""
    path = base / STATE_DIR
    if path.is_symlink() and not inside(path, repository_root(base)):
        raise StorageError(
            str(path),
            "is a symlink out of the repository; anchors keeps its state only inside it "
            "(remove the link, or name a folder with --cache-dir)",
        )
    return path


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
    """The lock file of the real file behind `registry`, in its `.anchors/` folder (created);
    a lock that is a symlink is refused (opening it could truncate its target)."""
    real = Path(os.path.realpath(registry))
    lock = ensure(_own(real.parent)) / f"{real.name}.lock"
    if lock.is_symlink():
        raise StorageError(str(lock), "is a symlink; remove it (a lock file is never followed)")
    return lock


def untrusted(path: Path, chosen: bool = False) -> str | None:
    """Why the state file `path` may not be used, or None: a symlink (never followed), a file
    git tracks (committed, so written by whoever made the commit), or one in a repository whose
    git cannot say (no git, or git failing): that may be committed too, so it counts as such,
    unless the user `chosen` its place with a flag or the environment."""
    if path.is_symlink():
        return "is a symlink; state files are never followed"
    if not path.exists():
        return None
    tracked, why = _tracked(path)
    if tracked:
        return (
            "is tracked by git; state committed to the repository is not trusted "
            "(keep it out of git, or name another place with --cache-dir or --history)"
        )
    if tracked is None and not chosen:
        return (
            f"may be committed to the repository ({why}), and committed state is not trusted "
            "(name its place with --cache-dir or --history, or their variables, to use it)"
        )
    return None


def not_used(found: Sequence[tuple[Path | None, str]], recorded: bool = True) -> str:
    """One warning for every state file a run did not use, grouped by why (`untrusted`):
    `a, b: why; not used` (and that the run is not recorded, when the history was one)."""
    by_why: dict[str, list[str]] = {}
    for path, why in found:
        by_why.setdefault(why, []).append(str(path))
    said = "; ".join(
        f"{', '.join(paths)}: {why if len(paths) == 1 else _plural(why)}"
        for why, paths in by_why.items()
    )
    return f"{said}; not used" + ("" if recorded else ", and this check is not recorded")


def _plural(why: str) -> str:
    return f"are {why.removeprefix('is ')}" if why.startswith("is ") else why


def _tracked(path: Path) -> tuple[bool | None, str]:
    """Whether git tracks `path`: None (and why) when it cannot say, which includes a folder
    in no git checkout at all (a tarball, `git archive`, a Docker context): there the file may
    well have come with the checkout, and nothing can prove otherwise."""
    folder = path.parent
    try:
        # the name is a path, never a pattern: without --literal-pathspecs git reads
        # `:(top)h.sqlite`, `:/h`, `*` or `[ab]` as magic or globs, and a tracked file whose
        # name is spelt so reads as untracked
        out = subprocess.run(
            ["git", "--literal-pathspecs", "-C", str(folder), "ls-files", "-z", "--", path.name],
            capture_output=True,
            timeout=30,
            check=False,
        )
    except FileNotFoundError:
        return None, "no git to ask"
    except (OSError, subprocess.SubprocessError) as exc:
        return None, f"git could not be asked: {exc.__class__.__name__}"
    if out.returncode != 0:
        if not (repository_root(folder) / ".git").exists():
            return None, "not a git checkout: a tarball, an archive or a copy"
        said = out.stderr.decode("utf-8", "replace").strip().splitlines()
        return None, f"git ls-files failed: {said[0] if said else f'exit {out.returncode}'}"
    return bool(out.stdout.strip(b"\0")), ""


def read(path: Path, limit: int) -> bytes | None:
    """The bytes of state file `path` (None if there is none), never through a symlink, never
    from a FIFO or device, at most `limit` of them; OSError if it cannot be read."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC)
    except FileNotFoundError:
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise OSError(f"{path}: not a regular file")
        if st.st_size > limit:
            raise OSError(f"{path}: {st.st_size} bytes is more than the {limit} read")
        with os.fdopen(os.dup(fd), "rb") as fh:
            data = fh.read(limit + 1)
        if len(data) > limit:
            raise OSError(f"{path}: more than the {limit} bytes read")
        return data
    finally:
        os.close(fd)
