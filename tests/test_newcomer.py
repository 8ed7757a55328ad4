"""The small things a newcomer met in the first hour (issue 36), each through the CLI or the file
a newcomer reads: help that says what an option is for, an empty briefing called empty, a report
that says what records a check, `.venv/` ignored, the README's test command told whole, a legal
repository name accepted, and a briefing's heading never shown as a page's title.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from anchors.cli.app import app

from .loopback import LoopbackServer, respond

ROOT = Path(__file__).resolve().parent.parent


def _run(*args: str, env: dict[str, str] | None = None) -> Any:
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "100", **(env or {})})


def _option_help(command: str, option: str) -> str:
    """The help of one option, its wrapped lines joined."""
    text = _run(command, "--help").stdout
    m = re.search(rf"^  (?:-\w, )?{option}\b.*?(?=^  -|\Z)", text, re.MULTILINE | re.DOTALL)
    assert m is not None, text
    return " ".join(m[0].split())


def test_add_registry_option_says_what_it_is_for() -> None:
    """add's argument is the briefing: "the same as the argument" told the wrong thing."""
    said = _option_help("add", "--registry")
    assert "the same as the argument" not in said
    assert "Registry to merge the briefings into, created if missing" in said
    assert "the same as the argument" in _option_help("check", "--registry")


@pytest.mark.parametrize("command", ["check", "report", "fix"])
def test_document_help_of_other_commands_does_not_talk_about_add(command: str) -> None:
    said = _option_help(command, "--document")
    assert "add" not in said.replace("address", "") and "briefings" not in said
    assert "held against the entries' `section`" in said


def test_add_document_help_talks_about_the_briefings() -> None:
    assert "The living document (Markdown) the briefings cite" in _option_help("add", "--document")


@pytest.mark.parametrize("name", ["notes.md", "2026-09-24.md"])
@pytest.mark.parametrize("text", ["", " \n\n\t\n"])
def test_an_empty_briefing_is_called_empty(tmp_path: Path, name: str, text: str) -> None:
    """It was told to "pass --date" (undated) or "no citations found" (dated)."""
    b = tmp_path / name
    b.write_text(text, encoding="utf-8")
    r = _run("add", str(b), "-r", str(tmp_path / "r.yaml"))
    assert r.exit_code == 0, r.output
    assert f"anchors: warning: {b}: empty: nothing to add" in r.stderr
    assert "--date" not in r.stderr and not (tmp_path / "r.yaml").exists()


def test_report_before_an_online_check_says_an_offline_one_records_nothing(
    tmp_path: Path,
) -> None:
    reg = tmp_path / "registry.yaml"
    reg.write_text(
        'version: 1\nanchors:\n  - arxiv: "2609.18063"\n    first_anchored: 2026-09-24\n'
        "    status: new\n",
        encoding="utf-8",
    )
    assert _run("check", str(reg), "--offline").exit_code == 0
    r = _run("report", str(reg))
    assert r.exit_code == 2
    assert "run `anchors check` online first (`check --offline` records nothing)" in r.stderr


def test_the_quickstart_venv_is_ignored() -> None:
    ignored = (ROOT / ".gitignore").read_text(encoding="utf-8").splitlines()
    assert ".venv/" in ignored


def test_the_readme_says_what_ci_installs_before_the_tests() -> None:
    """ "This is exactly what CI runs" hid that `.ci/run` first installs the consumer tools, so
    ~30 tests skip on a newcomer's machine."""
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    assert "exactly what CI runs" not in readme
    assert "`.ci/consumers`" in readme and "`.ci/prepare`" in readme
    assert "about 30 tests skip" in readme and "run `.ci/run` itself" in readme


def test_a_repository_named_three_dots_is_a_repository(tmp_path: Path) -> None:
    """GitHub reserves `.` and `..` only; `foo/...#123` was refused as an invalid ID."""
    b = tmp_path / "2026-09-24.md"
    b.write_text(
        "- foo/...#123 的修复 (本次新增)\n- foo/..#124 不存在\n- foo/.#125 也不存在\n",
        encoding="utf-8",
    )
    r = _run("add", str(b), "-r", str(tmp_path / "r.yaml"), "-f", "json", "--dry-run")
    doc = json.loads(r.stdout)
    assert [a["anchor"] for a in doc["anchors"]] == ["foo/...#123"]
    assert sorted(i["text"] for i in doc["invalid"]) == ["foo/.#125", "foo/..#124"]


async def _gone(req, w):  # type: ignore[no-untyped-def]
    return await respond(w, 404, b"", req=req)


@pytest.fixture
def site() -> Iterator[LoopbackServer]:
    with LoopbackServer(lambda req: _gone) as srv:
        yield srv


def test_a_briefings_heading_is_not_shown_as_the_pages_title(
    tmp_path: Path, site: LoopbackServer
) -> None:
    """`add` fills an empty title from the heading above a URL (`title_from: heading`): the
    briefing's topic, not the page's name. A report row (and an export) shows a page's title;
    the heading there would read as the page's own, so it is left out: the row's section and
    citing dates already say where the briefing cites it. A title written for the citation
    still shows."""
    heading, written = "推理引擎 Benchmark 差距澄清 — 通用负载 ≤4%", "SGLang vs vLLM: the benchmark"
    reg = tmp_path / "registry.yaml"
    reg.write_text(
        "version: 1\nanchors:\n"
        f'  - url: "{site.url("/compare")}"\n    title: "{heading}"\n    title_from: heading\n'
        '    first_anchored: 2026-09-24\n    status: new\n    section: "§1.1 框架格局"\n'
        f'  - url: "{site.url("/blog")}"\n    title: "{written}"\n'
        '    first_anchored: 2026-09-24\n    status: new\n    section: "§1.1 框架格局"\n',
        encoding="utf-8",
    )
    assert _run("check", str(reg), "--allow-private", "--no-cache").exit_code == 1
    md = _run("report", str(reg)).stdout
    assert written in md and "推理引擎" not in md
    rows = {
        row["target"]: row["title"]
        for row in json.loads(_run("report", str(reg), "-f", "json").stdout)["rows"]
    }
    assert rows == {site.url("/compare"): None, site.url("/blog"): written}
