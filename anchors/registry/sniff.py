"""Which kind of file a user handed over, so the wrong one gets a hint, not a puzzle.

`add` reads briefings (Markdown or text) and `check` reads registries (YAML); handing either the
other is an everyday slip. A registry given to `add` as a briefing would be merged as prose
(titles `arxiv: "`, sections `§1.3 KV Cache"`), and a briefing given to `check` fails as YAML.
Both are decided from the name and the first lines, never by running a parser on untrusted
input beyond a bounded JSON or YAML compose.
"""

from __future__ import annotations

import difflib
import os
import re
from pathlib import Path, PurePath

import yaml

from ..jsonread import loads

__all__ = ["looks_like_briefing", "nearby", "structured_kind"]

_YAML = frozenset({".yaml", ".yml"})
_JSON = frozenset({".json", ".jsonl", ".geojson", ".ipynb"})
_PROSE = frozenset({".md", ".markdown", ".mdown", ".mkd", ".mdx", ".txt", ".text", ".rst"})
#: a registry's own top-level keys, written as a registry writes them
_REGISTRY_KEY = re.compile(r"^(?:version:\s*['\"]?\d|anchors:\s*(?:#.*)?$)", re.MULTILINE)
_KEY_LINE = re.compile(r"[A-Za-z_][\w.-]*:(?:\s|$)")
_HEADING = re.compile(r"^#{1,6}\s+\S", re.MULTILINE)
_LINK = re.compile(r"\]\(|https?://|arxiv", re.IGNORECASE)
#: how much of a file the content tests read
_HEAD = 64 * 1024


def _first_line(text: str) -> str:
    """The first line that is neither blank nor a `#` comment."""
    for line in text[:_HEAD].splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            return line
    return ""


def structured_kind(path: str, text: str) -> str | None:
    """What a structured file is (`an anchors registry`, `YAML`, `JSON`), by its name or its
    content; None for prose."""
    suffix = PurePath(path).suffix.lower()
    head = text[:_HEAD]
    if _REGISTRY_KEY.search(head) and suffix not in _PROSE:
        return "an anchors registry"
    if suffix in _YAML:
        return "YAML"
    if suffix in _JSON or _is_json(text):
        return "JSON"
    if suffix not in _PROSE and _KEY_LINE.match(_first_line(text)) and _is_yaml_mapping(text):
        return "YAML"
    return None


def _is_json(text: str) -> bool:
    start = text.lstrip()[:1]
    if start not in ("{", "["):
        return False
    try:
        return isinstance(loads(text), (dict, list))
    except ValueError:
        return False


def _is_yaml_mapping(text: str) -> bool:
    """A YAML mapping of several keys (prose that starts with `Date: …` is not one)."""
    try:
        node = yaml.compose(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.YAMLError:
        return False
    return isinstance(node, yaml.MappingNode) and len(node.value) > 1


def looks_like_briefing(path: str, text: str) -> bool:
    """A Markdown or text file, by its name, or (under another name) a Markdown heading and a
    link or arXiv ID in its first lines."""
    suffix = PurePath(path).suffix.lower()
    if suffix in _PROSE:
        return True
    if suffix in _YAML or suffix in _JSON:
        return False
    head = text[:_HEAD]
    return bool(_HEADING.search(head) and _LINK.search(head) and not _REGISTRY_KEY.search(head))


#: how many names of a folder `nearby` reads at most (a huge folder costs no more)
_SCAN = 2000


def nearby(missing: Path) -> list[str]:
    """Registries a typo'd path may have meant, as the user would type them: a YAML file of a
    close name in its folder (`registry.yml` for `registry.yaml`), or the same name in a folder
    just under it (`data/registry.yaml`)."""
    folder, name = missing.parent, missing.name
    stem = PurePath(name).stem.lower()
    found: list[Path] = []
    try:
        with os.scandir(folder) as it:
            entries = [e for _, e in zip(range(_SCAN), it)]
    except OSError:
        return []
    files = {e.name: e for e in entries if _is_file(e) and PurePath(e.name).suffix in _YAML}
    close = difflib.get_close_matches(name, list(files), n=3, cutoff=0.75)
    same_stem = [n for n in files if PurePath(n).stem.lower() == stem and n not in close]
    found += [folder / n for n in close + same_stem]
    for e in entries:
        if _is_dir(e) and not e.name.startswith(".") and (Path(e.path) / name).is_file():
            found.append(folder / e.name / name)
    return [str(p) for p in found[:3]]


def _is_file(e: os.DirEntry[str]) -> bool:
    try:
        return e.is_file()
    except OSError:
        return False


def _is_dir(e: os.DirEntry[str]) -> bool:
    try:
        return e.is_dir()
    except OSError:
        return False
