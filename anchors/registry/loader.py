"""Loading a registry: libyaml events to `Registry`, keeping every field's span.

The YAML is composed with libyaml, one anchor at a time, never constructing objects (tags
cannot run code, aliases cannot expand); each field keeps its line and character span so
`store` can splice edits into the original text.
"""


from __future__ import annotations

import contextlib
import gc
import stat
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import yaml

from ..errors import RegistryError
from ..findings import Code, Finding
from ..ids import parse_anchor
from ..ids.model import ArxivId, Doi, InvalidId
from .atomic import describe
from .model import (
    _ALIAS_HINT,
    _FIELD_NAME,
    _STD_TAGS,
    _Y,
    ANCHOR_FIELDS,
    ID_FIELDS,
    MAX_REGISTRY_BYTES,
    REQUIRED_FIELDS,
    TOP_FIELDS,
    Anchor,
    Registry,
    Span,
    Status,
)
from .yamlstream import compose_streaming

__all__ = ["gc_paused", "load", "parse_text"]


def load(path: str | Path, missing_ok: bool = False) -> Registry:
    """Read and parse a registry.

    A missing file is an error, so a typo in a path can never check as "0 anchors, no findings";
    only `add` passes `missing_ok` (it creates the file), and gets an empty registry with
    `exists` False. An empty file, or one holding only comments, is an empty registry.
    """
    p = Path(path)
    try:
        st = p.stat()
    except FileNotFoundError:
        if missing_ok:
            return Registry(str(path), "", [], [], exists=False)
        raise RegistryError(str(path), "no such registry; `anchors add BRIEFING --registry "
                            f"{path}` creates one") from None
    except OSError as exc:
        raise RegistryError(str(path), f"cannot read: {exc.strerror}") from None
    if not stat.S_ISREG(st.st_mode):  # /dev/null would read as empty, a FIFO would block
        raise RegistryError(str(path), f"is {describe(st.st_mode)}, not a regular file")
    size = st.st_size
    if size > MAX_REGISTRY_BYTES:
        raise RegistryError(str(path), f"{size} bytes is more than the {MAX_REGISTRY_BYTES} allowed")
    try:
        decoded = _decode(p.read_bytes(), str(path))  # the bytes are freed once decoded
    except OSError as exc:
        raise RegistryError(str(path), f"cannot read: {exc.strerror}") from None
    with gc_paused():
        return _parse(*decoded, str(path))


def parse_text(data: bytes, path: str) -> Registry:
    with gc_paused():
        return _parse(*_decode(data, path), path)


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
        walker = _Walker(reg, text)
        root = compose_streaming(text, "anchors", walker.item)
        if root is not None:
            walker.walk(root)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        raise RegistryError(path, f"not valid YAML: {exc.problem or exc.context}", line) from None
    except yaml.YAMLError as exc:
        raise RegistryError(path, f"not valid YAML: {exc}") from None
    return reg


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


class _Walker:
    """Turns composed nodes into the model, collecting problems as findings."""

    def __init__(self, reg: Registry, text: str) -> None:
        self.reg = reg
        self.path = reg.path
        self.text = text
        #: problems of the streamed items, reported after the top level's (as written)
        self._item_problems: list[tuple[Finding, bool]] = []
        self._in_item = False
        self._last_item = -1
        if _ALIAS_HINT.search(text):  # cheap pre-filter; the event scan confirms
            self._find_aliases(text)

    def problem(self, node: yaml.Node | None, message: str, anchor: str = "",
                code: Code = Code.SCHEMA, unsafe: bool = True) -> None:
        line = node.start_mark.line + 1 if node is not None else None
        found = Finding(code, anchor, self.path, line, message)
        if self._in_item:
            self._item_problems.append((found, unsafe))
            return
        self.reg.problems.append(found)
        if unsafe:
            self.reg.unsafe.append(found)

    def item(self, node: yaml.Node) -> None:
        """One item of the `anchors` list, as the stream composes it (the node is then dropped)."""
        self._in_item = True
        try:
            self._refuse_tags(node)
            self.reg.anchors.append(self._anchor(node))
            self._last_item = node.start_mark.index
        finally:
            self._in_item = False

    def _flush_items(self) -> None:
        for found, unsafe in self._item_problems:
            self.reg.problems.append(found)
            if unsafe:
                self.reg.unsafe.append(found)
        self._item_problems = []

    def _find_aliases(self, text: str) -> None:
        for ev in yaml.parse(text, Loader=yaml.CSafeLoader):
            if isinstance(ev, yaml.AliasEvent) or getattr(ev, "anchor", None):
                found = Finding(Code.SCHEMA, "", self.path, ev.start_mark.line + 1,
                                "YAML anchors and aliases (&name, *name) are not allowed")
                self.reg.problems.append(found)
                self.reg.unsafe.append(found)

    def _refuse_tags(self, node: yaml.Node) -> None:
        if node.tag not in _STD_TAGS:
            raise RegistryError(self.path, f"tag {node.tag.replace(_Y, '!!')} is refused",
                                node.start_mark.line + 1)

    def _pairs(self, node: yaml.MappingNode, where: str) -> dict[str, tuple[yaml.Node, yaml.Node]]:
        out: dict[str, tuple[yaml.Node, yaml.Node]] = {}
        for k, v in node.value:
            if k.tag == _Y + "merge":
                self.problem(k, "merge keys (<<) are not allowed in a registry", where)
                continue
            self._refuse_tags(k)
            self._refuse_tags(v)
            if not isinstance(k, yaml.ScalarNode):
                self.problem(k, "mapping keys must be plain names", where)
                continue
            if k.value in out:
                first = out[k.value][0].start_mark.line + 1
                self.problem(k, f"duplicate key '{k.value}' (first on line {first})", where,
                             Code.DUPLICATE)
                continue
            out[k.value] = (k, v)
        return out

    def walk(self, root: yaml.Node) -> None:
        self._refuse_tags(root)
        # NOTE: a file with neither key is some other file (a typo'd path, /etc/passwd), not a
        # registry with problems: that is unusable input (exit 2), not a schema finding.
        if not isinstance(root, yaml.MappingNode) or not any(
                isinstance(k, yaml.ScalarNode) and k.value in TOP_FIELDS for k, _ in root.value):
            raise RegistryError(self.path, "not an anchors registry (a YAML mapping with "
                                "'version: 1' and 'anchors')", root.start_mark.line + 1)
        top = self._pairs(root, "")
        for name, (k, _) in top.items():
            if name not in TOP_FIELDS:
                self.problem(k, f"unknown top-level field '{name}' (expected version, anchors)")
        if "version" in top:
            v = top["version"][1]
            if not (isinstance(v, yaml.ScalarNode) and v.value == "1"):
                self.problem(v, "unsupported registry version (this anchors reads version 1)")
        else:
            self.problem(root, "missing 'version: 1'")
        if "anchors" not in top:
            self.problem(root, "missing 'anchors' list")
            return
        seq = top["anchors"][1]
        if isinstance(seq, yaml.ScalarNode) and seq.tag == _Y + "null":
            self.reg.seq = _span(seq)
            return
        if not isinstance(seq, yaml.SequenceNode):
            self.problem(seq, "'anchors' must be a list")
            return
        self.reg.seq = _span(seq, "flow" if seq.flow_style else "block")
        self._flush_items()  # the items came through `item` while the stream was composed
        if self._last_item >= 0:  # new entries line up with the last one's dash
            idx = self._last_item
            line_start = self.text.rfind("\n", 0, idx) + 1
            dash = self.text.find("-", line_start, idx)
            self.reg.item_indent = dash - line_start if dash >= 0 else 2

    def _anchor(self, node: yaml.Node) -> Anchor:
        a = Anchor(line=node.start_mark.line + 1)
        a.spans["_end"] = _span(node, end=_content_end(node))
        if not isinstance(node, yaml.MappingNode):
            self.problem(node, "each anchor must be a mapping of fields")
            return a
        a.key_column = node.start_mark.column
        a.flow = bool(node.flow_style)
        pairs = self._pairs(node, "")
        for name in pairs:
            if name in ANCHOR_FIELDS:  # keyed by the one interned name, not the file's copy
                a.spans[_FIELD_NAME[name]] = _span(pairs[name][1])
        self._identity(a, pairs, node)
        for name, (k, v) in pairs.items():
            if name in ID_FIELDS:
                continue
            reader = _READERS.get(name)
            if reader is None:
                self.problem(k, f"unknown field '{name}'", a.label)
                continue
            try:
                reader(a, v)
            except _Bad as bad:
                self.problem(v, f"{name}: {bad}", a.label)
        for name in REQUIRED_FIELDS:
            if name not in pairs:
                self.problem(node, f"missing field '{name}'", a.label, unsafe=False)
        if "cited_in" in pairs and isinstance(pairs["cited_in"][1], yaml.SequenceNode):
            sp = a.spans["cited_in"]
            sq = pairs["cited_in"][1]
            sp.style = "flow" if sq.flow_style else "block"
            sp.items = [(i.start_mark.index, i.end_mark.index, getattr(i, "style", None))
                        for i in sq.value]
        return a

    def _identity(self, a: Anchor, pairs: dict[str, tuple[yaml.Node, yaml.Node]],
                  node: yaml.Node) -> None:
        present = [f for f in ID_FIELDS if f in pairs]
        if not present:
            self.problem(node, "entry has none of arxiv, url, doi")
            return
        if len(present) > 1:
            self.problem(pairs[present[1]][0], f"entry has both {present[0]} and {present[1]}; "
                         "use one identifier per entry")
        a.id_field = present[0]
        v = pairs[a.id_field][1]
        if not isinstance(v, yaml.ScalarNode) or v.tag == _Y + "null":
            self.problem(v, f"{a.id_field} must be a string")
            return
        a.raw_id = v.value
        if a.id_field == "arxiv" and not v.style and v.tag in (_Y + "float", _Y + "int"):
            self.problem(v, f'arxiv: {v.value} is unquoted, so YAML reads it as a number; write '
                         f'arxiv: "{v.value}"', a.label)
        try:
            if a.id_field == "arxiv":
                a.key = ArxivId.parse(v.value)
            elif a.id_field == "doi":
                a.key = Doi.parse(v.value)
            else:
                a.key = parse_anchor(v.value)
        except InvalidId as exc:
            self.problem(v, exc.reason, v.value, Code.INVALID_ID, unsafe=False)
        if isinstance(a.key, ArxivId) and a.key.version is not None:
            a.version = a.key.version


class _Bad(ValueError):
    pass


def _scalar(v: yaml.Node) -> str:
    if not isinstance(v, yaml.ScalarNode):
        raise _Bad("must be a single value")
    return str(v.value)


def _text(v: yaml.Node) -> str | None:
    if isinstance(v, yaml.ScalarNode) and v.tag == _Y + "null":
        return None
    return _scalar(v)


def _date(v: yaml.Node) -> date:
    s = _scalar(v)
    try:
        return date.fromisoformat(s)
    except ValueError:
        raise _Bad(f"'{s}' is not a date (YYYY-MM-DD)") from None


def _read_title(a: Anchor, v: yaml.Node) -> None:
    a.title = _text(v)


def _read_title_from(a: Anchor, v: yaml.Node) -> None:
    s = _scalar(v)
    if s != "heading":
        raise _Bad(f"'{s}' is not a title source (heading)")
    a.title_inferred = True


def _read_section(a: Anchor, v: yaml.Node) -> None:
    a.section = _text(v)


def _read_notes(a: Anchor, v: yaml.Node) -> None:
    a.notes = _text(v)


def _read_first(a: Anchor, v: yaml.Node) -> None:
    a.first_anchored = _date(v)


def _read_status(a: Anchor, v: yaml.Node) -> None:
    s = _scalar(v)
    try:
        a.status = Status(s)
    except ValueError:
        raise _Bad(f"'{s}' is not a status (new or continued)") from None


def _read_cited(a: Anchor, v: yaml.Node) -> None:
    if not isinstance(v, yaml.SequenceNode):
        raise _Bad("must be a list of dates")
    a.cited_in = [_date(i) for i in v.value]


def _read_check(a: Anchor, v: yaml.Node) -> None:
    s = _scalar(v)
    if s != "skip":
        raise _Bad(f"'{s}' is not a check policy (skip)")
    a.skip = True


def _read_accept(a: Anchor, v: yaml.Node) -> None:
    if not isinstance(v, yaml.SequenceNode):
        raise _Bad("must be a list of HTTP status codes")
    codes = [_scalar(i) for i in v.value]
    if not all(c.isdigit() and 100 <= int(c) <= 599 for c in codes):
        raise _Bad("must be a list of HTTP status codes (100-599)")
    a.accept = frozenset(int(c) for c in codes)


def _read_version(a: Anchor, v: yaml.Node) -> None:
    s = _scalar(v)
    if not s.isdigit() or int(s) < 1:
        raise _Bad(f"'{s}' is not a version number (1, 2, ...)")
    a.version = int(s)


def _read_cited_url(a: Anchor, v: yaml.Node) -> None:
    s = _scalar(v)
    if not s.startswith(("http://", "https://")):
        raise _Bad(f"'{s}' is not an http(s) URL")
    a.cited_url = s


def _read_archived(a: Anchor, v: yaml.Node) -> None:
    if not isinstance(v, yaml.MappingNode):
        raise _Bad("must be a mapping {url: ..., date: YYYY-MM-DD}")
    got = {k.value: val for k, val in v.value if isinstance(k, yaml.ScalarNode)}
    if set(got) != {"url", "date"}:
        raise _Bad("must have exactly url and date")
    url, when = _scalar(got["url"]), _date(got["date"])
    if not url.startswith(("http://", "https://")):
        raise _Bad(f"url '{url}' is not an http(s) URL")
    a.archived = {"url": url, "date": when.isoformat()}


_READERS = {
    "cited_url": _read_cited_url, "archived": _read_archived,
    "title": _read_title, "title_from": _read_title_from, "section": _read_section, "notes": _read_notes,
    "first_anchored": _read_first, "status": _read_status, "cited_in": _read_cited,
    "check": _read_check, "accept": _read_accept, "version": _read_version,
}


def _content_end(node: yaml.Node) -> int:
    """End offset of the last value inside a node (block collections end at the next token)."""
    while isinstance(node, (yaml.MappingNode, yaml.SequenceNode)) and not node.flow_style:
        if not node.value:
            break
        last = node.value[-1]
        node = last[1] if isinstance(node, yaml.MappingNode) else last
    return int(node.end_mark.index)


def _span(node: yaml.Node, style: str | None = None, end: int | None = None) -> Span:
    return Span(node.start_mark.index, node.end_mark.index if end is None else end,
                node.start_mark.line + 1, style or getattr(node, "style", None))
