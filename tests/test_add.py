"""`anchors add`: merge semantics, byte-preserving writes, the CLI, locking and crash safety."""

from __future__ import annotations

import json
import shutil
from datetime import date
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from anchors.cli.app import app
from anchors.extract import extract, read_briefing
from anchors.findings import Code
from anchors.merging.merge import add, merge
from anchors.registry.loader import load
from anchors.registry.model import Status
from anchors.registry.scalars import quote

DATA = Path(__file__).parent / "data"
TODAY = "2026-12-02"
runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    r = runner.invoke(app, list(args))
    return r.exit_code, r.stdout, r.stderr


def changed_lines(before: str, after: str) -> tuple[list[str], list[str]]:
    import difflib

    diff = list(difflib.ndiff(before.splitlines(True), after.splitlines(True)))
    return [d[2:] for d in diff if d.startswith("- ")], [d[2:] for d in diff if d.startswith("+ ")]


def test_seed_into_empty_registry(tmp_path: Path, seed: Path, today: date) -> None:
    reg = tmp_path / "registry.yaml"
    result = add(reg, [read_briefing(seed)], today)
    assert result.written and len(result.added) == 43
    assert [(d.anchor, d.details["lines"]) for d in result.of(Code.DUPLICATE)] == [
        ("2609.18063", [169, 188]),
        ("https://github.com/sgl-project/sglang/issues/35851", [66, 67]),
    ]
    assert [
        (c.anchor, c.details["field"], c.details["other"]) for c in result.of(Code.CONFLICT)
    ] == [("2609.18063", "title", "Edge0: MoE SSD 卸载预路由")]
    text = reg.read_text(encoding="utf-8")
    assert text.startswith("# anchors registry")
    loaded = load(reg)
    assert loaded.problems == []
    by = loaded.by_key()
    edge = by["arxiv:2609.18063"]
    assert (edge.status, edge.first_anchored, edge.section) == (
        Status.NEW,
        date(2026, 9, 24),
        "§1.3 KV Cache",
    )
    deep = by["arxiv:2609.19969"]
    assert (deep.status, deep.first_anchored, deep.cited_in) == (
        Status.CONTINUED,
        date(2026, 9, 21),
        [date(2026, 9, 24)],
    )
    assert by["arxiv:2605.11093"].version == 1
    assert '  - arxiv: "2605.11093"\n    version: 1\n' in text
    assert "  - url: https://github.com/vllm-project/vllm/issues/8242\n" in text
    # every ID is quoted, so no ID can load as a float
    plain = yaml.safe_load(text)
    assert all(isinstance(a.get("arxiv", ""), str) for a in plain["anchors"])


def test_the_committed_registry_is_the_seed_merged(tmp_path: Path, seed: Path) -> None:
    root = Path(__file__).resolve().parent.parent
    committed = (root / "registry.yaml").read_text(encoding="utf-8")
    (tmp_path / "briefings").mkdir()
    shutil.copy(seed, tmp_path / "briefings" / "2026-09-24-inference-e1.md")
    reg = tmp_path / "registry.yaml"
    add(
        reg,
        [read_briefing(tmp_path / "briefings" / "2026-09-24-inference-e1.md")],
        date(2026, 12, 2),
    )
    assert reg.read_text(encoding="utf-8") == committed


def test_second_add_is_a_no_op(tmp_path: Path, seed: Path, today: date) -> None:
    reg = tmp_path / "registry.yaml"
    add(reg, [read_briefing(seed)], today)
    before = reg.read_bytes()
    again = add(reg, [read_briefing(seed)], today)
    assert not again.written and again.added == [] and len(again.continued) == 43
    assert reg.read_bytes() == before


def test_later_briefing_continues_and_preserves_every_other_byte(
    tmp_path: Path, today: date
) -> None:
    reg = tmp_path / "registry.yaml"
    shutil.copy(DATA / "commented.yaml", reg)
    before = reg.read_text(encoding="utf-8")
    result = add(reg, [read_briefing(DATA / "briefing-0925.md")], today)
    after = reg.read_text(encoding="utf-8")
    removed, added = changed_lines(before, after)
    assert removed == [
        '    first_anchored: "2026-09-22"\n',
        "    status: new\n",
        "    cited_in: [2026-09-20, 2026-09-21]\n",
    ]
    assert added[:6] == [
        '    first_anchored: "2026-09-21"\n',
        "    status: continued\n",
        "      - '2026-09-25'\n",
        "    claims:\n",  # the briefing writes another title: its claim, kept with its date
        (
            '      - {said_on: 2026-09-25, title: "DeepSeek-V4.1-Flash: KV Cache Compression", '
            'at: "briefing-0925.md:4"}\n'
        ),
        "    cited_in: [2026-09-20, 2026-09-21, 2026-09-25]\n",
    ]
    assert '  - arxiv: "2609.30001"\n' in added
    assert after.endswith("# trailing comment\n")
    assert [f.anchor for f in result.of(Code.LATER_THAN_BRIEFING)] == ["2610.00001"]
    assert {result.entries[k].status for k in result.continued} == {Status.CONTINUED}


def test_earlier_claim_lowers_first_anchored_and_title_is_never_overwritten(
    tmp_path: Path, today: date
) -> None:
    reg = tmp_path / "registry.yaml"
    reg.write_text(
        'version: 1\nanchors:\n  - arxiv: "2609.19969"\n    title: "Hand title"\n'
        '    first_anchored: 2026-09-24\n    status: new\n    cited_in: ["2026-09-24"]\n',
        encoding="utf-8",
    )
    b = extract("| 2609.19969 | Something Else Entirely | 9-20锚定 |", "b.md", date(2026, 9, 26))
    result = add(reg, [b], today)
    a = load(reg).anchors[0]
    assert a.first_anchored == date(2026, 9, 20) and a.title == "Hand title"
    assert a.cited_in == [date(2026, 9, 24), date(2026, 9, 26)]
    assert [(c.details["field"], c.details["against"]) for c in result.of(Code.CONFLICT)] == [
        ("title", "registry")
    ]


@pytest.mark.parametrize("name", ["crlf.yaml", "bom.yaml"])
def test_crlf_and_bom_survive(tmp_path: Path, name: str, today: date) -> None:
    reg = tmp_path / name
    shutil.copy(DATA / name, reg)
    before = reg.read_bytes()
    add(
        reg,
        [extract("| 2609.19969 | T | 高 |\n| 2609.30001 | New | 高 |", "b.md", date(2026, 9, 25))],
        today,
    )
    after = reg.read_bytes()
    assert after[:3] == before[:3]
    if name == "crlf.yaml":
        assert b"\n" not in after.replace(b"\r\n", b"")
    loaded = load(reg)
    assert loaded.problems == [] and len(loaded.anchors) == 2
    unchanged = [
        ln for ln in before.splitlines(True) if b"status" not in ln and b"cited_in" not in ln
    ]
    assert all(ln in after for ln in unchanged)


def test_empty_and_null_anchor_lists(tmp_path: Path, today: date) -> None:
    b = extract("2609.30001", "b.md", date(2026, 9, 25))
    for body in ("version: 1\nanchors:\n", "version: 1\nanchors: []\n", "# only a comment\n"):
        reg = tmp_path / "r.yaml"
        reg.write_text(body, encoding="utf-8")
        add(reg, [b], today)
        loaded = load(reg)
        assert loaded.problems == [] and [a.raw_id for a in loaded.anchors] == ["2609.30001"], body


@pytest.mark.parametrize(
    "s",
    [
        "plain",
        'q"uote\\back',
        "tab\there",
        "line\nbreak",
        "\x1b[31mred",
        "\u2028sep\ufeff",
        "中文 · 标题",
        "emoji 🔥",
        ": colon # hash",
    ],
)
def test_quote_round_trips(s: str) -> None:
    assert yaml.safe_load(f"k: {quote(s)}")["k"] == s


def test_future_ids_are_invalid_but_the_rest_is_written(tmp_path: Path) -> None:
    reg = tmp_path / "r.yaml"
    code, out, _err = run(
        "add",
        str(DATA / "briefing-0925.md"),
        "-r",
        str(reg),
        "--today",
        "2026-09-30",
        "--format",
        "json",
    )
    doc = json.loads(out)
    assert code == 1
    assert [i["text"] for i in doc["invalid"]] == ["2610.00001"]
    assert doc["written"] and {a["anchor"] for a in doc["anchors"]} >= {"2609.30001"}
    assert "2610.00001" not in reg.read_text(encoding="utf-8")


def test_cli_dry_run_json_writes_nothing(tmp_path: Path, seed: Path) -> None:
    reg = tmp_path / "r.yaml"
    code, out, _ = run(
        "add", "--dry-run", "--format", "json", str(seed), "-r", str(reg), "--today", TODAY
    )
    doc = json.loads(out)
    assert code == 0 and not reg.exists()
    assert doc["dry_run"] is True and doc["written"] is False
    assert doc["summary"] == {
        "added": 43,
        "continued_per_briefing": 25,
        "continued": 0,
        "duplicates": 2,
        "conflicts": 1,
        "invalid": 0,
        "unbacked_claims": 0,
        "error": 0,
        "warning": 3,
        "info": 0,
    }
    assert doc["starting_point"] is True


def test_cli_strict_fails_on_duplicates(tmp_path: Path, seed: Path) -> None:
    code, _, _ = run("add", "--strict", str(seed), "-r", str(tmp_path / "r.yaml"), "--today", TODAY)
    assert code == 1


@pytest.mark.parametrize(
    ("setup", "needle"),
    [
        ("registry", "r.yaml:3: not valid YAML"),
        ("unsafe", "r.yaml:4: duplicate key 'arxiv'"),
        ("nodate", "notes.md: no date"),
        ("binary", "NUL byte"),
        ("baddate", "--date 'x' is not a date"),
    ],
)
def test_cli_unusable_input_exits_2_with_one_line(tmp_path: Path, setup: str, needle: str) -> None:
    reg = tmp_path / "r.yaml"
    brief = tmp_path / "2026-09-25.md"
    brief.write_text("2609.30001\n", encoding="utf-8")
    args = ["add", str(brief), "-r", str(reg)]
    original = b""
    if setup == "registry":
        original = b"version: 1\nanchors: [\n"
    elif setup == "unsafe":
        original = b'version: 1\nanchors:\n  - arxiv: "1"\n    arxiv: "2"\n'
    elif setup == "nodate":
        brief = tmp_path / "notes.md"
        brief.write_text("2609.30001\n", encoding="utf-8")
        args[1] = str(brief)
    elif setup == "binary":
        brief.write_bytes(b"\x00\x01")
    elif setup == "baddate":
        args += ["--date", "x"]
    if original:
        reg.write_bytes(original)
    code, _out, err = run(*args)
    assert code == 2
    assert needle in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert (reg.read_bytes() if reg.exists() else b"") == original


def test_merge_is_pure(today: date) -> None:
    from anchors.registry.loader import parse_text

    reg = parse_text(b"", "r.yaml")
    b = extract("| 2609.30001 | T | 本次新增 |", "b.md", date(2026, 9, 25))
    r1, r2 = merge(reg, [b], today), merge(reg, [b], today)
    assert r1.added == r2.added == ["arxiv:2609.30001"]


def test_briefing_without_citations_is_a_warning(tmp_path: Path) -> None:
    brief = tmp_path / "2026-09-25.md"
    brief.write_text("# Nothing to cite today\n| a | b |\n|---|---|\n", encoding="utf-8")
    code, _out, err = run("add", str(brief), "-r", str(tmp_path / "r.yaml"), "--today", TODAY)
    assert code == 0 and "no citations found" in err and not (tmp_path / "r.yaml").exists()
