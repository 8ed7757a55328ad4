"""What anchors can know about the reader of its output, on real pipes and sockets.

A write after the reader has gone fails (EPIPE). An output that fit the pipe was written
without failing, so at the end of the run `settle` asks the kernel whether the reader is still
there: gone is an unusable output (exit 2), even though no write failed; still there is a
delivered output, whatever the reader does after anchors has exited (that cannot be known).
"""

from __future__ import annotations

import contextlib
import io
import os
import socket
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from anchors.cli import streams
from anchors.cli.streams import GONE, Guarded, Unfailing, reader_gone
from anchors.errors import StorageError

#: a pipe's two ends: bytes read by "the reader", text written by anchors
Pipe = tuple[io.FileIO, io.TextIOWrapper]


@pytest.fixture
def pipe() -> Iterator[Pipe]:
    read_end, write_end = os.pipe()
    reader = io.FileIO(read_end, "rb")
    writer = io.TextIOWrapper(io.BufferedWriter(io.FileIO(write_end, "wb")), encoding="utf-8")
    yield reader, writer
    for end in (reader, writer):
        with contextlib.suppress(OSError):
            end.close()


def test_an_output_that_fit_the_pipe_then_lost_its_reader_is_unusable(pipe: Pipe) -> None:
    """`export -f bibtex | head -1` where the bibliography fits the pipe: every write
    succeeded, the reader took one line and left before anchors ended: exit 2, one line."""
    reader, writer = pipe
    out = Guarded(writer)
    out.write("@misc{a,\n  title = {A},\n}\n")
    out.flush()
    assert reader.read(9) == b"@misc{a,\n"
    reader.close()
    problem, unusable = out.settle()
    assert unusable and isinstance(problem, StorageError)
    assert str(problem) == f"standard output: {GONE}"
    assert out.settle() == (None, True)  # said once; still unusable


def test_an_output_whose_reader_is_still_there_was_delivered(pipe: Pipe) -> None:
    reader, writer = pipe
    out = Guarded(writer)
    out.write("line\n")
    assert out.settle() == (None, False)
    assert reader.read(5) == b"line\n"


def test_end_raises_before_the_summary_when_the_reader_has_gone(pipe: Pipe) -> None:
    """The output is whole and its reader already left: said now, so no summary on stderr
    claims the run went well."""
    reader, writer = pipe
    reader.close()
    out = Guarded(writer)
    with pytest.raises(StorageError, match="the reader has gone away"):
        out.write("x" * 200_000)  # more than any pipe holds: the write itself fails
    assert out.settle() == (None, True)  # raised once already: not said again


def test_a_write_that_fits_and_a_reader_gone_before_it(pipe: Pipe) -> None:
    reader, writer = pipe
    reader.close()
    out = Guarded(writer)
    out.write("small\n")  # buffered: nothing has reached the pipe yet
    with pytest.raises(StorageError, match="standard output: cannot write: the reader has gone"):
        streams.end(out)  # type: ignore[arg-type]


def test_stderr_never_raises_and_remembers_what_it_lost(pipe: Pipe) -> None:
    reader, writer = pipe
    reader.close()
    err = Unfailing(writer)
    assert err.write("anchors: exported 3 anchors\n") == 28
    err.flush()
    assert err.lost is not None
    err.write("more")  # dropped, quietly
    err.flush()


def test_settle_says_a_lost_stderr_makes_the_run_unusable(
    pipe: Pipe, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    reader, writer = pipe
    with (tmp_path / "out").open("w", encoding="utf-8") as file_out:
        monkeypatch.setattr(sys, "stdout", Guarded(file_out))  # type: ignore[arg-type]
        monkeypatch.setattr(sys, "stderr", Unfailing(writer))
        assert streams.settle() == (None, False)
        reader.close()  # the reader of stderr leaves, nothing was written to it
        assert streams.settle() == (None, True)


def test_only_pipes_and_sockets_have_a_reader_to_lose(tmp_path: Path) -> None:
    with (tmp_path / "f").open("w") as regular, open(os.devnull, "w") as null:
        assert not reader_gone(regular) and not reader_gone(null)
    assert not reader_gone(io.StringIO())
    ours, theirs = socket.socketpair()
    with ours, ours.makefile("w") as out:
        assert not reader_gone(out)
        theirs.close()
        assert reader_gone(out)


def test_writelines_writes_every_piece_in_order(tmp_path: Path) -> None:
    with (tmp_path / "out").open("w", encoding="utf-8") as f:
        out = Guarded(f)  # type: ignore[arg-type]
        out.writelines(["", *(f"{i}\n" if i % 3 else "" for i in range(1000)), "end"])
        out.flush()
    expected = "".join(f"{i}\n" for i in range(1000) if i % 3) + "end"
    assert (tmp_path / "out").read_text(encoding="utf-8") == expected
