"""Runs are found again however the history travels: older names read from a subfolder, a
copied checkout, a history file downloaded elsewhere (`anchors/history/store.py`, `registry_id`)."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from anchors.cli.app import app
from anchors.findings import Outcome
from anchors.history import History, Observation
from anchors.ids.model import WebUrl

DEAD = "https://example.org/dead"
MOVED = "https://example.org/old"
REGISTRY = (
    "version: 1\nanchors:\n"
    f'  - url: "{DEAD}"\n    first_anchored: 2026-09-20\n    status: new\n'
    f'  - url: "{MOVED}"\n    first_anchored: 2026-09-20\n    status: new\n'
)


def _project(root: Path, recorded_as: str | None) -> Path:
    """A checkout with one run: recorded by name as an older anchors did (`recorded_as`), or
    by this one (None)."""
    (root / "docs").mkdir(parents=True)
    reg = root / "registry.yaml"
    reg.write_text(REGISTRY, encoding="utf-8")
    h = History(root / ".anchors" / "history.sqlite")
    at = time.time() - 3600
    if recorded_as is None:
        run = h.start_run(str(reg), started_at=at)
    else:
        run = int(
            h.db.execute(
                "INSERT INTO runs (started_at, registry) VALUES (?, ?)", (at, recorded_as)
            ).lastrowid
            or 0
        )
    h.record(
        run,
        [
            Observation(WebUrl(DEAD), DEAD, Outcome.DEAD, 404, checked_at=at + 1),
            Observation(
                WebUrl(MOVED), MOVED, Outcome.REDIRECT, 301, MOVED + "/new", checked_at=at + 1
            ),
        ],
    )
    h.finish_run(run, True, at + 2)
    h.close()
    return reg


def _report_and_fix(monkeypatch: pytest.MonkeyPatch, cwd: Path, *args: str) -> None:
    monkeypatch.chdir(cwd)
    r = CliRunner().invoke(app, ["report", *args])
    assert r.exit_code == 1 and DEAD in r.stdout, r.output
    r = CliRunner().invoke(app, ["fix", *args, "--dry-run"])
    assert MOVED + "/new" in r.output, r.output


def test_old_relative_names_are_read_from_a_subfolder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _project(tmp_path, "registry.yaml")
    _report_and_fix(monkeypatch, tmp_path / "docs", "-r", "../registry.yaml")


def test_a_copied_checkout_keeps_its_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _project(tmp_path / "proj", None)
    shutil.copytree(tmp_path / "proj", tmp_path / "copy")
    shutil.rmtree(tmp_path / "proj")
    _report_and_fix(monkeypatch, tmp_path / "copy", "-r", "registry.yaml")


def test_a_history_moved_elsewhere_is_read_with_history(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A CI artifact: the history of another machine's checkout, read beside this one's."""
    _project(tmp_path / "ci", None)
    (tmp_path / "artifact").mkdir()
    shutil.copy(tmp_path / "ci" / ".anchors" / "history.sqlite", tmp_path / "artifact" / "h.sqlite")
    shutil.copytree(tmp_path / "ci", tmp_path / "here")
    shutil.rmtree(tmp_path / "ci")
    monkeypatch.chdir(tmp_path / "here")
    r = CliRunner().invoke(
        app, ["report", "-r", "registry.yaml", "--history", "../artifact/h.sqlite"]
    )
    assert r.exit_code == 1 and DEAD in r.stdout, r.output
