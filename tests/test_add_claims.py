"""Continuity claims in `anchors add`: `9-22锚定`, `续立`, `续用` must be backed by the registry."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

from typer.testing import CliRunner

from anchors.cli.app import app
from anchors.extract import extract, read_briefing
from anchors.findings import Code
from anchors.merging.merge import add
from anchors.registry.loader import load

DAY = date(2026, 9, 24)
ROW = "| 2609.19657 | H100 Prefix Reuse and TTFT: vLLM vs TRT-LLM | 高 | {claim} |\n"


#: another anchor, so the registry is not empty (an empty one takes the briefing's word)
OTHER = '  - arxiv: "2601.00001"\n    first_anchored: 2026-01-05\n    status: new\n'


def registry(tmp: Path, first: str | None, other: bool = True) -> Path:
    reg = tmp / "registry.yaml"
    body = "version: 1\nanchors:\n" + (OTHER if other else "")
    if first:
        body += (
            f'  - arxiv: "2609.19657"\n    first_anchored: {first}\n    status: new\n'
            f'    cited_in: ["{first}"]\n'
        )
    reg.write_text(body, encoding="utf-8")
    return reg


def briefing(claim: str) -> str:
    return "| arXiv 号 | 标题 | 可信度 | 关系 |\n|---|---|---|---|\n" + ROW.format(claim=claim)


def run_add(reg: Path, claim: str):
    return add(reg, [extract(briefing(claim), "b.md", DAY)], DAY)


def test_backed_claim_is_quiet(tmp_path: Path) -> None:
    for first in ("2026-09-22", "2026-09-20"):  # held since then or earlier
        assert (
            run_add(registry(tmp_path, first), "9-22锚定；续立确认").of(Code.UNBACKED_CLAIM) == []
        )


def test_registry_with_a_later_first_date_is_reported_and_still_lowered(tmp_path: Path) -> None:
    reg = registry(tmp_path, "2026-09-23")
    r = run_add(reg, "9-22锚定；续立确认")
    [u] = r.of(Code.UNBACKED_CLAIM)
    assert (u.anchor, u.line, u.details) == (
        "2609.19657",
        3,
        {"claimed": "2026-09-22", "actual": "2026-09-23"},
    )
    assert "first anchored it on 2026-09-23" in u.message
    assert load(reg).anchors[1].first_anchored == date(2026, 9, 22)


def test_registry_without_the_anchor(tmp_path: Path) -> None:
    for claim in ("9-22锚定；续立", "续用", "续立确认"):
        [u] = run_add(registry(tmp_path, None), claim).of(Code.UNBACKED_CLAIM)
        assert u.details["actual"] is None and "does not hold it" in u.message
        (tmp_path / "registry.yaml").unlink()


def test_new_anchor_claims_nothing(tmp_path: Path) -> None:
    assert run_add(registry(tmp_path, None), "本次新增").of(Code.UNBACKED_CLAIM) == []


def test_an_earlier_briefing_in_the_same_run_backs_the_claim(tmp_path: Path) -> None:
    reg = registry(tmp_path, None)
    first = extract(briefing("本次新增"), "a.md", date(2026, 9, 22))
    second = extract(briefing("9-22锚定；续立"), "b.md", DAY)
    assert add(reg, [first, second], DAY).of(Code.UNBACKED_CLAIM) == []


def test_seed_into_a_registry_with_entries_reports_every_continuity_claim(
    tmp_path: Path, seed: Path
) -> None:
    r = add(registry(tmp_path, None), [read_briefing(seed)], date(2026, 12, 2))
    text = seed.read_text(encoding="utf-8").splitlines()
    claimed_lines = {u.line for u in r.of(Code.UNBACKED_CLAIM)}
    assert claimed_lines and all(
        "锚定" in text[n - 1] or "续" in text[n - 1] for n in claimed_lines
    )
    assert "2609.19969" in {u.anchor for u in r.of(Code.UNBACKED_CLAIM)}  # "9-21锚定；续立确认"
    assert not {"2609.18063", "2609.25053"} & {
        u.anchor for u in r.of(Code.UNBACKED_CLAIM)
    }  # 本次新增


def test_cli_json_lists_them_and_strict_fails(tmp_path: Path) -> None:
    reg = registry(tmp_path, "2026-09-23")
    b = tmp_path / "b-2026-09-24.md"
    b.write_text(briefing("9-22锚定；续立"), encoding="utf-8")
    runner = CliRunner()
    r = runner.invoke(app, ["add", str(b), "-r", str(reg), "--dry-run", "-f", "json"])
    assert r.exit_code == 0
    doc = json.loads(r.stdout)
    assert doc["unbacked_claims"] == [
        {
            "code": "unbacked-claim",
            "severity": "warning",
            "anchor": "2609.19657",
            "file": str(b),
            "line": 3,
            "message": doc["unbacked_claims"][0]["message"],
            "claimed": "2026-09-22",
            "actual": "2026-09-23",
        }
    ]
    assert doc["summary"]["unbacked_claims"] == 1
    strict = runner.invoke(app, ["add", str(b), "-r", str(reg), "--dry-run", "--strict"])
    assert strict.exit_code == 1 and "unbacked" in strict.stdout + strict.stderr
    backed = registry(tmp_path, "2026-09-22")
    ok = runner.invoke(app, ["add", str(b), "-r", str(backed), "--dry-run", "--strict"])
    assert ok.exit_code == 0, ok.stdout
