"""Composing a registry one anchor at a time, so a big file never exists as one node tree.

`yaml.compose` builds every node of the document, each with two marks, before anything can be
looked at: about 50 bytes of memory per byte of registry (1.3 GB for a 26 MB file). Here the
same nodes are built from libyaml's event stream, and the items of the top-level `anchors`
list are handed to a callback one by one and dropped, so memory is the text plus the model.
Tags are resolved exactly as PyYAML's composer does; aliases are never expanded (the loader
reports them as problems), so a billion laughs costs nothing.
"""

from __future__ import annotations

from collections.abc import Callable

import yaml

__all__ = ["compose_streaming"]

_NULL = "tag:yaml.org,2002:null"
#: collections nested deeper than this are refused: a registry entry needs three levels, and
#: composing recurses once a level (600 nested mappings were a RecursionError)
MAX_DEPTH = 64


_Scalar, _SeqStart, _MapStart = yaml.ScalarEvent, yaml.SequenceStartEvent, yaml.MappingStartEvent
_SeqEnd, _MapEnd = yaml.SequenceEndEvent, yaml.MappingEndEvent


class _Composer:
    def __init__(self, source: str) -> None:
        self.loader = yaml.CSafeLoader(source)
        # NOTE: bound once: this loop runs for every event of a file of millions of lines
        self._get, self._peek = self.loader.get_event, self.loader.peek_event
        self._resolve = self.loader.resolve
        self._depth = 0

    def node(self) -> yaml.Node:
        """The node starting at the next event (PyYAML's Composer.compose_node, without aliases)."""
        ev = self._get()
        kind = type(ev)
        if kind is _Scalar:
            tag = ev.tag
            if tag is None or tag == "!":
                tag = self._resolve(yaml.ScalarNode, ev.value, ev.implicit)
            return yaml.ScalarNode(tag, ev.value, ev.start_mark, ev.end_mark, style=ev.style)
        if kind is _SeqStart or kind is _MapStart:
            self._depth += 1
            if self._depth > MAX_DEPTH:
                raise yaml.composer.ComposerError(
                    None, None, f"nested more than {MAX_DEPTH} levels deep", ev.start_mark
                )
            try:
                return self._sequence(ev) if kind is _SeqStart else self._mapping(ev, None)
            finally:
                self._depth -= 1
        # an alias: a null placeholder, never the aliased value
        return yaml.ScalarNode(_NULL, "", ev.start_mark, ev.end_mark)

    def _sequence(self, ev: yaml.SequenceStartEvent) -> yaml.SequenceNode:
        seq = yaml.SequenceNode(
            self._tag(yaml.SequenceNode, ev), [], ev.start_mark, None, flow_style=ev.flow_style
        )
        items, peek, node = seq.value, self._peek, self.node
        while type(peek()) is not _SeqEnd:
            items.append(node())
        seq.end_mark = self._get().end_mark
        return seq

    def _tag(self, kind: type[yaml.Node], ev: yaml.CollectionStartEvent) -> str:
        tag = ev.tag
        if tag is None or tag == "!":
            tag = self._resolve(kind, None, ev.implicit)
        return str(tag)

    def _mapping(
        self, ev: yaml.MappingStartEvent, stream: tuple[str, Callable[[yaml.Node], None]] | None
    ) -> yaml.MappingNode:
        node = yaml.MappingNode(
            self._tag(yaml.MappingNode, ev), [], ev.start_mark, None, flow_style=ev.flow_style
        )
        pairs, peek, compose = node.value, self._peek, self.node
        while type(peek()) is not _MapEnd:
            key = compose()
            if (
                stream is not None
                and isinstance(key, yaml.ScalarNode)
                and key.value == stream[0]
                and type(peek()) is _SeqStart
            ):
                pairs.append((key, self._streamed(stream[1])))
                stream = None  # only the first: a repeated key is a duplicate, composed whole
            else:
                pairs.append((key, compose()))
        node.end_mark = self._get().end_mark
        return node

    def _streamed(self, on_item: Callable[[yaml.Node], None]) -> yaml.SequenceNode:
        ev = self._get()
        seq = yaml.SequenceNode(
            self._tag(yaml.SequenceNode, ev), [], ev.start_mark, None, flow_style=ev.flow_style
        )
        peek, compose = self._peek, self.node
        while type(peek()) is not _SeqEnd:
            on_item(compose())
        seq.end_mark = self._get().end_mark
        return seq

    def document(self, key: str, on_item: Callable[[yaml.Node], None]) -> yaml.Node | None:
        self._get()  # stream start
        if type(self._peek()) is yaml.StreamEndEvent:
            return None
        self._get()  # document start
        if type(self._peek()) is _MapStart:
            root: yaml.Node = self._mapping(self._get(), (key, on_item))
        else:
            root = self.node()
        self._get()  # document end
        if type(self._peek()) is not yaml.StreamEndEvent:
            ev = self._get()
            raise yaml.composer.ComposerError(
                "expected a single document in the stream",
                root.start_mark,
                "but found another document",
                ev.start_mark,
            )
        return root


def compose_streaming(
    text: str, key: str, on_item: Callable[[yaml.Node], None]
) -> yaml.Node | None:
    """The document's root node, except that the items of the first top-level `key` list go to
    `on_item` as they are composed (that list's node is left empty). None for an empty stream."""
    composer = _Composer(text)
    try:
        return composer.document(key, on_item)
    finally:
        composer.loader.dispose()
