"""SARIF that code scanning shows well: each rule says what it is, how to fix it and where the
docs are; each path is a URI reference relative to the repository root."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest
from typer.testing import CliRunner

from anchors.catalogue import CATALOGUE
from anchors.cli.app import app
from anchors.findings import Code, Finding
from anchors.render.sarif import check_result
from anchors.result import CheckResult

REG = (
    'version: 1\nanchors:\n  - arxiv: "2609.1806"\n'
    "    first_anchored: 2026-09-20\n    status: new\n"
)


def sarif(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, named: str) -> dict:
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(
        app, ["check", "--offline", "-f", "sarif", "--today", "2026-09-30", named]
    )
    assert r.exit_code == 1, r.output
    return json.loads(r.stdout)


def test_every_rule_has_a_description_help_with_its_fix_and_a_link(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Code scanning showed one line per alert (the Multitool's GH2012 on all 28 rules)."""
    (tmp_path / "registry.yaml").write_text(REG, encoding="utf-8")
    driver = sarif(tmp_path, monkeypatch, "registry.yaml")["runs"][0]["tool"]["driver"]
    assert driver["informationUri"] == "https://github.com/OWNER/anchors"
    assert [r["id"] for r in driver["rules"]] == [c.value for c in Code]
    for rule in driver["rules"]:
        doc = CATALOGUE[Code(rule["id"])]
        assert rule["fullDescription"]["text"] == doc.description
        assert doc.fix in rule["help"]["text"] and doc.fix in rule["help"]["markdown"]
        assert rule["helpUri"] == (
            f"https://github.com/OWNER/anchors/blob/main/docs/findings.md#{rule['id']}"
        )


def test_paths_are_uri_references_under_the_repository_root(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`notes, v1:final.md` read as a URI with the scheme `notes, v1` (SARIF1002), and a raw
    `%` threw in codeql-action's fingerprinting; `data/../data/x` and the working directory
    are not where code scanning looks from."""
    (tmp_path / ".git").mkdir(exist_ok=True)
    folder = tmp_path / "data" / "2026-09-24 notes, v1:final 50%"
    folder.mkdir(parents=True)
    (folder / "registry 框架.yaml").write_text(REG, encoding="utf-8")
    monkeypatch.chdir(folder)  # run from a subfolder: paths are still the repository's
    doc = sarif(folder, monkeypatch, "../../data/2026-09-24 notes, v1:final 50%/registry 框架.yaml")
    run = doc["runs"][0]
    loc = run["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
    assert loc == {
        "uri": "data/2026-09-24%20notes%2C%20v1%3Afinal%2050%25/registry%20%E6%A1%86%E6%9E%B6.yaml",
        "uriBaseId": "%SRCROOT%",
    }
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == tmp_path.resolve().as_uri() + "/"


def test_related_locations_are_encoded_alike(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir(exist_ok=True)
    reg = tmp_path / "registry.yaml"
    f = Finding(
        Code.DEAD_LINK,
        "https://x.example/a",
        str(reg),
        3,
        "HTTP 404",
        {"cited_at": [{"file": str(tmp_path / "briefings" / "b 1#.md"), "line": 7}]},
    )
    r = CheckResult(str(reg), date(2026, 9, 30), 1, findings=[f])
    related = json.loads(check_result(r))["runs"][0]["results"][0]["relatedLocations"]
    assert related[0]["physicalLocation"]["artifactLocation"] == {
        "uri": "briefings/b%201%23.md",
        "uriBaseId": "%SRCROOT%",
    }
