"""Exceptions that mean "cannot continue": each one is exit code 2 at the CLI.

    AnchorsError
    ├── UsageError       bad arguments or configuration
    ├── InputError       a file that cannot be used at all (path and line)
    │   ├── RegistryError
    │   ├── BriefingError
    │   └── HistoryError
    ├── StorageError     the file system or a stream refused: read-only, full, locked, closed
    └── NetworkDown      nothing resolves or connects (checking would call every link dead), or
                         too many anchors got no answer for the run to judge them

Problems *inside* a usable registry are findings (exit 1), never exceptions.
"""

from __future__ import annotations

import errno
import os

__all__ = [
    "AnchorsError",
    "BriefingError",
    "HistoryError",
    "InputError",
    "NetworkDown",
    "RegistryError",
    "StorageError",
    "UsageError",
]


class AnchorsError(Exception):
    """Base of every error that stops a command."""


class UsageError(AnchorsError):
    """Arguments or configuration that cannot be acted on."""


class InputError(AnchorsError):
    """A file that cannot be used; `str()` is the one-line `path:line: message` form."""

    def __init__(self, path: str, message: str, line: int | None = None) -> None:
        self.path = path
        self.line = line
        self.message = message
        where = f"{path}:{line}" if line else path
        super().__init__(f"{where}: {message}")


class RegistryError(InputError):
    """The registry is unreadable or unsafe to rewrite; it is left untouched."""


class BriefingError(InputError):
    """A briefing that cannot be read (binary, too large, no date)."""


class HistoryError(InputError):
    """The history database is corrupt, foreign or from a newer version."""


class StorageError(AnchorsError):
    """The environment refused: a read-only folder, a full disk, a lock held too long, a closed
    stream. Library code turns `OSError` into this at its boundaries (`from_os`), so the CLI
    maps one family to exit 2."""

    def __init__(self, path: str, message: str) -> None:
        self.path = path
        self.message = message
        super().__init__(f"{path}: {message}" if path else message)

    @classmethod
    def from_os(
        cls, exc: OSError, doing: str, path: str | os.PathLike[str] | None = None
    ) -> StorageError:
        """`<path>: cannot <doing>: <reason>`, the path being the one the system named if any."""
        where = str(path if path is not None else exc.filename or "")
        reason = _REASONS.get(exc.errno or 0) or (exc.strerror or str(exc)).lower()
        return cls(where, f"cannot {doing}: {reason}")


#: Plain words for the errors users meet; others keep the system's wording.
_REASONS = {
    errno.EROFS: "read-only file system",
    errno.EACCES: "permission denied",
    errno.EPERM: "operation not permitted",
    errno.ENOSPC: "no space left on device",
    errno.EDQUOT: "disk quota exceeded",
    errno.EISDIR: "it is a folder",
    errno.ENOTDIR: "a part of the path is not a folder",
    errno.ENOENT: "no such file or folder",
    errno.EBADF: "the stream is closed",
    errno.EPIPE: "the reader has gone away",
}


class NetworkDown(AnchorsError):
    """No host could be reached at all, or too few for the run to judge: a network problem,
    not a registry problem."""
