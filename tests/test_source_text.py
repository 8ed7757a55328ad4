"""Sources' running text as passages: arXiv abstracts (TeX made text), GitHub Markdown bodies
(code lines and table rows count, images are only links) and threads. That every pattern these
readers use stays linear on its worst input is held with all the others in test_regex_linear.py."""

from __future__ import annotations

import pytest

from anchors.figures.abstract import MAX_ABSTRACT_CHARS, passages_from_abstract
from anchors.figures.markdown import passages_from_markdown
from anchors.figures.normal import normalise_tex
from anchors.figures.passages import PassageKind
from anchors.figures.prose import sentences, squash
from anchors.figures.threads import MAX_BODY_CHARS, passages_from_thread

# the abstract of arXiv 2309.06180v1 (cassettes/arxiv/venue-comment.yaml), its last sentences
ABSTRACT = (
    "Our evaluations show that vLLM improves the throughput of popular LLMs by 2-4$\\times$ "
    "with the same level of latency compared to the state-of-the-art systems, such as "
    "FasterTransformer and Orca. The improvement is more pronounced with longer sequences, "
    "larger models, and more complex decoding algorithms."
)


def test_an_abstract_is_its_sentences_with_tex_made_text() -> None:
    got = passages_from_abstract(ABSTRACT, 1)
    assert got.scope == "abstract v1" and got.complete
    assert [p.where for p in got.passages] == ["abstract v1"] * 2
    assert got.passages[0].text.endswith("by 2-4× with the same level of latency compared to "
                                         "the state-of-the-art systems, such as FasterTransformer "
                                         "and Orca.")  # fmt: skip


@pytest.mark.parametrize(
    ("tex", "text"),
    [
        ("72.7\\%", "72.7%"),
        ("$2.3\\times$ faster", "2.3× faster"),
        ("$\\sim$10\\% less", "~10% less"),
        ("\\textbf{72.7}\\% and $>$90\\%", "72.7% and >90%"),
        ("see Fig.~3, 1{,}234 tok/s", "see Fig. 3, 1,234 tok/s"),
        ("$\\mathbf{3.1}\\,\\mathrm{ms}$ \\'etude", "3.1 ms etude"),
    ],
)
def test_tex_is_made_the_text_it_prints(tex: str, text: str) -> None:
    assert squash(normalise_tex(tex)) == text


def test_sentences_end_at_stops_not_at_decimals_or_abbreviations() -> None:
    text = "We gain 72.7% (see Fig. 3), e.g. on H100. Et al. agree. 吞吐提升约70%。延迟降低一半"
    assert sentences(text) == [
        "We gain 72.7% (see Fig. 3), e.g. on H100.",
        "Et al. agree.",
        "吞吐提升约70%。",
        "延迟降低一半",
    ]


def test_an_over_long_abstract_is_read_in_part() -> None:
    got = passages_from_abstract("A 5% gain. " * (MAX_ABSTRACT_CHARS // 5), 2)
    assert got.gaps == ("the abstract is longer than arXiv allows; its end was not read",)


BODY = """Benchmarked on H100:

| model | before (tok/s) | after (tok/s) |
|:--|--:|--:|
| llama-8b | 12,410 | 12,605 |

~~~text
============ Serving Benchmark Result ============
Request throughput (req/s):              12.34
~~~
- Already **1.5%** improvement, see [the PR](https://github.com/a/b/pull/1).
- ![p99 latency 40 ms](https://user-images.githubusercontent.com/1.png)
<details><summary>log</summary><img width="400" alt="tok/s chart" src="x.png"></details>
> quoted: 72.7% &amp; more\r
```
unclosed 3x fence
"""


def test_a_markdown_body_keeps_code_lines_table_rows_and_image_alts() -> None:
    got = [(p.kind.value, p.text) for p in passages_from_markdown(BODY, "comment 9", "t1")]
    assert got == [
        ("prose", "Benchmarked on H100:"),
        ("table-row", "model | before (tok/s) | after (tok/s)"),
        ("table-row", "llama-8b | 12,410 | 12,605"),
        ("code", "============ Serving Benchmark Result ============"),
        ("code", "Request throughput (req/s): 12.34"),
        ("prose", "Already 1.5% improvement, see the PR."),
        ("image", "p99 latency 40 ms"),
        ("image", "tok/s chart"),
        ("prose", "log quoted: 72.7% & more"),
        ("code", "unclosed 3x fence"),
    ]


def test_a_thread_reads_every_item_and_says_what_it_could_not() -> None:
    got = passages_from_thread(
        {"body": "Up 2x.", "updated_at": "u0"},
        [{"id": 1, "body": "Down 5%.", "updated_at": "u1"}, ["odd"], {"id": 2, "body": None}],
        [{"id": 3, "body": 7}],
        [{"id": 4, "body": "LGTM", "submitted_at": "s4"}],
        gaps=("comment page 2: HTTP 403",),
    )
    assert [(p.where, p.text, p.version) for p in got.passages] == [
        ("body", "Up 2x.", "u0"),
        ("comment 1", "Down 5%.", "u1"),
        ("review 4", "LGTM", "s4"),
    ]
    assert got.scope == "body + 2 comments + 1 review"
    assert got.gaps == (
        "comment page 2: HTTP 403",
        "a comment the API gave in a shape anchors does not read",
        "review comment 3: its body is not text",
    )
    assert PassageKind.IMAGE.value == "image"


def test_a_body_longer_than_github_allows_is_read_in_part() -> None:
    got = passages_from_thread({"body": "A 5% gain. " * MAX_BODY_CHARS})
    assert got.gaps == (f"body: only its first {MAX_BODY_CHARS} characters were read",)
    assert got.passages[0].text == "A 5% gain."


def test_a_thread_over_its_budget_says_where_it_stopped() -> None:
    ticks = iter(range(0, 10**6, 6))  # the start, the body, then comment 1 past the budget
    items = [{"id": i, "body": f"{i}%"} for i in range(1, 6)]
    got = passages_from_thread({"body": "x"}, items, budget=10, clock=lambda: next(ticks))
    assert got.gaps == ("reading the thread took too long; stopped before comment 1",)
