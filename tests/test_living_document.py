"""`--document`: the registry against the living document it feeds, through the CLI.

A document with a renumbered section, a citation under the wrong section, a link the registry
never saw, an anchor waiting past its days and a section not written yet; each code reported
where a person edits (the document's line for what the document says, the registry's for
what the registry says), in every format, from a flag or a config file confined to the
repository; a briefing's references to the document judged by `add` and `check --briefing`.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from anchors.cli.app import app

# Written by us in the shape of the living document the seed briefing feeds.
DOC = """# Inference (living document)

## §1 Frameworks

### 1.1 框架格局
- vLLM prefix caching bug: https://github.com/vllm-project/vllm/issues/8242

### §1.4 KV Cache
- Edge0 (arXiv:2609.18063v2)
- [vLLM install](https://docs.vllm.ai/en/latest/#install)
"""

#: (identifier, section, first anchored): one entry each, five lines, from line 3
ENTRIES = [
    ("2609.18063", "§1.4 KV Cache", "2026-09-24"),  # cited in its section: nothing
    ("https://github.com/vllm-project/vllm/issues/8242", "§1.4 KV Cache", "2026-09-24"),
    ("https://example.org/waiting", "§1.1 框架格局", "2026-09-24"),
    ("https://example.org/old", "§1.1 框架格局", "2026-09-01"),
    ("https://example.org/renumbered", "§1.3 KV Cache", "2026-09-24"),
    ("https://example.org/proposed", "§2.5 Agents", "2026-09-24"),
]


def registry_text(entries: list[tuple[str, str, str]] = ENTRIES) -> str:
    out = "version: 1\nanchors:\n"
    for ident, section, first in entries:
        field = "arxiv" if ident[0].isdigit() else "url"
        out += (
            f'  - {field}: "{ident}"\n    first_anchored: {first}\n    status: new\n'
            f'    section: "{section}"\n    cited_in: ["{first}"]\n'
        )
    return out


def make_repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A repository holding the registry and docs/inference.md, the working folder (a real one:
    where git cannot say whether a state file is tracked, anchors takes it for committed)."""
    root = tmp_path / "repo"
    root.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    (root / "docs").mkdir()
    (root / "docs" / "inference.md").write_text(DOC, encoding="utf-8")
    (root / "registry.yaml").write_text(registry_text(), encoding="utf-8")
    monkeypatch.chdir(root)
    return root


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    return make_repo(tmp_path, monkeypatch)


def run(*args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(app, list(args))
    return r.exit_code, r.stdout, r.stderr


def check_json(*args: str, today: str = "2026-10-01") -> dict[str, dict]:
    code, out, err = run("check", "--offline", "-f", "json", "--today", today, *args)
    assert code == 0, out + err  # the document's codes are warnings and notes
    return {f["anchor"]: f for f in json.loads(out)["findings"]}


def test_each_code_is_reported_where_a_person_edits(repo: Path) -> None:
    found = check_json("--document", "docs/inference.md")
    assert "2609.18063" not in found  # cited under its section, as arXiv:…v2
    got = {a: (f["code"], f["file"], f["line"]) for a, f in found.items()}
    assert got == {
        "https://github.com/vllm-project/vllm/issues/8242": (
            "section-mismatch",
            "docs/inference.md",
            6,
        ),
        "https://example.org/waiting": ("not-in-document", "registry.yaml", 13),
        "https://example.org/old": ("overdue", "registry.yaml", 18),
        "https://example.org/renumbered": ("unknown-section", "registry.yaml", 23),
        "https://example.org/proposed": ("new-section", "registry.yaml", 28),
        "https://docs.vllm.ai/en/latest/#install": ("unregistered", "docs/inference.md", 10),
    }
    mismatch = found["https://github.com/vllm-project/vllm/issues/8242"]
    assert (mismatch["section"], mismatch["document_section"]) == ("§1.4 KV Cache", "§1.1 框架格局")
    assert (mismatch["registry"], mismatch["registry_line"]) == ("registry.yaml", 8)
    renumbered = found["https://example.org/renumbered"]
    assert renumbered["suggestion"] == "§1.4 KV Cache" and renumbered["severity"] == "warning"
    assert "did you mean §1.4 KV Cache" in renumbered["message"]
    assert found["https://example.org/old"]["days"] == 30
    assert found["https://docs.vllm.ai/en/latest/#install"]["section"] == "§1.4 KV Cache"
    assert all(f["document"] == "docs/inference.md" for f in found.values())


def test_overdue_counts_from_the_latest_citation_to_today(repo: Path) -> None:
    """Older than --pending-days: day 14 still waits, day 15 is overdue."""
    waiting = "https://example.org/waiting"  # cited 2026-09-24
    assert check_json("--document", "docs/inference.md", today="2026-10-08")[waiting]["code"] == (
        "not-in-document"
    )
    assert check_json("--document", "docs/inference.md", today="2026-10-09")[waiting]["code"] == (
        "overdue"
    )
    late = check_json("--document", "docs/inference.md", "--pending-days", "40")
    assert late["https://example.org/old"]["code"] == "not-in-document"
    # a proposed section waits as long, then is overdue too
    assert check_json("--document", "docs/inference.md", "--pending-days", "3")[
        "https://example.org/proposed"
    ]["code"] == ("overdue")
    (repo / "anchors.toml").write_text(
        'document = ["docs/inference.md"]\npending_days = 60\n', encoding="utf-8"
    )
    assert check_json()["https://example.org/old"]["code"] == "not-in-document"


@pytest.mark.parametrize(
    ("fmt", "expected"),
    [
        ("concise", "docs/inference.md:6: section-mismatch https://github.com/vllm-project/"),
        ("text", "docs/inference.md:6: info section-mismatch"),
        ("github", "::notice file=docs/inference.md,line=6,title=section-mismatch::"),
        ("markdown", "| info | section-mismatch | docs/inference.md:6 |"),
    ],
)
def test_every_format_names_the_documents_line(repo: Path, fmt: str, expected: str) -> None:
    code, out, _ = run(
        "check", "--offline", "--document", "docs/inference.md", "--today", "2026-10-01", "-f", fmt
    )
    assert code == 0 and expected in out, out
    assert "registry.yaml:13" in out or "line=13" in out  # a registry-line code beside it
    unregistered = {
        "concise": "docs/inference.md:10: unregistered",
        "text": "docs/inference.md:10: warning unregistered",
        "github": "::warning file=docs/inference.md,line=10,title=unregistered::",
        "markdown": "| warning | unregistered | docs/inference.md:10 |",
    }[fmt]
    assert unregistered in out


HEADINGS = """# Inference

## 2024 roadmap
- https://example.org/roadmap

## 1 Introduction
- https://example.org/intro

### １.３ KV Cache
- https://example.org/kv
- Edge0: https://arxiv.org/abs/2609.18063v2

## §２.１\u3000Agents
- https://example.org/agents
"""


def test_headings_number_sections_only_as_a_writer_numbers_them(repo: Path) -> None:
    """`### 1.3 KV Cache` (here in full-width digits) is §1.3 and `## §２.１ Agents` is §2.1;
    `## 2024 roadmap` and `## 1 Introduction` are names, so nothing cited under them is in a
    numbered section: entries meant for `§2024 roadmap` or `§1 Introduction` wait for one."""
    (repo / "docs" / "headings.md").write_text(HEADINGS, encoding="utf-8")
    entries = [
        ("https://example.org/roadmap", "§2024 roadmap", "2026-09-24"),
        ("https://example.org/intro", "§1 Introduction", "2026-09-24"),
        ("https://example.org/kv", "§1.3 KV Cache", "2026-09-24"),
        ("https://example.org/agents", "§2.1 Agents", "2026-09-24"),
        ("2609.18063", "§1.3 KV Cache", "2026-09-24"),  # cited as its abs URL, a version
    ]
    (repo / "registry.yaml").write_text(registry_text(entries), encoding="utf-8")
    found = check_json("--document", "docs/headings.md")
    assert {a: f["code"] for a, f in found.items()} == {
        "https://example.org/roadmap": "new-section",
        "https://example.org/intro": "new-section",
    }


def test_sarif_locates_the_two_document_codes_in_the_document(repo: Path) -> None:
    code, out, _ = run(
        "check",
        "--offline",
        "--document",
        "docs/inference.md",
        "--today",
        "2026-10-01",
        "-f",
        "sarif",
    )
    assert code == 0
    where = {
        r["ruleId"]: r["locations"][0]["physicalLocation"]
        for r in json.loads(out)["runs"][0]["results"]
    }
    assert where["section-mismatch"] == {
        "artifactLocation": {"uri": "docs/inference.md", "uriBaseId": "%SRCROOT%"},
        "region": {"startLine": 6},
    }
    assert where["unregistered"]["artifactLocation"]["uri"] == "docs/inference.md"
    assert where["not-in-document"] == {
        "artifactLocation": {"uri": "registry.yaml", "uriBaseId": "%SRCROOT%"},
        "region": {"startLine": 13},
    }


def test_a_config_file_names_the_document_relative_to_itself(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (repo / "anchors.toml").write_text('document = ["docs/inference.md"]\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)  # from elsewhere, the registry named
    code, out, err = run(
        "check", str(repo / "registry.yaml"), "--offline", "-f", "json", "--today", "2026-10-01"
    )
    assert code == 0, err
    codes = sorted(f["code"] for f in json.loads(out)["findings"])
    assert codes == sorted(
        [
            "section-mismatch",
            "not-in-document",
            "overdue",
            "unknown-section",
            "new-section",
            "unregistered",
        ]
    )
    # a flag's list replaces the file's: a document without §1.1 makes it a new section
    (repo / "other.md").write_text("## §1.4 KV Cache\n- arXiv:2609.18063\n", encoding="utf-8")
    code, out, _ = run(
        "check",
        str(repo / "registry.yaml"),
        "--offline",
        "-f",
        "json",
        "--today",
        "2026-10-01",
        "--document",
        str(repo / "other.md"),
    )
    waiting = {f["anchor"]: f["code"] for f in json.loads(out)["findings"]}
    assert waiting["https://example.org/waiting"] == "new-section"


@pytest.mark.parametrize("value", ["../outside.md", "ABSOLUTE", "docs/link.md", "docs/../../x.md"])
def test_a_config_path_out_of_the_repository_is_exit_2(
    repo: Path, tmp_path: Path, value: str
) -> None:
    outside = tmp_path / "outside.md"
    outside.write_text(DOC, encoding="utf-8")
    (repo / "docs" / "link.md").symlink_to(outside)
    value = str(outside) if value == "ABSOLUTE" else value
    (repo / "anchors.toml").write_text(f"document = [{json.dumps(value)}]\n", encoding="utf-8")
    before = (repo / "registry.yaml").read_bytes()
    for command in (["check", "--offline"], ["report"], ["fix", "--dry-run"]):
        code, out, err = run(*command)
        assert code == 2, (command, out, err)
        assert err.startswith("anchors: error: ") and err.count("\n") == 1, err
        assert "document" in err and "repository" in err, err
    assert (repo / "registry.yaml").read_bytes() == before


@pytest.mark.parametrize("kind", ["fifo", "folder", "missing", "link-out"])
def test_a_document_that_is_no_regular_repository_file_is_exit_2(
    repo: Path, tmp_path: Path, kind: str
) -> None:
    path = repo / "docs" / "bad.md"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "folder":
        path.mkdir()
    elif kind == "link-out":  # a committed symlink out of the repository, named by the flag
        (tmp_path / "secret.md").write_text("https://example.org/secret\n", encoding="utf-8")
        path.symlink_to(tmp_path / "secret.md")
    code, out, err = run("check", "--offline", "--document", "docs/bad.md")
    assert code == 2 and out == "", out
    assert err.startswith("anchors: error: docs/bad.md: ") and err.count("\n") == 1, err
    assert "secret" not in err


def test_the_document_is_never_written(repo: Path) -> None:
    doc = repo / "docs" / "inference.md"
    os.utime(doc, (1_000_000_000, 1_000_000_000))
    before = (doc.read_bytes(), doc.stat().st_mtime_ns)
    run("check", "--offline", "--document", "docs/inference.md")
    run("fix", "--document", "docs/inference.md")
    run("report", "--document", "docs/inference.md")
    assert (doc.read_bytes(), doc.stat().st_mtime_ns) == before


BRIEFING = """inference · E1 预消化简报(2026-09-30)
增量 1：Edge0
arXiv：2609.18063
关系：inference.md §1.1 已有 SGLang；inference.md §1.3（KV Cache）已有 FP8 KV 锚定
建议归入章节：§1.4 KV Cache
增量 2：可靠性
与活文档现有脉络的关系：inference.md §2.9 已有锚定；other.md §7 与本文无关
"""


def test_add_and_check_judge_what_a_briefing_says_the_document_holds(repo: Path) -> None:
    b = repo / "briefings" / "2026-09-30-e1.md"
    b.parent.mkdir()
    b.write_text(BRIEFING, encoding="utf-8")
    code, out, err = run("add", str(b), "--document", "docs/inference.md", "-f", "json")
    assert code == 0, err  # warnings: add fails on them only with --strict
    found = [f for f in json.loads(out)["findings"] if f["code"] == "unknown-section"]
    assert [(f["anchor"], f["line"], f.get("suggestion")) for f in found] == [
        ("inference.md §1.3 KV Cache", 4, "§1.4 KV Cache"),
        ("inference.md §2.9", 7, None),
    ]  # §1.1 is a heading; other.md is no document of this run
    assert all(f["file"] == str(b) and f["severity"] == "warning" for f in found)
    assert "did you mean §1.4 KV Cache (line 8)?" in found[0]["message"]
    assert run("add", str(b), "--strict", "--document", "docs/inference.md")[0] == 1
    # with no document named, nothing is judged
    assert "unknown-section" not in run("add", str(b), "--dry-run", "-f", "json")[1]
    # check judges the briefings it is given, offline too
    code, out, _ = run(
        "check", "--offline", "--document", "docs/inference.md", "--briefing", str(b), "-f", "json"
    )
    lines = [(f["file"], f["line"]) for f in json.loads(out)["findings"]]
    assert (str(b), 4) in lines and (str(b), 7) in lines


def test_without_a_document_nothing_changes(repo: Path) -> None:
    code, out, _ = run("check", "--offline", "-f", "json", "--today", "2026-10-01")
    assert code == 0 and json.loads(out)["findings"] == []


def test_the_bundled_registry_against_the_seed_briefings_sections(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The sections the seed briefing proposes, part of it written in, one renumbered since
    (tests/data/living/): what waits, what went under another section, what the document cites
    unregistered, which entry and which of the seed's references a renumbering left behind (and
    `fix`'s one-line diff for it); a week on, the waiting entries are overdue."""
    root = Path(__file__).resolve().parent.parent
    monkeypatch.chdir(root)
    doc = "tests/data/living/inference.md"
    found = check_json("registry.yaml", "--document", doc)
    codes = sorted((f["code"], f["file"], f["line"]) for f in found.values())
    assert codes == [
        *(("not-in-document", "registry.yaml", line) for line in (14, 47, 83, 107, 121)),
        ("section-mismatch", doc, 18),
        ("unknown-section", "registry.yaml", 128),
        ("unregistered", doc, 24),
    ]
    [moved] = [f for f in found.values() if f["code"] == "unknown-section"]
    assert (moved["section"], moved["suggestion"]) == (
        "§1.4 推理可靠性与可观测性",
        "§1.5 推理可靠性与可观测性",
    )
    later = check_json("registry.yaml", "--document", doc, today="2026-10-15")
    assert sorted(f["code"] for f in later.values()).count("overdue") == 5
    code, diff, _ = run("fix", "registry.yaml", "--document", doc, "--dry-run")
    changed = [x for x in diff.splitlines() if x[:1] in "+-" and x[:3] not in ("+++", "---")]
    assert code == 1 and changed == [
        '-    section: "§1.4 推理可靠性与可观测性"',
        '+    section: "§1.5 推理可靠性与可观测性"',
    ]
    # the seed's own references (inference.md §1.1, §1.3（KV Cache）, §1.4（…）): the
    # renumbered §1.4 is no heading; after one more renumbering, its §1.3（KV Cache） neither
    seed = "briefings/2026-09-24-inference-e1.md"

    def unknown(document: str) -> list[tuple[str, int, str]]:
        out = run("add", seed, "--check", "-f", "json", "--document", document)[1]
        found = [f for f in json.loads(out)["findings"] if f["code"] == "unknown-section"]
        return [(f["file"], f["line"], f["suggestion"]) for f in found]

    assert unknown(doc) == [(seed, 150, "§1.5 推理可靠性与可观测性")]
    again = tmp_path / "inference.md"
    text = (root / doc).read_text(encoding="utf-8")
    again.write_text(text.replace("§1.3 KV Cache", "§1.6 KV Cache"), encoding="utf-8")
    assert unknown(str(again)) == [
        (seed, 62, "§1.6 KV Cache"),
        (seed, 150, "§1.5 推理可靠性与可观测性"),
    ]


def test_the_library_takes_the_document_as_a_setting(repo: Path) -> None:
    from datetime import date

    from anchors import commands

    doc = {"document": ["docs/inference.md"]}
    result = commands.check("registry.yaml", offline=True, today=date(2026, 10, 1), settings=doc)
    cli = check_json("--document", "docs/inference.md")
    assert sorted((f.code.value, f.file, f.line) for f in result.findings) == sorted(
        (f["code"], f["file"], f["line"]) for f in cli.values()
    )
    b = repo / "b.md"
    b.write_text(BRIEFING, encoding="utf-8")
    added = commands.add(b, dry_run=True, settings=doc)
    assert [f.line for f in added.findings if f.code.value == "unknown-section"] == [4, 7]
