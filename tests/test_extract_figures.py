"""Which figures and quotes a briefing attributes to which anchor: by line (one citation in the
sentence, row or item), by block (the increment's 来源/URL sources), or not at all."""

from __future__ import annotations

import time
from datetime import date
from pathlib import Path

import pytest

from anchors.extract import extract, read_briefing
from anchors.figures.model import Attribution

DAY = date(2026, 9, 24)
L, B = Attribution.LINE, Attribution.BLOCK


def claims(text: str) -> set[tuple[str, str, str, str, int]]:
    return {
        (a.anchor, a.what.value, a.words, a.by.value, a.line)
        for a in extract(text, "b.md", DAY).figures
    }


def test_one_citation_on_the_line_takes_its_figures() -> None:
    assert claims("SGLang 吞吐最高提升 6.4 倍（arXiv 2312.07104）\n") == {
        ("arxiv:2312.07104", "figure", "最高提升 6.4 倍", "line", 1)
    }
    row = "| 2605.11093v1 | HookPoint: 3.6% overhead | 高 | 9-22锚定 |\n"
    assert claims(row) == {("arxiv:2605.11093", "figure", "3.6%", "line", 1)}


def test_a_sentence_is_the_unit_of_prose_and_an_item_of_a_list() -> None:
    prose = "FA 提速 3 倍（arXiv 2205.14135）。FA2 再快约两倍（arXiv 2307.08691）。\n"
    assert claims(prose) == {
        ("arxiv:2205.14135", "figure", "3 倍", "line", 1),
        ("arxiv:2307.08691", "figure", "约两倍", "line", 1),
    }
    item = "- 提速 3 倍。见论文（arXiv 2205.14135）\n"
    assert claims(item) == {("arxiv:2205.14135", "figure", "3 倍", "line", 1)}


def test_two_citations_in_a_sentence_attribute_nothing() -> None:
    line = "FA 提速 3 倍（arXiv 2205.14135），FA2 再快约两倍（arXiv 2307.08691）\n"
    assert claims(line) == set()
    assert (
        claims(
            "#7117 gave 1.5% (https://github.com/vllm-project/vllm/pull/7117, arXiv 2312.07104)\n"
        )
        == set()
    )


def test_a_bare_issue_number_names_the_increments_issue() -> None:
    text = (
        "增量 2：vLLM Prefix Caching Bug — GPU 利用率降至 ~70%（GitHub #8242 确认）\n"
        "URL：https://github.com/vllm-project/vllm/issues/8242\n"
    )
    assert claims(text) == {("github:vllm-project/vllm#8242", "figure", "~70%", "line", 1)}
    # without an increment citing #8242 the number names nothing
    assert claims("GPU 利用率降至 ~70%（GitHub #8242 确认）\n") == set()


def test_an_increments_sources_take_the_figures_of_lines_that_cite_nothing() -> None:
    text = (
        "增量 3：推测解码\n"
        "来源：arXiv 2401.15077；arXiv 2401.10774；https://blog.example.org/post\n"
        "- EAGLE 延迟加速 2.7x-3.5x\n"
        "- 论文称 “a simple yet highly efficient speculative sampling framework”\n"
        "- 对比见 https://lmsys.org/blog （吞吐 +29%）\n"
        "增量 4：无来源\n"
        "- 吞吐 +45%\n"
    )
    got = claims(text)
    assert ("arxiv:2401.15077", "figure", "2.7x-3.5x", "block", 3) in got
    assert ("arxiv:2401.10774", "figure", "2.7x-3.5x", "block", 3) in got
    assert (
        "arxiv:2401.15077",
        "quote",
        "a simple yet highly efficient speculative sampling framework",
        "block",
        4,
    ) in got
    # the blog is no checkable source of the block; the line citing it attributes to it
    assert not any(a.startswith("url:https://blog.example.org") for a, *_ in got)
    assert ("url:https://lmsys.org/blog", "figure", "+29%", "line", 5) in got
    assert not any(line == 7 for *_, line in got)  # a block without sources attributes nothing


def test_code_and_ignored_lines_attribute_nothing() -> None:
    text = (
        "增量 1：配置\n"
        "URL：https://github.com/vllm-project/vllm/issues/8242\n"
        "```\n"
        "--gpu-memory-utilization 0.90 # 90% (https://github.com/vllm-project/vllm/issues/8242)\n"
        "```\n"
        "<!-- anchors: ignore-next-line -->\n"
        "- 90% 上限（https://github.com/vllm-project/vllm/issues/8242）\n"
    )
    assert claims(text) == set()


def test_the_seed_briefing_attributes_by_line_and_by_block(seed: Path) -> None:
    found = read_briefing(seed).figures
    by = {(a.anchor, a.words, a.by) for a in found}
    assert ("github:vllm-project/vllm#8242", "~70%", L) in by
    assert ("github:vllm-project/vllm#8242", "302.98 tok/s", B) in by
    assert ("github:sgl-project/sglang#35851", "72.7%", B) in by
    assert ("arxiv:2604.05887", "7.9×", L) in by
    # the blogs of increments 1, 5 and 6 are not read: none of their figures is attributed
    assert not any("29%" in w or "6.4×" in w or "9.7%" in w for _, w, _ in by)
    assert sum(1 for a in found if a.by is L) == 7


@pytest.mark.slow
def test_a_long_line_of_sentences_and_citations_costs_time_linear_in_its_length() -> None:
    """Each sentence of a line was given its citations by a pass over all the line's: a line
    of 16,000 cited sentences (624 KB, under the 4 MiB bound) took 17 s in `add`. Four times
    the sentences and citations cost about four times this process's CPU time (quadratic: 16)."""

    def cost(n: int) -> float:
        text = "Up 5% in arXiv 2401.00001 " * n + "。" * n + "\n"
        start = time.process_time()
        got = extract(text, "b.md", DAY).figures
        spent = time.process_time() - start
        assert [(a.anchor, a.words, a.by) for a in got] == [("arxiv:2401.00001", "5%", L)]
        return spent

    small, large = min(cost(2000) for _ in range(2)), min(cost(8000) for _ in range(2))
    assert large < 8 * small, (small, large)
