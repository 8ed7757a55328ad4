"""The environment as it really is: closed or full stdout, odd encodings, bad option values,
broken caches and histories. Each is one line and exit 2, or a warning where nothing is lost."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .envtools import ANCHORS, TODAY, anchors, one_error_line

DATA = Path(__file__).resolve().parent.parent / "data"

pytestmark = [pytest.mark.reliability(kind="env"), pytest.mark.timeout(60)]


def _reg(tmp_path: Path) -> Path:
    reg = tmp_path / "registry.yaml"
    shutil.copy(DATA / "commented.yaml", reg)
    return reg


def test_closed_stdout_is_one_line(tmp_path: Path) -> None:
    reg = _reg(tmp_path)
    code = ("import os, subprocess, sys; os.close(1); "
            "sys.exit(subprocess.call(sys.argv[1:], stdout=None))")
    p = subprocess.run([sys.executable, "-c", code, *ANCHORS, "check", "--offline", str(reg)],
                       capture_output=False, stderr=subprocess.PIPE, text=True, timeout=60)
    p.stdout = ""
    one_error_line(p, "standard output", "closed")  # type: ignore[arg-type]


def test_full_stdout_is_one_line(tmp_path: Path) -> None:
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full here")
    reg = _reg(tmp_path)
    with open("/dev/full", "w") as full:
        p = subprocess.run([*ANCHORS, "check", "--offline", str(reg)], stdout=full,
                           stderr=subprocess.PIPE, text=True, timeout=60)
    p.stdout = ""
    one_error_line(p, "standard output", "no space left on device")  # type: ignore[arg-type]


@pytest.mark.parametrize("fmt", ["text", "markdown"])
def test_ascii_stdout_is_one_line_naming_the_fix(tmp_path: Path, fmt: str) -> None:
    reg = tmp_path / "registry.yaml"
    reg.write_text('version: 1\nanchors:\n  - arxiv: "2609.19969"\n    标题: x\n'
                   "    first_anchored: 2026-09-21\n    status: new\n", encoding="utf-8")
    p = anchors("check", "--offline", "-f", fmt, str(reg), "--today", TODAY,
                env={"PYTHONIOENCODING": "ascii"})
    one_error_line(p, "standard output", "PYTHONIOENCODING=utf-8")
    ok = anchors("check", "--offline", "-f", "json", str(reg), "--today", TODAY,
                 env={"PYTHONIOENCODING": "ascii"})
    assert ok.returncode == 1 and "\\u6807" in ok.stdout  # JSON escapes, so it always fits
