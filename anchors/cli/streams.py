"""Standard streams that fail the way files do: with a StorageError naming the stream.

A closed stdout (`>&-`), a full disk behind it (`> /dev/full`) and a reader that went away
(`| head -1`) are user problems like a read-only folder: one line, exit 2. An encoding that
cannot show every character (`PYTHONIOENCODING=ascii`, a cp1252 redirect) is not: the findings
must still reach the log, so what it cannot hold is written as backslash escapes, said once on
stderr. stderr never raises: it escapes what it cannot encode, and a write it cannot make (its
reader gone) is dropped and remembered, so the run still ends with exit 2 and nothing more.

What is knowable about a pipe's reader: a write after it has gone fails (EPIPE), and at the end
of the run `settle` asks the kernel whether it is still there (`poll`: a pipe whose every reader
has closed reports POLLERR, a socket whose peer has gone POLLHUP). A reader that leaves after
anchors has written everything and exited cannot be known, and nothing failed while it ran.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import select
import stat
import sys
from collections.abc import Iterable
from typing import Any, TextIO

from ..errors import StorageError

__all__ = ["GONE", "STDOUT", "Guarded", "Unfailing", "end", "guard", "reader_gone", "settle"]

STDOUT = "standard output"
#: what a pipe whose reader has gone is said to be
GONE = "cannot write: the reader has gone away"


class Guarded:
    """A text stream proxy whose write and flush raise StorageError instead of OSError.

    After the first failure the stream's descriptor is pointed at /dev/null (what is still
    buffered then goes nowhere, quietly) and `failed` holds the error: every later write
    raises it again, a flush does not (the failure has been raised once already).
    """

    def __init__(self, stream: TextIO | None, name: str = STDOUT) -> None:
        self._stream = stream
        self._name = name
        self._escaping = False
        self.failed: StorageError | None = None

    def write(self, text: str) -> int:
        if self.failed is not None:
            raise self.failed
        if self._stream is None:
            raise self._fail(
                StorageError(self._name, "cannot write: it is closed (was it started with >&-?)")
            )
        try:
            try:
                return self._stream.write(text)
            except UnicodeEncodeError as exc:
                encoding = getattr(self._stream, "encoding", None) or exc.encoding
                return self._stream.write(self._escaped(text, encoding))
        except OSError as exc:
            raise self._fail(StorageError.from_os(exc, "write", self._name)) from None

    def writelines(self, lines: Iterable[str]) -> None:
        # a streamed export is many small pieces: written a few hundred at a time
        pieces = iter(lines)
        while batch := list(itertools.islice(pieces, 256)):
            self.write("".join(batch))

    def _escaped(self, text: str, encoding: str) -> str:
        """`text` with what `encoding` cannot hold as `\\u…` escapes; said once, on stderr."""
        if not self._escaping:
            self._escaping = True
            sys.stderr.write(
                f"anchors: warning: {self._name} is {encoding}: characters it cannot show "
                "are written as \\u escapes; set PYTHONIOENCODING=utf-8 to see them\n"
            )
        return text.encode(encoding, "backslashreplace").decode(encoding)

    def flush(self) -> None:
        if self._stream is None or self.failed is not None:
            return
        try:
            self._stream.flush()
        except OSError as exc:
            raise self._fail(StorageError.from_os(exc, "write", self._name)) from None

    def end(self) -> None:
        """The output is whole: flush it, and raise StorageError if its reader has already gone
        (before a summary on stderr says all went well)."""
        self.flush()
        if self.failed is None and reader_gone(self):
            raise self._fail(StorageError(self._name, GONE))

    def settle(self) -> tuple[StorageError | None, bool]:
        """At exit, `end`ed again: a failure not raised before, and whether the stream failed
        at any time (`streams.settle`)."""
        failed_before = self.failed is not None
        problem = None
        try:
            self.end()
        except StorageError as exc:
            problem = None if failed_before else exc
        return problem, self.failed is not None

    def _fail(self, error: StorageError) -> StorageError:
        self.failed = error
        if self._stream is not None:
            _discard_fd(self._stream)
        return error

    def isatty(self) -> bool:
        return self._stream is not None and self._stream.isatty()

    # Any: a stand-in for the stream it wraps, so whatever that stream's attribute is
    def __getattr__(self, name: str) -> Any:
        if self._stream is None:
            raise AttributeError(name)
        return getattr(self._stream, name)


class Unfailing:
    """stderr: what it cannot encode is escaped (by the stream), and a write the system refuses
    (its reader gone, a full disk) is dropped, with `lost` saying why; nothing raises, so the
    line about the failure that matters is never replaced by one about stderr."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self.lost: str | None = None

    def write(self, text: str) -> int:
        if self.lost is None:
            try:
                try:
                    self._stream.write(text)
                except UnicodeEncodeError as exc:
                    encoding = getattr(self._stream, "encoding", None) or exc.encoding
                    self._stream.write(text.encode(encoding, "backslashreplace").decode(encoding))
            except (OSError, ValueError) as exc:
                self._lose(exc)
        return len(text)

    def flush(self) -> None:
        if self.lost is None:
            try:
                self._stream.flush()
            except (OSError, ValueError) as exc:
                self._lose(exc)

    def _lose(self, exc: Exception) -> None:
        self.lost = str(exc) or type(exc).__name__
        _discard_fd(self._stream)

    # Any: a stand-in for the stream it wraps, so whatever that stream's attribute is
    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def _discard_fd(stream: TextIO) -> None:
    """Point the stream's fd at /dev/null, so the interpreter's last flush cannot fail again."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, stream.fileno())
        os.close(null)


def guard() -> None:
    """Install the guarded stdout and a stderr that cannot fail (called by `main`)."""
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
    elif not isinstance(sys.stderr, Unfailing):
        with contextlib.suppress(AttributeError, ValueError):
            sys.stderr.reconfigure(errors="backslashreplace")  # type: ignore[union-attr]
        sys.stderr = Unfailing(sys.stderr)


def reader_gone(stream: object) -> bool:
    """Whether `stream` is a pipe or socket whose reader has gone (every reading end closed)."""
    try:
        fd = stream.fileno()  # type: ignore[attr-defined]
        mode = os.fstat(fd).st_mode
    except (AttributeError, OSError, ValueError):
        return False
    if not (stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)):
        return False  # a file, a terminal, /dev/null: no reader to lose
    poller = select.poll()
    poller.register(fd, select.POLLOUT)
    return any(ev & (select.POLLERR | select.POLLHUP) for _, ev in poller.poll(0))


def end(out: TextIO) -> None:
    """`out` holds a command's whole output: flushed, and StorageError if it is stdout and its
    reader has already gone."""
    if isinstance(out, Guarded):
        out.end()
    else:
        out.flush()


def settle() -> tuple[StorageError | None, bool]:
    """At the end of a run, stdout flushed and both readers asked for: the failure not yet
    reported (a flush that failed, stdout's reader gone) and whether any output was unusable
    (stdout or stderr failed at any time, or lost its reader), which makes the run exit 2."""
    out, err = sys.stdout, sys.stderr
    problem, unusable = out.settle() if isinstance(out, Guarded) else (None, False)
    if isinstance(err, Unfailing):
        err.flush()
        unusable = unusable or err.lost is not None or reader_gone(err)
    return problem, unusable
