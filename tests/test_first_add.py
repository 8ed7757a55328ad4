"""A first `add` reads clean: a new or empty registry takes the briefing's own history of each
anchor ("9-21锚定；续立") as its starting point, says so once, and counts what it wrote.

By the CLI, with the bundled real briefing (`briefings/2026-09-24-inference-e1.md`): 43 anchors,
25 of them "anchored on an earlier day; continued". In a registry that already had entries, an
anchor it lacks that the briefing calls continued is still an `unbacked-claim` (DECISIONS).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from anchors.cli.app import app

TODAY = "2026-12-02"
TAKEN = "took the first-anchored dates of 25 anchors from the briefing as its starting point"


def _add(*args: str) -> Any:
    return CliRunner().invoke(app, ["add", *args, "--today", TODAY])


def _entries(reg: Path) -> dict[str, dict[str, Any]]:
    doc = yaml.safe_load(reg.read_text(encoding="utf-8"))
    return {str(e.get("arxiv") or e.get("url") or e.get("doi")): e for e in doc["anchors"]}


@pytest.mark.parametrize("start", ["new", "empty"])
def test_a_first_add_takes_the_briefing_at_its_word_and_says_so_once(
    tmp_path: Path, seed: Path, start: str
) -> None:
    reg = tmp_path / "registry.yaml"
    if start == "empty":
        reg.write_text("version: 1\nanchors: []\n", encoding="utf-8")
    r = _add(str(seed), "-r", str(reg))
    assert r.exit_code == 0, r.output
    assert "unbacked-claim" not in r.output
    was = "is new" if start == "new" else "was empty"
    assert r.stderr.count(TAKEN) == 1 and f"{reg} {was}: {TAKEN}" in r.stderr
    verb = "created" if start == "new" else "wrote"
    assert f"{verb} {reg}: 43 added (25 continued per the briefing), 2 duplicates, 1 conflict" in (
        r.stderr
    )
    written = _entries(reg)
    continued = {k: e for k, e in written.items() if e["status"] == "continued"}
    assert len(written) == 43 and len(continued) == 25  # what the summary counted
    assert str(continued["2609.19969"]["first_anchored"]) == "2026-09-21"  # "9-21锚定；续立确认"
    assert str(continued["2609.17652"]["first_anchored"]) == "2026-09-18"  # "9-18锚定"
    assert written["2609.18063"]["status"] == "new"  # "本次新增"


def test_a_first_add_is_shorter_than_it_was(tmp_path: Path, seed: Path) -> None:
    """The trial of the issue: in a pipe, one line per anchor (43), the three real findings
    (2 duplicates, 1 conflict), the starting point and the summary: 48 lines, not 72."""
    r = _add(str(seed), "-r", str(tmp_path / "registry.yaml"))
    assert len(r.output.splitlines()) == 43 + 3 + 2


def test_the_json_counts_what_was_written(tmp_path: Path, seed: Path) -> None:
    r = _add(str(seed), "-r", str(tmp_path / "registry.yaml"), "--dry-run", "-f", "json")
    doc = json.loads(r.stdout)
    assert doc["starting_point"] is True and doc["unbacked_claims"] == []
    assert (doc["summary"]["added"], doc["summary"]["continued_per_briefing"]) == (43, 25)
    assert sum(a["status"] == "continued" for a in doc["anchors"]) == 25
    assert "would take the first-anchored dates of 25 anchors" in r.stderr


def test_a_registry_with_entries_still_reports_each_unbacked_claim(
    tmp_path: Path, seed: Path
) -> None:
    reg = tmp_path / "registry.yaml"
    reg.write_text(
        'version: 1\nanchors:\n  - arxiv: "2601.00001"\n    first_anchored: 2026-01-05\n'
        "    status: new\n",
        encoding="utf-8",
    )
    r = _add(str(seed), "-r", str(reg), "-f", "json")
    doc = json.loads(r.stdout)
    assert doc["starting_point"] is False and len(doc["unbacked_claims"]) == 25
    assert "starting point" not in r.stderr
    assert "43 added (25 continued per the briefing), 0 continued" in r.stderr


def test_the_second_add_of_the_same_briefing_is_backed_by_the_first(
    tmp_path: Path, seed: Path
) -> None:
    reg = tmp_path / "registry.yaml"
    assert _add(str(seed), "-r", str(reg)).exit_code == 0
    again = _add(str(seed), "-r", str(reg), "-f", "json")
    doc = json.loads(again.stdout)
    assert doc["starting_point"] is False and doc["unbacked_claims"] == []
    assert doc["up_to_date"] is True


def test_continued_without_a_date_is_written_continued(tmp_path: Path) -> None:
    """ "续用" says cited before, not when: the entry is `continued`, first anchored (as far as
    anyone knows) on the briefing's day."""
    b = tmp_path / "2026-09-24.md"
    b.write_text(
        "| arXiv 号 | 标题 | 可信度 | 关系 |\n|---|---|---|---|\n"
        "| 2609.19657 | H100 Prefix Reuse | 高 | 续用 |\n"
        "| 2609.25053 | LatentPort | 高 | 本次新增 |\n",
        encoding="utf-8",
    )
    reg = tmp_path / "registry.yaml"
    r = _add(str(b), "-r", str(reg))
    assert r.exit_code == 0 and "unbacked" not in r.output, r.output
    written = _entries(reg)
    assert written["2609.19657"]["status"] == "continued"
    assert str(written["2609.19657"]["first_anchored"]) == "2026-09-24"
    assert written["2609.25053"]["status"] == "new"
    assert "2 added (1 continued per the briefing)" in r.stderr
