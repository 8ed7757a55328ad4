"""A CI gate that cannot pass by accident: a missing or foreign registry is exit 2 and creates
nothing; only `add` creates a registry; a report with no check behind it is exit 2."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from anchors.cli.app import app
from anchors.findings import Outcome
from anchors.history import History, Observation
from anchors.ids.model import WebUrl

runner = CliRunner()
NOW = "2026-10-01T00:00Z"


def run(*args: str) -> tuple[int, str, str]:
    r = runner.invoke(app, list(args))
    return r.exit_code, r.stdout, r.stderr


def files(root: Path) -> list[str]:
    """What is in `root` besides its `.git` (each test's folder is a checkout)."""
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if ".git" not in p.parts)


@pytest.mark.parametrize("mode", [["--offline"], ["--today", "2026-10-01", "--no-cache"]])
def test_a_missing_registry_is_exit_2_naming_it_and_creates_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mode: list[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "registry.yaml").write_text("version: 1\nanchors: []\n", encoding="utf-8")
    before = files(tmp_path)
    code, out, err = run("check", "registy.yaml", *mode)  # a typo
    assert (code, out) == (2, "")
    assert err.splitlines() == [err.splitlines()[0]] and "registy.yaml" in err
    assert err.startswith("anchors: error: registy.yaml: no such registry")
    (tmp_path / "registry.yaml").unlink()
    code, out, err = run("check", *mode)  # a folder without registry.yaml
    assert code == 2 and "registry.yaml: no such registry" in err
    assert files(tmp_path) == [f for f in before if f != "registry.yaml"]  # no .anchors/


@pytest.mark.parametrize(
    "text",
    [
        "root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1::/usr/sbin\n",
        "- just\n- a list\n",
        "name: ci\non: push\n",
    ],
)
def test_a_file_that_is_not_a_registry_is_exit_2(tmp_path: Path, text: str) -> None:
    p = tmp_path / "passwd"
    p.write_text(text, encoding="utf-8")
    code, out, err = run("check", str(p), "--offline")
    assert code == 2 and out == "" and f"{p}:1: not an anchors registry" in err
    code, _, err = run("add", "-r", str(p), "--date", "2026-10-01", str(p))
    assert code == 2 and p.read_text(encoding="utf-8") == text


def test_etc_passwd_is_exit_2() -> None:
    if not Path("/etc/passwd").exists():
        pytest.skip("no /etc/passwd here")
    code, _, err = run("check", "/etc/passwd", "--offline")
    assert code == 2 and "/etc/passwd:1: not an anchors registry" in err


def test_an_empty_registry_is_an_empty_registry(tmp_path: Path) -> None:
    for text in ("", "# nothing anchored yet\n", "version: 1\nanchors: []\n"):
        p = tmp_path / "registry.yaml"
        p.write_text(text, encoding="utf-8")
        code, out, err = run("check", str(p), "--offline")
        assert (
            code == 0
            and out == ""
            and err.startswith("0 anchors (offline): 0 OK; findings: 0 errors")
        )
    # a registry with its keys but problems is findings, not exit 2
    p.write_text("version: 2\nanchors: []\n", encoding="utf-8")
    assert run("check", str(p), "--offline")[0] == 1


def test_only_add_creates_a_registry_and_says_so(tmp_path: Path, seed: Path) -> None:
    reg = tmp_path / "sub" / "registry.yaml"
    reg.parent.mkdir()
    code, _, err = run("add", "--dry-run", "-r", str(reg), "--today", "2026-12-02", str(seed))
    assert code == 0 and f"would create {reg}: 43 added" in err
    assert files(tmp_path) == ["sub"]  # a dry run leaves not even a lock file
    code, _, err = run("add", "-r", str(reg), "--today", "2026-12-02", str(seed))
    assert code == 0 and f"created {reg}: 43 added" in err
    assert reg.read_text(encoding="utf-8").startswith("# anchors registry")


def test_report_with_no_history_or_no_run_in_the_window_is_exit_2(tmp_path: Path) -> None:
    reg = tmp_path / "registry.yaml"
    reg.write_text("version: 1\nanchors: []\n", encoding="utf-8")
    code, out, err = run("report", "-r", str(reg), "--now", NOW)
    assert (code, out) == (2, "") and "nothing to report from" in err
    assert not (tmp_path / ".anchors").exists()
    db = tmp_path / ".anchors" / "history.sqlite"
    h = History(db, clock=lambda: 0.0)
    h.record(
        h.start_run(str(reg)),
        [Observation(WebUrl("https://x.example/"), "https://x.example/", Outcome.DEAD, 404)],
    )
    h.close()  # one run, in 1970: nothing in the last week
    code, out, err = run("report", "-r", str(reg), "--now", NOW)
    assert (code, out) == (
        2,
        "",
    ) and f"nothing to report from: no check of {reg} recorded between" in err
    assert "Nothing failed" not in out


def test_help_states_the_rules() -> None:
    def helptext(cmd: str) -> str:
        r = runner.invoke(app, [cmd, "--help"], terminal_width=200)
        return " ".join(r.stdout.replace("│", " ").split())

    assert "A missing file, or one that is not a registry, is exit 2" in helptext("check")
    assert re.search(
        r"check \[OPTIONS\] \[\w+\]\.\.\.", helptext("check"), re.IGNORECASE
    )  # several
    add_help = helptext("add")
    assert "--check" in add_help and "exit 1 if the registry is not up to date" in add_help
    assert "Only `add` creates a registry" in add_help
    rep = helptext("report")
    assert "Exit 1 if any target is dead or newly dead" in rep
    assert "2 if there is nothing to report from" in rep
