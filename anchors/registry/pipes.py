"""Registries read from a pipe: `-` (standard input) and `<(git show main:registry.yaml)`.

Only commands that never write the registry read one (`check --offline`, `report`, `export`):
a pipe is read once, has no folder beside it for state, and cannot be replaced. A pipe from
process substitution always has its writer; a named FIFO (`mkfifo`) may have none, and a read
would then wait forever, so it gets `FIFO_WAIT` seconds for a writer to say something.
"""

from __future__ import annotations

import os
import select
import stat
import sys
from pathlib import Path

from ..errors import RegistryError

__all__ = ["FIFO_WAIT", "STDIN", "is_stream", "read_stream"]

#: the registry argument that means standard input
STDIN = "-"
#: seconds a named FIFO gets for a writer to start
FIFO_WAIT = 3.0


def is_stream(path: str | Path) -> bool:
    """`-` or a pipe: readable once, with no folder beside it for state, never writable."""
    if str(path) == STDIN:
        return True
    try:
        return stat.S_ISFIFO(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def _named(path: str | Path) -> bool:
    """A FIFO with a name in a folder (`mkfifo`), not the anonymous pipe of `<(…)`, whose
    /dev/fd entry resolves to no path at all (`pipe:[…]`)."""
    try:
        return stat.S_ISFIFO(os.lstat(os.path.realpath(path)).st_mode)
    except OSError:
        return False


def read_stream(path: str | Path, limit: int) -> tuple[bytes, str]:
    """At most `limit + 1` bytes of the pipe, and the name findings give it (`<stdin>`)."""
    name = "<stdin>" if str(path) == STDIN else str(path)
    try:
        if str(path) == STDIN:
            return sys.stdin.buffer.read(limit + 1), name
        fd = os.open(path, os.O_RDONLY | (os.O_NONBLOCK if _named(path) else 0))
        try:
            if not os.get_blocking(fd):
                ready, _, _ = select.select([fd], [], [], FIFO_WAIT)
                if not ready:
                    raise RegistryError(
                        name, f"a named pipe that nothing wrote to in {FIFO_WAIT:g} s"
                    )
                os.set_blocking(fd, True)
            with os.fdopen(fd, "rb", closefd=False) as fh:
                return fh.read(limit + 1), name
        finally:
            os.close(fd)
    except OSError as exc:
        raise RegistryError(name, f"cannot read: {exc.strerror}") from None
