"""Terminal output: readable at any width, every foreign string escaped, markup never parsed.

A finding is a head line `file:line: severity code anchor` that is never cut or wrapped (the
terminal may fold it; copying keeps it whole), then its message wrapped under it. `concise` is
one finding a line, for grep and editors.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable
from typing import TYPE_CHECKING

from rich.cells import cell_len
from rich.console import Group, RenderableType
from rich.text import Text

from ..findings import Finding, Severity
from ..merger import Change
from .escape import plain
from .summary import plural

if TYPE_CHECKING:
    from ..merger import MergeResult
    from ..result import CheckResult

__all__ = ["add_concise", "add_result", "check_result", "clip", "concise", "findings"]

_STYLE = {Severity.ERROR: "bold red", Severity.WARNING: "yellow", Severity.INFO: "cyan"}
_INDENT = "    "


def clip(s: str, n: int) -> str:
    """At most `n` characters, with "…" when something was cut."""
    return s if len(s) <= n else s[: n - 1].rstrip() + "…"


def _where(f: Finding) -> str:
    return plain(f"{f.file}:{f.line}" if f.line else f.file)


def _t(s: object) -> Text:
    return Text(plain(str(s)))


def _finding(f: Finding, width: int) -> list[Text]:
    head = Text.assemble(
        (_where(f) + ":", "bold"),
        " ",
        (f.severity.value, _STYLE[f.severity]),
        " ",
        (f.code.value, "bold"),
        no_wrap=True,
        overflow="ignore",
    )
    if f.anchor:
        head.append(" " + plain(f.anchor))
    body = textwrap.wrap(
        plain(f.message),
        max(width - len(_INDENT), 20),
        break_long_words=False,
        break_on_hyphens=False,
    )
    return [head, *(Text(_INDENT + line, no_wrap=True, overflow="ignore") for line in body)]


def findings(fs: Iterable[Finding], width: int = 80) -> list[Text]:
    """Findings in the order given, the same for every command that reports them."""
    return [line for f in fs for line in _finding(f, width)]


def check_result(r: CheckResult, width: int = 80) -> Group:
    """The findings; the summary is the CLI's, printed once on stderr."""
    return Group(*findings(r.findings, width))


def concise(r: CheckResult) -> str:
    """`registry.yaml:12: dead-link https://… HTTP 404`: one finding a line, nothing else."""
    return "".join(_concise(f) for f in r.findings)


def _concise(f: Finding) -> str:
    anchor = f" {plain(f.anchor)}" if f.anchor else ""
    return f"{_where(f)}: {f.code.value}{anchor} {plain(f.message)}\n"


_CHANGE_STYLE = {"added": "green", "continued": "cyan", "unchanged": "dim"}


def _anchor_line(r: MergeResult, key: str, change: Change) -> tuple[str, str, str]:
    """`briefing.md:5:`, `added 2609.18063 §1.3 KV Cache` and the title, each escaped."""
    e = r.entries[key]
    path, line = r.cited_at.get(key, (r.registry, 0))
    where = plain(f"{path}:{line}:" if line else f"{path}:")
    what = f"{change.value} {plain(str(e.key))}" + (f" {plain(e.section)}" if e.section else "")
    return where, what, plain(e.title or "")


def add_concise(r: MergeResult) -> str:
    """One line per anchor of the briefings, what the merge does to it, then the findings as
    `check --format concise` prints them: `briefing.md:5: added 2609.18063 §1.3 KV Cache "…"`."""
    out = []
    for key, change in r.change_of().items():
        where, what, title = _anchor_line(r, key, change)
        out.append(f"{where} {what}" + (f' "{title}"' if title else "") + "\n")
    out += (_concise(f) for f in r.findings)
    return "".join(out)


def add_result(r: MergeResult, width: int = 80) -> Group:
    """What changed (added, continued), one line each with the title clipped to the width, a
    count of the anchors left unchanged, then the findings as `check` prints them."""
    lines = Text(no_wrap=True, overflow="ignore", end="")
    unchanged = 0
    for key, change in r.change_of().items():
        if change is Change.UNCHANGED:
            unchanged += 1
            continue
        where, what, title = _anchor_line(r, key, change)
        room = width - cell_len(f'{where} {what}  ""')
        lines.append(where, "bold")
        lines.append(" ")
        lines.append(change.value, _CHANGE_STYLE[change.value])
        lines.append(what[len(change.value) :])
        if title and room >= 12:  # what the width leaves, in terminal cells (中文 takes two)
            shown = Text(title)
            shown.truncate(room, overflow="ellipsis")
            lines.append(f'  "{shown.plain}"')
        lines.append("\n")
    parts: list[RenderableType] = [lines] if lines else []
    if unchanged:
        parts.append(Text(f"{plural(unchanged, 'anchor')} unchanged (already recorded)"))
    if r.findings:
        parts += [Text()] if parts else []  # a blank line before the findings
        parts += findings(r.findings, width)
    return Group(*parts)
