"""Machine output against its published schemas: real `add`, `check` and `report` JSON, and SARIF
against the official OASIS SARIF 2.1.0 schema (vendored, see tests/data/schemas/README.md)."""

from __future__ import annotations

import copy
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from typer.testing import CliRunner

from anchors.cli.app import app
from anchors.findings import Code, Outcome
from anchors.history import History, Observation
from anchors.ids.model import WebUrl

ROOT = Path(__file__).resolve().parent.parent
SCHEMAS = ROOT / "anchors" / "schema"
SARIF_SCHEMA = Path(__file__).parent / "data" / "schemas" / "sarif-schema-2.1.0.json"
runner = CliRunner()
BAD = (
    'version: 1\nanchors:\n  - arxiv: "2709.00001"\n    section: "§1.3 KV 缓存"\n'
    "    first_anchored: 2026-09-24\n    status: new\n"
    "  - url: https://example.org/a\n    first_anchored: 2026-09-24\n    status: new\n"
    "  - url: https://example.org/a\n    first_anchored: 2026-09-24\n    status: new\n"
    "  - arxiv: 2609.10000\n    first_anchored: 2026-09-24\n    status: new\n"
)


def validator(name: str) -> jsonschema.protocols.Validator:
    schema = json.loads((SCHEMAS / f"{name}.schema.json").read_text(encoding="utf-8"))
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema, format_checker=cls.FORMAT_CHECKER)


def must_fail(v: jsonschema.protocols.Validator, doc: dict[str, Any]) -> None:
    """The schema is not a rubber stamp: losing a required field or mistyping one fails."""
    for key in ("schema_version", "registry"):
        broken = copy.deepcopy(doc)
        del broken[key]
        assert not v.is_valid(broken), key
    broken = copy.deepcopy(doc)
    broken["schema_version"] = "1"
    assert not v.is_valid(broken)


def check_json(tmp_path: Path, *args: str) -> dict[str, Any]:
    reg = tmp_path / "registry.yaml"
    reg.write_text(BAD, encoding="utf-8")
    r = runner.invoke(
        app, ["check", str(reg), "--offline", "--today", "2026-12-02", "-f", "json", *args]
    )
    assert r.exit_code == 1, r.output
    return json.loads(r.stdout)


def test_check_json_matches_its_schema(tmp_path: Path) -> None:
    doc = check_json(tmp_path)
    v = validator("check")
    v.validate(doc)
    assert {f["code"] for f in doc["findings"]} == {"future-id", "duplicate", "schema"}
    must_fail(v, doc)
    broken = copy.deepcopy(doc)
    broken["findings"][0]["severity"] = "fatal"
    assert not v.is_valid(broken)


def test_bundled_registry_check_json_matches(tmp_path: Path) -> None:
    r = runner.invoke(
        app,
        ["check", str(ROOT / "registry.yaml"), "--offline", "-f", "json", "--today", "2026-12-02"],
    )
    validator("check").validate(json.loads(r.stdout))


def test_add_json_matches_its_schema(tmp_path: Path, seed: Path) -> None:
    r = runner.invoke(
        app,
        [
            "add",
            str(seed),
            "-r",
            str(tmp_path / "registry.yaml"),
            "--dry-run",
            "-f",
            "json",
            "--today",
            "2026-12-02",
        ],
    )
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    v = validator("add")
    v.validate(doc)
    assert doc["duplicates"] and doc["conflicts"] and len(doc["anchors"]) == 43
    must_fail(v, doc)


def test_report_json_matches_its_schema(tmp_path: Path) -> None:
    db = tmp_path / "history.sqlite"
    start = datetime(2026, 9, 24, 6, 0, tzinfo=UTC).timestamp()
    for day in range(3):
        h = History(db, clock=lambda d=day: start + d * 86400)
        run = h.start_run(str(tmp_path / "registry.yaml"))
        h.record(
            run,
            [
                Observation(
                    WebUrl("https://x.example/gone"),
                    "https://x.example/gone",
                    Outcome.DEAD,
                    404,
                    error="HTTP 404",
                ),
                Observation(
                    WebUrl("https://x.example/ok"), "https://x.example/ok", Outcome.OK, 200
                ),
            ],
        )
        h.finish_run(run, True)
        h.close()
    r = runner.invoke(
        app,
        [
            "report",
            "-r",
            str(tmp_path / "registry.yaml"),
            "--history",
            str(db),
            "--now",
            "2026-09-27T00:00Z",
            "-f",
            "json",
        ],
    )
    assert r.exit_code == 1, r.output
    doc = json.loads(r.stdout)
    v = validator("report")
    v.validate(doc)
    assert (
        doc["rows"][0]["target"] == "https://x.example/gone" and doc["rows"][0]["failing_runs"] == 3
    )
    must_fail(v, doc)


def test_sarif_is_valid_sarif_2_1_0(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # SARIF names files relative to the repository root (here)
    reg = Path("registry.yaml")
    reg.write_text(BAD, encoding="utf-8")
    r = runner.invoke(app, ["check", str(reg), "--offline", "--today", "2026-12-02", "-f", "sarif"])
    assert r.exit_code == 1, r.output
    doc = json.loads(r.stdout)
    schema = json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))
    jsonschema.Draft4Validator.check_schema(schema)
    jsonschema.Draft4Validator(schema).validate(doc)
    (run,) = doc["runs"]
    rules = run["tool"]["driver"]["rules"]
    assert [x["id"] for x in rules] == [c.value for c in Code]
    results = run["results"]
    assert [
        (x["ruleId"], x["locations"][0]["physicalLocation"]["region"]["startLine"]) for x in results
    ] == [("future-id", 3), ("duplicate", 10), ("schema", 13)]
    for x in results:  # what code scanning needs for a persistent, dismissable alert
        assert rules[x["ruleIndex"]]["id"] == x["ruleId"]
        assert x["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "registry.yaml"
        assert x["partialFingerprints"]["anchorsFinding/v1"]
    broken = copy.deepcopy(doc)
    broken["runs"][0]["results"][0]["level"] = "fatal"
    assert not jsonschema.Draft4Validator(schema).is_valid(broken)


def test_sarif_fingerprint_survives_a_moved_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    reg = Path("registry.yaml")

    def prints(text: str) -> dict[str, str]:
        reg.write_text(text, encoding="utf-8")
        r = runner.invoke(
            app, ["check", str(reg), "--offline", "--today", "2026-12-02", "-f", "sarif"]
        )
        return {
            x["ruleId"]: x["partialFingerprints"]["anchorsFinding/v1"]
            for x in json.loads(r.stdout)["runs"][0]["results"]
        }

    before = prints(BAD)
    moved = BAD.replace(
        "anchors:\n",
        'anchors:\n  - arxiv: "2609.00001"\n    first_anchored: 2026-09-24\n    status: new\n',
        1,
    )
    assert prints(moved) == before
