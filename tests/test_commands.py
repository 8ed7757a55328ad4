"""`anchors.commands` computes what the CLI renders: each function and its command, on one input."""

from __future__ import annotations

import json
import shutil
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest
from typer.testing import CliRunner

from anchors import commands
from anchors.cli.app import app
from anchors.errors import HistoryError, UsageError
from anchors.findings import Code, ordered

from .histories import LMSYS, TENSORMESH, record_urls

ROOT = Path(__file__).resolve().parent.parent
FUTURE = (
    "version: 1\nanchors:\n"
    '  - arxiv: "2709.00001"\n    first_anchored: 2026-09-24\n    status: new\n'
    '  - arxiv: "2611.00001"\n    first_anchored: 2026-09-24\n    status: new\n'
)


def cli(*args: str) -> tuple[int, str]:
    r = CliRunner().invoke(app, list(args))
    return r.exit_code, r.stdout


def test_check_finds_what_the_command_finds(tmp_path: Path) -> None:
    reg = tmp_path / "registry.yaml"
    reg.write_text(FUTURE, encoding="utf-8")
    code, out = cli("check", str(reg), "--offline", "-f", "json", "--today", "2026-12-02")
    shown = [(f["code"], f["line"], f["message"]) for f in json.loads(out)["findings"]]
    result = commands.check(reg, offline=True, today=date(2026, 12, 2))
    assert code == 1 and shown == [(f.code.value, f.line, f.message) for f in result.findings]
    assert {c for c, _, _ in shown} == {"future-id", "later-than-briefing"}
    only = commands.check(reg, offline=True, today=date(2026, 12, 2), only=[Code.FUTURE_ID])
    assert [f.code for f in ordered(only.findings)] == [Code.FUTURE_ID]


def test_settings_stand_where_flags_do_and_are_checked(tmp_path: Path) -> None:
    reg = tmp_path / "registry.yaml"
    reg.write_text(FUTURE, encoding="utf-8")
    with pytest.raises(UsageError, match="timeout"):
        commands.check(reg, settings={"timeout": "nan"})
    with pytest.raises(UsageError, match="unknown setting 'timout'"):
        commands.check(reg, offline=True, settings={"timout": 5})


@pytest.fixture
def bundled(tmp_path: Path) -> Path:
    reg = tmp_path / "registry.yaml"
    shutil.copy(ROOT / "registry.yaml", reg)
    moved = "https://lmsys.org/blog/2026-08-17-advanced-cuda-graph/"
    at = datetime(2026, 9, 29, tzinfo=UTC).timestamp()
    answers = [(LMSYS, "redirect", 200, moved), (TENSORMESH, "dead", 404, None)]
    record_urls(tmp_path / ".anchors" / "history.sqlite", reg, at, answers)
    return reg


def test_report_is_the_commands_report(bundled: Path) -> None:
    code, out = cli("report", str(bundled), "-f", "json", "--now", "2026-10-01T00:00Z")
    rep = commands.report(bundled, now=datetime(2026, 10, 1, tzinfo=UTC))
    assert code == 1 and rep.anything_dead
    assert json.loads(out)["summary"] == rep.counts() and rep.counts()["newly-dead"] == 1
    with pytest.raises(HistoryError, match="nothing to report from"):  # the check was 2 days ago
        commands.report(bundled, now=datetime(2026, 10, 1, tzinfo=UTC), since=timedelta(1))


def test_fix_plans_the_commands_diff(bundled: Path) -> None:
    before = bundled.read_bytes()
    code, out = cli("fix", str(bundled), "--dry-run")
    planned = commands.fix(bundled, dry_run=True)
    assert code == 1 and planned.diff == out and not planned.written
    assert bundled.read_bytes() == before
    assert commands.fix(bundled, only=["archive"]).fixes == []
    done = commands.fix(bundled)
    assert done.written and b"cited_url: https://www.lmsys.org/" in bundled.read_bytes()


def test_export_gives_the_commands_items(bundled: Path) -> None:
    code, out = cli("export", str(bundled), "--section", "§1.3", "-f", "csl-json")
    items = commands.export(bundled, section="§1.3")
    assert code == 0 and [d["id"] for d in json.loads(out)] == [i.cite_key for i in items]
    assert items and all(i.section and i.section.startswith("§1.3") for i in items)


def test_add_merges_as_the_command_does(tmp_path: Path) -> None:
    reg = tmp_path / "registry.yaml"
    shutil.copy(ROOT / "registry.yaml", reg)
    brief = ROOT / "tests" / "data" / "briefing-0925.md"
    code, out = cli("add", str(brief), "-r", str(reg), "--dry-run", "-f", "json")
    dry = commands.add(brief, registry=reg, dry_run=True)
    assert code == 0 and json.loads(out)["summary"] == dry.counts() and not dry.written
    assert not dry.up_to_date and (dry.counts()["added"], dry.counts()["continued"]) == (3, 1)
    assert commands.add(brief, registry=reg).written
    assert commands.add(brief, registry=reg, dry_run=True).up_to_date
