from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from anchors.errors import RegistryError
from anchors.findings import Code
from anchors.registry.loader import load, parse_text
from anchors.registry.model import Status

HEAD = "version: 1\nanchors:\n"
OK_ENTRY = '  - arxiv: "2609.19969"\n    first_anchored: 2026-09-24\n    status: new\n'


def parse(text: str):
    return parse_text(text.encode(), "registry.yaml")


def codes(text: str) -> list[tuple[str, int | None]]:
    return [(p.code.value, p.line) for p in parse(text).problems]


def test_loads_fields_with_lines(today: date) -> None:
    reg = load(Path(__file__).parent / "data" / "commented.yaml")
    a, b = reg.anchors
    assert (a.line, a.raw_id, a.title, a.section) == (
        6,
        "2609.19969",
        "DeepSeek-V4.1-Flash",
        "§1.3 KV Cache",
    )
    assert a.first_anchored == date(2026, 9, 22) and a.status is Status.NEW
    assert a.cited_in == [date(2026, 9, 22)] and a.notes == "Checked by Jay.\nTwo lines.\n"
    assert b.key is not None and b.key.key == "url:https://example.com/blog/post"
    assert reg.problems == []


def test_unquoted_numeric_id_is_a_schema_problem_that_says_so() -> None:
    reg = parse(HEAD + "  - arxiv: 2609.10000\n    first_anchored: 2026-09-24\n    status: new\n")
    (p,) = reg.problems
    assert p.code is Code.SCHEMA and p.line == 3
    assert "unquoted" in p.message and '"2609.10000"' in p.message
    assert reg.unsafe == [p]


def test_duplicate_keys_are_findings_with_both_lines() -> None:
    problems = parse(HEAD + OK_ENTRY + "    status: continued\n").problems
    assert [(p.code, p.line) for p in problems] == [(Code.DUPLICATE, 6)]
    assert "first on line 5" in problems[0].message


@pytest.mark.parametrize(
    ("extra", "needle"),
    [
        ("    titel: x\n", "unknown field 'titel'"),
        ("    first_anchored: 2026-13-01\n", "not a date"),
        ("    status: old\n", "not a status"),
        ("    cited_in: 2026-09-24\n", "list of dates"),
        ("    accept: [abc]\n", "HTTP status codes"),
        ("    url: https://x.example\n", "both arxiv and url"),
    ],
)
def test_field_problems(extra: str, needle: str) -> None:
    text = HEAD + '  - arxiv: "2609.19969"\n' + extra
    if "first_anchored" not in extra:
        text += "    first_anchored: 2026-09-24\n"
    if "status" not in extra:
        text += "    status: new\n"
    messages = [p.message for p in parse(text).problems]
    assert any(needle in m for m in messages), messages


def test_missing_fields_are_findings_but_not_unsafe() -> None:
    reg = parse(HEAD + '  - arxiv: "2609.19969"\n')
    assert {p.message for p in reg.problems} == {
        "missing field 'first_anchored'",
        "missing field 'status'",
    }
    assert reg.unsafe == []


def test_invalid_id_in_registry_is_a_finding() -> None:
    reg = parse(HEAD + '  - arxiv: "2613.00001"\n    first_anchored: 2026-09-24\n    status: new\n')
    assert [(p.code, p.line) for p in reg.problems] == [(Code.INVALID_ID, 3)]
    assert reg.anchors[0].key is None


@pytest.mark.parametrize(
    ("text", "needle", "line"),
    [
        ("version: 1\nanchors: [\n", "not valid YAML", 3),
        ("version: 1\nanchors:\n  - !!python/object:os.system {}\n", "!!python/object", 3),
        ("version: 1\nanchors: !!python/name:os.system\n", "refused", 2),
    ],
)
def test_unreadable_registries_raise_with_line(text: str, needle: str, line: int) -> None:
    with pytest.raises(RegistryError) as exc:
        parse(text)
    assert needle in str(exc.value)
    assert exc.value.line == line


def test_aliases_and_merge_keys_are_refused_without_expansion() -> None:
    bomb = "version: 1\na: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} "
        f"[*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}]\n"
        for i in range(20)
    )
    reg = parse(bomb)
    assert any("aliases" in p.message for p in reg.problems)
    reg = parse(HEAD + '  - <<: {title: x}\n    arxiv: "2609.19969"\n')
    assert any("merge keys" in p.message for p in reg.problems)


def test_non_text_and_oversized(tmp_path: Path) -> None:
    p = tmp_path / "registry.yaml"
    p.write_bytes(b"version: 1\n\x00")
    with pytest.raises(RegistryError, match="NUL"):
        load(p)
    p.write_bytes(b"version: 1\n" + b"#" * (33 * 1024 * 1024))
    with pytest.raises(RegistryError, match="bytes is more than"):
        load(p)


def test_missing_file_is_an_error_unless_add_creates_it(tmp_path: Path) -> None:
    with pytest.raises(RegistryError, match="no such registry"):
        load(tmp_path / "none.yaml")
    reg = load(tmp_path / "none.yaml", missing_ok=True)
    assert reg.anchors == [] and reg.problems == [] and not reg.exists


def test_a_file_that_is_not_a_registry_is_refused() -> None:
    for text in ("- a\n- b\n", "root:x:0:0:root:/root:/bin/bash\n", "name: x\nother: 1\n", "42\n"):
        with pytest.raises(RegistryError, match="not an anchors registry"):
            parse_text(text.encode(), "r.yaml")
    assert parse_text(b"", "r.yaml").anchors == []  # empty: an empty registry
    assert parse_text(b"# only a comment\n", "r.yaml").problems == []


def test_top_level_shapes() -> None:
    assert codes("version: 2\nanchors: []\n") == [("schema", 1)]
    assert codes("anchors: []\nextra: 1\n") == [("schema", 2), ("schema", 1)]
