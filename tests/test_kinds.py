"""Each anchor key knows its kind (the prefix of its key) and the registry field it is stored under.

Real citations from the seed briefing and the registry's own entries: an arXiv ID, a DOI, a
GitHub issue URL and a vendor page.
"""

from __future__ import annotations

from datetime import date

import pytest

from anchors.ids import AnchorKind, InvalidId, kind_of, parse_anchor, split_key
from anchors.registry.loader import parse_text
from anchors.registry.model import ID_FIELDS, Entry, Status

CITED = {
    "2309.06180": (AnchorKind.ARXIV, "arxiv"),
    "arXiv:hep-th/9901001v2": (AnchorKind.ARXIV, "arxiv"),
    "https://arxiv.org/pdf/2309.06180v1": (AnchorKind.ARXIV, "arxiv"),
    "10.1145/3600006.3613165": (AnchorKind.DOI, "doi"),
    "https://doi.org/10.48550/arXiv.2309.06180": (AnchorKind.ARXIV, "arxiv"),
    "https://github.com/vllm-project/vllm/issues/8242": (AnchorKind.GITHUB, "url"),
    "vllm-project/vllm#8242": (AnchorKind.GITHUB, "url"),
    "https://lmsys.org/blog/2024-07-25-sglang-llama3/": (AnchorKind.URL, "url"),
}


@pytest.mark.parametrize("text", sorted(CITED))
def test_a_key_knows_its_kind_and_field(text: str) -> None:
    key = parse_anchor(text)
    kind, field = CITED[text]
    assert (key.kind, key.id_field) == (kind, field)
    assert key.id_field in ID_FIELDS
    assert split_key(key.key) == (kind, key.key.split(":", 1)[1])
    assert kind_of(key.key) is kind


@pytest.mark.parametrize("text", sorted(CITED))
def test_an_entry_written_under_its_field_loads_as_the_same_key(text: str) -> None:
    """What `add` writes (the key's `id_field` and its text) is what the loader reads back."""
    key = parse_anchor(text)
    raw = key.url if key.id_field == "url" else str(key)
    reg = parse_text(
        f'version: 1\nanchors:\n  - {key.id_field}: "{raw}"\n'
        "    first_anchored: 2026-09-24\n    status: new\n".encode(),
        "r.yaml",
    )
    assert reg.problems == []
    (a,) = reg.anchors
    assert a.key is not None and a.key.key == key.key and a.id_field == key.id_field
    entry = Entry(key, raw, date(2026, 9, 24), [], Status.NEW)
    assert entry.id_field == key.id_field


def test_every_kind_is_some_key_class() -> None:
    seen = {parse_anchor(t).kind for t in CITED}
    assert seen == set(AnchorKind)


def test_papers_are_the_kinds_with_their_own_titles() -> None:
    assert {k for k in AnchorKind if k.is_paper} == {AnchorKind.ARXIV, AnchorKind.DOI}


@pytest.mark.parametrize("bad", ["2309.06180", "isbn:123", ""])
def test_a_string_that_is_no_key_is_refused(bad: str) -> None:
    with pytest.raises(ValueError):
        split_key(bad)


def test_invalid_id_is_still_a_value_error() -> None:
    with pytest.raises(ValueError):
        parse_anchor("2313.00001")
    assert issubclass(InvalidId, ValueError)
