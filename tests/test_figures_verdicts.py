"""Verdicts for figures and quotes against a source: the matching rules as the issue states
them, each verdict able to say its opposite, and `not-found` only on a source read whole."""

from __future__ import annotations

import pytest

from anchors.figures.model import Attribution
from anchors.figures.parse import figures_in
from anchors.figures.passages import Passage, PassageKind, SourceText
from anchors.figures.quotes import quotes_in
from anchors.figures.verdict import ClaimKind, Reason, Verdict, VerdictKind, judge, judge_block

V = VerdictKind


def source(
    *texts: str, kind: PassageKind = PassageKind.PROSE, gaps: tuple[str, ...] = ()
) -> SourceText:
    passages = tuple(Passage(t, f"comment {i}", kind) for i, t in enumerate(texts))
    return SourceText(passages, "body + comments", gaps)


def verdict(figure: str, *texts: str, **kw: object) -> Verdict:
    [f] = figures_in(figure)
    return judge(f, source(*texts, **kw))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("figure", "yes", "no"),
    [
        ("8%", "7.6%", "8.6%"),
        ("8.2%", "8.16%", "8.26%"),
        ("1.5万 tokens", "14,600 tokens", "15,600 tokens"),
        ("8234 tokens", "8234 tokens", "8000 tokens"),
        ("~70%", "64%", "62%"),
        ("约 70%", "76.9%", "77.5%"),
        ("近七成", "60%", "58%"),
        ("nearly 3x", "2.6x", "3.2x"),
        ("超过 90%", "96%", "88%"),
        ("不到 5 ms", "4.2 ms", "5.6 ms"),
        ("up to 1.93×", "1.93×", "1.99×"),
        ("2x", "+100%", "+60%"),
        ("2倍", "+200%", "+150%"),
        ("2x", "1.96x", "2.6x"),
        ("12.7 s", "12,701ms", "13.9 s"),
    ],
)
def test_a_number_supports_a_figure_within_what_it_admits(figure: str, yes: str, no: str) -> None:
    assert verdict(figure, f"we measured {yes} here.").kind is V.SUPPORTED
    assert verdict(figure, f"we measured {no} here.").kind is not V.SUPPORTED


def test_percent_and_multiple_never_license_each_other_beyond_the_readings_of_n_times() -> None:
    assert verdict("150%", "a speed-up of 1.5x.").kind is V.SUPPORTED  # ×1.5 is +50% or 150%
    assert verdict("30%", "a speed-up of 1.3x.").kind is V.SUPPORTED
    assert verdict("13%", "a speed-up of 1.3x.").kind is V.NOT_FOUND
    assert verdict("6.4x", "a hit rate of 6.4%.").kind is V.NOT_FOUND


def test_points_match_points_or_the_difference_of_two_rates() -> None:
    assert verdict("2.5 pp", "accuracy moved 2.5 points.").kind is V.SUPPORTED
    derived = verdict("11.5 个百分点", "accuracy rose from 61.2% to 72.7%.")
    assert derived.kind is V.DERIVED and derived.evidence is not None
    assert derived.evidence.said == ("61.2%", "72.7%")
    assert verdict("2.5 pp", "accuracy moved 2.5%.").kind is V.NOT_FOUND


def test_a_ratio_or_difference_in_one_sentence_or_row_is_derived_never_not_found() -> None:
    v = verdict("1.9x", "vLLM: 4326.03 tokens/s; HF: 2272.90 tokens/s.", kind=PassageKind.CODE)
    assert v.kind is V.DERIVED and v.evidence is not None
    assert v.evidence.said == ("4326.03 tokens/s", "2272.90 tokens/s")
    row = verdict("18%", "| Q4_K_S | pp512 | 721.56 | 851.41 | 1.18 |", kind=PassageKind.TABLE_ROW)
    assert row.kind is V.DERIVED
    # the same two numbers in two sentences: no pair is formed, and nothing else is near
    apart = verdict("1.9x", "vLLM ran at 4326.03 tokens/s. Later HF ran at 2272.90 tokens/s.")
    assert apart.kind is V.NOT_FOUND


def test_a_complement_is_derived() -> None:
    assert verdict("25.9%", "the hit rate was 74.1%.").kind is V.DERIVED
    assert verdict("25.9%", "the hit rate was 50-74.1%.").kind is V.NOT_FOUND  # a range's bound


def test_not_found_names_the_nearest_numbers_and_the_scope() -> None:
    v = verdict("72.7%", "coverage was 27.7%, and 61.3% idle.")
    assert v.kind is V.NOT_FOUND and v.kind.warning
    assert v.nearest == ("61.3% (comment 0)", "27.7% (comment 0)")
    assert v.scope == "body + comments" and "read: body + comments" in v.message


@pytest.mark.parametrize(
    ("figure", "text"),
    [("3x", "it is 1.3x faster."), ("72.7%", "coverage was 27.7%.")],
)
def test_near_misses_of_the_digits_are_still_not_found(figure: str, text: str) -> None:
    assert verdict(figure, text).kind is V.NOT_FOUND


def test_a_close_number_makes_a_not_found_unverifiable() -> None:
    v = verdict("75%", "the hit rate was 74.1%.")
    assert (v.kind, v.reason) == (V.UNVERIFIABLE, Reason.NEAR_MISS)
    assert not v.kind.warning and v.nearest == ("74.1% (comment 0)",)


def test_an_incomplete_source_never_makes_a_not_found() -> None:
    gap = ("comments page 2: HTTP 403",)
    v = verdict("72.7%", "coverage was 27.7%.", gaps=gap)
    assert (v.kind, v.reason, v.detail) == (V.UNVERIFIABLE, Reason.INCOMPLETE, gap[0])
    # …but what it holds is still found
    assert verdict("27.7%", "coverage was 27.7%.", gaps=gap).kind is V.SUPPORTED
    abstract = SourceText((Passage("We reach 3x.", "abstract v2"),), "abstract v2", ("no HTML",))
    [f] = figures_in("5x")
    assert judge(f, abstract).reason is Reason.NOT_IN_ABSTRACT
    nothing = judge(f, SourceText((), "body"))
    assert (nothing.kind, nothing.reason) == (V.UNVERIFIABLE, Reason.INCOMPLETE)


def test_vague_figures_are_unverifiable() -> None:
    v = verdict("数十倍", "it is 30x faster.")
    assert (v.kind, v.reason) == (V.UNVERIFIABLE, Reason.VAGUE)


def test_supported_shows_the_snippet_and_where() -> None:
    v = verdict("72.7%", "x " * 100 + "only 72.7% of kernels are covered" + " y" * 100)
    assert v.kind is V.SUPPORTED and v.evidence is not None
    assert v.evidence.where == "comment 0" and v.evidence.said == ("72.7%",)
    assert "only 72.7% of kernels" in v.evidence.snippet and v.evidence.snippet.startswith("…")
    assert len(v.evidence.snippet) < 170


def test_tex_in_a_passage_is_read_as_text() -> None:
    assert verdict("2.3×", r"a $2.3\times$ speed-up and $\sim$61.3\% idle").kind is V.SUPPORTED
    assert verdict("~61%", r"a $2.3\times$ speed-up and $\sim$61.3\% idle").kind is V.SUPPORTED


def test_block_figures_are_supported_or_unverifiable_never_a_warning() -> None:
    [f] = figures_in("302.98 tok/s")
    a, b = source("nothing of the kind"), source("throughput 302.98 tok/s")
    assert judge_block(f, [a, b]).kind is V.SUPPORTED
    v = judge_block(f, [a, source("throughput 289.46 tok/s")])
    assert (v.kind, v.reason) == (V.UNVERIFIABLE, Reason.BLOCK)
    assert judge(f, a, Attribution.BLOCK).reason is Reason.BLOCK
    assert judge(f, a).kind is V.NOT_FOUND  # the same figure on its line is a warning


# -- quotes -----------------------------------------------------------------------------------

ABSTRACT = (
    "We propose FlashAttention, an IO-aware exact attention algorithm that uses tiling to "
    "reduce the number of memory reads/writes between GPU high bandwidth memory (HBM) and "
    "GPU on-chip SRAM."
)


def quote_verdict(line: str, text: str = ABSTRACT, gaps: tuple[str, ...] = ()) -> Verdict:
    [q] = quotes_in(line)
    return judge(q, SourceText((Passage(text, "abstract v2"),), "abstract v2", gaps))


def test_quotes_need_twelve_characters_in_quote_marks() -> None:
    line = 'he said "short one" and “IO-aware exact attention”, 「这是一个足够长的中文引用啊」'
    found = quotes_in(line)
    assert [q.text for q in found] == ["IO-aware exact attention", "这是一个足够长的中文引用啊"]
    assert all(line[q.start : q.end] == q.text for q in found)
    assert [q.latin for q in found] == [True, False]
    assert quotes_in('`--model "meta-llama/Llama-3-8B"`') == []  # code is no quote


@pytest.mark.parametrize(
    "line",
    [
        '"an IO-aware exact attention algorithm that uses tiling"',
        "“AN IO–AWARE  exact attention algorithm that uses tiling”",  # case, dash, spaces
        (
            '"uses tiling to reduce the number of memory reads/writes between GPU high '
            'bandwidth memory (HBM) and GPU on-chip DRAM"'
        ),  # the last word differs: 97% survives
    ],
)
def test_a_quote_found_after_normalisation_or_mostly_in_one_run_is_supported(line: str) -> None:
    v = quote_verdict(line)
    assert v.kind is V.SUPPORTED and v.what is ClaimKind.QUOTE and v.evidence is not None


@pytest.mark.parametrize(
    "line",
    [
        '"FlashAttention uses tiling between HBM and SRAM"',  # scattered words
        '"an IO-aware exact attention algorithm that avoids tiling altogether"',  # 60% run
    ],
)
def test_a_quote_assembled_from_scattered_words_is_not_found(line: str) -> None:
    v = quote_verdict(line)
    assert v.kind is V.NOT_FOUND and v.kind.warning and "longest run found" in v.detail


def test_a_quote_translated_into_chinese_is_unverifiable_never_not_found() -> None:
    v = quote_verdict("论文称“FlashAttention 是一种 IO 感知的精确注意力算法”")
    assert (v.kind, v.reason) == (V.UNVERIFIABLE, Reason.TRANSLATED)
    same = quote_verdict(
        "「这是一个足够长的中文引用啊」", text="文中写道：这是一个足够长的中文引用啊。"
    )
    assert same.kind is V.SUPPORTED  # a Chinese source is compared verbatim


def test_a_quote_on_an_incomplete_source_is_unverifiable() -> None:
    v = quote_verdict('"an entirely different sentence here"', gaps=("no HTML",))
    assert v.kind is V.UNVERIFIABLE and v.reason is Reason.NOT_IN_ABSTRACT
