"""An unexpected exception (a bug) is exit 70 and one line saying where to report it.

Exit 1 means findings, and for `report` dead links: a crash must never read as either. The
traceback is shown only when asked for (`anchors --debug …`, `ANCHORS_DEBUG=1`).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from anchors.cli.app import app
from anchors.findings import ExitCode

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
ISSUES = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["urls"]["Issues"]


def _boom(*args: object, **kwargs: object) -> object:
    raise ZeroDivisionError("a bug in the exporter")


@pytest.fixture
def broken_export(monkeypatch: pytest.MonkeyPatch) -> None:
    """The library's exporter raises what no code path expects."""
    import anchors.export

    monkeypatch.setattr(anchors.export, "export", _boom)


def _export(*extra: str, env: dict[str, str] | None = None):  # type: ignore[no-untyped-def]
    args = [*extra, "export", "-r", str(DATA / "commented.yaml"), "-f", "bibtex"]
    return CliRunner().invoke(app, args, env={"NO_COLOR": "1", **(env or {})})


@pytest.mark.slow
def test_an_internal_error_is_exit_70_and_one_line_saying_where_to_report_it(
    broken_export: None,
) -> None:
    r = _export()
    assert r.exit_code == ExitCode.INTERNAL == 70, (r.exit_code, r.output)
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and "Traceback" not in r.output, r.stderr
    assert lines[0].startswith("anchors: internal error: ZeroDivisionError: a bug in the exporter")
    assert f"please report it at {ISSUES}" in lines[0]
    assert "(at anchors/" in lines[0] and r.stdout == ""


@pytest.mark.parametrize(
    ("flag", "env"), [("--debug", None), (None, "1"), (None, "yes")], ids=["flag", "env", "yes"]
)
@pytest.mark.slow
def test_the_traceback_is_shown_only_when_asked_for(
    broken_export: None, flag: str | None, env: str | None
) -> None:
    r = _export(*([flag] if flag else []), env={"ANCHORS_DEBUG": env} if env else None)
    assert r.exit_code == 70
    assert r.stderr.startswith("anchors: internal error: ZeroDivisionError")
    assert "Traceback (most recent call last)" in r.stderr and "_boom" in r.stderr
    quiet = _export(env={"ANCHORS_DEBUG": "0"})
    assert quiet.exit_code == 70 and "Traceback" not in quiet.stderr


@pytest.mark.slow
def test_an_internal_error_in_a_real_process_is_exit_70(tmp_path: Path) -> None:
    """The process as a user runs it (through `serve`): no traceback, no exit 1."""
    patch = (
        "import sys, anchors.export\n"
        "def boom(*a, **k): raise RuntimeError('boom')\n"
        "anchors.export.export = boom\n"
        "sys.argv[0] = 'anchors'\n"
        "from anchors.cli.app import main\n"
        "main()\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1"}
    env.pop("ANCHORS_DEBUG", None)
    cmd = [sys.executable, "-c", patch, "export", "-r", str(DATA / "commented.yaml")]
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=60, check=False)
    assert p.returncode == 70, (p.returncode, p.stderr)
    assert p.stderr.count("\n") == 1 and "Traceback" not in p.stderr, p.stderr
    assert p.stderr.startswith("anchors: internal error: RuntimeError: boom (at anchors/")
    assert ISSUES in p.stderr
    shown = subprocess.run(
        [*cmd[:3], "--debug", *cmd[3:]],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert shown.returncode == 70 and "Traceback (most recent call last)" in shown.stderr


@pytest.mark.slow
def test_a_long_or_hostile_message_stays_one_inert_line(monkeypatch: pytest.MonkeyPatch) -> None:
    import anchors.export

    def hostile(*args: object, **kwargs: object) -> object:
        raise ValueError("x\n::error::INJECTED " + "y" * 5000)

    monkeypatch.setattr(anchors.export, "export", hostile)
    r = _export()
    assert r.exit_code == 70 and len(r.stderr.splitlines()) == 1, r.stderr
    assert "::error::" not in r.stderr and len(r.stderr) < 600
    assert ISSUES in r.stderr
