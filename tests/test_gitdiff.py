"""`--changed-since REF`: only the entries a branch adds or edits are checked online."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from anchors.errors import UsageError
from anchors.registry.gitdiff import changed_keys
from anchors.registry.loader import load

ENTRY = '  - arxiv: "{id}"\n    first_anchored: 2026-09-24\n    status: {status}\n'


def git(cwd: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-C", str(cwd), "-c", "user.name=t", "-c", "user.email=t@t", *args],
        check=True,
        capture_output=True,
    )


def test_changed_and_added_entries_only(tmp_path: Path) -> None:
    git(tmp_path, "init", "-q")
    reg = tmp_path / "registry.yaml"
    reg.write_text(
        "version: 1\nanchors:\n"
        + ENTRY.format(id="2609.00001", status="new")
        + ENTRY.format(id="2609.00002", status="new"),
        encoding="utf-8",
    )
    git(tmp_path, "add", ".")
    git(tmp_path, "commit", "-qm", "base")
    reg.write_text(
        "version: 1\nanchors:\n"
        + ENTRY.format(id="2609.00001", status="new")
        + ENTRY.format(id="2609.00002", status="continued")
        + ENTRY.format(id="2609.00003", status="new"),
        encoding="utf-8",
    )
    assert changed_keys(load(reg), "HEAD") == {"arxiv:2609.00002", "arxiv:2609.00003"}


def test_not_a_checkout_or_bad_ref(tmp_path_factory: pytest.TempPathFactory) -> None:
    folder = tmp_path_factory.mktemp("copy")  # no .git in it or above it
    reg = folder / "registry.yaml"
    reg.write_text("version: 1\nanchors:\n", encoding="utf-8")
    with pytest.raises(UsageError, match="not in a git checkout"):
        changed_keys(load(reg), "HEAD")
    git(folder, "init", "-q")
    git(folder, "add", ".")
    git(folder, "commit", "-qm", "base")
    with pytest.raises(UsageError, match="--changed-since nope"):
        changed_keys(load(reg), "nope")
