"""The GitHub side: the composite action runs as CI would run it, and the workflows lint clean."""

from __future__ import annotations

import os
import re
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
ACTION = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.yml"))
BAD = (
    'version: 1\nanchors:\n  - arxiv: "2709.00001"\n    first_anchored: 2026-09-24\n'
    "    status: new\n"
)
GOOD = (
    'version: 1\nanchors:\n  - arxiv: "2609.00001"\n    first_anchored: 2026-09-24\n'
    "    status: new\n"
)


def test_action_is_composite_and_every_input_is_declared_and_used() -> None:
    assert ACTION["runs"]["using"] == "composite"
    text = (ROOT / "action.yml").read_text(encoding="utf-8")
    used = set(re.findall(r"\$\{\{\s*inputs\.([\w-]+)\s*\}\}", text))
    assert used == set(ACTION["inputs"]), used ^ set(ACTION["inputs"])
    for wf in WORKFLOWS:  # the examples use the action, with inputs it has
        doc = yaml.safe_load(wf.read_text(encoding="utf-8"))
        steps = [s for job in doc["jobs"].values() for s in job["steps"] if s.get("uses") == "./"]
        assert steps, wf.name
        for s in steps:
            assert set(s.get("with", {})) <= set(ACTION["inputs"]), (wf.name, s)


def test_weekly_workflow_writes_nothing_unused_and_never_swallows_exit_2() -> None:
    text = (ROOT / ".github" / "workflows" / "anchors-weekly.yml").read_text(encoding="utf-8")
    assert "|| true" not in text and "check.md" not in text
    for wf in WORKFLOWS:  # inline ${{ }} in scripts is an injection risk; env carries values
        for line in wf.read_text(encoding="utf-8").splitlines():
            if "run:" in line:
                assert "${{" not in line, (wf.name, line)


def _script(name: str) -> str:
    return next(s["run"] for s in ACTION["runs"]["steps"] if s.get("name") == name)


def run_action(tmp_path: Path, inputs: dict[str, str]) -> tuple[int, str, str, str]:
    """The action's own scripts with bash, as the runner would run them (anchors from here)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    shim = bin_dir / "anchors"
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m anchors "$@"\n', encoding="utf-8")
    shim.chmod(shim.stat().st_mode | stat.S_IEXEC)
    out, summary, temp = tmp_path / "out", tmp_path / "summary.md", tmp_path / "temp"
    temp.mkdir(exist_ok=True)
    env = {
        **os.environ,
        "PATH": f"{bin_dir}:{os.environ['PATH']}",
        "PYTHONPATH": str(ROOT),
        "RUNNER_TEMP": str(temp),
        "GITHUB_OUTPUT": str(out),
        "GITHUB_STEP_SUMMARY": str(summary),
        "ANCHORS_COMMAND": inputs.get("command", "check"),
        "ANCHORS_ARGS": inputs["args"],
        "ANCHORS_FORMAT": inputs.get("format", ""),
        "ANCHORS_OUTPUT": inputs.get("output", ""),
        "ANCHORS_FAIL": inputs.get("fail", "true"),
    }
    step = subprocess.run(
        ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", _script("Run anchors")],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert step.returncode == 0, step.stderr  # the run step itself never fails: the verdict does
    verdict = subprocess.run(
        ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", _script("Verdict")],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    return verdict.returncode, step.stdout, out.read_text(), summary.read_text()


def test_action_check_annotates_summarises_and_fails_on_errors(tmp_path: Path) -> None:
    (tmp_path / "registry.yaml").write_text(BAD, encoding="utf-8")
    code, stdout, outputs, summary = run_action(
        tmp_path, {"args": "registry.yaml --offline --today 2026-12-02"}
    )
    assert code == 1 and "exit-code=1" in outputs
    assert stdout.startswith("::error file=registry.yaml,line=3,title=future-id::")
    assert summary.startswith(
        "### anchors check\n\n1 anchor (offline): 0 OK, 1 failing; findings: 1 error"
    )
    code, *_ = run_action(
        tmp_path, {"args": "registry.yaml --offline --today 2026-12-02", "fail": "false"}
    )
    assert code == 0  # findings do not fail the step when asked
    (tmp_path / "registry.yaml").write_text(GOOD, encoding="utf-8")
    code, *_ = run_action(tmp_path, {"args": "registry.yaml --offline --today 2026-12-02"})
    assert code == 0


def test_action_exit_2_fails_even_when_findings_may_not(tmp_path: Path) -> None:
    code, _, outputs, summary = run_action(
        tmp_path, {"args": "missing.yaml --offline", "fail": "false"}
    )
    assert code == 2 and "exit-code=2" in outputs and "anchors: error:" in summary


def test_action_sarif_output_file(tmp_path: Path) -> None:
    (tmp_path / "registry.yaml").write_text(BAD, encoding="utf-8")
    run_action(
        tmp_path,
        {
            "args": "registry.yaml --offline --today 2026-12-02",
            "format": "sarif",
            "output": "anchors.sarif",
            "fail": "false",
        },
    )
    assert '"version": "2.1.0"' in (tmp_path / "anchors.sarif").read_text(encoding="utf-8")


@pytest.mark.skipif(
    shutil.which("actionlint") is None, reason="actionlint not installed (pip install '.[lint]')"
)
def test_workflows_are_actionlint_clean() -> None:
    r = subprocess.run(
        ["actionlint", "-no-color", *map(str, WORKFLOWS)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert r.returncode == 0, r.stdout + r.stderr


def test_dead_url_annotations_also_point_at_the_citing_briefing_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import json

    import jsonschema
    from typer.testing import CliRunner

    from anchors.cli.app import app

    from .loopback import LoopbackServer, respond

    async def gone(req, w):
        return await respond(w, 404, b"", req=req)

    (tmp_path / ".git").mkdir()
    (tmp_path / "briefings").mkdir()
    monkeypatch.chdir(tmp_path)
    with LoopbackServer({"/gone": gone, "/gone-too": gone}) as srv:
        url = srv.url("/gone")
        (tmp_path / "briefings" / "2026-09-24.md").write_text(
            f"# Briefing (2026-09-24)\n\n- dies: {url}\n- a longer one: {url}-too is another\n"
            f"- again {url}。\n",
            encoding="utf-8",
        )
        Path("registry.yaml").write_text(
            f"version: 1\nanchors:\n  - url: {url}\n    first_anchored: 2026-09-24\n"
            "    status: new\n",
            encoding="utf-8",
        )
        args = ["check", "registry.yaml", "--allow-private", "--no-cache", "--today", "2026-12-02"]
        github = CliRunner().invoke(app, [*args, "-f", "github"])
        sarif = CliRunner().invoke(app, [*args, "-f", "sarif"])
    lines = github.stdout.splitlines()
    assert github.exit_code == 1 and len(lines) == 3, github.output
    assert lines[0].startswith("::error file=registry.yaml,line=3,title=dead-link::")
    assert lines[1].startswith("::error file=briefings/2026-09-24.md,line=3,title=dead-link::")
    assert lines[2].startswith("::error file=briefings/2026-09-24.md,line=5,title=dead-link::")
    assert "(in the registry at registry.yaml:3)" in lines[1]  # not line 4: /gone-too is not /gone
    doc = json.loads(sarif.stdout)
    schema = json.loads(
        (ROOT / "tests" / "data" / "schemas" / "sarif-schema-2.1.0.json").read_text()
    )
    jsonschema.Draft4Validator(schema).validate(doc)
    related = doc["runs"][0]["results"][0]["relatedLocations"]
    assert [
        (
            x["physicalLocation"]["artifactLocation"]["uri"],
            x["physicalLocation"]["region"]["startLine"],
        )
        for x in related
    ] == [("briefings/2026-09-24.md", 3), ("briefings/2026-09-24.md", 5)]
