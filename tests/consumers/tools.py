"""The real programs each output is fed to, found where `.ci/consumers` installs them.

A consumer test whose program is missing skips on a developer's machine and FAILS under
`CI=true`, so CI can never pass by skipping the check (DECISIONS: a skipped check cannot
fail). `.ci/consumers` installs them all: Debian's chromium and TeX, npm's mermaid and SARIF
Multitool (into `.ci/tools`, or `$ANCHORS_TOOLS`).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
INSTALL = "run `bash .ci/consumers` (as root) to install it"


def tools_dir() -> Path:
    return Path(os.environ.get("ANCHORS_TOOLS") or ROOT / ".ci" / "tools")


def missing(what: str, install: str = INSTALL) -> None:
    """Skip, or fail under CI, for a tool that is not installed (`install` says how to get it)."""
    message = f"{what} is not installed: {install}"
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(message)
    pytest.skip(message)


def program(*names: str) -> str:
    """The first of `names` on PATH."""
    for name in names:
        found = shutil.which(name)
        if found:
            return found
    missing(names[0])
    raise AssertionError  # not reached: missing() skips or fails


def node_file(relative: str) -> Path:
    """A file of an npm package installed under the tools folder."""
    path = tools_dir() / "node_modules" / relative
    if not path.exists():
        missing(f"{path}")
    return path
