"""Title conflicts come only from titles written for a citation, never from a heading; re-adding
a briefing says plainly that the registry is already up to date."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from anchors.cli.app import app
from anchors.registry.loader import load

runner = CliRunner()
URL = "https://github.com/vllm-project/vllm/issues/8242"
BLOG = "https://blog.example.com/paged"


def add(*args: str) -> tuple[int, dict, str]:
    r = runner.invoke(app, ["add", "--format", "json", "--today", "2026-12-02", *args])
    return r.exit_code, json.loads(r.stdout) if r.stdout.strip() else {}, r.stderr


def briefing(tmp_path: Path, day: str, body: str) -> Path:
    p = tmp_path / f"{day}-briefing.md"
    p.write_text(f"# 推理日报 ({day})\n\n{body}", encoding="utf-8")
    return p


def test_title_source_says_written_or_inferred() -> None:
    from datetime import date

    from anchors.extract import TitleSource, extract

    text = (
        "增量 1：Heading words\n"
        f"URL：{BLOG}\n"
        f"| {URL} | Cell title |\n"
        "- 2309.06180 Efficient Memory Management\n"
    )
    by = {c.raw: c for c in extract(text, "b.md", date(2026, 10, 2)).citations}
    assert (by[BLOG].title_source, by[BLOG].written_title) == (TitleSource.HEADING, None)
    assert (by[URL].title_source, by[URL].written_title) == (TitleSource.CELL, "Cell title")
    paper = by["2309.06180"]
    assert (paper.title_source, paper.written_title) == (
        TitleSource.AFTER_ID,
        "Efficient Memory Management",
    )


def test_recited_under_a_new_heading_is_no_conflict_and_the_heading_fills_the_title(
    tmp_path: Path,
) -> None:
    reg = tmp_path / "registry.yaml"
    day1 = briefing(tmp_path, "2026-10-01", f"增量 1：Paged attention revisited\nURL：{BLOG}\n")
    day2 = briefing(
        tmp_path,
        "2026-10-02",
        f"增量 4：Today's other headline\nURL：{BLOG}\n增量 5：Yet another heading\n- {BLOG}\n",
    )
    assert add("-r", str(reg), str(day1))[0] == 0
    a = load(reg).by_key()[f"url:{BLOG}"]
    assert (a.title, a.title_inferred) == ("Paged attention revisited", True)
    code, out, _ = add("-r", str(reg), str(day2))
    assert code == 0 and out["conflicts"] == []
    assert out["summary"]["continued"] == 1
    # a title the author writes for the citation does not conflict with the inferred one either
    day3 = briefing(tmp_path, "2026-10-03", f"| {BLOG} | Paged attention, the blog post |\n")
    code, out, _ = add("-r", str(reg), str(day3))
    assert code == 0 and out["conflicts"] == []


def test_written_titles_still_conflict(tmp_path: Path) -> None:
    reg = tmp_path / "registry.yaml"
    day1 = briefing(tmp_path, "2026-10-01", f"| {URL} | Prefix caching GPU bug |\n")
    day2 = briefing(
        tmp_path,
        "2026-10-02",
        f"| {URL} | Speculative decoding crash |\n| {URL} | Yet another name |\n",
    )
    assert add("-r", str(reg), str(day1))[0] == 0
    assert load(reg).by_key()["github:vllm-project/vllm#8242"].title_inferred is False
    code, out, _ = add("-r", str(reg), str(day2))
    assert code == 0
    assert sorted((c["against"], c["other"]) for c in out["conflicts"]) == [
        ("briefing", "Yet another name"),
        ("registry", "Speculative decoding crash"),
    ]
    code, out, _ = add("--strict", "-r", str(reg), str(day2))
    assert code == 1


def test_a_heading_title_never_conflicts_with_a_written_one_in_the_same_briefing(
    tmp_path: Path,
) -> None:
    reg = tmp_path / "registry.yaml"
    day = briefing(
        tmp_path,
        "2026-10-01",
        f"增量 1：Heading words\nURL：{BLOG}\n| {BLOG} | What the author wrote |\n",
    )
    code, out, _ = add("-r", str(reg), str(day))
    assert code == 0 and out["conflicts"] == []
    a = load(reg).by_key()[f"url:{BLOG}"]
    assert (a.title, a.title_inferred) == ("What the author wrote", False)


def test_re_adding_the_same_briefing_says_already_up_to_date(tmp_path: Path, seed: Path) -> None:
    reg = tmp_path / "registry.yaml"
    r = runner.invoke(app, ["add", "-r", str(reg), "--today", "2026-12-02", str(seed)])
    assert r.exit_code == 0 and "43 added" in r.stderr
    before = reg.read_bytes()
    r = runner.invoke(app, ["add", "-r", str(reg), "--today", "2026-12-02", str(seed)])
    assert r.exit_code == 0 and reg.read_bytes() == before
    assert "already up to date" in r.stderr and "continued" not in r.stderr
