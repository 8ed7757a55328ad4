"""SARIF as code scanning reads it: Microsoft's SARIF Multitool, `validate --rule-kind
"Sarif;Gh"` (the SARIF rules and GitHub's ingestion rules), gives no error and no warning on a
real `check` of a registry with findings, in a folder whose name no URI may hold as it is."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from typer.testing import CliRunner

from anchors.cli.app import app

from .tools import node_file

REGISTRY = """version: 1
anchors:
  - arxiv: "2609.1806"
    first_anchored: 2026-09-20
    status: new
  - arxiv: "2709.00001"
    first_anchored: 2026-09-20
    status: new
  - arxiv: "2309.06180"
    first_anchored: 2026-09-20
    status: new
  - arxiv: "2309.06180"
    first_anchored: 2026-09-20
    status: new
  - url: https://example.org/x
    first_anchored: 2026-09-20
"""


def sarif_of(repo: Path, named: str) -> str:
    (repo / ".git").mkdir(parents=True)
    folder = repo / "data" / "notes 2026-09-24, v1:final 50%"
    folder.mkdir(parents=True)
    (folder / "registry 框架.yaml").write_text(REGISTRY, encoding="utf-8")
    r = CliRunner().invoke(
        app, ["check", "--offline", "-f", "sarif", "--today", "2026-09-30", named]
    )
    assert r.exit_code == 1, r.output
    return r.stdout


def test_the_multitool_finds_nothing_to_say(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    out = sarif_of(tmp_path, "data/../data/notes 2026-09-24, v1:final 50%/registry 框架.yaml")
    doc = json.loads(out)
    assert {r["ruleId"] for r in doc["runs"][0]["results"]} >= {
        "invalid-id",
        "future-id",
        "duplicate",
    }
    (tmp_path / "anchors.sarif").write_text(out, encoding="utf-8")
    tool = node_file("@microsoft/sarif-multitool-linux/Sarif.Multitool")
    done = subprocess.run(
        [
            str(tool),
            "validate",
            "--rule-kind",
            "Sarif;Gh",
            "--output",
            str(tmp_path / "v.sarif"),
            str(tmp_path / "anchors.sarif"),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    said = [ln for ln in done.stdout.splitlines() if ": error " in ln or ": warning " in ln]
    assert done.returncode == 0 and said == [], done.stdout[-3000:]
    assert "1 files scanned" in done.stdout or "Analysis completed successfully" in done.stdout


def test_the_multitool_sees_what_code_scanning_would_refuse(tmp_path: Path) -> None:
    """The old output: rules without descriptions or help, a path that is no URI reference."""
    old = {
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "anchors",
                        "rules": [{"id": "dead-link", "shortDescription": {"text": "Dead link"}}],
                    }
                },
                "results": [
                    {
                        "ruleId": "dead-link",
                        "level": "error",
                        "message": {"text": "x"},
                        "locations": [
                            {
                                "physicalLocation": {
                                    "artifactLocation": {"uri": "notes, v1:final.md"},
                                    "region": {"startLine": 1},
                                }
                            }
                        ],
                    }
                ],
            }
        ],
    }
    (tmp_path / "old.sarif").write_text(json.dumps(old), encoding="utf-8")
    tool = node_file("@microsoft/sarif-multitool-linux/Sarif.Multitool")
    done = subprocess.run(
        [
            str(tool),
            "validate",
            "--rule-kind",
            "Sarif;Gh",
            "--output",
            str(tmp_path / "v.sarif"),
            str(tmp_path / "old.sarif"),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert "GH2012" in done.stdout and "SARIF1002" in done.stdout
