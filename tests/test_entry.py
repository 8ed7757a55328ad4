"""The console entry point: `--version` answers without importing the CLI framework."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from anchors import __version__

ROOT = Path(__file__).resolve().parent.parent


def _run(code: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )


def test_version_is_answered_without_typer_or_the_network_stack() -> None:
    code = (
        "import sys; sys.argv = ['anchors', '--version']\n"
        "from anchors.cli.entry import main; main()\n"
        "print(sorted(m for m in ('typer', 'rich', 'httpx', 'aiohttp', 'yaml') "
        "if m in sys.modules))"
    )
    p = _run(code)
    assert p.returncode == 0, p.stderr
    assert p.stdout == f"anchors {__version__}\n[]\n"


def test_everything_else_goes_to_the_cli() -> None:
    p = subprocess.run(
        [sys.executable, "-m", "anchors", "--version", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert p.returncode == 0 and "Usage" in p.stdout
    p = subprocess.run(
        [
            sys.executable,
            "-m",
            "anchors",
            "check",
            "--offline",
            str(ROOT / "tests" / "data" / "no-such.yaml"),
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert p.returncode == 2 and p.stderr.startswith("anchors: error:")
