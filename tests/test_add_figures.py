"""`anchors add` records each attributed figure and quote with the entry's claims (figure or
quote as written, by line or block, said_on, at); re-adding a briefing adds nothing, and a plain
`check` reads the records back (a damaged one is a schema finding)."""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from anchors.figures.model import Attribution
from anchors.registry.loader import load

from .claimfakes import cli

B = """inference · E1 预消化简报(2026-09-24)
增量 2：vLLM Prefix Caching Bug — GPU 利用率降至 ~70%（GitHub #8242 确认）
来源：GitHub vllm-project/vllm#8242
URL：https://github.com/vllm-project/vllm/issues/8242
- 启用 --enable-prefix-caching 后，GPU 利用率降至约 70%，而非预期的 90%+
- CROZ benchmark：吞吐 302.98 tok/s，"this is a benchmark we ran ourselves"
四、可引用 arXiv 号列表
| arXiv 号 | 标题 | 可信度 |
|---|---|---|
| 2605.11093v1 | HookPoint: 3.6% overhead 可观测性方案 | 高 |
| 2309.06180 | vLLM 吞吐提升 2-4 倍 · 与 SGLang 6.4×（arXiv 2312.07104）对比 | 高 |
"""


def add(tmp_path: Path, text: str = B, name: str = "2026-09-24-e1.md") -> Path:
    (tmp_path / "briefings").mkdir(exist_ok=True)
    b = tmp_path / "briefings" / name
    b.write_text(text, encoding="utf-8")
    reg = tmp_path / "registry.yaml"
    code, out, err = cli("add", str(b), "-r", str(reg))
    assert code == 0, out + err
    return reg


def records(reg: Path) -> dict[str, list[dict[str, object]]]:
    doc = yaml.safe_load(reg.read_text(encoding="utf-8"))
    return {
        str(a.get("url") or a.get("arxiv")): [
            {k: str(v) for k, v in c.items()}
            for c in a.get("claims", [])
            if "figure" in c or "quote" in c
        ]
        for a in doc["anchors"]
    }


def test_add_records_each_attributed_figure_and_quote(tmp_path: Path) -> None:
    got = records(add(tmp_path))
    issue = got["https://github.com/vllm-project/vllm/issues/8242"]
    at = "briefings/2026-09-24-e1.md"
    assert issue == [
        {"said_on": "2026-09-24", "figure": "~70%", "by": "line", "at": f"{at}:2"},
        {"said_on": "2026-09-24", "figure": "约 70%", "by": "block", "at": f"{at}:5"},
        {"said_on": "2026-09-24", "figure": "90%+", "by": "block", "at": f"{at}:5"},
        {"said_on": "2026-09-24", "figure": "302.98 tok/s", "by": "block", "at": f"{at}:6"},
        {
            "said_on": "2026-09-24",
            "quote": "this is a benchmark we ran ourselves",
            "by": "block",
            "at": f"{at}:6",
        },
    ]
    assert got["2605.11093"] == [
        {"said_on": "2026-09-24", "figure": "3.6%", "by": "line", "at": f"{at}:10"}
    ]
    # the row with two citations attributes nothing, to either
    assert got["2309.06180"] == [] and got["2312.07104"] == []


def test_the_records_load_back_as_claims(tmp_path: Path) -> None:
    reg = load(add(tmp_path))
    [issue] = [a for a in reg.anchors if a.key.key == "github:vllm-project/vllm#8242"]
    figures = [c for c in issue.claims if c.attributed]
    assert [(c.figure, c.quote, c.by) for c in figures][:2] == [
        ("~70%", None, Attribution.LINE),
        ("约 70%", None, Attribution.BLOCK),
    ]
    assert all(c.said_on is not None and c.line for c in figures)


def test_re_adding_the_briefing_adds_nothing_and_a_later_one_adds_its_own(tmp_path: Path) -> None:
    reg = add(tmp_path)
    before = reg.read_bytes()
    add(tmp_path)
    assert reg.read_bytes() == before
    later = B.replace("2026-09-24", "2026-10-01")
    add(tmp_path, later, "2026-10-01-e1.md")
    said = [r["said_on"] for r in records(reg)["2605.11093"]]
    assert said == ["2026-09-24", "2026-10-01"]


def test_a_plain_check_reads_a_registry_with_figure_records(tmp_path: Path) -> None:
    reg = add(tmp_path)
    code, out, err = cli("check", str(reg), "--offline", "-f", "json", "--today", "2026-12-02")
    assert code == 0, out + err
    assert json.loads(out)["findings"] == []
