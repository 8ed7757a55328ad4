"""GitLab Code Quality as GitLab documents it (doc/ci/testing/code_quality.md, "Code Quality
report format"): one JSON array, no byte order mark, each issue with `description`,
`check_name`, `fingerprint`, `severity` (info, minor, major, critical or blocker),
`location.path` relative to the repository and `location.lines.begin`. GitLab shows issues with
one fingerprint as one: each must be distinct in a report and the same on the next run."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from typer.testing import CliRunner

from anchors.cli.app import app
from anchors.findings import Severity
from anchors.render.gitlab import SEVERITY

from .loopback import LoopbackServer, respond

#: GitLab's documented required fields, as a JSON Schema (written from the docs' table)
SCHEMA: dict[str, Any] = {
    "type": "array",
    "items": {
        "type": "object",
        "required": ["description", "check_name", "fingerprint", "severity", "location"],
        "properties": {
            "description": {"type": "string", "minLength": 1},
            "check_name": {"type": "string", "minLength": 1},
            "fingerprint": {"type": "string", "minLength": 1},
            "severity": {"enum": ["info", "minor", "major", "critical", "blocker"]},
            "location": {
                "type": "object",
                "required": ["path", "lines"],
                "properties": {
                    "path": {"type": "string", "pattern": "^[^/]"},
                    "lines": {
                        "type": "object",
                        "required": ["begin"],
                        "properties": {"begin": {"type": "integer", "minimum": 1}},
                    },
                },
            },
        },
    },
}


async def _answer(req, w):  # type: ignore[no-untyped-def]
    status = 404 if req.path.startswith("/gone") else 200
    return await respond(w, status, b"<title>t</title>", req=req)


@pytest.fixture
def web() -> Iterator[LoopbackServer]:
    with LoopbackServer(lambda req: _answer) as srv:
        yield srv


def _entry(field: str, value: str) -> str:
    return f'  - {field}: "{value}"\n    first_anchored: 2026-09-24\n    status: new\n'


def repository(root: Path, web: LoopbackServer, first: str = "") -> Path:
    """A repository whose registry (in data/) holds a dead link its briefing cites on line 3,
    a future arXiv ID and a page that answers."""
    (root / ".git").mkdir(exist_ok=True)
    (root / "data").mkdir(exist_ok=True)
    (root / "briefings").mkdir(exist_ok=True)
    (root / "briefings" / "2026-09-24.md").write_text(
        f"# 2026-09-24\n\n- a dead page: {web.url('/gone/a')}\n", encoding="utf-8"
    )
    reg = root / "data" / "registry.yaml"
    reg.write_text(
        "version: 1\nanchors:\n"
        + first
        + _entry("url", web.url("/gone/a"))
        + _entry("arxiv", "2709.00001")
        + _entry("url", web.url("/fine")),
        encoding="utf-8",
    )
    return reg


def code_quality(cwd: Path, reg: str, monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    monkeypatch.chdir(cwd)
    r = CliRunner().invoke(
        app,
        ["check", reg, "--allow-private", "--no-cache", "--today", "2026-12-02", "-f", "gitlab"],
    )
    assert r.exit_code == 1, r.output
    raw = r.stdout_bytes
    assert not raw.startswith(b"\xef\xbb\xbf")  # GitLab's parser refuses a byte order mark
    issues: list[dict[str, Any]] = json.loads(raw)
    jsonschema.validate(issues, SCHEMA)
    return issues


def test_code_quality_has_gitlabs_fields_and_the_briefing_line_too(
    tmp_path: Path, web: LoopbackServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    repository(tmp_path, web)
    # run from a subfolder: the paths are still the repository's
    issues = code_quality(tmp_path / "briefings", "../data/registry.yaml", monkeypatch)
    where = {
        (i["check_name"], i["location"]["path"], i["location"]["lines"]["begin"]) for i in issues
    }
    assert where == {
        ("dead-link", "data/registry.yaml", 3),
        ("dead-link", "briefings/2026-09-24.md", 3),  # where a person would fix the citation
        ("future-id", "data/registry.yaml", 6),
    }
    severity = {i["check_name"]: i["severity"] for i in issues}
    assert severity == {"dead-link": "major", "future-id": "major"}
    assert len({i["fingerprint"] for i in issues}) == len(issues)  # none hides another
    dead = [i for i in issues if i["check_name"] == "dead-link"]
    assert all(web.url("/gone/a") in i["description"] for i in dead)


def test_fingerprints_are_the_same_on_the_next_run_and_after_the_entry_moves(
    tmp_path: Path, web: LoopbackServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    repository(tmp_path, web)
    first = code_quality(tmp_path, "data/registry.yaml", monkeypatch)
    again = code_quality(tmp_path, "data/registry.yaml", monkeypatch)
    assert first == again
    # an entry added above moves every line; the issues are the same issues
    repository(tmp_path, web, first=_entry("url", web.url("/fine/new")))
    moved = code_quality(tmp_path, "data/registry.yaml", monkeypatch)
    assert {i["fingerprint"] for i in moved} == {i["fingerprint"] for i in first}
    lines = {i["fingerprint"]: i["location"]["lines"]["begin"] for i in moved}
    assert sorted(lines.values()) != sorted(
        i["location"]["lines"]["begin"] for i in first
    )  # they did move


def test_issues_about_no_anchor_are_told_apart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two problems of the file itself (no anchor, no line): two issues, not one."""
    (tmp_path / ".git").mkdir(exist_ok=True)
    (tmp_path / "registry.yaml").write_text(
        "version: 1\ncolour: blue\nsize: 3\nanchors: []\n", encoding="utf-8"
    )
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(app, ["check", "registry.yaml", "--offline", "-f", "gitlab"])
    issues = json.loads(r.stdout)
    jsonschema.validate(issues, SCHEMA)
    assert len(issues) >= 2 and len({i["fingerprint"] for i in issues}) == len(issues)
    assert (r.exit_code == 1) == any(i["severity"] == "major" for i in issues)


def test_every_severity_has_a_gitlab_severity() -> None:
    assert set(SEVERITY) == set(Severity)
    assert SEVERITY[Severity.ERROR] == "major" and SEVERITY[Severity.INFO] == "info"


def test_the_schema_can_fail() -> None:
    bad = [
        {
            "description": "x",
            "check_name": "c",
            "fingerprint": "f",
            "severity": "error",
            "location": {"path": "a", "lines": {"begin": 1}},
        }
    ]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, SCHEMA)
