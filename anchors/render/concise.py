"""One line a finding (or an anchor), for grep and editors: `check` and `add` in a pipe.

Plain strings, no rich: a quiet check in a pipe prints through here, and importing rich
costs a start-up ~15 ms (`render.text` draws the terminal layouts).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .escape import plain

if TYPE_CHECKING:
    from ..findings import Finding
    from ..merging.result import Change, MergeResult
    from ..result import CheckResult

__all__ = ["add_concise", "anchor_line", "concise", "where"]


def where(f: Finding) -> str:
    """`file:line` (or the file) of a finding, escaped."""
    return plain(f"{f.file}:{f.line}" if f.line else f.file)


def concise(result: CheckResult) -> str:
    """`registry.yaml:12: dead-link https://… HTTP 404`: one finding a line, nothing else."""
    return "".join(_concise(f) for f in result.findings)


def _concise(f: Finding) -> str:
    anchor = f" {plain(f.anchor)}" if f.anchor else ""
    return f"{where(f)}: {f.code.value}{anchor} {plain(f.message)}\n"


def anchor_line(result: MergeResult, key: str, change: Change) -> tuple[str, str, str]:
    """`briefing.md:5:`, `added 2609.18063 §1.3 KV Cache` and the title, each escaped."""
    e = result.entries[key]
    path, line = result.cited_at.get(key, (result.registry, 0))
    at = plain(f"{path}:{line}:" if line else f"{path}:")
    what = f"{change.value} {plain(str(e.key))}" + (f" {plain(e.section)}" if e.section else "")
    return at, what, plain(e.title or "")


def add_concise(result: MergeResult) -> str:
    """One line per anchor of the briefings, what the merge does to it, then the findings as
    `check --format concise` prints them: `briefing.md:5: added 2609.18063 §1.3 KV Cache "…"`."""
    out = []
    for key, change in result.change_of().items():
        at, what, title = anchor_line(result, key, change)
        out.append(f"{at} {what}" + (f' "{title}"' if title else "") + "\n")
    out += (_concise(f) for f in result.findings)
    return "".join(out)
