"""Terminal output: readable at any width, every foreign string escaped, markup never parsed.

A finding is a head line `file:line: severity code anchor` that is never cut or wrapped (the
terminal may fold it; copying keeps it whole), then its message wrapped under it. `concise` is
one finding a line, for grep and editors.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable
from typing import TYPE_CHECKING

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ..findings import Finding, Severity
from .escape import plain

if TYPE_CHECKING:
    from ..merger import MergeResult
    from ..result import CheckResult

__all__ = ["add_result", "check_result", "clip", "concise", "findings"]

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
    out = []
    for f in r.findings:
        anchor = f" {plain(f.anchor)}" if f.anchor else ""
        out.append(f"{_where(f)}: {f.code.value}{anchor} {plain(f.message)}\n")
    return "".join(out)


#: short columns that are never cut (a date, a status word): they take their natural width
_WHOLE = ("change", "first anchored", "status", "line", "severity", "code")
#: columns that fold onto more lines rather than lose characters (anchors, locations)
_FOLD = ("anchor", "where", "citation", "file")


def _table(title: str, *cols: str) -> Table:
    """A table whose long columns share the width left by the short ones (by ratio: a column
    sized by its content would squeeze the others to nothing in 80 columns)."""
    t = Table(title=title, title_justify="left", show_lines=False, expand=True)
    for col in cols:
        if col in _WHOLE:
            t.add_column(col, no_wrap=True)
        elif col in _FOLD:
            t.add_column(col, overflow="fold", ratio=3)
        else:  # titles, sections, messages: one line, clipped with "…"
            t.add_column(col, overflow="ellipsis", no_wrap=True, ratio=1 if col == "section" else 3)
    return t


def add_result(r: MergeResult, width: int = 80) -> Group:
    """What the merge does to each anchor, then its findings as `check` prints them."""
    parts: list[RenderableType] = []
    if r.entries:
        t = _table("Anchors", "change", "anchor", "first anchored", "status", "section", "title")
        extended = set(r.extended)
        for key, e in r.entries.items():
            what = "added" if key in r.added else "continued" if key in extended else "unchanged"
            t.add_row(
                _t(what),
                _t(str(e.key)),
                _t(e.first_anchored),
                _t(e.status.value),
                _t(e.section or ""),
                _t(clip(e.title or "", 60)),
            )
        parts.append(t)
    if r.findings:
        parts += [Text()] if parts else []  # a blank line between the table and the findings
        parts += findings(r.findings, width)
    return Group(*parts)
