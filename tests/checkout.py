"""Test folders as git checkouts, the way a user's registry folder is one.

State that anchors keeps in a checkout is untracked, so it is the machine's own; a folder in
no checkout cannot prove that (a tarball may carry a forged `.anchors/`), so its state is not
used. Every `tmp_path` is made a checkout (tests/conftest.py); a module's shared folder is made
one with `as_checkout`, and the tests of the other case make a folder with no `.git` above it.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["as_checkout"]


def as_checkout(folder: Path) -> Path:
    """`folder` made the least git reads as a repository (HEAD, objects, refs: ~0.1 ms, where
    `git init` costs a process); `git init` there later adds the rest."""
    git = folder / ".git"
    (git / "objects").mkdir(parents=True)
    (git / "refs").mkdir()
    (git / "HEAD").write_text("ref: refs/heads/main\n", encoding="utf-8")
    return folder
