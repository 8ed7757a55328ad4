"""The streaming composer builds exactly the nodes `yaml.compose` builds, item by item."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings

from anchors.registry.yamlstream import compose_streaming

from .examples import examples
from .reliability.test_splice import registry

DATA = Path(__file__).resolve().parent / "data"
FILES = sorted(DATA.glob("*.yaml")) + sorted((DATA / "corpus").glob("*.yaml"))


def _shape(n: yaml.Node) -> object:
    marks = (n.start_mark.index, n.start_mark.line, n.start_mark.column, n.end_mark.index)
    if isinstance(n, yaml.ScalarNode):
        return ("s", n.tag, n.value, n.style, marks)
    if isinstance(n, yaml.SequenceNode):
        return ("q", n.tag, n.flow_style, marks, [_shape(i) for i in n.value])
    return ("m", n.tag, n.flow_style, marks, [(_shape(k), _shape(v)) for k, v in n.value])


def _both(text: str) -> tuple[object, object]:
    whole = yaml.compose(text, Loader=yaml.CSafeLoader)
    items: list[yaml.Node] = []
    root = compose_streaming(text, "anchors", items.append)
    if root is not None and isinstance(root, yaml.MappingNode):
        for k, v in root.value:
            if k.value == "anchors" and isinstance(v, yaml.SequenceNode) and not v.value:
                v.value = items  # put the streamed items back where they were
                break
    return (None if whole is None else _shape(whole)), (None if root is None else _shape(root))


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_same_nodes_as_compose_on_real_registries(path: Path) -> None:
    whole, streamed = _both(path.read_bytes().decode("utf-8-sig"))
    assert streamed == whole


@pytest.mark.parametrize(
    "text",
    [
        "",
        "# only a comment\n",
        "- a\n- b\n",
        "version: 1\nanchors: []\n",
        "anchors: ~\n",
        "anchors:\n  - {a: 1}\nanchors:\n  - b\n",
        "x: !!str 1\nanchors: [1, 2.5, true, null, '3']\n",
        "a: &x [1]\nb: *x\nanchors:\n  - *x\n",
    ],
)
def test_same_nodes_as_compose_on_odd_documents(text: str) -> None:
    whole, streamed = _both(text)
    if "*x" in text:  # aliases are never expanded: a null placeholder where compose shares
        assert streamed != whole
        return
    assert streamed == whole


def test_a_second_document_is_refused_like_compose() -> None:
    with pytest.raises(yaml.composer.ComposerError, match="single document"):
        compose_streaming("a: 1\n---\nb: 2\n", "anchors", lambda n: None)


@settings(max_examples=examples(100), deadline=None)
@given(data=registry())
def test_same_nodes_as_compose_on_generated_registries(data: bytes) -> None:
    whole, streamed = _both(data.decode("utf-8-sig"))
    assert streamed == whole
