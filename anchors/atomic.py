"""Atomic file replacement: temp file in the same folder, fsync, rename, fsync the folder.

A reader sees the old file or the new one, never a mix, whatever kills the writer.
"""

from __future__ import annotations

import contextlib
import os
import signal
import tempfile
from pathlib import Path

__all__ = ["CHECKPOINTS", "write_atomic"]

#: Names of the points between the write steps, for crash tests (see `_checkpoint`).
CHECKPOINTS = ("after-temp-write", "after-fsync", "after-rename")


def _checkpoint(name: str) -> None:
    """Crash tests set ANCHORS_TEST_KILL_AT to die here without any cleanup running."""
    if os.environ.get("ANCHORS_TEST_KILL_AT") == name:
        os.kill(os.getpid(), signal.SIGKILL)


def write_atomic(path: str | Path, data: bytes) -> None:
    p = Path(path)
    try:
        mode = p.stat().st_mode & 0o777
    except FileNotFoundError:
        mode = 0o644
    fd, tmp = tempfile.mkstemp(dir=p.parent, prefix=f".{p.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            _checkpoint("after-temp-write")
            os.fsync(fh.fileno())
        _checkpoint("after-fsync")
        os.chmod(tmp, mode)
        os.replace(tmp, p)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    _checkpoint("after-rename")
    with contextlib.suppress(OSError):
        dfd = os.open(p.parent, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)
