"""Markdown output for `check`: a table per severity, safe to paste into an issue."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING

from ..report.weekly import Report, ReportRow, Section
from .changes import markdown_changes
from .escape import markdown, markdown_code, markdown_url
from .summary import anchor_states, findings_counts, plural

if TYPE_CHECKING:
    from ..registry.validate import CheckResult

__all__ = ["check_result", "report"]


def check_result(r: CheckResult) -> str:
    """One table, findings in the order every format uses (file, line)."""
    out = [
        f"## anchors check: {markdown(r.registry)}",
        "",
        (
            f"{plural(r.anchors, 'anchor')} checked on {r.today.isoformat()} "
            f"({'online' if r.online else 'offline'}): {anchor_states(r)}. "
            f"Findings: {findings_counts(r)}."
        ),
        "",
    ]
    if r.findings:
        out += ["| severity | code | where | anchor | message |", "|---|---|---|---|---|"]
        for f in r.findings:
            where = f"{f.file}:{f.line}" if f.line else f.file
            out.append(
                f"| {f.severity.value} | {f.code.value} | {markdown(where)} | "
                f"{markdown_code(f.anchor)} | {markdown(f.message)} |"
            )
        out.append("")
    return "\n".join(out) + "\n"


def _day(ts: float | None) -> str:
    if ts is None:
        return "never"
    return datetime.fromtimestamp(ts, UTC).strftime("%Y-%m-%d")


def _archive(url: str) -> str:
    return f"https://web.archive.org/web/*/{markdown_url(url)}"


def _target(row: ReportRow, archive: bool) -> str:
    cell = markdown_code(row.target)
    if archive and row.archived:  # the snapshot the briefing saw, not a search page
        cell += f" ([archived {row.archived[1]}]({markdown_url(row.archived[0])}))"
    elif archive and row.kind == "url":
        cell += f" ([archive]({_archive(row.target)}))"
    return cell


def report(r: Report, registry: str) -> str:
    """The dead-link report as a GitHub issue body: one table per section, no raw HTML."""
    c = r.counts()
    start, end = datetime.fromtimestamp(r.start, UTC), datetime.fromtimestamp(r.now, UTC)
    out = [
        f"## anchors dead-link report: {start:%Y-%m-%d} to {end:%Y-%m-%d}",
        "",
        (
            f"{c['newly-dead']} newly dead, {c['dead']} dead, {c['flaky']} flaky, "
            f"{c['not-dead']} rate-limited/unreachable, {c['recovered']} recovered, "
            f"{c['redirected']} redirected; {plural(r.runs, 'run')} between "
            f"{start:%Y-%m-%d %H:%M} and {end:%Y-%m-%d %H:%M} UTC, {r.targets} links and anchors "
            "tracked "
            f"(registry {markdown_code(registry)})."
        ),
        "",
    ]
    for section in Section:
        rows = r.section(section)
        if not rows:
            continue
        out += [f"### {section.heading}", ""]
        if section is Section.REDIRECTED:
            out += ["| link | now at | section | title | cited in |", "|---|---|---|---|---|"]
            for row in rows:
                out.append(
                    f"| {_target(row, False)} | {markdown_code(row.final_url or '')} | "
                    f"{markdown(row.registry_section or '')} | {markdown(row.title or '')} | "
                    f"{', '.join(row.cited_in)} |"
                )
        else:
            dead = section in (Section.DEAD, Section.NEWLY_DEAD)
            out += [
                (
                    "| link | first failure | last success | failing runs | last error | section "
                    "| title | cited in |"
                ),
                "|---|---|---|---|---|---|---|---|",
            ]
            for row in rows:
                err = row.last_error or row.last_outcome
                out.append(
                    f"| {_target(row, dead)} | {_day(row.first_failure)} | "
                    f"{_day(row.last_success)} | {row.failing_runs} of {row.runs} | "
                    f"{markdown(err)} | "
                    f"{markdown(row.registry_section or '')} | {markdown(row.title or '')} | "
                    f"{', '.join(row.cited_in)} |"
                )
        out.append("")
    if not r.rows:
        out += ["Nothing failed in this window.", ""]
    out += markdown_changes(r)
    return "\n".join(out)
