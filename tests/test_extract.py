from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from anchors.errors import BriefingError
from anchors.extract import briefing_date, extract, read_briefing
from anchors.registry import Status

D = date(2026, 9, 24)


def keys(text: str, when: date = D) -> list[str]:
    return [c.key.key for c in extract(text, "b.md", when).citations]


def test_urls_end_at_fullwidth_punctuation() -> None:
    text = "URL：https://a.example/x（官方）；https://b.example/y，然后【https://c.example/z】"
    assert keys(text) == ["url:https://a.example/x", "url:https://b.example/y",
                          "url:https://c.example/z"]


def test_semicolon_separated_urls_are_two() -> None:
    assert keys("见 a；https://b.example/q；https://c.example") == [
        "url:https://b.example/q", "url:https://c.example/"]


def test_repo_url_followed_by_issue_number_is_the_issue() -> None:
    text = "arXiv/URL：https://github.com/sgl-project/sglang（GitHub Issue 35851）"
    assert keys(text) == ["github:sgl-project/sglang#35851"]


def test_bare_repo_url_is_a_url() -> None:
    assert keys("https://github.com/sgl-project/sglang（GitHub）") == [
        "url:https://github.com/sgl-project/sglang"]


def test_github_text_reference() -> None:
    assert keys("来源：GitHub vllm-project/vllm#8242 确认") == ["github:vllm-project/vllm#8242"]


def test_markdown_link_and_trailing_punctuation() -> None:
    text = "See [the post](https://example.com/a_(b)) and https://example.com/c."
    assert keys(text) == ["url:https://example.com/a_(b)", "url:https://example.com/c"]


def test_arxiv_forms_in_prose() -> None:
    text = ("Edge0 arXiv:2609.18063（SSD）, 2605.11093v1, https://arxiv.org/pdf/2506.09713v2.pdf, "
            "卡片 1489-2609-25053（LatentPort）and 1495-2609.27901, hep-th/9901001, "
            "doi 10.48550/arXiv.2603.04428.")
    assert keys(text) == ["arxiv:2609.18063", "arxiv:2605.11093", "arxiv:2506.09713",
                          "arxiv:2609.25053", "arxiv:2609.27901", "arxiv:hep-th/9901001",
                          "arxiv:2603.04428"]


def test_numbers_that_are_not_ids_are_ignored() -> None:
    assert keys("302.98 tok/s, 12,701ms, v0.5.20, 2026-09-24, 0.9×80GB, 1.93×") == []


def test_malformed_ids_are_reported_not_dropped() -> None:
    b = extract("| 2609.1806 | x |\n| arXiv:2613.00001 | y |\n", "b.md", D)
    assert b.citations == []
    assert [(i.raw, i.line) for i in b.invalid] == [("2609.1806", 1), ("arXiv:2613.00001", 2)]
    b = extract("arXiv:1501.0001 is wrong", "b.md", D)
    assert "5 digits" in b.invalid[0].reason


def test_table_row_carries_title_status_section_and_date() -> None:
    text = (
        "| arXiv 号 | 标题 | 可信度 | 关系 |\n"
        "|---|---|---|---|\n"
        "| 2609.18063 | Edge0: Serving MoEs · prerouter 消除 | 高 | 本次新增 → §1.3 KV Cache（SSD） |\n"
        "| 2609.19969 | DeepSeek: KV Cache Compression · 552B | 高 | 9-21锚定；续立确认 |\n"
    )
    a, b = extract(text, "b.md", D).citations
    assert (a.title, a.section, a.claim, a.claimed_date, a.primary) == (
        "Edge0: Serving MoEs", "§1.3 KV Cache", Status.NEW, None, True)
    assert (b.title, b.claim, b.claimed_date) == (
        "DeepSeek: KV Cache Compression", Status.CONTINUED, date(2026, 9, 21))


def test_december_claim_in_january_is_last_year() -> None:
    c = extract("| 2512.00001 | T | 12-30锚定 |", "b.md", date(2027, 1, 3)).citations[0]
    assert c.claimed_date == date(2026, 12, 30)


def test_url_block_takes_heading_title_and_suggested_section() -> None:
    text = (
        "增量 2：vLLM Prefix Caching Bug — GPU 利用率降至 ~70%（GitHub #8242 确认·⭐⭐⭐⭐）\n"
        "URL：https://github.com/vllm-project/vllm/issues/8242\n"
        "建议归入章节：§1.3 KV Cache（vLLM prefix caching）\n"
    )
    (c,) = extract(text, "b.md", D).citations
    assert c.title == "vLLM Prefix Caching Bug — GPU 利用率降至 ~70%"
    assert c.section == "§1.3 KV Cache"
    assert c.primary


def test_english_markdown_briefing() -> None:
    text = (
        "# Daily briefing (2026-10-02)\n"
        "## Increment 1: Paged attention revisited\n"
        "- URL: https://blog.example.com/paged\n"
        "- 2309.06180 Efficient Memory Management for LLM Serving\n"
        "Suggested section: §1.3 KV Cache\n"
    )
    b = extract(text, "b.md", date(2026, 10, 2))
    url, paper = b.citations
    assert url.title == "Paged attention revisited" and url.section == "§1.3 KV Cache"
    assert paper.title == "Efficient Memory Management for LLM Serving" and paper.primary


def test_briefing_date_from_title_or_file_name(tmp_path: Path) -> None:
    assert briefing_date("inference · E1 预消化简报(2026-09-24)\n", "x.md") == D
    assert briefing_date("no date\n", "briefings/2026-09-25-e1.md") == date(2026, 9, 25)
    assert briefing_date("no date\n", "notes.md") is None
    p = tmp_path / "notes.md"
    p.write_text("2609.18063\n", encoding="utf-8")
    with pytest.raises(BriefingError, match="--date"):
        read_briefing(p)
    assert read_briefing(p, date(2026, 9, 25)).date == date(2026, 9, 25)


def test_seed_briefing_end_to_end(seed: Path) -> None:
    b = read_briefing(seed)
    assert b.date == D
    unique = {c.key.key for c in b.citations}
    arxiv = {k for k in unique if k.startswith("arxiv:")}
    github = {k for k in unique if k.startswith("github:")}
    urls = {k for k in unique if k.startswith("url:")}
    assert len(arxiv) == 33
    assert github == {"github:vllm-project/vllm#8242", "github:sgl-project/sglang#35851"}
    assert len(urls) == 8
    assert b.invalid == []
    listed = [c.line for c in b.citations if c.key.key == "arxiv:2609.18063" and c.primary]
    assert listed == [169, 188]
    versioned = next(c for c in b.citations if c.key.key == "arxiv:2605.11093")
    assert versioned.raw == "2605.11093v1" and versioned.claimed_date == date(2026, 9, 22)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"\x00\x01binary", "NUL byte"),
        (b"caf\xe9 2609.18063", "not UTF-8"),
    ],
)
def test_unusable_briefings(tmp_path: Path, content: bytes, message: str) -> None:
    p = tmp_path / "2026-09-24.md"
    p.write_bytes(content)
    with pytest.raises(BriefingError, match=message):
        read_briefing(p)


def test_huge_briefing_is_refused(tmp_path: Path) -> None:
    p = tmp_path / "2026-09-24.md"
    p.write_bytes(b"x" * (10 * 1024 * 1024))
    with pytest.raises(BriefingError, match="larger than"):
        read_briefing(p)


def test_broken_table_does_not_crash() -> None:
    text = "| 2609.18063 |\n|||||\n| | |\n|---|\n| 2609.19969 | T | 9-99锚定 |"
    b = extract(text, "b.md", D)
    assert [c.key.key for c in b.citations] == ["arxiv:2609.18063", "arxiv:2609.19969"]
    assert b.citations[1].claimed_date is None
