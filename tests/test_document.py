"""The living document against the registry: headings, sections and the six document codes."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from anchors.document import check_refs, compare, parse_document
from anchors.extract.docrefs import document_refs
from anchors.findings import Code
from anchors.registry.loader import load
from anchors.registry.model import Registry

TODAY = date(2026, 10, 1)

DOC = """# Inference (living document)

## §1 Frameworks

### 1.1 框架格局
- vLLM prefix caching: https://github.com/vllm-project/vllm/issues/8242

### §１.４　KV Cache
#### Notes on offloading
- Edge0 https://arxiv.org/abs/2609.18063v2
- [install](https://docs.vllm.ai/en/latest/#install)

## 2024 roadmap
- 2609.25053

```
https://example.com/in-a-code-block
```
"""


def _registry(tmp_path: Path, entries: str) -> Registry:
    path = tmp_path / "registry.yaml"
    path.write_text("version: 1\nanchors:\n" + entries, encoding="utf-8")
    return load(str(path))


def _entry(ident: str, section: str, first: str = "2026-09-24") -> str:
    field = "arxiv" if ident[0].isdigit() else "url"
    return (
        f'  - {field}: "{ident}"\n    first_anchored: {first}\n    status: new\n'
        f'    section: "{section}"\n'
    )


def test_numbered_headings_are_sections_and_names_stay_names() -> None:
    doc = parse_document(DOC, "inference.md")
    assert [h.section for h in doc.headings] == ["§1 Frameworks", "§1.1 框架格局", "§1.4 KV Cache"]
    # `## 2024 roadmap` closes §1: what follows it stands in no numbered section
    by_line = {m.line: m for m in doc.mentions}
    assert by_line[14].within == ()
    assert by_line[10].within == ("§1.4 KV Cache", "§1 Frameworks")
    assert by_line[11].fragment == "install"
    assert all("in-a-code-block" not in m.raw for m in doc.mentions)


@pytest.mark.parametrize(
    ("heading", "section"),
    [
        ("### 1.3 KV Cache", "§1.3 KV Cache"),
        ("### 1.3. KV Cache", "§1.3 KV Cache"),
        ("## **§1.3 KV Cache**", "§1.3 KV Cache"),
        ("## § 1.3\u3000KV Cache ##", "§1.3 KV Cache"),
        ("## 1 Introduction", None),
        ("## 2024 roadmap", None),
        ("## 1.3a things", None),
    ],
)
def test_which_headings_number_a_section(heading: str, section: str | None) -> None:
    doc = parse_document(heading + "\n- https://example.org/a\n", "d.md")
    assert [h.section for h in doc.headings] == ([section] if section else [])


def test_each_entry_gets_the_first_rule_that_applies(tmp_path: Path) -> None:
    reg = _registry(
        tmp_path,
        _entry("2609.18063", "§1.4 KV Cache")  # cited in its section (inside a subheading)
        + _entry("https://github.com/vllm-project/vllm/issues/8242", "§1.4 KV Cache")
        + _entry("https://example.org/waiting", "§1.1 框架格局")
        + _entry("https://example.org/old", "§1.1 框架格局", first="2026-09-01")
        + _entry("https://example.org/renumbered", "§1.3 KV Cache")
        + _entry("https://example.org/proposed", "§2.5 Agents"),
    )
    doc = parse_document(DOC, "inference.md")
    found = {f.anchor: f for f in compare([reg], [doc], TODAY, 14)}
    assert "2609.18063" not in found
    mismatch = found["https://github.com/vllm-project/vllm/issues/8242"]
    assert mismatch.code is Code.SECTION_MISMATCH and mismatch.file == "inference.md"
    assert (mismatch.line, mismatch.details["document_section"]) == (6, "§1.1 框架格局")
    assert mismatch.details["section"] == "§1.4 KV Cache"
    assert found["https://example.org/waiting"].code is Code.NOT_IN_DOCUMENT
    assert found["https://example.org/old"].code is Code.OVERDUE
    assert found["https://example.org/old"].details["days"] == 30
    renumbered = found["https://example.org/renumbered"]
    assert renumbered.code is Code.UNKNOWN_SECTION
    assert renumbered.details["suggestion"] == "§1.4 KV Cache"
    assert found["https://example.org/proposed"].code is Code.NEW_SECTION
    unregistered = found["2609.25053"]
    assert unregistered.code is Code.UNREGISTERED and unregistered.line == 14


def test_pending_days_decide_when_waiting_becomes_overdue(tmp_path: Path) -> None:
    reg = _registry(tmp_path, _entry("https://example.org/p", "§2.5 Agents", "2026-09-20"))
    doc = parse_document("## §1 Frameworks\n", "inference.md")
    assert [f.code for f in compare([reg], [doc], TODAY, 14)] == [Code.NEW_SECTION]
    assert [f.code for f in compare([reg], [doc], TODAY, 10)] == [Code.OVERDUE]
    assert [f.code for f in compare([reg], [doc], date(2026, 10, 4), 14)] == [Code.NEW_SECTION]
    assert [f.code for f in compare([reg], [doc], date(2026, 10, 5), 14)] == [Code.OVERDUE]


def test_a_version_and_an_abs_url_are_one_anchor(tmp_path: Path) -> None:
    reg = _registry(tmp_path, _entry("2609.18063", "§1.4 KV Cache"))
    doc = parse_document("## §1.4 KV Cache\n- arXiv:2609.18063v3\n", "inference.md")
    assert compare([reg], [doc], TODAY, 14) == []


def test_a_renumbering_is_not_the_same_section() -> None:
    doc = parse_document("## §1.3 推测解码\n- https://example.org/x\n", "inference.md")
    assert not doc.has_section("§1.3 KV Cache") and doc.has_section("§1.3")
    assert doc.has_section("§1.3 推测解码")


def test_a_briefing_naming_a_section_the_document_lacks() -> None:
    briefing = (
        "与活文档现有脉络的关系：inference.md §1.1 已有 A 锚定；inference.md §1.3（KV Cache）已有\n"
        "other.md §9.9 is not ours\n"
    )
    refs = document_refs(briefing.splitlines())
    assert [(r.file, r.section, r.line) for r in refs] == [
        ("inference.md", "§1.1", 1),
        ("inference.md", "§1.3 KV Cache", 1),
        ("other.md", "§9.9", 2),
    ]
    doc = parse_document(DOC, "docs/inference.md")
    found = check_refs("b.md", refs, [doc])
    assert [(f.code, f.anchor) for f in found] == [
        (Code.UNKNOWN_SECTION, "inference.md §1.3 KV Cache")
    ]
    assert "did you mean §1.4 KV Cache" in found[0].message


def test_a_list_item_over_a_rule_is_no_heading() -> None:
    """`- a` then `---` is a list and a thematic break: the citation stays in its section."""
    doc = parse_document("## §1.3 KV Cache\n- a https://example.org/a\n---\n", "d.md")
    assert [m.within for m in doc.mentions] == [("§1.3 KV Cache",)]
    setext = parse_document("§1.3 KV Cache\n---\n- https://example.org/a\n", "d.md")
    assert [h.section for h in setext.headings] == ["§1.3 KV Cache"]


def test_a_bracketed_name_is_the_name() -> None:
    doc = parse_document("## §1.3（KV Cache）\n- https://example.org/a\n", "d.md")
    assert doc.has_section("§1.3 KV Cache")


def test_two_headings_of_one_name_leave_the_new_number_in_doubt(tmp_path: Path) -> None:
    reg = _registry(tmp_path, _entry("https://example.org/n", "§1.3 Notes"))
    doc = parse_document("## §1.1 Notes\n## §2.1 Notes\n", "inference.md")
    [f] = compare([reg], [doc], TODAY, 14)
    assert f.code is Code.UNKNOWN_SECTION and "suggestion" not in f.details
    assert f.details["candidates"] == ["§1.1 Notes", "§2.1 Notes"]


def test_several_documents_are_one_body_of_text(tmp_path: Path) -> None:
    reg = _registry(
        tmp_path,
        _entry("https://example.org/a", "§2.1 Training")
        + _entry("https://example.org/b", "§2.7 Agents"),
    )
    one = parse_document("## §1 Inference\n", "inference.md")
    two = parse_document("## §2 Training\n### §2.1 Training\n- https://example.org/a\n", "t.md")
    [f] = compare([reg], [one, two], TODAY, 14)
    # the missing §2.7 belongs in the document that has §2
    assert (f.code, f.details["document"]) == (Code.NEW_SECTION, "t.md")


def test_a_file_name_ends_where_the_prose_begins() -> None:
    [ref] = document_refs(["已有inference.md §1.3（KV Cache）锚定"])
    assert (ref.file, ref.section) == ("inference.md", "§1.3 KV Cache")
