"""`anchors add --check`: the CI gate that fails a pull request adding a briefing without
running `anchors add`; it writes nothing."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from anchors.cli.app import app

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    r = runner.invoke(app, list(args))
    return r.exit_code, r.stdout, r.stderr


def snapshot(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def briefing(root: Path, day: str, body: str) -> Path:
    p = root / "briefings" / f"{day}-daily.md"
    p.parent.mkdir(exist_ok=True)
    p.write_text(f"# 推理日报 ({day})\n\n{body}", encoding="utf-8")
    return p


def pr_gate_command() -> list[str]:
    wf = yaml.safe_load((ROOT / ".github" / "workflows" / "anchors-pr.yml").read_text("utf-8"))
    runs = [s["run"] for job in wf["jobs"].values() for s in job["steps"] if "run" in s]
    (cmd,) = [r for r in runs if r.startswith("anchors add --check")]
    return shlex.split(cmd)


def test_the_pr_workflow_fails_a_briefing_added_without_anchors_add(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    cmd = pr_gate_command()
    assert cmd[-1] == "briefings/*.md"

    def gate() -> tuple[int, str]:
        files = sorted(str(p.relative_to(tmp_path)) for p in tmp_path.glob(cmd[-1]))
        before = snapshot(tmp_path)
        code, _, err = run(*cmd[1:-1], "--today", "2026-12-02", *files)
        assert snapshot(tmp_path) == before  # writes nothing, not even a lock file
        return code, err

    day1 = briefing(tmp_path, "2026-10-01", "| 2609.18063 | Edge0 | 本次新增 |\n")
    code, err = gate()  # no registry yet
    assert code == 1 and "registry.yaml does not exist: 1 would be added" in err
    assert run("add", "--today", "2026-12-02", str(day1))[0] == 0
    code, err = gate()
    assert code == 0 and "already up to date" in err
    # the PR adds a briefing: one new anchor, one continued
    briefing(
        tmp_path, "2026-10-02", "| 2609.18063 | Edge0 | 续用 |\n| 2609.19969 | Deep | 本次新增 |\n"
    )
    code, err = gate()
    assert code == 1
    assert "is not up to date with the briefings: 1 would be added, 1 continued" in err
    assert (
        run(
            "add",
            "--today",
            "2026-12-02",
            *sorted(str(p.relative_to(tmp_path)) for p in tmp_path.glob("briefings/*.md")),
        )[0]
        == 0
    )
    assert gate()[0] == 0


def test_a_briefing_that_only_continues_an_anchor_is_not_up_to_date(tmp_path: Path) -> None:
    reg = tmp_path / "registry.yaml"
    day1 = briefing(tmp_path, "2026-10-01", "| 2609.18063 | Edge0 |\n")
    day2 = briefing(tmp_path, "2026-10-05", "| 2609.18063 | Edge0 |\n")
    assert run("add", "-r", str(reg), "--today", "2026-12-02", str(day1))[0] == 0
    code, out, _ = run(
        "add", "--check", "-r", str(reg), "--today", "2026-12-02", "-f", "json", str(day2)
    )
    doc = json.loads(out)
    assert code == 1 and doc["up_to_date"] is False and doc["written"] is False
    assert doc["anchors"][0]["change"] == "continued" and doc["summary"]["continued"] == 1
    code, out, _ = run(
        "add", "--check", "-r", str(reg), "--today", "2026-12-02", "-f", "json", str(day1)
    )
    doc = json.loads(out)
    assert code == 0 and doc["up_to_date"] is True and doc["anchors"][0]["change"] == "unchanged"
