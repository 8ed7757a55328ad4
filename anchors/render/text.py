"""Terminal output with rich tables; every foreign string is escaped, markup is never parsed."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Group
from rich.table import Table
from rich.text import Text

from ..findings import Severity
from .escape import plain

if TYPE_CHECKING:
    from ..merge import MergeResult
    from ..validate import CheckResult

__all__ = ["add_result", "add_summary", "check_result"]

_STYLE = {Severity.ERROR: "bold red", Severity.WARNING: "yellow", Severity.INFO: "cyan"}


def _t(s: object) -> Text:
    return Text(plain(str(s)))


def add_result(r: MergeResult) -> Group:
    parts: list[object] = []
    if r.entries:
        t = Table(title="Anchors", title_justify="left", show_lines=False)
        for col in ("", "anchor", "first anchored", "status", "section", "title"):
            t.add_column(col)
        extended = set(r.extended)
        for key, e in r.entries.items():
            what = "added" if key in r.added else "continued" if key in extended else "unchanged"
            t.add_row(_t(what), _t(str(e.key)), _t(e.first_anchored), _t(e.status.value),
                      _t(e.section or ""), _t((e.title or "")[:60]))
        parts.append(t)
    if r.duplicates:
        t = Table(title="Duplicates in one briefing (merged into one entry)", title_justify="left")
        t.add_column("anchor"), t.add_column("file"), t.add_column("lines")
        for d in r.duplicates:
            t.add_row(_t(d.anchor), _t(d.path), _t(", ".join(map(str, d.lines))))
        parts.append(t)
    if r.conflicts:
        t = Table(title="Conflicts (first value kept)", title_justify="left")
        for col in ("anchor", "where", "field", "kept", "other", "against"):
            t.add_column(col)
        for c in r.conflicts:
            t.add_row(_t(c.anchor), _t(f"{c.path}:{c.line}"), _t(c.field), _t(c.kept[:50]),
                      _t(c.other[:50]), _t(c.against))
        parts.append(t)
    if r.invalid or r.later:
        t = Table(title="Invalid citations (not written)", title_justify="left")
        t.add_column("citation"), t.add_column("where"), t.add_column("reason")
        for i in r.invalid:
            t.add_row(_t(i.raw), _t(f"{i.path}:{i.line}"), _t(i.reason))
        for raw, path, line in r.later:
            t.add_row(_t(raw), _t(f"{path}:{line}"),
                      _t("warning: later than the briefing's own month (written)"))
        parts.append(t)
    if r.unbacked:
        t = Table(title="Continuity claims the registry does not back (warnings)",
                  title_justify="left")
        t.add_column("anchor"), t.add_column("where"), t.add_column("unbacked-claim")
        for u in r.unbacked:
            t.add_row(_t(u.anchor), _t(f"{u.path}:{u.line}"), _t(u.message))
        parts.append(t)
    return Group(*parts)


def add_summary(r: MergeResult, dry_run: bool = False, gate: bool = False) -> str:
    """The one stderr line of `anchors add`: what was (or would be) written, or that nothing was.

    With `gate` (`add --check`) it says whether the registry is up to date with the briefings.
    """
    counts = (f"{len(r.added)} added, {len(r.extended)} continued, {len(r.duplicates)} "
              f"duplicates, {len(r.conflicts)} conflicts, {len(r.invalid)} invalid, "
              f"{len(r.unbacked)} unbacked claims")
    if gate and not r.up_to_date:
        what = "does not exist" if r.new_file else "is not up to date with the briefings"
        return (f"{r.registry} {what}: {len(r.added)} would be added, {len(r.extended)} "
                f"continued; run `anchors add` with these briefings and commit the registry")
    if r.up_to_date and not r.new_file:
        return (f"{r.registry} is already up to date: its {len(r.entries)} cited anchors are all "
                f"recorded, nothing to add or continue ({len(r.duplicates)} duplicates, "
                f"{len(r.conflicts)} conflicts, {len(r.invalid)} invalid)")
    if r.new_file:
        verb = "would create" if dry_run else "created" if r.written else "did not create"
    else:
        verb = "would change" if dry_run else "wrote" if r.written else "no change to"
    return f"{verb} {r.registry}: {counts}"


def check_result(r: CheckResult) -> Group:
    if not r.findings:
        return Group(Text(f"{r.anchors} anchors, no findings"))
    t = Table(show_lines=False)
    for col in ("severity", "code", "where", "anchor", "message"):
        t.add_column(col)
    for f in sorted(r.findings, key=lambda f: (f.severity.rank, f.line or 0)):
        where = f"{f.file}:{f.line}" if f.line else f.file
        t.add_row(Text(f.severity.value, style=_STYLE[f.severity]), _t(f.code.value), _t(where),
                  _t(f.anchor), _t(f.message))
    return Group(t)

