"""`anchors add` reports in check's vocabulary: `Finding`s with codes, the same in text and JSON,
and one exit rule (`findings.exit_code`) with `--strict` failing on warnings."""

from __future__ import annotations

import json
import re
from datetime import date
from pathlib import Path

import pytest
from typer.testing import CliRunner

from anchors.cli.app import app
from anchors.extract import extract
from anchors.findings import Code, Severity, exit_code
from anchors.merging.merge import add

runner = CliRunner()
HEAD = re.compile(
    r"^(?P<file>\S+):(?P<line>\d+): (?P<sev>error|warning|info) (?P<code>[a-z-]+)"
    r"(?: (?P<anchor>\S+))?$",
    re.MULTILINE,
)
ROWS = (
    "| arXiv 号 | 标题 | 章节 |\n|---|---|---|\n"
    "| 2609.30001 | Paged Prefill for Long Contexts | §1.3 KV Cache |\n"
)
REGISTRY = (
    'version: 1\nanchors:\n  - arxiv: "2609.30001"\n'
    '    title: "Paged Prefill for Long Contexts"\n    section: "§1.3 KV Cache"\n'
    "    first_anchored: 2026-09-24\n    status: new\n    cited_in: [2026-09-24]\n"
)


def invoke(*args: str) -> tuple[int, str]:
    """`add` as on a terminal (`-f text`) unless another format is asked for."""
    fmt = [] if "-f" in args else ["-f", "text"]
    r = runner.invoke(app, ["add", "--today", "2026-12-02", *fmt, *args], env={"COLUMNS": "100"})
    return r.exit_code, r.stdout


def briefing(tmp_path: Path, body: str) -> Path:
    b = tmp_path / "2026-09-25-brief.md"
    b.write_text(body, encoding="utf-8")
    return b


def registry(tmp_path: Path) -> Path:
    reg = tmp_path / "registry.yaml"
    reg.write_text(REGISTRY, encoding="utf-8")
    return reg


def test_seed_findings_are_the_same_in_text_and_json(tmp_path: Path, seed: Path) -> None:
    reg = str(tmp_path / "registry.yaml")
    code, text = invoke(str(seed), "-r", reg, "--dry-run")
    jcode, out = invoke(str(seed), "-r", reg, "--dry-run", "-f", "json")
    assert code == jcode == 0
    shown = [
        (m["file"], int(m["line"]), m["sev"], m["code"], m["anchor"]) for m in HEAD.finditer(text)
    ]
    listed = [
        (f["file"], f["line"], f["severity"], f["code"], f["anchor"])
        for f in json.loads(out)["findings"]
    ]
    assert shown == listed and len(listed) == 3  # a new registry: no unbacked claims
    where = {(c, n) for _, n, _, c, _ in listed}
    assert {("duplicate", 66), ("duplicate", 169), ("conflict", 188)} <= where
    # the per-kind lists kept for scripts hold the same facts as the findings
    doc = json.loads(out)
    dup = [f for f in doc["findings"] if f["code"] == "duplicate"]
    assert [(d["anchor"], d["file"], d["lines"]) for d in doc["duplicates"]] == [
        (f["anchor"], f["file"], f["lines"]) for f in dup
    ]
    assert [d["lines"] for d in dup] == [[66, 67], [169, 188]]


def test_a_registry_conflict_names_the_briefing_line_and_the_registry_line(tmp_path: Path) -> None:
    reg = registry(tmp_path)
    b = briefing(tmp_path, ROWS.replace("Paged Prefill for Long Contexts", "Chunked Decoding"))
    code, text = invoke(str(b), "-r", str(reg), "--dry-run")
    _, out = invoke(str(b), "-r", str(reg), "--dry-run", "-f", "json")
    [f] = json.loads(out)["findings"]
    assert (f["code"], f["severity"], f["file"], f["line"]) == ("conflict", "warning", str(b), 3)
    assert (f["field"], f["kept"], f["other"], f["against"], f["registry_line"]) == (
        "title",
        "Paged Prefill for Long Contexts",
        "Chunked Decoding",
        "registry",
        3,
    )
    assert f"{b}:3: warning conflict 2609.30001" in text and code == 0


@pytest.mark.parametrize("case", ["duplicate", "conflict", "later-than-briefing"])
def test_strict_fails_on_a_warning_that_plain_add_lets_through(tmp_path: Path, case: str) -> None:
    reg = registry(tmp_path)
    body = {
        "duplicate": ROWS + "| 2609.30001 | Paged Prefill for Long Contexts | §1.3 KV Cache |\n",
        "conflict": ROWS.replace("§1.3 KV Cache", "§2.1 调度"),
        "later-than-briefing": ROWS + "| 2610.00001 | Next Month | §1.3 KV Cache |\n",
    }[case]
    b = briefing(tmp_path, body)
    code, text = invoke(str(b), "-r", str(reg), "--dry-run")
    assert code == 0 and f" warning {case} " in text
    strict, text = invoke(str(b), "-r", str(reg), "--dry-run", "--strict")
    assert strict == 1 and f" warning {case} " in text


def test_strict_passes_when_there_is_nothing_to_report(tmp_path: Path) -> None:
    reg = registry(tmp_path)
    b = briefing(tmp_path, ROWS)
    code, out = invoke(str(b), "-r", str(reg), "--strict", "-f", "json")
    doc = json.loads(out)
    assert code == 0 and doc["findings"] == [] and doc["written"]
    assert doc["summary"]["warning"] == doc["summary"]["error"] == 0


def test_an_invalid_id_is_an_error_and_fails_without_strict(tmp_path: Path) -> None:
    b = briefing(tmp_path, ROWS + "| 2609.1806 | Short ID | §1.3 KV Cache |\n")
    code, text = invoke(str(b), "-r", str(tmp_path / "new.yaml"))
    assert code == 1 and f"{b}:4: error invalid-id 2609.1806" in text
    assert "2609.30001" in (tmp_path / "new.yaml").read_text(encoding="utf-8")  # the rest lands


def test_merge_result_findings_drive_the_one_exit_rule(tmp_path: Path) -> None:
    b = extract(ROWS + ROWS.splitlines()[2] + "\n", "b.md", date(2026, 9, 25))
    r = add(tmp_path / "r.yaml", [b], date(2026, 12, 2), dry_run=True)
    [d] = r.findings
    assert (d.code, d.severity, d.file, d.line) == (Code.DUPLICATE, Severity.WARNING, "b.md", 3)
    assert exit_code(r.findings) == 0 and exit_code(r.findings, strict=True) == 1
    assert r.counts()["duplicates"] == 1 and r.counts()["warning"] == 1


def test_add_findings_validate_against_the_schema_and_a_broken_one_does_not(
    tmp_path: Path, seed: Path
) -> None:
    import copy

    import jsonschema

    schema = json.loads(
        (
            Path(__file__).resolve().parent.parent / "anchors" / "schema" / "add.schema.json"
        ).read_text(encoding="utf-8")
    )
    _, out = invoke(str(seed), "-r", str(tmp_path / "r.yaml"), "--dry-run", "-f", "json")
    doc = json.loads(out)
    v = jsonschema.Draft202012Validator(schema)
    v.validate(doc)
    for key, bad in (("severity", "fatal"), ("line", 0), ("code", "Not A Code")):
        broken = copy.deepcopy(doc)
        broken["findings"][0][key] = bad
        assert not v.is_valid(broken), key
    broken = copy.deepcopy(doc)
    del broken["findings"]
    assert not v.is_valid(broken)


def test_a_hostile_title_in_a_conflict_is_inert_in_text(tmp_path: Path) -> None:
    reg = registry(tmp_path)
    b = briefing(
        tmp_path,
        ROWS.replace("Paged Prefill for Long Contexts", "Evil \x1b[31mred\x07 title\x1b[2J\u202e"),
    )
    code, text = invoke(str(b), "-r", str(reg), "--dry-run")
    assert code == 0 and f"{b}:3: warning conflict 2609.30001" in text
    assert not {"\x1b", "\x07", "\u202e"} & set(text)
