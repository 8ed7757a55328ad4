"""Figures and quotes checked end to end: `anchors add` a briefing, then a plain `anchors check`
against one loopback arXiv API, arXiv HTML and GitHub API (tests/figurefakes.py).

Each verdict kind through the CLI: supported (abstract, an HTML table, a comment on page 2, a
quote), derived, not-found with its nearest numbers (figure and quote), unverifiable (no HTML,
a failing page 2, translated, a block's figure, a source not read: once per anchor) and
source-changed (a comment edited between two runs); what it costs (the HTML only of papers
whose figure is not in the abstract, a second run over an unchanged registry: no full request);
and where the findings point (SARIF and annotations at the briefing line), and the report.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from .claimfakes import cli
from .figurefakes import FakeSources, Paper, latexml_page
from .githubfake import FakeGithub, Issue

TODAY = "2026-12-02"
DATA = Path(__file__).resolve().parent / "data" / "figures" / "arxiv.yaml"
VLLM = "2309.06180"
THREAD = "acme/engine#7 comments"
ISSUE = "https://github.com/acme/engine/issues/7"
PUBLISHED = "10.1145/3600006.3613165"
PULL = "https://github.com/acme/engine/pull/9"

B = f"""inference · E1 预消化简报(2026-09-24)
增量 1：论文
- Foo（arXiv 2608.01111）吞吐提升 3.7 倍
- Bar（arXiv 2608.02222）尾延迟降低 41.7%
- Baz（arXiv 2608.03333）吞吐提升 2.5 倍
- Baz（arXiv 2608.03333）吞吐提升 9.9 倍
- vLLM achieves 2-24× higher throughput than traditional serving systems (arXiv {VLLM})
- 对比 arXiv 2608.01111 与 arXiv 2608.02222，吞吐提升 5.5 倍
- 出版版 https://doi.org/{PUBLISHED} 报告 2.3 倍加速与 41% 成本下降
增量 2：vLLM Prefix Caching Bug
- GPU 利用率降至 ~70%（{ISSUE}）
- 修复后延迟降低 38.2%（{ISSUE}）
- 吞吐 1,234 tok/s（{ISSUE}）
- 吞吐下降 64.5%（{ISSUE}）
- 维护者称 "the regression only shows up with CUDA graphs enabled"（{ISSUE}）
- 维护者称 "we never saw a regression on H100 GPUs at all"（{ISSUE}）
- 维护者称「只有开启 CUDA graph 时才会出现这个回归问题」（{ISSUE}）
- 评审确认 P99 延迟下降 23.5%（{PULL}）
增量 3：CROZ 对比
来源：GitHub acme/engine#7
URL：{ISSUE}
- 启用后 GPU 利用率降至约 70%
- CROZ benchmark：吞吐 302.98 tok/s
"""


def _vllm() -> tuple[str, list[str]]:
    """arXiv 2309.06180's real abstract (CC0) and its full text's figures, as the labelled set
    keeps them (tests/data/figures)."""
    doc = yaml.safe_load(DATA.read_text(encoding="utf-8"))
    src = next(s for s in doc["sources"] if s["key"] == f"arxiv:{VLLM}")
    abstract = next(p["text"] for p in src["passages"] if p["where"] == "abstract v1")
    return abstract, [p["text"] for p in src["passages"] if p.get("part") == "html"]


def _comments() -> list[dict[str, object]]:
    """150 comments (two pages of 100): one figure on page 1, another only on page 2."""
    out: list[dict[str, object]] = [
        {"id": 5001, "body": "Prefix caching cut throughput to 1,234 tok/s here.",
         "updated_at": "2026-09-02T00:00:00Z"},
    ]  # fmt: skip
    for i in range(149):
        body = "After the fix we measured 38.2% lower latency." if i == 120 else "Same here."
        out.append({"id": 6000 + i, "body": body, "updated_at": "2026-09-03T00:00:00Z"})
    return out


def _fake() -> FakeSources:
    abstract, html = _vllm()
    foo = "We present Foo, a serving system that keeps accuracy while cutting cost."
    table = [["System", "Speedup"], ["Baseline", "$1.0\\times$"], ["Foo", "$3.7\\times$"]]
    body = (
        "Enabling prefix caching drops GPU use to ~70% on our cluster.\n\n"
        "Our finding: the regression only shows up with CUDA graphs enabled."
    )
    return FakeSources(
        papers={
            "2608.01111": Paper("Foo", foo, version=2),
            "2608.02222": Paper("Bar", "Bar cuts tail latency by 41.7\\% against the baseline."),
            "2608.03333": Paper("Baz", "Throughput rises from 1,200 tok/s to 3,000 tok/s."),
            VLLM: Paper("Efficient Memory Management for LLM Serving", abstract),
        },
        pages={
            "2608.01111v2": latexml_page(
                foo, ["We run eight GPUs."], [("Table 3", "Speedups.", table)]
            ),
            f"{VLLM}v1": latexml_page(abstract, html),
        },
        github=FakeGithub(
            issues={
                "acme/engine#7": Issue("Prefix caching is slow", body=body),
                "acme/engine#9": Issue("Rework the scheduler", pull=True, body="Reworked."),
            },
            threads={
                THREAD: _comments(),
                "acme/engine#9 comments": [],
                "acme/engine#9 review-comments": [
                    {"id": 8001, "body": "Nit: rename this.", "updated_at": "2026-09-05T00:00:00Z"}
                ],
                "acme/engine#9 reviews": [
                    {
                        "id": 9001,
                        "body": "Measured here: P99 latency down 23.5%.",
                        "submitted_at": "2026-09-06T00:00:00Z",
                    },
                ],
            },
        ),
        dois={PUBLISHED: {"type": "paper-conference", "title": "Efficient Memory Management"}},
    )


@pytest.fixture
def registry(tmp_path: Path) -> Path:
    (tmp_path / "briefings").mkdir()
    b = tmp_path / "briefings" / "2026-09-24-e1.md"
    b.write_text(B, encoding="utf-8")
    reg = tmp_path / "registry.yaml"
    code, out, err = cli("add", str(b), "-r", str(reg))
    assert code == 0, out + err
    return reg


def check(reg: Path, fake: FakeSources, *more: str) -> tuple[int, dict[str, Any], str]:
    with fake.server() as srv:
        code, out, err = cli(
            "check", str(reg), *fake.args(srv), "-f", "json", "--today", TODAY, *more
        )
    assert code in (0, 1), out + err
    return code, json.loads(out), err


def by_claim(out: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {c["claim"]: c for c in out["claims"] if c["claim"] is not None}


def codes(out: dict[str, Any]) -> dict[str, str]:
    """Figure findings by claim."""
    return {f["claim"]: f["code"] for f in out["findings"] if "claim" in f}


def test_every_verdict_kind_through_a_plain_check(registry: Path) -> None:
    code, out, _ = check(registry, _fake())
    got = by_claim(out)
    verdicts = {claim: (c["verdict"], c["reason"]) for claim, c in got.items()}
    assert verdicts == {
        "3.7 倍": ("supported", None),
        "41.7%": ("supported", None),
        "2.5 倍": ("derived", None),
        "9.9 倍": ("unverifiable", "not-in-abstract"),
        "2-24×": ("not-found", None),
        "~70%": ("supported", None),
        "38.2%": ("supported", None),
        "1,234 tok/s": ("supported", None),
        "64.5%": ("not-found", None),
        "the regression only shows up with CUDA graphs enabled": ("supported", None),
        "we never saw a regression on H100 GPUs at all": ("not-found", None),
        "只有开启 CUDA graph 时才会出现这个回归问题": ("unverifiable", "translated"),
        "23.5%": ("supported", None),
        "约 70%": ("supported", None),
        "302.98 tok/s": ("unverifiable", "block"),
    }
    assert got["3.7 倍"]["evidence"]["where"] == "HTML v2, Table 3"
    assert got["41.7%"]["evidence"]["where"] == "abstract v1"
    assert got["2.5 倍"]["evidence"]["said"] == ["1,200 tok/s", "3,000 tok/s"]
    assert got["38.2%"]["evidence"]["where"] == "comment 6120"
    assert got["~70%"]["evidence"]["where"] == "body"
    # a pull request: its reviews and review comments are read too
    assert got["23.5%"]["evidence"]["where"] == "review 9001"
    assert got["23.5%"]["scope"] == "body + 0 comments + 1 review comment + 1 review"
    assert got["约 70%"]["by"] == "block" and got["约 70%"]["sources"] == [ISSUE]
    assert got["302.98 tok/s"]["scope"] == "body + 150 comments"
    # only not-found (and source-changed) are warnings; a warning is not a failure
    assert codes(out) == {
        "2-24×": "figure-not-found",
        "64.5%": "figure-not-found",
        "we never saw a regression on H100 GPUs at all": "quote-not-found",
    }
    assert code == 0  # warnings: a pass of the gate, as every warning is


def test_a_not_found_shows_the_nearest_numbers_and_what_was_read(registry: Path) -> None:
    _, out, _ = check(registry, _fake())
    [vllm] = [f for f in out["findings"] if f.get("claim") == "2-24×"]
    assert vllm["anchor"] == VLLM and vllm["scope"] == "abstract v1 + HTML v1"
    assert vllm["nearest"][0] == "2-4× (abstract v1)"
    assert vllm["at"] == "briefings/2026-09-24-e1.md:7" and vllm["said_on"] == "2026-09-24"
    assert "2-4× (abstract v1)" in vllm["message"] and "abstract v1 + HTML v1" in vllm["message"]
    [thread] = [f for f in out["findings"] if f.get("claim") == "64.5%"]
    assert thread["scope"] == "body + 150 comments"
    assert thread["nearest"][0].startswith("~70% (body")


@pytest.mark.slow
def test_text_output_prints_only_the_warnings_and_verbose_every_verdict(
    registry: Path,
) -> None:
    fake = _fake()
    with fake.server() as srv:
        code, text, _ = cli("check", str(registry), *fake.args(srv), "--today", TODAY)
        _, _, verbose = cli("check", str(registry), *fake.args(srv), "--today", TODAY, "-v")
    assert code == 0
    assert "figure-not-found" in text and "2-4× (abstract v1)" in text
    assert "quote-not-found" in text
    assert "3.7 倍" not in text and "supported" not in text  # a pass is not news
    assert "figure 3.7 倍: supported" in verbose and "HTML v2, Table 3" in verbose
    assert "figure 9.9 倍: unverifiable (not in the abstract, and no full text)" in verbose
    assert verbose.count("source not read") == 1  # once for the anchor, not per figure


def test_two_citations_attribute_nothing_and_a_doi_is_said_once(registry: Path) -> None:
    _, out, _ = check(registry, _fake())
    assert "5.5 倍" not in json.dumps(out["claims"], ensure_ascii=False)
    [doi] = [c for c in out["claims"] if c["what"] == "source"]
    assert doi["anchor"].endswith(PUBLISHED) and doi["claims"] == ["2.3 倍", "41%"]
    assert (doi["verdict"], doi["reason"]) == ("unverifiable", "source-not-read")
    assert not any(f["anchor"].endswith(PUBLISHED) for f in out["findings"])


def test_html_only_for_papers_whose_figure_is_not_in_the_abstract(registry: Path) -> None:
    fake = _fake()
    check(registry, fake)
    # 2608.02222's figure is in its abstract: its HTML is never asked for
    assert sorted(fake.html_asked) == ["2309.06180v1", "2608.01111v2", "2608.03333v1"]
    assert fake.html_statuses == {200: 2, 404: 1}


def test_a_second_run_over_an_unchanged_registry_makes_no_full_request(registry: Path) -> None:
    fake = _fake()
    _, first, _ = check(registry, fake)
    fake.asked.clear()
    fake.html_asked.clear()
    fake.github.statuses.clear()
    _, again, _ = check(registry, fake)
    assert fake.asked["arxiv-api"] == 0 and fake.html_asked == []  # the run cache
    assert set(fake.github.statuses) == {304}  # the thread's pages: conditional, unchanged
    assert again["claims"] == first["claims"]


def test_a_failing_second_page_is_unverifiable_never_not_found(registry: Path) -> None:
    fake = _fake()
    fake.github.fail[THREAD, 2] = 403
    _, out, _ = check(registry, fake)
    got = by_claim(out)
    for claim in ("38.2%", "64.5%", "we never saw a regression on H100 GPUs at all"):
        assert (got[claim]["verdict"], got[claim]["reason"]) == ("unverifiable", "incomplete")
        assert "comment page 2: HTTP 403" in got[claim]["detail"]
    assert got["~70%"]["verdict"] == "supported"  # what was read still supports
    assert set(codes(out).values()) == {"figure-not-found"}  # 2-24× alone, from arXiv


def test_an_edited_comment_is_source_changed_on_the_next_run(registry: Path) -> None:
    fake = _fake()
    _, first, _ = check(registry, fake)
    assert by_claim(first)["1,234 tok/s"]["evidence"]["where"] == "comment 5001"
    edited = fake.github.threads[THREAD][0]
    edited["body"], edited["updated_at"] = (
        "Prefix caching cut it to 1,134 tok/s.",
        "2026-10-01T00:00:00Z",
    )
    _, out, _ = check(registry, fake)
    [changed] = [f for f in out["findings"] if f["code"] == "source-changed"]
    assert changed["claim"] == "1,234 tok/s" and changed["severity"] == "warning"
    assert "comment 5001" in changed["message"] and "that text has changed" in changed["message"]
    _, again, _ = check(registry, fake)  # said on every run until the briefing is corrected
    assert "source-changed" in codes(again).values()


def test_without_a_trusted_history_no_source_changed_is_said(
    registry: Path, tmp_path: Path
) -> None:
    """A history the machine cannot vouch for (a folder in no checkout: a tarball may carry a
    forged `.anchors/`) is not read: no support, so an edit reads as what it is today."""
    fake = _fake()
    check(registry, fake)
    fake.github.threads[THREAD][0]["body"] = "Prefix caching cut it to 1,134 tok/s."
    (tmp_path / ".git").rename(tmp_path / "not-git")
    _, out, err = check(registry, fake)
    assert "source-changed" not in codes(out).values()
    assert codes(out)["1,234 tok/s"] == "figure-not-found"
    assert "history" in err


def test_sarif_and_annotations_point_at_the_briefing_line(registry: Path) -> None:
    fake = _fake()
    with fake.server() as srv:
        _, sarif, _ = cli("check", str(registry), *fake.args(srv), "-f", "sarif", "--today", TODAY)
        _, notes, _ = cli("check", str(registry), *fake.args(srv), "-f", "github", "--today", TODAY)
    results = json.loads(sarif)["runs"][0]["results"]
    [vllm] = [r for r in results if "2-24×" in r["message"]["text"]]
    place = vllm["locations"][0]["physicalLocation"]
    assert place["artifactLocation"]["uri"] == "briefings/2026-09-24-e1.md"
    assert place["region"]["startLine"] == 7
    related = vllm["relatedLocations"][0]["physicalLocation"]
    assert related["artifactLocation"]["uri"] == "registry.yaml"
    prints = {r["partialFingerprints"]["anchorsFinding/v1"] for r in results}
    assert len(prints) == len(results)  # two figures of one thread: two alerts
    [line] = [ln for ln in notes.splitlines() if "2-24×" in ln]
    assert line.startswith("::warning file=") and "e1.md,line=7," in line
    assert "in the registry at" in line


def test_the_weekly_report_tells_new_not_found_and_source_changed(registry: Path) -> None:
    fake = _fake()
    check(registry, fake)
    fake.github.threads[THREAD][0]["body"] = "Prefix caching cut it to 1,134 tok/s."
    check(registry, fake)
    code, out, err = cli("report", str(registry), "-f", "json")
    assert code == 0, err
    changes = {(t["change"], t["before"].split('"')[1]) for t in json.loads(out)["transitions"]}
    assert {
        ("figure-not-found", "2-24×"),
        ("figure-not-found", "64.5%"),
        ("quote-not-found", "we never saw a regression on H100 GPUs at all"),
        ("source-changed", "1,234 tok/s"),
    } <= changes
    _, md, _ = cli("report", str(registry))
    assert "figure not found" in md and "source changed" in md


def test_the_claims_records_match_the_schema(registry: Path) -> None:
    from .test_schemas import validator

    _, out, _ = check(registry, _fake())
    v = validator("check")
    v.validate(out)
    broken = json.loads(json.dumps(out))
    broken["claims"][0]["verdict"] = "true"
    assert not v.is_valid(broken)


def test_junit_and_gitlab_name_the_briefing_line(registry: Path, tmp_path: Path) -> None:
    fake = _fake()
    junit, gitlab = tmp_path / "junit.xml", tmp_path / "gl.json"
    with fake.server() as srv:
        cli("check", str(registry), *fake.args(srv), "--today", TODAY,
            "--output-junit", str(junit), "--output-gitlab", str(gitlab))  # fmt: skip
    assert "briefings/2026-09-24-e1.md:7: warning figure-not-found" in junit.read_text("utf-8")
    issues = json.loads(gitlab.read_text("utf-8"))
    [vllm] = [i for i in issues if "2-24×" in i["description"]]
    assert vllm["location"] == {"path": "briefings/2026-09-24-e1.md", "lines": {"begin": 7}}
    assert "in the registry at registry.yaml:" in vllm["description"]
    figures = [i for i in issues if i["check_name"].endswith("-not-found")]
    assert len({i["fingerprint"] for i in figures}) == len(figures) == 3
