"""Renderers: one function per output format, each taking a result and returning text.

Only this package turns untrusted strings into output, always through `escape`. Each command's
formats are one typed table (`ADD`, `CHECK`, `REPORT`, `EXPORT`: `Renderer`s of its result),
`RENDERERS` lists every (command, format), and `write` is the one way out:
findings in the one order every format uses, JSON fitted to the stream's encoding, a file
replaced atomically. A new format is a renderer in `outputs` plus its `--format` choice in
`cli/formats.py`; `tests/test_formats.py` fails until both exist.
"""

from __future__ import annotations

from dataclasses import replace
from enum import Enum
from typing import TYPE_CHECKING, TextIO, TypeVar

from ..files.atomic import write_atomic
from .escape import inert_json
from .outputs import ADD, CHECK, EXPORT, RENDERERS, REPORT, Outputs, Pieces, Renderer, Target

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable
    from pathlib import Path

__all__ = [
    "ADD",
    "CHECK",
    "EXPORT",
    "RENDERERS",
    "REPORT",
    "OutputFormat",
    "Outputs",
    "Pieces",
    "Renderer",
    "Target",
    "emit",
    "render",
    "write",
]


R = TypeVar("R")


class OutputFormat(str, Enum):
    """`check`'s formats (the widest set; each command's own are in `RENDERERS`)."""

    TEXT = "text"
    CONCISE = "concise"
    JSON = "json"
    GITHUB = "github"
    MARKDOWN = "markdown"
    SARIF = "sarif"
    JUNIT = "junit"
    GITLAB = "gitlab"


def render(outputs: Outputs[R], fmt: str, result: R, target: Target) -> str:
    """`result` in `fmt` as text; a result with findings shows them in the one order."""
    # start-up: the CLI imports this module for every command, `--help` too; the YAML reader
    # (registry.loader) and the JSON renderer (~80 ms together) load when something renders
    from ..registry.loader import gc_paused
    from .json import fit

    result = outputs.order(result)
    with gc_paused():  # many small objects and no cycles: the collector made 40k rows superlinear
        text = outputs.renderers[fmt](result, target)
    if fmt in outputs.json:
        text = inert_json(text)
    if fmt in outputs.fitted and target.out is not None:
        text = fit(text, target.out)
    return text


def write(
    outputs: Outputs[R],
    fmt: str,
    result: R,
    out: TextIO,
    output: Path | None = None,
    target: Target | None = None,
) -> None:
    """Render and write: to `output` if given (a regular file), else to `out`; `target` holds
    what the renderer needs besides the result."""
    target = replace(target or Target(None), out=None if output is not None else out)
    streamed = outputs.streamed.get(fmt)
    if streamed is None:
        emit(render(outputs, fmt, result, target), output, out)
    else:
        _stream(outputs, fmt, lambda: streamed(result, target), out, output)
    if output is None:  # whole: a reader sees it before the summary, or is known to have gone
        _whole(out)


def _stream(
    outputs: Outputs[R],
    fmt: str,
    pieces: Callable[[], Iterable[str]],
    out: TextIO,
    output: Path | None,
) -> None:
    from ..registry.loader import gc_paused  # start-up: as in `render`

    # many small objects and no cycles (CSL-JSON's writer is not json.dumps, whose encoder
    # with an indent is a cycle per call): each pass of the collector would walk them all
    with gc_paused():
        chunks = pieces()
        if fmt in outputs.json:  # pieces are whole items: no `##[` spans two of them
            chunks = (inert_json(c) for c in chunks)
        if output is None:
            out.writelines(chunks)
        else:
            write_atomic(output, (c.encode("utf-8") for c in chunks))


def emit(text: str, output: Path | None, out: TextIO) -> None:
    """To `output` (a regular file, replaced atomically: a reader never sees half), else `out`."""
    if output is None:
        out.write(text)
    else:
        write_atomic(output, text.encode("utf-8"))


def _whole(out: TextIO) -> None:
    """`out` holds the whole output: flushed, and a stream that can tell its reader has gone
    (the CLI's guarded stdout, `cli.streams.Guarded.end`) says so now, before any summary."""
    ending = getattr(out, "end", None)
    (ending if callable(ending) else out.flush)()
