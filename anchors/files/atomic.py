"""Atomic file replacement: temp file in the same folder, fsync, rename, fsync the folder.

A reader sees the old file or the new one, never a mix, whatever kills the writer. What is
replaced is always a regular file: a symlink is followed and its target replaced (the link
stays a link), and the new file keeps the old one's mode, owner and group. Anything else (a
device such as /dev/null, a FIFO, a folder) and a file without write permission are refused,
because root may write anywhere and would otherwise replace them.

NOTE: a file with several hard links is replaced under the name given; the other names keep
the old content, as with git and every editor that saves atomically. Share a registry by
symlink instead.
"""

from __future__ import annotations

import contextlib
import os
import signal
import stat
import tempfile
from collections.abc import Iterable
from pathlib import Path

from ..errors import StorageError

__all__ = ["CHECKPOINTS", "describe", "real_file", "write_atomic"]

#: Names of the points between the write steps, for crash tests (see `_checkpoint`).
CHECKPOINTS = ("after-temp-write", "after-fsync", "after-rename")

_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISSOCK, "a socket"),
)


def _read_umask() -> int:
    mask = os.umask(0o22)
    os.umask(mask)
    return mask


#: Read once at import: os.umask can only be read by setting it, which races with threads.
_UMASK = _read_umask()


def _checkpoint(name: str) -> None:
    """Crash tests set ANCHORS_TEST_KILL_AT to die here without any cleanup running."""
    if os.environ.get("ANCHORS_TEST_KILL_AT") == name:
        os.kill(os.getpid(), signal.SIGKILL)


def describe(mode: int) -> str:
    """What kind of file `mode` is, in words ("a FIFO")."""
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def real_file(
    path: str | Path, writing: bool = True, follow: bool = True
) -> tuple[Path, os.stat_result | None]:
    """The regular file behind `path` (symlinks followed) and its stat, None if it does not exist.

    Raises StorageError for anything that must not be replaced: not a regular file, or (when
    `writing`) a file without any write permission bit, which root would otherwise overwrite.
    With `follow` False a symlink at `path` counts as no file: it is replaced, not written through.
    """
    real = Path(os.path.realpath(path)) if follow else Path(os.path.abspath(path))
    try:
        st = real.stat() if follow else _no_link(real)
    except FileNotFoundError:
        if not real.parent.is_dir():
            raise StorageError(
                str(path), f"cannot write: the folder {real.parent} does not exist"
            ) from None
        return real, None
    except OSError as exc:
        raise StorageError.from_os(exc, "read it", path) from None
    if not stat.S_ISREG(st.st_mode):
        raise StorageError(
            str(path), f"is {describe(st.st_mode)}, not a regular file; refusing to replace it"
        )
    if writing and not st.st_mode & 0o222:
        raise StorageError(
            str(path), f"is read-only (mode {st.st_mode & 0o777:04o}); refusing to overwrite it"
        )
    return real, st


def _no_link(path: Path) -> os.stat_result:
    st = path.lstat()
    if stat.S_ISLNK(st.st_mode):
        raise FileNotFoundError(path)
    return st


def write_atomic(path: str | Path, data: bytes | Iterable[bytes], follow: bool = True) -> Path:
    """Replace the file behind `path` with `data` (or its pieces, in order); returns the real
    path written. With `follow` False (anchors' own state files) a symlink at `path` is itself
    replaced by the file."""
    real, st = real_file(path, follow=follow)
    try:
        fd, tmp = tempfile.mkstemp(dir=real.parent, prefix=f".{real.name}.", suffix=".tmp")
    except OSError as exc:
        raise StorageError.from_os(exc, f"write in {real.parent}", path) from None
    try:
        with os.fdopen(fd, "wb") as fh:
            for piece in (data,) if isinstance(data, bytes) else data:
                fh.write(piece)
            fh.flush()
            _checkpoint("after-temp-write")
            _keep_owner(fh.fileno(), st)
            os.fsync(fh.fileno())
        _checkpoint("after-fsync")
        os.replace(tmp, real)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(exc, OSError):
            raise StorageError.from_os(exc, "write it", path) from None
        raise
    _checkpoint("after-rename")
    with contextlib.suppress(OSError):
        dfd = os.open(real.parent, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)
    return real


def _keep_owner(fd: int, st: os.stat_result | None) -> None:
    """Give the temp file the original's mode, owner and group (a new file: 0644 less umask)."""
    if st is None:
        os.fchmod(fd, 0o644 & ~_UMASK)
        return
    if hasattr(os, "fchown"):
        # NOTE: only root (or the owner, for a group it belongs to) may do this; otherwise the
        # file keeps the writer's ids, which is all a non-root writer can do anyway.
        with contextlib.suppress(PermissionError):
            os.fchown(fd, st.st_uid, st.st_gid)
    os.fchmod(fd, stat.S_IMODE(st.st_mode))
