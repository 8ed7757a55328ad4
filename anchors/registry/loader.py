"""Loading a registry: libyaml events to `Registry`, keeping every field's span.

The YAML is composed with libyaml, one anchor at a time, never constructing objects (tags
cannot run code, aliases cannot expand); each field keeps its line and character span so
`store` can splice edits into the original text. This module reads and decodes the file;
`walker` turns the nodes into the model, `fields` reads each field.
"""

from __future__ import annotations

import contextlib
import gc
import shlex
import stat
from collections.abc import Iterator
from pathlib import Path

import yaml

from ..errors import RegistryError
from ..files.atomic import describe
from .model import MAX_REGISTRY_BYTES, Registry
from .pipes import STDIN, is_stream, read_stream
from .sniff import looks_like_briefing, nearby
from .walker import Walker
from .yamlstream import compose_streaming

__all__ = ["gc_paused", "load", "parse_text"]


_READERS = "only check --offline, report and export read a registry from a pipe"


def load(path: str | Path, missing_ok: bool = False, stream_ok: bool = False) -> Registry:
    """Read and parse a registry.

    A missing file is an error, so a typo in a path can never check as "0 anchors, no findings";
    only `add` passes `missing_ok` (it creates the file), and gets an empty registry with
    `exists` False. An empty file, or one holding only comments, is an empty registry.
    Commands that only read it pass `stream_ok`: then `-` is standard input, and a pipe is read
    (bounded) like a file; a command that writes is refused one.
    """
    if stream_ok and is_stream(path):
        return _from_stream(path)
    if str(path) == STDIN:
        raise RegistryError(str(path), f"standard input cannot be written; {_READERS}")
    file = Path(path)
    try:
        st = file.stat()
    except FileNotFoundError:
        if missing_ok:
            return Registry(str(path), "", [], [], exists=False)
        raise RegistryError(str(path), _missing(file)) from None
    except OSError as exc:
        raise RegistryError(str(path), f"cannot read: {exc.strerror}") from None
    if not stat.S_ISREG(st.st_mode):  # /dev/null would read as empty, a FIFO would block
        why = f"is {describe(st.st_mode)}, not a regular file"
        if stat.S_ISFIFO(st.st_mode):  # process substitution, <(git show main:registry.yaml)
            why += f"; {_READERS}"
        raise RegistryError(str(path), why)
    size = st.st_size
    if size > MAX_REGISTRY_BYTES:
        raise RegistryError(
            str(path), f"{size} bytes is more than the {MAX_REGISTRY_BYTES} allowed"
        )
    try:
        decoded = _decode(file.read_bytes(), str(path))  # the bytes are freed once decoded
    except OSError as exc:
        raise RegistryError(str(path), f"cannot read: {exc.strerror}") from None
    with gc_paused():
        return _parse_or_hint(*decoded, str(path))


def _from_stream(path: str | Path) -> Registry:
    data, name = read_stream(path, MAX_REGISTRY_BYTES)
    if len(data) > MAX_REGISTRY_BYTES:
        raise RegistryError(name, f"more than the {MAX_REGISTRY_BYTES} bytes allowed")
    return parse_text(data, name)


def _missing(path: Path) -> str:
    """Why a registry is not there, and the files near it that may be the one meant."""
    near = nearby(path)
    creates = f"`anchors add BRIEFING --registry {path}` creates one"
    if not near:
        return f"no such registry; {creates}"
    return f"no such registry; did you mean {' or '.join(near)}? ({creates})"


def parse_text(data: bytes, path: str) -> Registry:
    with gc_paused():
        return _parse_or_hint(*_decode(data, path), path)


def _parse_or_hint(text: str, bom: bool, path: str) -> Registry:
    """`_parse`, or for a briefing handed over as a registry, the command it was meant for."""
    try:
        return _parse(text, bom, path)
    except RegistryError:
        if not looks_like_briefing(path, text):
            raise
    raise RegistryError(
        path,
        "this looks like a briefing, not a registry: merge it into the registry with "
        f"`anchors add {shlex.quote(path)}`",
    )


def _decode(data: bytes, path: str) -> tuple[str, bool]:
    """The text of a registry file and whether it had a BOM; binary or non-UTF-8 is refused."""
    bom = data.startswith(b"\xef\xbb\xbf")
    if bom:
        data = data[3:]
    if b"\x00" in data:
        line = data[: data.index(b"\x00")].count(b"\n") + 1
        raise RegistryError(path, "not a text file (NUL byte)", line)
    try:
        return data.decode("utf-8"), bom
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise RegistryError(path, "not UTF-8 text", line) from None


def _parse(text: str, bom: bool, path: str) -> Registry:
    newline = "\r\n" if "\r\n" in text[:4096] else "\n"
    reg = Registry(path, text, [], [], newline=newline, bom=bom)
    try:
        walker = Walker(reg, text)
        root = compose_streaming(text, "anchors", walker.item)
        if root is not None:
            walker.walk(root)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        raise RegistryError(path, f"not valid YAML: {_problem(exc, text)}", line) from None
    except yaml.YAMLError as exc:
        raise RegistryError(path, f"not valid YAML: {exc}") from None
    return reg


def _problem(exc: yaml.MarkedYAMLError, text: str) -> str:
    """libyaml's words, or the cause in ours: a tab is "a character that cannot start any
    token" to libyaml, and a hand-edited registry meets it most."""
    mark = exc.problem_mark or exc.context_mark
    said = exc.problem or exc.context or "unreadable"
    if mark is not None and ("tab" in said or _char_at(text, mark.line, mark.column) == "\t"):
        return (
            f"a tab at column {mark.column + 1}: YAML indents with spaces only; "
            "replace the tab with spaces"
        )
    return said


def _char_at(text: str, line: int, column: int) -> str:
    start = 0
    for _ in range(line):
        start = text.find("\n", start) + 1
        if start == 0:
            return ""
    return text[start + column : start + column + 1]


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while building or merging the model.

    NOTE: the model and the nodes it is built from hold no reference cycles, yet their many
    allocations trigger the collector again and again, each pass walking every live object:
    that more than doubled the load time of a big registry and made merging 40k citations
    grow faster than linearly. Reference counting still frees everything.
    """
    paused = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if paused:
            gc.enable()
