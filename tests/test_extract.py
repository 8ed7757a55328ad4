from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from anchors.errors import BriefingError
from anchors.extract import TitleSource, briefing_date, extract, read_briefing
from anchors.registry.model import Status

D = date(2026, 9, 24)


def keys(text: str, when: date = D) -> list[str]:
    return [c.key.key for c in extract(text, "b.md", when).citations]


def test_urls_end_at_fullwidth_punctuation() -> None:
    text = "URL：https://a.example/x（官方）；https://b.example/y，然后【https://c.example/z】"
    assert keys(text) == [
        "url:https://a.example/x",
        "url:https://b.example/y",
        "url:https://c.example/z",
    ]


def test_semicolon_separated_urls_are_two() -> None:
    assert keys("见 a；https://b.example/q；https://c.example") == [
        "url:https://b.example/q",
        "url:https://c.example/",
    ]


def test_repo_url_followed_by_issue_number_is_the_issue() -> None:
    text = "arXiv/URL：https://github.com/sgl-project/sglang（GitHub Issue 35851）"
    assert keys(text) == ["github:sgl-project/sglang#35851"]


def test_bare_repo_url_is_a_url() -> None:
    assert keys("https://github.com/sgl-project/sglang（GitHub）") == [
        "url:https://github.com/sgl-project/sglang"
    ]


def test_github_text_reference() -> None:
    assert keys("来源：GitHub vllm-project/vllm#8242 确认") == ["github:vllm-project/vllm#8242"]


def test_markdown_link_and_trailing_punctuation() -> None:
    text = "See [the post](https://example.com/a_(b)) and https://example.com/c."
    assert keys(text) == ["url:https://example.com/a_(b)", "url:https://example.com/c"]


def test_arxiv_forms_in_prose() -> None:
    text = (
        "Edge0 arXiv:2609.18063（SSD）, 2605.11093v1, https://arxiv.org/pdf/2506.09713v2.pdf, "
        "卡片 1489-2609-25053（LatentPort）and 1495-2609.27901, hep-th/9901001, "
        "doi 10.48550/arXiv.2603.04428."
    )
    assert keys(text) == [
        "arxiv:2609.18063",
        "arxiv:2605.11093",
        "arxiv:2506.09713",
        "arxiv:2609.25053",
        "arxiv:2609.27901",
        "arxiv:hep-th/9901001",
        "arxiv:2603.04428",
    ]


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
        "| 2609.18063 | Edge0: Serving MoEs · prerouter 消除 | 高 | "
        "本次新增 → §1.3 KV Cache（SSD） |\n"
        "| 2609.19969 | DeepSeek: KV Cache Compression · 552B | 高 | 9-21锚定；续立确认 |\n"
    )
    a, b = extract(text, "b.md", D).citations
    assert (a.title, a.section, a.claim, a.claimed_date, a.primary) == (
        "Edge0: Serving MoEs",
        "§1.3 KV Cache",
        Status.NEW,
        None,
        True,
    )
    assert (b.title, b.claim, b.claimed_date) == (
        "DeepSeek: KV Cache Compression",
        Status.CONTINUED,
        date(2026, 9, 21),
    )


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


def test_a_section_is_stored_in_the_spelling_export_and_report_read() -> None:
    """A briefing typed with an IME (`§ １.３`, an ideographic space) stores the section as
    `§1.3 KV Cache`, the one spelling sections.normal gives, so a registry holds it once."""
    text = (
        "增量 2：Prefix caching\n"
        "URL：https://github.com/vllm-project/vllm/issues/8242\n"
        "建议归入章节：§ １.３\u3000KV  Cache（vLLM prefix caching）\n"
    )
    (c,) = extract(text, "b.md", D).citations
    assert c.section == "§1.3 KV Cache"


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


# --- Issue 11: defects found on real Markdown ---------------------------------------------------


def cites(text: str) -> list[tuple[str, int, str | None]]:
    return [(c.key.key, c.line, c.title) for c in extract(text, "b.md", D).citations]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "[![Stars](https://img.shields.io/github/stars/o/r.svg)](https://github.com/o/r)",
            ["url:https://img.shields.io/github/stars/o/r.svg", "url:https://github.com/o/r"],
        ),
        (
            "![](https://a.example/1.png)![](https://a.example/2.png)",
            ["url:https://a.example/1.png", "url:https://a.example/2.png"],
        ),
        (
            (
                "详见[LLaMA](https://github.com/facebookresearch/llama)或参考这个"
                "[PR](https://github.com/o/r/pull/73/files)"
            ),
            ["url:https://github.com/facebookresearch/llama", "github:o/r#73"],
        ),
        (
            "基于[LoRA](https://arxiv.org/abs/2106.09685)和[PEFT](https://github.com/huggingface/peft)",
            ["arxiv:2106.09685", "url:https://github.com/huggingface/peft"],
        ),
    ],
)
def test_glued_links_are_all_found(text: str, expected: list[str]) -> None:
    assert keys(text) == expected


@pytest.mark.parametrize(
    ("text", "url"),
    [
        (
            "[link](https://github.com/o/r/wiki/使用图形界面（macOS）)",
            "https://github.com/o/r/wiki/使用图形界面（macOS）",
        ),
        ("见[文档](https://example.com/a，b。c)。", "https://example.com/a，b。c"),
        (
            "[x](https://en.wikipedia.org/wiki/Transformer_(deep_learning)) 和更多",
            "https://en.wikipedia.org/wiki/Transformer_(deep_learning)",
        ),
        ('[x](https://example.com/p（1） "title")', "https://example.com/p（1）"),
        ("[x](<https://example.com/a b（c）>)", "https://example.com/a b（c）"),
        ("<https://example.com/（x）>", "https://example.com/（x）"),
        ('<a href="https://example.com/路径（一）">文</a>', "https://example.com/路径（一）"),
        ('[1]: https://example.com/参考（二） "t"', "https://example.com/参考（二）"),
    ],
)
def test_link_syntax_decides_where_a_url_ends(text: str, url: str | None) -> None:
    raws = [c.raw for c in extract(text, "b.md", D).citations]
    assert raws == ([url] if url else [])


def test_unbalanced_fullwidth_paren_ends_a_link_target() -> None:
    assert [c.raw for c in extract("[x](https://example.com/a）后面", "b.md", D).citations] == [
        "https://example.com/a"
    ]


def test_arxiv_url_forms_in_text() -> None:
    text = (
        "- [pdf](https://browse.arxiv.org/pdf/2401.12345.pdf) "
        "https://arxiv.org/ftp/arxiv/papers/2402/2402.00001.pdf "
        "https://arxiv.org/tb/recent https://doi.org/10/gf4gqc"
    )
    b = extract(text, "b.md", D)
    assert [c.key.key for c in b.citations] == [
        "arxiv:2401.12345",
        "arxiv:2402.00001",
        "url:https://arxiv.org/tb/recent",
        "url:https://doi.org/10/gf4gqc",
    ]
    assert b.invalid == []


@pytest.mark.parametrize(
    ("text", "title"),
    [
        ("## 论文\n- 链接：https://arxiv.org/abs/2401.00768", None),
        ("## 论文\n- 链接：https://arxiv.org/pdf/2401.00006.pdf", None),
        (
            (
                "- [FlashAttention: Fast and Memory-Efficient Exact Attention]"
                "(https://arxiv.org/abs/2205.14135)"
            ),
            "FlashAttention: Fast and Memory-Efficient Exact Attention",
        ),
        (
            "- **Efficient Memory Management for LLM Serving** [[pdf]](https://arxiv.org/pdf/2309.06180)",
            "Efficient Memory Management for LLM Serving",
        ),
        (
            "- 🔥 LoRA: Low-Rank Adaptation https://arxiv.org/abs/2106.09685 ⭐️",
            "LoRA: Low-Rank Adaptation",
        ),
        ("1. Attention Is All You Need. arXiv:1706.03762.", "Attention Is All You Need"),
        (
            "如 [vLLM 论文](https://arxiv.org/abs/2309.06180) 所述，PagedAttention 很有效",
            "vLLM 论文",
        ),
    ],
)
def test_titles_come_from_what_the_document_says(text: str, title: str | None) -> None:
    (c,) = extract(text, "b.md", D).citations
    assert c.title == title
    assert c.written_title == title


def test_table_title_column_names_a_link_in_another_cell() -> None:
    text = (
        "|Date|Title|Paper|Code|\n|:---:|:---:|:---:|:---:|\n"
        "|2023.10|🔥[**FlashDecoding++**] FlashDecoding++: Faster LLM Inference on GPUs"
        "|[[pdf]](https://arxiv.org/pdf/2311.01282.pdf)|⚠️|\n"
    )
    (c,) = extract(text, "b.md", D).citations
    assert c.key.key == "arxiv:2311.01282"
    assert c.title == "FlashDecoding++ FlashDecoding++: Faster LLM Inference on GPUs"


def test_url_titles_are_plain_headings_never_url_pieces() -> None:
    text = (
        "### 📖DeepSeek/Multi-head Latent Attention(MLA) ([©️back👆🏻](#paperlist))\n"
        "- 链接：https://github.com/deepseek-ai/FlashMLA\n"
    )
    (c,) = extract(text, "b.md", D).citations
    assert c.title == "DeepSeek/Multi-head Latent Attention(MLA)"
    assert c.title_source is TitleSource.HEADING and c.written_title is None


def test_an_id_and_its_link_on_one_line_are_one_citation() -> None:
    assert cites("- [2309.06180](https://arxiv.org/abs/2309.06180) PagedAttention") == [
        ("arxiv:2309.06180", 1, None)
    ]


def test_fullwidth_digits_read_as_the_ascii_id() -> None:
    b = extract(
        "论文 ２６０９.１８０６３ 与 arXiv：2609.19969；阿拉伯数字 ٢٦٠٩.١٨٠٦٣ 不算", "b.md", D
    )
    assert [c.key.key for c in b.citations] == ["arxiv:2609.18063", "arxiv:2609.19969"]
    assert b.citations[0].raw == "２６０９.１８０６３"
    assert str(b.citations[0].key) == "2609.18063"


def test_non_ascii_digits_in_an_arxiv_url_are_invalid() -> None:
    b = extract("https://arxiv.org/abs/gr-qc/۹۷۰۶123", "b.md", D)
    assert b.citations == [] and "ASCII" in b.invalid[0].reason


def test_new_scheme_id_from_2099_is_refused_as_future() -> None:
    from anchors.findings import Code
    from anchors.merging.merge import merge
    from anchors.registry.model import Registry

    b = extract("| 9912.12345 | Far future |", "b.md", D)
    result = merge(Registry("r.yaml", "", [], []), [b], date(2026, 12, 2))
    assert [(f.code, f.anchor) for f in result.findings] == [(Code.FUTURE_ID, "9912.12345")]


def test_sici_doi_in_running_text_is_whole() -> None:
    text = "Magn Reson Med, doi:10.1002/(SICI)1522-2594(199911)42:5<952::AID-MRM16>3.0.CO;2-S."
    assert keys(text) == ["doi:10.1002/(sici)1522-2594(199911)42:5<952::aid-mrm16>3.0.co;2-s"]
    assert keys("(see 10.1000.10/123456)") == ["doi:10.1000.10/123456"]


def test_a_hash_inside_a_doi_is_part_of_it() -> None:
    """The DOI Handbook's own example: `10.1006/rwei.1999#.0001` is one DOI (its URL form
    encodes the `#` as %23); a `#` with nothing of the DOI after it ends the DOI."""
    assert keys("见 10.1006/rwei.1999#.0001 一文") == ["doi:10.1006/rwei.1999#.0001"]
    assert keys("doi:10.1000/abc# 注") == ["doi:10.1000/abc"]


def test_impossible_github_refs_are_invalid_not_anchors() -> None:
    b = extract("foo/..#222 and o/r#0 but o/r#1", "b.md", D)
    assert [c.key.key for c in b.citations] == ["github:o/r#1"]
    assert [i.raw for i in b.invalid] == ["foo/..#222", "o/r#0"]


def test_ignore_markers_keep_off_topic_citations_out() -> None:
    text = (
        "| 2609.18063 | Edge0 | 本次新增 |\n"
        "- 其余新卡 1495-2609.27901 非 inference 主轴 <!-- anchors: ignore-line -->\n"
        "<!-- anchors: ignore-next-line -->\n"
        "- 2609.26550 视频生成\n"
        "<!-- anchors: ignore-start -->\n"
        "| 2609.25267 | multimodal |\n"
        "| 2609.25199 | multimodal |\n"
        "<!-- anchors: ignore-end -->\n"
        "- 2609.25053 LatentPort\n"
    )
    assert [c.key.key for c in extract(text, "b.md", D).citations] == [
        "arxiv:2609.18063",
        "arxiv:2609.25053",
    ]


def test_code_blocks_are_skipped_but_bibtex_is_read() -> None:
    text = (
        "```bash\ncurl http://localhost:8000/v1/completions  # 2401.00001\n```\n"
        "```bibtex\n@article{kwon2023,\n  journal={arXiv preprint arXiv:2309.06180},\n"
        "  url={https://arxiv.org/abs/2309.06180}\n}\n```\n"
    )
    assert cites(text) == [("arxiv:2309.06180", 6, None), ("arxiv:2309.06180", 7, None)]


@pytest.mark.parametrize(
    "blob",
    [
        "[x](https://a.example/（" * 6000,
        "https://a.example/x " * 7500,
        "[a](https://b.example/c)" * 6000,
        '<a href="https://a.example/' * 5500,
        "| https://a.example/x " * 7000,
        "]" * 150_000 + "](https://a.example/x)",
    ],
    ids=[
        "unclosed-targets",
        "repeated-url",
        "glued-links",
        "unclosed-href",
        "row-of-urls",
        "brackets-before-target",
    ],
)
@pytest.mark.timeout(20)
def test_long_lines_of_links_cost_linear_time(blob: str) -> None:
    """Each of these took quadratic time once (38 s for 92 KB); linear they take well under 1 s."""
    b = extract(blob, "b.md", D)  # pytest-timeout is the bound
    assert len(b.citations) <= 2


def test_links_inside_html_comments_are_not_citations() -> None:
    text = (
        "<!--\n[![old](https://camo.example/badge)](https://old.example/)\n-->\n"
        "see <!-- https://hidden.example/ --> https://shown.example/x\n"
        "<!--Thanks to [x](https://github.com/o/r)-->2401.00001\n"
    )
    assert cites(text) == [("url:https://shown.example/x", 4, None), ("arxiv:2401.00001", 5, None)]


def test_seed_off_topic_cards_are_left_out_by_a_marker(seed: Path) -> None:
    """The seed's source table mixes two relevant cards with five it calls multimodal, and its
    section 五 lists the same five as `非 inference 主轴`: one marker names them for the file."""
    text = seed.read_text(encoding="utf-8")
    off = {
        "arxiv:2609.27901",
        "arxiv:2609.26550",
        "arxiv:2609.25267",
        "arxiv:2609.25199",
        "arxiv:2609.25247",
        "arxiv:2609.27334",
    }
    before = {c.key.key for c in extract(text, "b.md", D).citations}
    assert off <= before
    marker = (
        "<!-- anchors: ignore 1495-2609.27901 1487-2609-26550 1488-2609-25267 "
        "1480-2609-25199 1482-2609-25247 2609.27334 -->\n"
    )
    after = {c.key.key for c in extract(text + marker, "b.md", D).citations}
    assert after == before - off
    assert {"arxiv:2609.18063", "arxiv:2609.25053"} <= after  # the two relevant cards stay


def test_remark_github_reference_vectors() -> None:
    """The valid and invalid `owner/repo#N` cases of remarkjs/remark-github's issue-project
    fixture (MIT): names may hold dots and dashes, not end in `.git` or `-`, owners <= 39."""
    text = (
        "foo/bar#1; foo/bar#123456789. -foo/baz#1 w-w/bar#1 w/bar#1 ww/bar#1 "
        "wooorm/c.git#1 wooorm/c#1 w/w#1 ww/.gitconfig#1 w-/bar#2 "
        "wooormwooormwooormwooormwooormwooormwooo/c#1"
    )
    b = extract(text, "b.md", D)
    assert [c.key.key for c in b.citations] == [
        "github:foo/bar#1",
        "github:foo/bar#123456789",
        "github:w-w/bar#1",
        "github:w/bar#1",
        "github:ww/bar#1",
        "github:wooorm/c#1",
        "github:w/w#1",
        "github:ww/.gitconfig#1",
    ]
    assert [i.raw for i in b.invalid] == ["wooorm/c.git#1", "w-/bar#2"]
