"""Renderers: one function per output format, each taking a result and returning text.

Only this package turns untrusted strings into output, always through `escape`. One table,
`RENDERERS`, maps each (command, format) to its renderer, and `write` is the one way out:
findings in the one order every format uses, JSON fitted to the stream's encoding, a file
replaced atomically. A new format is a renderer here plus its `--format` choice in
`cli/options.py`; `tests/test_formats.py` fails until both exist.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from enum import Enum
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from pathlib import Path

    from rich.console import RenderableType

__all__ = ["RENDERERS", "OutputFormat", "Target", "emit", "render", "write"]


class OutputFormat(str, Enum):
    """`check`'s formats (the widest set; each command's own are in `RENDERERS`)."""

    TEXT = "text"
    CONCISE = "concise"
    JSON = "json"
    GITHUB = "github"
    MARKDOWN = "markdown"
    SARIF = "sarif"


@dataclass(frozen=True, slots=True)
class Target:
    """Where the text goes and what a renderer needs to know besides the result."""

    #: the stream written to (its width, colour and encoding matter); None: a UTF-8 file
    out: TextIO | None
    #: `add --dry-run`/`--check`: nothing was written
    dry_run: bool = False
    #: the registry a report is for, as named
    registry: str = ""
    #: `export` without `--section`: grouped by section
    grouped: bool = True
    #: `export --format bibtex`: the family of styles the entries are for (`bib.STYLES`)
    bib_style: str = "classic"
    #: the weekly report: where the full (JSON) report is kept, named in the lines that say
    #: rows were cut to fit a GitHub issue (a URL or a path); None: the command that prints it
    full_report: str | None = None


Renderer = Callable[[Any, Target], str]


def _rich(renderable: Callable[[int], RenderableType], target: Target) -> str:
    """Terminal layouts: drawn at the console's width, with colour only on a terminal."""
    import io

    from .console import report_console

    console = report_console(target.out or io.StringIO())
    with console.capture() as captured:
        console.print(renderable(console.width), crop=False)
    return captured.get()


def _check_text(r: Any, t: Target) -> str:
    from .text import check_result

    return _rich(lambda width: check_result(r, width), t)


def _add_text(r: Any, t: Target) -> str:
    from .text import add_result

    return _rich(lambda width: add_result(r, width), t)


def _lazy(module: str, name: str, *args: str) -> Renderer:
    """A renderer imported when used (each costs start-up time), given the `Target` fields
    named in `args` after the result."""

    def run(result: Any, target: Target) -> str:
        from importlib import import_module

        func = getattr(import_module(f"{__name__}.{module}"), name)
        text: str = func(result, *(getattr(target, a) for a in args))
        return text

    run.__qualname__ = f"{module}.{name}"
    return run


def _csl_json(items: Any, t: Target) -> str:
    from .csl import csl_chunks

    return "".join(csl_chunks(items))


def _bib_chunks(items: Any, t: Target) -> Iterator[str]:
    from .bib import bibtex_chunks

    return bibtex_chunks(items, t.bib_style)


def _csl_chunks(items: Any, t: Target) -> Iterator[str]:
    from .csl import csl_chunks

    return csl_chunks(items)


#: Every (command, `--format`) there is, and what renders it.
RENDERERS: dict[tuple[str, str], Renderer] = {
    ("add", "text"): _add_text,
    ("add", "concise"): _lazy("text", "add_concise"),
    ("add", "json"): _lazy("json", "add_result", "dry_run"),
    ("check", "text"): _check_text,
    ("check", "concise"): _lazy("text", "concise"),
    ("check", "json"): _lazy("json", "check_result"),
    ("check", "github"): _lazy("github", "check_result"),
    ("check", "markdown"): _lazy("markdown", "check_result"),
    ("check", "sarif"): _lazy("sarif", "check_result"),
    ("report", "markdown"): _lazy("markdown", "report", "registry", "full_report"),
    ("report", "json"): _lazy("json", "report", "registry"),
    ("export", "markdown"): _lazy("reading", "markdown_list", "grouped"),
    ("export", "bibtex"): _lazy("bib", "bibtex", "bib_style"),
    ("export", "csl-json"): _csl_json,
}
#: JSON a stream must be able to hold: non-ASCII becomes \u escapes where it cannot.
_FITTED = frozenset({("add", "json"), ("check", "json"), ("check", "sarif"), ("report", "json")})
#: JSON outputs: `escape.inert_json` keeps the runner from reading a command in them
_JSON = _FITTED | {("export", "csl-json")}
#: outputs `write` sends a piece at a time (the same text `render` gives whole), so a 100k-anchor
#: export never holds its whole text (bench/export.py)
_STREAMED: dict[tuple[str, str], Callable[[Any, Target], Iterator[str]]] = {
    ("export", "csl-json"): _csl_chunks,
    ("export", "bibtex"): lambda items, t: _bib_chunks(items, t),
}


def render(command: str, fmt: str, result: Any, target: Target) -> str:
    """`result` in `fmt` as text; a result with findings shows them in the one order."""
    from ..findings import ordered
    from ..registry.loader import gc_paused

    if getattr(result, "findings", None) is not None:
        result = replace(result, findings=ordered(result.findings))
    with gc_paused():  # many small objects and no cycles: the collector made 40k rows superlinear
        text = RENDERERS[command, fmt](result, target)
    if (command, fmt) in _JSON:
        from .escape import inert_json

        text = inert_json(text)
    if (command, fmt) in _FITTED and target.out is not None:
        from .json import fit

        text = fit(text, target.out)
    return text


def write(
    command: str, fmt: str, result: Any, out: TextIO, output: Path | None = None, **context: Any
) -> None:
    """Render and write: to `output` if given (a regular file), else to `out`."""
    target = Target(None if output is not None else out, **context)
    streamed = _STREAMED.get((command, fmt))
    if streamed is None:
        emit(render(command, fmt, result, target), output, out)
        return
    from ..registry.loader import gc_paused
    from .escape import inert_json

    with gc_paused():
        chunks = streamed(result, target)
        if (command, fmt) in _JSON:  # pieces are whole items: no `##[` spans two of them
            chunks = (inert_json(c) for c in chunks)
        if output is None:
            out.writelines(chunks)
        else:
            from ..atomic import write_atomic

            write_atomic(output, (c.encode("utf-8") for c in chunks))


def emit(text: str, output: Path | None, out: TextIO) -> None:
    """To `output` (a regular file, replaced atomically: a reader never sees half), else `out`."""
    if output is None:
        out.write(text)
    else:
        from ..atomic import write_atomic

        write_atomic(output, text.encode("utf-8"))
