"""Exceptions that mean "cannot continue": each one is exit code 2 at the CLI.

    AnchorsError
    ├── UsageError       bad arguments or configuration
    ├── InputError       a file that cannot be used at all (path and line)
    │   ├── RegistryError
    │   ├── BriefingError
    │   └── HistoryError
    └── NetworkDown      nothing resolves or connects: checking would call every link dead

Problems *inside* a usable registry are findings (exit 1), never exceptions.
"""

from __future__ import annotations

__all__ = [
    "AnchorsError",
    "BriefingError",
    "HistoryError",
    "InputError",
    "NetworkDown",
    "RegistryError",
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


class NetworkDown(AnchorsError):
    """No host could be reached at all: a network problem, not a registry problem."""
