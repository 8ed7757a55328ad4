"""A job's step summary holds what GitHub accepts: `check`'s Markdown (`--summary FILE`, and
`--format markdown`) is cut to `budget.STEP_SUMMARY_LIMIT` bytes, measured on the file as
written. GitHub refuses a step summary over 1 MiB and drops it whole, so a bad run (1,700
findings wrote 2.5-25 MB) would have shown nothing at all."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from anchors.cli.app import app
from anchors.render.budget import STEP_SUMMARY_LIMIT

#: what GitHub accepts for one step's summary, and what the action writes around ours
GITHUB_STEP_SUMMARY_BYTES = 1 << 20
ACTION_HEADING = "### anchors check\n\n"
N = 1_750
_CUT = re.compile(r"^\*(\d+) more findings not shown here: see this run's JSON or SARIF output")


def _registry(folder: Path, n: int, width: int) -> Path:
    """`n` entries whose IDs are invalid and `width` characters long: `n` error findings, each
    row quoting its ID, in characters of one, two and three UTF-8 bytes and Markdown's own."""
    junk = ("aé|*_✓<>" * (width // 8 + 1))[:width]
    reg = folder / "registry.yaml"
    reg.write_text(
        "version: 1\nanchors:\n"
        + "".join(
            f'  - arxiv: "26{i % 12:02d}.{i:05d}{junk}"\n    first_anchored: 2026-09-24\n'
            "    status: new\n"
            for i in range(n)
        ),
        encoding="utf-8",
    )
    return reg


def _check(reg: Path, summary: Path, fmt: str = "json") -> tuple[int, str]:
    r = CliRunner().invoke(
        app, ["check", "--offline", str(reg), "-f", fmt, "--summary", str(summary)]
    )
    return r.exit_code, r.stdout


@pytest.mark.slow
def test_a_run_of_1750_long_findings_writes_a_summary_github_accepts(tmp_path: Path) -> None:
    reg = _registry(tmp_path, N, 1_500)
    summary = tmp_path / "summary.md"
    code, out = _check(reg, summary)
    assert code == 1
    assert len(json.loads(out)["findings"]) == N  # the run's JSON holds every finding
    written = summary.read_bytes()
    assert len(written) <= STEP_SUMMARY_LIMIT
    assert len(ACTION_HEADING.encode() + written) <= GITHUB_STEP_SUMMARY_BYTES
    text = written.decode("utf-8")
    assert f"Findings: {N} errors, 0 warnings, 0 notes." in text  # counts of the whole run
    rows = [ln for ln in text.splitlines() if ln.startswith("| error | invalid-id |")]
    (cut,) = [m for ln in text.splitlines() if (m := _CUT.match(ln))]
    assert rows and len(rows) + int(cut.group(1)) == N
    assert all(ln.endswith(" |") for ln in rows)  # whole rows, never a row cut in half
    assert len(written) > STEP_SUMMARY_LIMIT - 10_000  # as many rows as the limit holds


@pytest.mark.slow
def test_the_markdown_format_is_cut_alike(tmp_path: Path) -> None:
    reg = _registry(tmp_path, N, 1_500)
    summary = tmp_path / "summary.md"
    code, out = _check(reg, summary, fmt="markdown")
    assert code == 1 and out == summary.read_text(encoding="utf-8")  # one rendering
    assert len(out.encode("utf-8")) <= STEP_SUMMARY_LIMIT


def test_a_summary_that_fits_is_whole_and_has_no_cut_line(tmp_path: Path) -> None:
    reg = _registry(tmp_path, 40, 30)
    summary = tmp_path / "summary.md"
    assert _check(reg, summary)[0] == 1
    text = summary.read_text(encoding="utf-8")
    assert len([ln for ln in text.splitlines() if ln.startswith("| error |")]) == 40
    assert "not shown here" not in text and text.endswith(" |\n\n")


@pytest.mark.slow
def test_long_messages_are_cut_to_a_readable_row_and_the_cap_holds() -> None:
    """Findings whose messages quote what a server or a briefing said (a claim, a title) at
    length: each cell is cut to a row one can read, and the whole still fits the limit."""
    from datetime import date

    from anchors.findings import Code, Finding, Severity
    from anchors.render.markdown import check_result
    from anchors.result import CheckResult

    said = "the issue says: " + "«已关闭» ✓ " * 4_000
    findings = [
        Finding(Code.DEAD_LINK, f"https://h{i}.example/", "r.yaml", i + 3, said, Severity.ERROR)
        for i in range(N)
    ]
    text = check_result(CheckResult("r.yaml", date(2026, 12, 2), N, findings=findings))
    assert len(text.encode("utf-8")) <= STEP_SUMMARY_LIMIT
    rows = [ln for ln in text.splitlines() if ln.startswith("| error | dead-link |")]
    assert rows and all(len(ln) < 2_300 for ln in rows) and "…" in rows[0]
    (cut,) = [m for ln in text.splitlines() if (m := _CUT.match(ln))]
    assert len(rows) + int(cut.group(1)) == N
