"""Registries a test writes: the few lines of YAML that cite some URLs, written in one place."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

__all__ = ["url_registry"]


def url_registry(folder: Path, urls: Iterable[str]) -> Path:
    """`folder/registry.yaml` citing each of `urls` (quoted: a URL may hold YAML's `:` or `#`),
    each a new anchor first seen on 2026-09-24."""
    reg = folder / "registry.yaml"
    reg.write_text(
        "version: 1\nanchors:\n"
        + "".join(
            f'  - url: "{u}"\n    first_anchored: 2026-09-24\n    status: new\n' for u in urls
        ),
        encoding="utf-8",
    )
    return reg
