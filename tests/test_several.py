"""`anchors check` takes several registries (a pre-commit hook passes every file a commit
touches); every finding names its file, in every output format."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from anchors.cli.app import app

from .loopback import LoopbackServer, respond

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()
ENTRY = (
    'version: 1\nanchors:\n  - {key}: "{value}"\n    first_anchored: 2026-09-01\n    status: new\n'
)


def registry(folder: Path, key: str, value: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    p = folder / "registry.yaml"
    p.write_text(ENTRY.format(key=key, value=value), encoding="utf-8")
    return p


def test_the_pre_commit_hook_checks_two_registries_in_one_commit(tmp_path: Path) -> None:
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    (hook,) = [h for h in hooks if h["id"] == "anchors-check"]
    assert hook["pass_filenames"] is True
    a = registry(tmp_path / "a", "arxiv", "2613.00001")  # month 13
    b = registry(tmp_path / "team" / "b", "arxiv", "2609.1234")  # too few digits
    assert all(re.search(hook["files"], str(p.relative_to(tmp_path))) for p in (a, b))
    cmd = shlex.split(hook["entry"])
    assert cmd[0] == "anchors"
    r = runner.invoke(app, [*cmd[1:], str(a), str(b)])  # what pre-commit runs
    assert r.exit_code == 1, r.stderr
    b.write_text(ENTRY.format(key="arxiv", value="2609.12345"), encoding="utf-8")
    assert runner.invoke(app, [*cmd[1:], str(a), str(b)]).exit_code == 1
    a.write_text(ENTRY.format(key="arxiv", value="2609.18063"), encoding="utf-8")
    assert runner.invoke(app, [*cmd[1:], str(a), str(b)]).exit_code == 0


@pytest.mark.parametrize("fmt", ["text", "json", "github", "markdown"])
def test_findings_name_their_file_in_every_format(
    tmp_path: Path, fmt: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    a = registry(Path("a"), "arxiv", "2613.00001")
    b = registry(Path("b"), "arxiv", "2609.1234")
    r = runner.invoke(
        app, ["check", "--offline", "--today", "2026-12-02", "-f", fmt, str(a), str(b)]
    )
    assert r.exit_code == 1
    if fmt != "json":
        out = r.stdout.replace(",line=", ":")
        assert "a/registry.yaml:3" in out and "b/registry.yaml:3" in out
    else:
        doc = json.loads(r.stdout)
        assert doc["registries"] == [str(a), str(b)] and doc["anchors"] == 2
        assert sorted(f["file"] for f in doc["findings"]) == sorted([str(a), str(b)])
    assert "2 anchors in 2 registries" in r.stderr


def test_one_missing_registry_among_several_is_exit_2_before_any_check(tmp_path: Path) -> None:
    a = registry(tmp_path / "a", "arxiv", "2609.18063")
    r = runner.invoke(app, ["check", "--offline", str(a), str(tmp_path / "b" / "registry.yaml")])
    assert r.exit_code == 2 and "b/registry.yaml: no such registry" in r.stderr and r.stdout == ""


def test_online_each_registry_keeps_its_own_history(tmp_path: Path) -> None:
    async def gone(req, w):
        return await respond(w, 404, b"", req=req)

    with LoopbackServer({"/a-gone": gone, "/b-gone": gone}) as srv:
        base = f"http://127.0.0.1:{srv.port}"
        a = registry(tmp_path / "a", "url", f"{base}/a-gone")
        b = registry(tmp_path / "b", "url", f"{base}/b-gone")
        r = runner.invoke(
            app,
            [
                "check",
                "--allow-private",
                "--no-cache",
                "--today",
                "2026-12-02",
                "-f",
                "json",
                str(a),
                str(b),
            ],
        )
    assert r.exit_code == 1, r.stderr
    doc = json.loads(r.stdout)
    assert sorted((f["code"], f["file"]) for f in doc["findings"]) == [
        ("dead-link", str(a)),
        ("dead-link", str(b)),
    ]
    assert (tmp_path / "a" / ".anchors" / "history.sqlite").exists()
    assert (tmp_path / "b" / ".anchors" / "history.sqlite").exists()
