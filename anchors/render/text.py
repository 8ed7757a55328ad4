"""Terminal output: readable at any width, every foreign string escaped, markup never parsed.

A finding is a head line `file:line: severity code anchor` that is never cut or wrapped (the
terminal may fold it; copying keeps it whole), then its message wrapped under it. `concise` is
one finding a line, for grep and editors.
"""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ..findings import Finding, Severity
from .escape import plain

if TYPE_CHECKING:
    from ..merge import MergeResult
    from ..registry.validate import CheckResult

__all__ = ["add_result", "check_result", "clip", "concise"]

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
    head = Text.assemble((_where(f) + ":", "bold"), " ", (f.severity.value, _STYLE[f.severity]),
                         " ", (f.code.value, "bold"), no_wrap=True, overflow="ignore")
    if f.anchor:
        head.append(" " + plain(f.anchor))
    body = textwrap.wrap(plain(f.message), max(width - len(_INDENT), 20), break_long_words=False,
                         break_on_hyphens=False)
    return [head, *(Text(_INDENT + line, no_wrap=True, overflow="ignore") for line in body)]


def check_result(r: CheckResult, width: int = 80) -> Group:
    """Findings in the order given; the summary is the CLI's, printed once on stderr."""
    lines: list[Text] = []
    for f in r.findings:
        lines += _finding(f, width)
    return Group(*lines)


def concise(r: CheckResult) -> str:
    """`registry.yaml:12: dead-link https://… HTTP 404`: one finding a line, nothing else."""
    out = []
    for f in r.findings:
        anchor = f" {plain(f.anchor)}" if f.anchor else ""
        out.append(f"{_where(f)}: {f.code.value}{anchor} {plain(f.message)}\n")
    return "".join(out)


def _table(title: str, *cols: str) -> Table:
    t = Table(title=title, title_justify="left", show_lines=False)
    for col in cols:
        # Anchors and locations fold rather than lose characters; titles are clipped with "…".
        keep = col in ("anchor", "where", "citation", "file")
        t.add_column(col, overflow="fold" if keep else "ellipsis", no_wrap=keep)
    return t


def add_result(r: MergeResult) -> Group:
    parts: list[RenderableType] = []
    if r.entries:
        t = _table("Anchors", "change", "anchor", "first anchored", "status", "section", "title")
        extended = set(r.extended)
        for key, e in r.entries.items():
            what = "added" if key in r.added else "continued" if key in extended else "unchanged"
            t.add_row(_t(what), _t(str(e.key)), _t(e.first_anchored), _t(e.status.value),
                      _t(e.section or ""), _t(clip(e.title or "", 60)))
        parts.append(t)
    if r.duplicates:
        t = _table("Duplicates in one briefing (merged into one entry)", "anchor", "file", "lines")
        for d in r.duplicates:
            t.add_row(_t(d.anchor), _t(d.path), _t(", ".join(map(str, d.lines))))
        parts.append(t)
    if r.conflicts:
        t = _table("Conflicts (first value kept)", "anchor", "where", "field", "kept", "other",
                   "against")
        for c in r.conflicts:
            t.add_row(_t(c.anchor), _t(f"{c.path}:{c.line}"), _t(c.field), _t(clip(c.kept, 50)),
                      _t(clip(c.other, 50)), _t(c.against))
        parts.append(t)
    if r.invalid or r.later:
        t = _table("Invalid citations (not written)", "citation", "where", "reason")
        for i in r.invalid:
            t.add_row(_t(i.raw), _t(f"{i.path}:{i.line}"), _t(i.reason))
        for raw, path, line in r.later:
            t.add_row(_t(raw), _t(f"{path}:{line}"),
                      _t("warning: later than the briefing's own month (written)"))
        parts.append(t)
    if r.unbacked:
        t = _table("Continuity claims the registry does not back (warnings)", "anchor", "where",
                   "unbacked-claim")
        for u in r.unbacked:
            t.add_row(_t(u.anchor), _t(f"{u.path}:{u.line}"), _t(u.message))
        parts.append(t)
    return Group(*parts)
