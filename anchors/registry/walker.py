"""Composed YAML nodes to the registry model: the top level, each entry and its identity.

Problems become findings, not exceptions: the registry stays usable and `check` reports them,
while the ones that make splicing unsafe are also kept apart so `add` refuses the file. Items
of the `anchors` list arrive one at a time while the stream is composed (`item`), and their
problems are reported after the top level's, in the order the file is written.
"""

from __future__ import annotations

from collections.abc import Callable

import yaml

from ..errors import RegistryError
from ..findings import Code, Finding
from ..ids import parse_anchor
from ..ids.model import AnchorKey, AnchorKind, ArxivId, Doi, InvalidId
from .fields import READERS, FieldError, content_end, span
from .model import (
    _ALIAS_HINT,
    _FIELD_NAME,
    _STD_TAGS,
    _Y,
    ANCHOR_FIELDS,
    ID_FIELDS,
    REQUIRED_FIELDS,
    TOP_FIELDS,
    Anchor,
    Registry,
)

__all__ = ["Walker"]

#: how each identifier field is read: `url` takes any URL, and also names arXiv papers, DOIs and
#: GitHub issues by their URLs (a key's own `id_field` says where `add` writes it)
_PARSE: dict[str, Callable[[str], AnchorKey]] = {
    "arxiv": ArxivId.parse,
    "doi": Doi.parse,
    "url": parse_anchor,
}


class Walker:
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

    def problem(
        self,
        node: yaml.Node | None,
        message: str,
        anchor: str = "",
        code: Code = Code.SCHEMA,
        unsafe: bool = True,
    ) -> None:
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
                found = Finding(
                    Code.SCHEMA,
                    "",
                    self.path,
                    ev.start_mark.line + 1,
                    "YAML anchors and aliases (&name, *name) are not allowed",
                )
                self.reg.problems.append(found)
                self.reg.unsafe.append(found)

    def _refuse_tags(self, node: yaml.Node) -> None:
        if node.tag not in _STD_TAGS:
            raise RegistryError(
                self.path, f"tag {node.tag.replace(_Y, '!!')} is refused", node.start_mark.line + 1
            )

    def _pairs(self, node: yaml.MappingNode, where: str) -> dict[str, tuple[yaml.Node, yaml.Node]]:
        out: dict[str, tuple[yaml.Node, yaml.Node]] = {}
        for key_node, value_node in node.value:
            if key_node.tag == _Y + "merge":
                self.problem(key_node, "merge keys (<<) are not allowed in a registry", where)
                continue
            self._refuse_tags(key_node)
            self._refuse_tags(value_node)
            if not isinstance(key_node, yaml.ScalarNode):
                self.problem(key_node, "mapping keys must be plain names", where)
                continue
            if key_node.value in out:
                first = out[key_node.value][0].start_mark.line + 1
                self.problem(
                    key_node,
                    f"duplicate key '{key_node.value}' (first on line {first})",
                    where,
                    Code.DUPLICATE,
                )
                continue
            out[key_node.value] = (key_node, value_node)
        return out

    def walk(self, root: yaml.Node) -> None:
        self._refuse_tags(root)
        # NOTE: a file with neither key is some other file (a typo'd path, /etc/passwd), not a
        # registry with problems: that is unusable input (exit 2), not a schema finding.
        if not isinstance(root, yaml.MappingNode) or not any(
            isinstance(key_node, yaml.ScalarNode) and key_node.value in TOP_FIELDS
            for key_node, _ in root.value
        ):
            raise RegistryError(
                self.path,
                "not an anchors registry (a YAML mapping with 'version: 1' and 'anchors')",
                root.start_mark.line + 1,
            )
        top = self._pairs(root, "")
        for name, (key_node, _) in top.items():
            if name not in TOP_FIELDS:
                self.problem(
                    key_node, f"unknown top-level field '{name}' (expected version, anchors)"
                )
        if "version" in top:
            version = top["version"][1]
            if not (isinstance(version, yaml.ScalarNode) and version.value == "1"):
                self.problem(version, "unsupported registry version (this anchors reads version 1)")
        else:
            self.problem(root, "missing 'version: 1'")
        if "anchors" not in top:
            self.problem(root, "missing 'anchors' list")
            return
        seq = top["anchors"][1]
        if isinstance(seq, yaml.ScalarNode) and seq.tag == _Y + "null":
            self.reg.seq = span(seq)
            return
        if not isinstance(seq, yaml.SequenceNode):
            self.problem(seq, "'anchors' must be a list")
            return
        self.reg.seq = span(seq, "flow" if seq.flow_style else "block")
        self._flush_items()  # the items came through `item` while the stream was composed
        if self._last_item >= 0:  # new entries line up with the last one's dash
            idx = self._last_item
            line_start = self.text.rfind("\n", 0, idx) + 1
            dash = self.text.find("-", line_start, idx)
            self.reg.item_indent = dash - line_start if dash >= 0 else 2

    def _anchor(self, node: yaml.Node) -> Anchor:
        anchor = Anchor(line=node.start_mark.line + 1)
        anchor.spans["_end"] = span(node, end=content_end(node))
        if not isinstance(node, yaml.MappingNode):
            self.problem(node, "each anchor must be a mapping of fields")
            return anchor
        anchor.key_column = node.start_mark.column
        anchor.flow = bool(node.flow_style)
        pairs = self._pairs(node, "")
        for name in pairs:
            if name in ANCHOR_FIELDS:  # keyed by the one interned name, not the file's copy
                anchor.spans[_FIELD_NAME[name]] = span(pairs[name][1])
        self._identity(anchor, pairs, node)
        for name, (key_node, value_node) in pairs.items():
            if name in ID_FIELDS:
                continue
            reader = READERS.get(name)
            if reader is None:
                self.problem(key_node, f"unknown field '{name}'", anchor.label)
                continue
            try:
                reader(anchor, value_node)
            except FieldError as bad:
                self.problem(value_node, f"{name}: {bad}", anchor.label)
        for name in REQUIRED_FIELDS:
            if name not in pairs:
                self.problem(node, f"missing field '{name}'", anchor.label, unsafe=False)
        for name in ("cited_in", "claims"):  # lists `add` appends to
            if name in pairs and isinstance(pairs[name][1], yaml.SequenceNode):
                sp = anchor.spans[name]
                sq = pairs[name][1]
                sp.style = "flow" if sq.flow_style else "block"
                sp.items = [
                    (i.start_mark.index, content_end(i), getattr(i, "style", None))
                    for i in sq.value
                ]
        return anchor

    def _identity(
        self, anchor: Anchor, pairs: dict[str, tuple[yaml.Node, yaml.Node]], node: yaml.Node
    ) -> None:
        present = [f for f in ID_FIELDS if f in pairs]
        if not present:
            self.problem(node, "entry has none of arxiv, url, doi")
            return
        if len(present) > 1:
            self.problem(
                pairs[present[1]][0],
                f"entry has both {present[0]} and {present[1]}; use one identifier per entry",
            )
        anchor.id_field = present[0]
        id_node = pairs[anchor.id_field][1]
        if not isinstance(id_node, yaml.ScalarNode) or id_node.tag == _Y + "null":
            self.problem(id_node, f"{anchor.id_field} must be a string")
            return
        anchor.raw_id = id_node.value
        if (
            anchor.id_field == "arxiv"
            and not id_node.style
            and id_node.tag in (_Y + "float", _Y + "int")
        ):
            self.problem(
                id_node,
                f"arxiv: {id_node.value} is unquoted, so YAML reads it as a number; write "
                f'arxiv: "{id_node.value}"',
                anchor.label,
            )
        try:
            anchor.key = _PARSE[anchor.id_field](id_node.value)
        except InvalidId as exc:
            self.problem(id_node, exc.reason, id_node.value, Code.INVALID_ID, unsafe=False)
        if (
            anchor.key is not None
            and anchor.key.kind is AnchorKind.ARXIV
            and anchor.key.version is not None
        ):
            anchor.version = anchor.key.version
