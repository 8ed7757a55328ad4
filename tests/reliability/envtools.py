"""Real environments for the reliability suite: a small tmpfs, root without its file powers.

CI containers run as root, and root writes through permissions, so the cases that need a
read-only folder or another user's file drop CAP_DAC_OVERRIDE with `capsh` instead of
pretending; a full disk is a 64 KiB tmpfs. Without root (or the tools) those cases skip.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import shutil
import subprocess
import sys
import traceback
from collections.abc import Iterator
from pathlib import Path

import pytest

ANCHORS = [sys.executable, "-m", "anchors"]
TODAY = "2026-12-02"
IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0
#: capabilities that let root ignore file permissions
_POWERS = "cap_dac_override,cap_dac_read_search,cap_fowner"


def run(cmd: list[str], **kw: object) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NO_COLOR": "1", **kw.pop("env", {})}  # type: ignore[dict-item]
    return subprocess.run(  # type: ignore[call-overload, no-any-return]
        cmd, capture_output=True, text=True, timeout=60, env=env, check=False, **kw
    )


def anchors(*args: str, **kw: object) -> subprocess.CompletedProcess[str]:
    return run([*ANCHORS, *args], **kw)


def in_process(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """`anchors ARGS` run in this process (typer's CliRunner), answered as `anchors` is.

    For a case about the arguments or the files, not about the process (its streams, signals
    or privileges): a Python start-up (~0.3 s of CPU) saved per call. An exception that escapes
    the command is written to stderr as the traceback the process would print, so the
    one-line contract (`one_error_line`, `"Traceback" not in stderr`) still fails on it.
    """
    from typer.testing import CliRunner

    from anchors.cli.app import app

    r = CliRunner().invoke(app, list(args), env={"NO_COLOR": "1", **(env or {})})
    err = r.stderr
    if r.exception is not None and not isinstance(r.exception, SystemExit):
        err += "".join(traceback.format_exception(r.exception))
    return subprocess.CompletedProcess(["anchors", *args], r.exit_code, r.stdout, err)


def powerless(*args: str, **kw: object) -> subprocess.CompletedProcess[str]:
    """`anchors ARGS` as root without the capabilities that bypass file permissions."""
    if not IS_ROOT or shutil.which("capsh") is None:
        pytest.skip("needs root and capsh to act like an unprivileged user")
    cmd = shlex.join([*ANCHORS, *args])
    return run(["capsh", f"--drop={_POWERS}", "--", "-c", cmd], **kw)


def one_error_line(p: subprocess.CompletedProcess[str], *needles: str) -> str:
    """Assert the one-line `anchors: error:` contract with exit 2; returns the line."""
    lines = [ln for ln in p.stderr.splitlines() if ln.strip()]
    assert p.returncode == 2, (p.returncode, p.stderr)
    assert "Traceback" not in p.stderr and len(lines) == 1, p.stderr
    assert lines[0].startswith("anchors: error: "), lines[0]
    for n in needles:
        assert n in lines[0], (n, lines[0])
    return lines[0]


@contextlib.contextmanager
def small_tmpfs(where: Path, size: str = "64k") -> Iterator[Path]:
    """A tiny tmpfs mounted at `where` (root only), unmounted afterwards."""
    if not IS_ROOT:
        pytest.skip("needs root to mount a small tmpfs")
    where.mkdir()
    p = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size},mode=0755", "tmpfs", str(where)],
        capture_output=True,
        text=True,
        check=False,
    )
    if p.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {p.stderr.strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], capture_output=True, check=False)


def fill(folder: Path) -> None:
    """Use up every free byte of the file system holding `folder`."""
    with contextlib.suppress(OSError), open(folder / "filler", "wb", buffering=0) as f:
        while True:
            f.write(b"\0" * 512)
