"""SARIF as code scanning reads it: Microsoft's SARIF Multitool, `validate --rule-kind
"Sarif;Gh"` (the SARIF rules and GitHub's ingestion rules), gives no error and no warning on a
real `check` with findings in a registry and in a briefing (`2026-09-24 notes, v1:final.md`,
the living document), in a folder whose name no URI may hold as it is, reached through `..`."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from anchors.cli.app import app

from .tools import node_file

#: runs a consumer program (the slow tier: .ci/run, not a plain `pytest`)
pytestmark = pytest.mark.slow

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
  - url: "https://github.com/vllm-project/vllm/issues/8242"
    first_anchored: 2026-09-24
    status: new
    section: "§1.4 KV Cache"
    cited_in: ["2026-09-24"]
"""

#: a briefing kept as the living document: its findings are located in it
BRIEFING = """# Inference

### 1.1 框架格局
- vLLM prefix caching bug: https://github.com/vllm-project/vllm/issues/8242

### §1.4 KV Cache
- [vLLM install](https://docs.vllm.ai/en/latest/#install)
"""

#: a name no URI may hold as it is: space, comma, colon (a scheme), `%`, non-ASCII
FOLDER = "data/notes 2026-09-24, v1:final 50%"
NAME = "2026-09-24 notes, v1:final.md"


def multitool(sarif: str, folder: Path) -> subprocess.CompletedProcess[str]:
    """`validate --rule-kind "Sarif;Gh"`: the SARIF rules and GitHub's ingestion rules."""
    (folder / "anchors.sarif").write_text(sarif, encoding="utf-8")
    tool = node_file("@microsoft/sarif-multitool-linux/Sarif.Multitool")
    return subprocess.run(
        [
            str(tool),
            "validate",
            "--rule-kind",
            "Sarif;Gh",
            "--output",
            str(folder / "v.sarif"),
            str(folder / "anchors.sarif"),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_the_multitool_finds_nothing_to_say(tmp_path: Path, monkeypatch) -> None:
    (tmp_path / ".git").mkdir(exist_ok=True)
    folder = tmp_path / FOLDER
    folder.mkdir(parents=True)
    (folder / "registry 框架.yaml").write_text(REGISTRY, encoding="utf-8")
    (folder / NAME).write_text(BRIEFING, encoding="utf-8")
    monkeypatch.chdir(tmp_path / "data")  # paths are the repository's, not the working folder's
    via = "../data/" + FOLDER.removeprefix("data/")
    r = CliRunner().invoke(
        app,
        [
            "check",
            "--offline",
            "-f",
            "sarif",
            "--today",
            "2026-10-01",
            "--document",
            f"{via}/{NAME}",
            f"{via}/registry 框架.yaml",
        ],
    )
    assert r.exit_code == 1, r.output
    doc = json.loads(r.stdout)
    where = {
        res["ruleId"]: res["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        for res in doc["runs"][0]["results"]
    }
    assert set(where) >= {"invalid-id", "future-id", "duplicate", "section-mismatch"}
    encoded = "data/notes%202026-09-24%2C%20v1%3Afinal%2050%25/"
    assert where["invalid-id"] == encoded + "registry%20%E6%A1%86%E6%9E%B6.yaml"
    assert where["section-mismatch"] == encoded + "2026-09-24%20notes%2C%20v1%3Afinal.md"
    done = multitool(r.stdout, tmp_path)
    said = [ln for ln in done.stdout.splitlines() if ": error " in ln or ": warning " in ln]
    assert done.returncode == 0 and said == [], done.stdout[-3000:]
    assert "1 files scanned" in done.stdout and "Analysis completed successfully" in done.stdout
    # nothing at any level: no note either
    validated = json.loads((tmp_path / "v.sarif").read_text(encoding="utf-8"))
    assert validated["runs"][0].get("results", []) == []


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
    done = multitool(json.dumps(old), tmp_path)
    assert "GH2012" in done.stdout and "SARIF1002" in done.stdout
