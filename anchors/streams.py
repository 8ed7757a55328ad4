"""Standard streams that fail the way files do: with a StorageError naming the stream.

A closed stdout (`>&-`), a full disk behind it (`> /dev/full`) and a vanished reader are user
problems like a read-only folder: one line, exit 2. An encoding that cannot show every character
(`PYTHONIOENCODING=ascii`, a cp1252 redirect) is not: the findings must still reach the log, so
what it cannot hold is written as backslash escapes, said once on stderr. stderr never fails
either: it escapes what it cannot encode, so the error line itself always gets out.
"""

from __future__ import annotations

import contextlib
import os
import sys
from typing import Any, TextIO

from .errors import StorageError

__all__ = ["STDOUT", "Guarded", "finish", "guard"]

STDOUT = "standard output"


class Guarded:
    """A text stream proxy whose write and flush raise StorageError instead of OSError."""

    def __init__(self, stream: TextIO | None, name: str = STDOUT) -> None:
        self._stream = stream
        self._name = name
        self._escaping = False

    def write(self, text: str) -> int:
        if self._stream is None:
            raise StorageError(self._name, "cannot write: it is closed (was it started with >&-?)")
        try:
            try:
                return self._stream.write(text)
            except UnicodeEncodeError as exc:
                encoding = getattr(self._stream, "encoding", None) or exc.encoding
                return self._stream.write(self._escaped(text, encoding))
        except OSError as exc:
            raise StorageError.from_os(exc, "write", self._name) from None

    def _escaped(self, text: str, encoding: str) -> str:
        """`text` with what `encoding` cannot hold as `\\u…` escapes; said once, on stderr."""
        if not self._escaping:
            self._escaping = True
            with contextlib.suppress(OSError, ValueError, AttributeError):
                sys.stderr.write(
                    f"anchors: warning: {self._name} is {encoding}: characters it cannot show "
                    "are written as \\u escapes; set PYTHONIOENCODING=utf-8 to see them\n"
                )
        return text.encode(encoding, "backslashreplace").decode(encoding)

    def flush(self) -> None:
        if self._stream is None:
            return
        try:
            self._stream.flush()
        except OSError as exc:
            _discard_fd(self._stream)
            raise StorageError.from_os(exc, "write", self._name) from None

    def isatty(self) -> bool:
        return self._stream is not None and self._stream.isatty()

    def __getattr__(self, name: str) -> Any:
        if self._stream is None:
            raise AttributeError(name)
        return getattr(self._stream, name)


def _discard_fd(stream: TextIO) -> None:
    """Point the stream's fd at /dev/null, so the interpreter's last flush cannot fail again."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, stream.fileno())
        os.close(null)


def guard() -> None:
    """Install the guarded stdout and a stderr that cannot fail to encode (called by `main`)."""
    if sys.stdout is None:
        # NOTE: fd 1 is free, so the next file opened would become "stdout" for every child
        # process; hold it with /dev/null while writes to stdout fail as closed.
        with contextlib.suppress(OSError):
            fd = os.open(os.devnull, os.O_WRONLY)
            if fd != 1:
                os.close(fd)
    if not isinstance(sys.stdout, Guarded):
        sys.stdout = Guarded(sys.stdout)
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 (lives as long as we do)
    else:
        with contextlib.suppress(AttributeError, ValueError):
            sys.stderr.reconfigure(errors="backslashreplace")  # type: ignore[union-attr]


def finish() -> None:
    """Flush stdout while a failure can still be reported (raises StorageError)."""
    out = sys.stdout
    if out is not None:
        out.flush()
