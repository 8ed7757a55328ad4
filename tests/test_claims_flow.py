"""Claims in the everyday flow: `anchors add B.md`, then a plain `anchors check` (no flag, from
another folder) reports B's contradicted claims, dated; a change after B's date is news."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .claimfakes import Issue, Paper, check_findings, cli, fake_services
from .loopback import LoopbackServer

B = """inference · E1 预消化简报(2026-09-24)
增量 1：vLLM prefix caching GPU 利用率
URL：https://github.com/vllm-project/vllm/issues/8242
- 修复状态：Issue #8242 仍 open，后续追踪
增量 2：SGLang graph 回归
URL：https://github.com/sgl-project/sglang/issues/35851
- 多用户确认性能下降
- 该 issue 已关闭，修复随下个版本发布
增量 3：一个后来才关闭的 issue
URL：https://github.com/acme/engine/issues/7
- Issue #7 仍 open
四、可引用 arXiv 号列表
| arXiv 号 | 标题 | 可信度 |
|---|---|---|
| 2609.18063 | Edge0: Serving MoEs from SSD | 高（arXiv 2026-09-19） |
| 2605.00528 | SAGA: Workflow-Atomic Scheduling · HPDC'26 | 高 |
"""

ISSUES = {
    # closed four days before the briefing said "仍 open": wrong when written
    "vllm-project/vllm#8242": Issue(
        "Prefix caching GPU utilization", "closed", "completed", "2026-09-20"
    ),
    # the briefing says "该 issue 已关闭", but it is open
    "sgl-project/sglang#35851": Issue("Breakable CUDA graph regression"),
    # closed four days after the briefing: news, not an error
    "acme/engine#7": Issue("Engine hangs", "closed", "completed", "2026-09-28"),
}
PAPERS = {
    "2609.18063": Paper("Edge0: Serving MoEs from SSD", "2026-09-02"),
    "2605.00528": Paper(
        "SAGA: Workflow-Atomic Scheduling", "2026-05-01", comment="Accepted to OSDI 2026"
    ),
}


def _check(reg: Path, srv: LoopbackServer) -> list[dict]:
    return check_findings(reg, srv)


@pytest.fixture
def added(tmp_path: Path) -> Path:
    (tmp_path / "repo" / "briefings").mkdir(parents=True)
    b = tmp_path / "repo" / "briefings" / "2026-09-24-e1.md"
    b.write_text(B, encoding="utf-8")
    reg = tmp_path / "repo" / "registry.yaml"
    code, out, err = cli("add", str(b), "-r", str(reg))
    assert code == 0, out + err
    return reg


def test_add_then_a_plain_check_reports_the_briefings_contradicted_claims(
    added: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # another folder: nothing is found beside the working dir
    (added.parent / "briefings" / "2026-09-24-e1.md").unlink()  # nor needed at all
    with fake_services(ISSUES, PAPERS) as srv:
        found = _check(added, srv)
    got = {(f["code"], f["anchor"].rsplit("/", 1)[-1], f.get("field")) for f in found}
    assert {
        ("stale-claim", "8242", None),
        ("stale-claim", "35851", None),
        ("claim-mismatch", "2609.18063", "date"),
        ("claim-mismatch", "2605.00528", "venue"),
    } <= got
    stale = {f["anchor"].rsplit("/", 1)[-1]: f for f in found if f["code"] == "stale-claim"}
    old = stale["8242"]
    assert (old["claimed"], old["said_on"], old["closed_at"]) == (
        "open",
        "2026-09-24",
        "2026-09-20",
    )
    assert "2026-09-24 briefing" in old["message"] and "2026-09-20" in old["message"]
    assert old["briefing"] == "briefings/2026-09-24-e1.md:4"
    assert stale["35851"]["claimed"] == "closed" and "已关闭" in stale["35851"]["message"]
    # closed after the briefing: news for the weekly report, no warning here
    assert "7" not in stale
    [later] = [f for f in found if f["anchor"].endswith("/issues/7")]
    assert later["code"] == "issue-state" and later["severity"] == "info"
    assert later["said_on"] == "2026-09-24" and "after the 2026-09-24 briefing" in later["message"]


def test_a_later_briefing_is_the_claim_in_force(added: Path, tmp_path: Path) -> None:
    later = added.parent / "briefings" / "2026-10-01-e1.md"
    later.write_text(
        "inference · E1 预消化简报(2026-10-01)\n增量 1：vLLM\n"
        "URL：https://github.com/vllm-project/vllm/issues/8242\n- Issue #8242 已关闭\n",
        encoding="utf-8",
    )
    assert cli("add", str(later), "-r", str(added))[0] == 0
    text = added.read_text(encoding="utf-8")
    assert text.count("said_on: 2026-09-24, state: open") == 2  # 8242 and #7, kept as written
    assert "said_on: 2026-10-01, state: closed" in text
    with fake_services(ISSUES, PAPERS) as srv:
        found = _check(added, srv)
    assert not [f for f in found if f["code"] == "stale-claim" and "8242" in f["anchor"]]


def test_re_adding_the_same_briefing_adds_no_second_record(added: Path) -> None:
    before = added.read_bytes()
    b = added.parent / "briefings" / "2026-09-24-e1.md"
    code, out, err = cli("add", str(b), "-r", str(added), "--check")
    assert code == 0, out + err
    assert added.read_bytes() == before


def test_the_bundled_registry_with_its_claims_matches_the_schema() -> None:
    import jsonschema
    import yaml

    root = Path(__file__).resolve().parent.parent
    schema = json.loads((root / "anchors/schema/registry.schema.json").read_text("utf-8"))
    doc = yaml.safe_load((root / "registry.yaml").read_text("utf-8"))
    doc = json.loads(json.dumps(doc, default=str))  # dates as the strings YAML wrote
    facts = [
        a
        for a in doc["anchors"]
        if any(
            set(c) & {"state", "submitted", "venue", "title", "version"}
            for c in a.get("claims", [])
        )
    ]
    assert len(facts) == 3
    assert sum(1 for a in doc["anchors"] for c in a.get("claims", []) if "figure" in c) >= 20
    jsonschema.validate(doc, schema, format_checker=jsonschema.FormatChecker())
    doc["anchors"][0]["claims"][0]["state"] = "gone"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(doc, schema)


@pytest.mark.parametrize(
    "record, problem",
    [
        ("{state: open}", "needs said_on"),
        ("{said_on: 2026-09-24, state: gone}", "'gone' is not a claimed state"),
        ("{said_on: 2026-09-24, mood: calm}", "unknown claim field 'mood'"),
        ("{said_on: yesterday}", "not a date"),
        # a figure or quote record (issue 35)
        ("{said_on: 2026-09-24, figure: '~70%'}", "needs by"),
        ("{said_on: 2026-09-24, figure: '~70%', quote: 'abc def ghi jkl', by: line}", "not both"),
        ("{said_on: 2026-09-24, figure: '~70%', by: sentence}", "'sentence' is not how"),
        ("{said_on: 2026-09-24, by: line}", "needs by"),
    ],
)
def test_a_damaged_claim_record_is_a_schema_finding(
    tmp_path: Path, record: str, problem: str
) -> None:
    reg = tmp_path / "registry.yaml"
    reg.write_text(
        'version: 1\nanchors:\n  - arxiv: "2309.06180"\n    first_anchored: 2026-09-24\n'
        f"    status: new\n    claims:\n      - {record}\n",
        encoding="utf-8",
    )
    code, out, _ = cli("check", str(reg), "--offline", "-f", "json", "--today", "2026-12-02")
    [f] = json.loads(out)["findings"]
    assert code == 1 and f["code"] == "schema" and problem in f["message"], f
