"""Markdown output for `check`: a table per severity, safe to paste into an issue."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from ..report.hosts import of_report
from ..report.weekly import Report, ReportRow, Section
from .budget import ISSUE_LIMIT, STEP_SUMMARY_LIMIT, Part, fit, utf8_size
from .cells import cited, clip, target_cell, text_cell
from .changes import transitions_part
from .escape import markdown, markdown_code, markdown_url
from .summary import anchor_states, findings_counts, plural, runs_words, state_words
from .trend import trend_part
from .waiting import waiting_part

if TYPE_CHECKING:
    from ..findings import Finding
    from ..result import CheckResult

__all__ = ["HOSTS_SHOWN", "check_result", "hosts_part", "report"]


def check_result(result: CheckResult, limit: int = STEP_SUMMARY_LIMIT) -> str:
    """One table, findings in the order every format uses (file, line), at most `limit` bytes
    (`budget`: what a job's step summary may hold): rows beyond are counted in a line that
    points at the run's JSON or SARIF output, which holds every finding."""
    head = (
        f"## anchors check: {markdown(result.registry)}",
        "",
        (
            f"{plural(result.anchors, 'anchor')} checked on {result.today.isoformat()} "
            f"({'online' if result.online else 'offline'}): {anchor_states(result)}. "
            f"Findings: {findings_counts(result)}."
        ),
        "",
    )
    if not result.findings:
        return "\n".join(head) + "\n"
    table = ("| severity | code | where | anchor | message |", "|---|---|---|---|---|")
    rows = tuple(_finding_row(f) for f in result.findings)
    parts = [Part(head, tail=()), Part(table, rows, noun="finding", name="The findings")]
    return fit(parts, limit - 1, _EVERY_FINDING, measure=utf8_size) + "\n"


#: where every finding is when the table is cut
_EVERY_FINDING = "this run's JSON or SARIF output (`--format json` or `sarif`)"
#: a finding's anchor or message longer than this is cut (a row stays a row one can read)
_CELL_CHARS = 2_000


def _finding_row(f: Finding) -> str:
    where = f"{f.file}:{f.line}" if f.line else f.file
    return (
        f"| {f.severity.value} | {f.code.value} | {markdown(clip(where, _CELL_CHARS))} | "
        f"{markdown_code(clip(f.anchor, _CELL_CHARS))} | {markdown(clip(f.message, _CELL_CHARS))} |"
    )


def _day(ts: float | None) -> str:
    if ts is None:
        return "never"
    return datetime.fromtimestamp(ts, UTC).strftime("%Y-%m-%d")


def _archive(row: ReportRow) -> str:
    """A dead link's archived copy: the snapshot the briefing saw, else the archive's index."""
    if row.archived:
        return f" ([archived {markdown(row.archived[1])}](<{markdown_url(row.archived[0])}>))"
    if row.kind == "url":
        return f" ([archive](<https://web.archive.org/web/*/{markdown_url(row.target)}>))"
    return ""


def _about(row: ReportRow) -> str:
    return text_cell(row.title, row.registry_section, cited(row.cited_in))


def _failing_row(row: ReportRow, dead: bool) -> str:
    err = clip(row.last_error or row.last_outcome.value)
    since = row.dead_since if dead and row.dead_since is not None else row.first_failure
    return (
        f"| {target_cell(row.kind, row.target, row.anchor)}{_archive(row) if dead else ''} | "
        f"{_about(row)} | {_day(since)} | {_day(row.last_success)} | "
        f"{markdown(err)} ({row.failing_runs} of {row.runs} runs) |"
    )


def _redirect_row(row: ReportRow) -> str:
    now_at = target_cell("url", row.final_url, row.final_url) if row.final_url else ""
    if row.soft_404:  # `check` calls it a soft 404: the page is probably gone
        now_at = f"**probably gone**: {markdown(row.soft_404)} ({now_at})"
    return f"| {target_cell(row.kind, row.target, row.anchor)} | {now_at} | {_about(row)} |"


def _section_part(section: Section, rows: list[ReportRow]) -> Part:
    head: tuple[str, ...]
    if section is Section.REDIRECTED:
        head = ("| link | now at | title · section · cited |", "|---|---|---|")
        lines = [_redirect_row(r) for r in rows]
    else:
        dead = section in (Section.DEAD, Section.NEWLY_DEAD)
        since = "dead since" if dead else "first failure"
        head = (
            f"| link | title · section · cited | {since} | last success | last error |",
            "|---|---|---|---|---|",
        )
        lines = [_failing_row(r, dead) for r in rows]
    return Part(
        (f"### {section.heading}", "", *head), tuple(lines), noun="link", name=section.heading
    )


def report(
    report: Report, registry: str, full_report: str | None = None, limit: int = ISSUE_LIMIT
) -> str:
    """The dead-link report as a GitHub issue body: one table per section, no raw HTML, at most
    `limit` characters (`budget`): a long section is cut with a count and a pointer to the
    full report (`full_report`, a link or a path the workflow keeps; else the JSON command)."""
    counts = report.counts()
    start, end = datetime.fromtimestamp(report.start, UTC), datetime.fromtimestamp(report.now, UTC)
    summary = (
        f"## anchors dead-link report: {start:%Y-%m-%d} to {end:%Y-%m-%d}",
        "",
        (
            f"{counts['newly-dead']} newly dead, {counts['dead']} dead, {counts['flaky']} flaky, "
            f"{counts['not-dead']} rate-limited/unreachable, {counts['recovered']} recovered, "
            f"{counts['redirected']} redirected; {runs_words(report)} between "
            f"{start:%Y-%m-%d %H:%M} and {end:%Y-%m-%d %H:%M} UTC, {_tracked(report)} "
            f"(registry {markdown_code(registry)})."
        ),
        "",
    )
    parts = [Part(summary, tail=())]
    parts += [
        _section_part(section, rows) for section in Section if (rows := report.section(section))
    ]
    if not report.rows:
        parts.append(Part(("Nothing failed in this window.",)))
    hosts = hosts_part(report)
    if hosts is not None:
        parts.append(hosts)
    parts.append(transitions_part(report.transitions))
    waiting = waiting_part(report)
    if waiting is not None:
        parts.append(waiting)
    trend = trend_part(report.trend, report.partial_runs)
    if trend is not None:
        parts.append(trend)
    return fit(parts, limit, _pointer(full_report, registry))


#: the sites shown at most: the table says where failures gather, the sections list them all
HOSTS_SHOWN = 10


def hosts_part(rep: Report) -> Part | None:
    """ "Hosts": the sites with the most failing or unverifiable links (a site that moved shows
    as one row, not forty); none when nothing fails."""
    hosts = of_report(rep)[:HOSTS_SHOWN]
    if not hosts:
        return None
    head = ("### Hosts", "", "| site | failing | unverifiable |", "|---|---|---|")
    rows = tuple(f"| {markdown_code(h.host)} | {h.failing} | {h.unverifiable} |" for h in hosts)
    return Part(head, rows, noun="host", name="Hosts")


def _tracked(report: Report) -> str:
    """What the report counts: each registry entry as last checked, in `check`'s states (so
    the numbers sum to the registry and match the check's own line); else the targets seen."""
    if not report.states:
        return f"{report.targets} links and anchors tracked"
    n = sum(report.states.values())
    return f"{plural(n, 'anchor')} in the registry as last checked: {state_words(report.states)}"


def _pointer(full_report: str | None, registry: str) -> str:
    """Where every row is: the workflow's copy of the JSON report, else the command."""
    if full_report is None:
        return f"the full report, `anchors report -r {markdown_code(registry)[1:-1]} --format json`"
    if urlsplit(full_report).scheme in ("http", "https"):
        return f"[the full report](<{markdown_url(full_report)}>)"
    return f"the full report, {markdown_code(full_report)}"
