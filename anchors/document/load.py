"""Reading the living documents a run names: through the one reader for repository files.

A document is a file of the checked repository, so it is read as every repository file is
(`files.repo`): a regular file inside its repository once symlinks are resolved, at most
`MAX_BYTES`; anything else is exit 2 naming the path. Paths from a config file were already
confined to the repository when the settings were read (`config.trust`). anchors never writes
a document.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from ..files.repo import read_text, repository_root
from .model import LivingDocument
from .reader import parse_document

__all__ = ["read_documents", "shown"]


def read_documents(paths: Iterable[str]) -> list[LivingDocument]:
    """Each document once (two spellings of one file are one), parsed, in the order given."""
    out = []
    seen: set[str] = set()
    for path in paths:
        real = os.path.realpath(path)
        if real in seen:
            continue
        seen.add(real)
        text = read_text(path, repository_root(Path(path).absolute().parent))
        out.append(parse_document(text.removeprefix("\ufeff"), shown(path)))
    return out


def shown(path: str) -> str:
    """The path as findings name it: relative to the working folder when it lies under it (a
    config file's paths arrive absolute), else as given."""
    given = Path(path)
    if not given.is_absolute():
        return path
    try:
        return given.relative_to(Path.cwd()).as_posix()
    except ValueError:
        return path
