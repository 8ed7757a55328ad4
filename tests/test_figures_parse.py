"""Reading figures: unit classes, hedges, precision, ranges, Chinese numerals, TeX, and the
numbers that are no figure (versions, dates, IDs, sections, model sizes, hardware)."""

from __future__ import annotations

import time

import pytest

from anchors.figures.model import Hedge, UnitClass
from anchors.figures.normal import normalise, normalise_tex
from anchors.figures.parse import figures_in, numbers_in

U = UnitClass


def one(text: str):  # type: ignore[no-untyped-def]
    found = figures_in(text)
    assert len(found) == 1, (text, found)
    return found[0]


@pytest.mark.parametrize(
    ("text", "unit", "value", "step", "hedge", "written"),
    [
        ("覆盖率 72.7%", U.PERCENT, 72.7, 0.1, Hedge.EXACT, "72.7%"),
        ("百分之七十二点七", U.PERCENT, 72.7, 0.1, Hedge.EXACT, "百分之七十二点七"),
        ("近七成用户", U.PERCENT, 70.0, 10.0, Hedge.NEARLY, "近七成"),
        ("2.3x faster", U.MULTIPLE, 2.3, 0.1, Hedge.EXACT, "2.3x"),
        ("提升 2.3×", U.MULTIPLE, 2.3, 0.1, Hedge.EXACT, "2.3×"),
        ("快 3倍", U.MULTIPLE, 3.0, 1.0, Hedge.EXACT, "3倍"),
        ("两倍", U.MULTIPLE, 2.0, 1.0, Hedge.EXACT, "两倍"),
        ("a twofold gain", U.MULTIPLE, 2.0, 1.0, Hedge.EXACT, "twofold"),
        ("吞吐翻倍", U.MULTIPLE, 2.0, 1.0, Hedge.EXACT, "翻倍"),
        ("翻两番", U.MULTIPLE, 4.0, 1.0, Hedge.EXACT, "翻两番"),
        ("1.5万", U.COUNT, 15000.0, 1000.0, Hedge.EXACT, "1.5万"),
        ("272.40亿", U.COUNT, 2.724e10, 1e6, Hedge.EXACT, "272.40亿"),
        ("12.6k tok/s", U.THROUGHPUT, 12600.0, 100.0, Hedge.EXACT, "12.6k tok/s"),
        ("3.2M", U.COUNT, 3.2e6, 1e5, Hedge.EXACT, "3.2M"),
        ("1,234 tok/s", U.THROUGHPUT, 1234.0, 1.0, Hedge.EXACT, "1,234 tok/s"),
        ("TTFT 12,701ms", U.TIME, 12.701, 0.001, Hedge.EXACT, "12,701ms"),
        ("~590 µs", U.TIME, 590e-6, 1e-6, Hedge.ABOUT, "~590 µs"),
        ("24 GiB", U.SIZE, 24 * 2**30, 2**30, Hedge.EXACT, "24 GiB"),
        ("$2,467/月", U.USD, 2467.0, 1.0, Hedge.EXACT, "$2,467"),
        ("2 pp", U.POINTS, 2.0, 1.0, Hedge.EXACT, "2 pp"),
        ("2 个百分点", U.POINTS, 2.0, 1.0, Hedge.EXACT, "2 个百分点"),
        ("约 70%", U.PERCENT, 70.0, 1.0, Hedge.ABOUT, "约 70%"),
        ("70% 左右", U.PERCENT, 70.0, 1.0, Hedge.ABOUT, "70% 左右"),
        ("around 70%", U.PERCENT, 70.0, 1.0, Hedge.ABOUT, "around 70%"),
        ("nearly 3x", U.MULTIPLE, 3.0, 1.0, Hedge.NEARLY, "nearly 3x"),
        ("超过 90%", U.PERCENT, 90.0, 1.0, Hedge.OVER, "超过 90%"),
        ("more than 2x", U.MULTIPLE, 2.0, 1.0, Hedge.OVER, "more than 2x"),
        (">96%", U.PERCENT, 96.0, 1.0, Hedge.OVER, ">96%"),
        ("300+ GPU", U.COUNT, 300.0, 1.0, Hedge.OVER, "300+ GPU"),
        ("不到 5 ms", U.TIME, 0.005, 0.001, Hedge.UNDER, "不到 5 ms"),
        ("≤4%", U.PERCENT, 4.0, 1.0, Hedge.UNDER, "≤4%"),
        ("up to 1.93×", U.MULTIPLE, 1.93, 0.01, Hedge.UP_TO, "up to 1.93×"),
        ("最高提升 6.4 倍", U.MULTIPLE, 6.4, 0.1, Hedge.UP_TO, "最高提升 6.4 倍"),
        ("七十多倍", U.MULTIPLE, 70.0, 1.0, Hedge.OVER, "七十多倍"),
        ("７０％", U.PERCENT, 70.0, 1.0, Hedge.EXACT, "７０％"),
        ("−59%", U.PERCENT, 59.0, 1.0, Hedge.EXACT, "−59%"),
    ],
)
def test_a_figure_has_a_unit_class_a_precision_and_a_hedge(
    text: str, unit: UnitClass, value: float, step: float, hedge: Hedge, written: str
) -> None:
    f = one(text)
    assert (f.unit, f.hedge, f.text) == (unit, hedge, written)
    assert f.value == pytest.approx(value) and f.step == pytest.approx(step)
    assert text[f.start : f.end] == written  # reported as written, full-width and all


@pytest.mark.parametrize(
    ("text", "low", "high", "unit"),
    [
        ("3-5%", 3.0, 5.0, U.PERCENT),
        ("3~5%", 3.0, 5.0, U.PERCENT),
        ("3%-5%", 3.0, 5.0, U.PERCENT),
        ("5–6.5×", 5.0, 6.5, U.MULTIPLE),
        ("2.7x-3.5x", 2.7, 3.5, U.MULTIPLE),
        ("2 到 4 倍", 2.0, 4.0, U.MULTIPLE),
    ],
)
def test_ranges(text: str, low: float, high: float, unit: UnitClass) -> None:
    f = one(text)
    assert (f.value, f.high, f.unit) == (pytest.approx(low), pytest.approx(high), unit)


def test_a_change_is_no_range() -> None:
    found = figures_in("latency from 120 ms to 80 ms; 从 312ms 到 251ms")
    assert [f.text for f in found] == ["120 ms", "80 ms", "312ms", "251ms"]
    assert all(f.high is None for f in found)


@pytest.mark.parametrize(
    "text",
    [
        "vLLM v0.5.2 and 0.7.x",
        "2026-09-24 22:00",
        "arXiv 2609.18063, #8242, issue 35851",
        "§1.3 KV Cache",
        "Llama-3.1-70B on H100, Qwen3-235B-A22B, GPT-4o, FP8, TP8",
        "8xA100 and 80GB H100 and A100 80GB",
        "1. first 2. second ① ③",
        "1k/1k, 24/7",
        "a 1M context and 70B parameters",
        "Table 3 and Figure 2",
        "×30 layers",
        "2 x 3 grid",
        "统一成标准，一成不变",
        "9-22锚定",
        "the 1990s",
        "998.41 ± 114.47",
    ],
)
def test_numbers_that_are_no_figure(text: str) -> None:
    assert figures_in(text) == []


@pytest.mark.parametrize(
    "text", ["several times faster", "数十倍", "大幅提升", "an order of magnitude", "数倍"]
)
def test_vague_words_are_vague_figures(text: str) -> None:
    f = one(text)
    assert f.unit is U.VAGUE and not f.checkable


def test_tex_as_arxiv_serves_it() -> None:
    assert normalise_tex(r"72.7\% of $\sim$10\% and $2.3\times$") == "72.7% of ~10% and 2.3×"
    assert normalise_tex(r"by~20\%, $>$90\%, \textbf{3.5}$\times$") == "by 20%, >90%, 3.5×"
    assert normalise_tex(r"$3.2\times 10^{4}$ tokens, 1{,}000 and 1\,000") == (
        "3.2e4 tokens, 1,000 and 1,000"
    )
    assert normalise_tex(r"3--5\% \cite{a2020}") == "3-5% "
    found = numbers_in(r"up to 2-4$\times$ and $\sim$61.3\% idle, $3.2\times 10^{4}$ tok/s")
    assert [(f.unit, f.text) for f in found if f.high is None] == [
        (U.MULTIPLE, "up to 2"),
        (U.MULTIPLE, "4×"),
        (U.PERCENT, "~61.3%"),
        (U.THROUGHPUT, "3.2e4 tok/s"),
    ]


def test_a_source_keeps_its_unitless_numbers_and_table_separators() -> None:
    found = numbers_in("| 1GPU, v0.4.2 | 14.33/6895.75 | 12.29/3024.07/2396.00 |")
    assert [f.value for f in found if f.unit is U.BARE] == [14.33, 6895.75, 12.29, 3024.07, 2396.0]
    assert figures_in("| 14.33/6895.75 |") == []  # in a briefing `a/b` is a ratio, no figure


def test_normalise_maps_each_character_back() -> None:
    n = normalise("近７０％ ①")
    assert n.text == "近70%  "
    assert n.span(1, 4) == (1, 4)


def test_chinese_numerals_through_cn2an() -> None:
    assert one("百分之五点五").value == pytest.approx(5.5)
    assert one("二十五个百分点").value == pytest.approx(25)
    assert one("一千二百倍").value == pytest.approx(1200)
    assert one("十倍").value == 10 and one("百倍").value == 100


PATHOLOGICAL = {
    "digits": "1" * 40_000,
    "commas": "1," * 8_000,
    "numeral-run": "七" * 40_000 + "倍",
    "chinese-multiples": "三倍" * 3_000,
    "hedge-run": "约" * 20_000 + "5%",
    "dotted": "1.1." * 10_000,
    "open-quote": "“" + "a" * 40_000,
    "tex": "\\" * 10_000 + "$" * 10_000,
    "spaced": "5 " * 5_000 + "x",
    "percents": "5% " * 3_000,
    "chinese-percents": "百分之七" * 3_000,
}


@pytest.mark.parametrize("pathological", PATHOLOGICAL.values(), ids=PATHOLOGICAL.keys())
def test_parsing_stays_linear(pathological: str) -> None:
    """Twice the input costs about twice the time (a ratio in one process, never a wall-clock
    budget): every pattern is linear and every look around a number bounded."""

    def cost(text: str) -> float:  # this process's CPU time: other processes do not count
        start = time.process_time()
        figures_in(text)
        numbers_in(text)
        return time.process_time() - start

    half, full = pathological[: len(pathological) // 2], pathological
    small = min(cost(half) for _ in range(3))
    large = min(cost(full) for _ in range(3))
    assert large < 4 * small + 0.05
