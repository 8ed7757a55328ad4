"""The console entry point: `--version` answers without importing the CLI framework."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

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


@pytest.mark.slow
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


#: what an offline check never needs: the network stack, the briefing extractor (read only to
#: say where a dead link is cited), the merge and its file lock, rich (a pipe gets plain lines)
_NOT_OFFLINE = (
    "aiohttp",
    "anchors.extract",
    "anchors.merging.merge",
    "anchors.titles",
    "arxiv",
    "filelock",
    "httpx",
    "lxml",
    "rich",
)


@pytest.mark.slow
def test_an_offline_check_imports_only_what_it_uses() -> None:
    """`check --offline` on the bundled registry runs in pre-commit hooks: each module above
    was ~10-35 ms of its start-up. Counted by name, quiet or not, in a pipe."""
    for quiet in ([], ["-q"]):
        code = (
            "import sys, anchors.render.console as c\n"
            f"sys.argv = ['anchors', 'check', '--offline', 'registry.yaml', *{quiet!r}]\n"
            "from anchors.cli.app import main\n"
            "try:\n    main()\nexcept SystemExit as e:\n    code = e.code\n"
            f"print(sorted(m for m in {_NOT_OFFLINE!r} if m in sys.modules), code)"
        )
        p = subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            cwd=ROOT,
            timeout=60,
            check=False,
        )
        assert p.stdout.splitlines()[-1] == "[] 0", (quiet, p.stdout, p.stderr)
        assert (p.stderr == "") == bool(quiet), p.stderr  # the summary line, unless quiet


def test_stderr_lines_are_written_as_rich_writes_them() -> None:
    """Summaries and warnings reach stderr without rich, byte for byte what rich printed."""
    import io

    from rich.console import Console

    from anchors.render.console import ErrConsole

    for text in ("3 anchors checked, 0 findings", "tab\there", "bell\x07 cr\r ff\x0c", "中文 line"):
        want = io.StringIO()
        Console(file=want, highlight=False, soft_wrap=True, markup=False, emoji=False).print(text)
        got = io.StringIO()
        real, sys.stderr = sys.stderr, got
        try:
            ErrConsole().print(text)
        finally:
            sys.stderr = real
        assert got.getvalue() == want.getvalue()
