"""arXiv HTML (LaTeXML) read into passages: a real page, and our own small pages for each shape
and each bound (tests/data/sources/README.md says where the real one comes from)."""

from __future__ import annotations

from pathlib import Path

import pytest

from anchors.defaults import MAX_PAGE_BYTES
from anchors.figures.latexml import MAX_DEPTH, passages_from_latexml
from anchors.figures.passages import Passage, PassageKind, SourceText
from anchors.net.htmlplaces import MAX_DEPTH as FRAGMENT_DEPTH

REAL = Path(__file__).parent / "data" / "sources" / "arxiv-2609.01222v2.html"


def _page(body: str) -> bytes:
    return f'<html><body><article class="ltx_document">{body}</article></body></html>'.encode()


def _texts(got: SourceText, kind: PassageKind | None = None) -> list[str]:
    return [p.text for p in got.passages if kind is None or p.kind is kind]


def test_the_real_page_gives_each_kind_of_passage_at_its_place() -> None:
    got = passages_from_latexml(REAL.read_bytes(), 2)
    assert got.scope == "HTML v2" and got.gaps == ()
    by: dict[tuple[str, PassageKind], str] = {}
    for p in got.passages:
        by.setdefault((p.where, p.kind), p.text)
    rows = _texts(got, PassageKind.TABLE_ROW)
    assert rows[:2] == [
        "Agent Harness | Version | Language | Stars",
        "Codex | 0.120.0 | Rust | 78.6k",
    ]
    assert by["HTML v2, Table I", PassageKind.CAPTION].startswith("Harness of 12 high-profile")
    note = by["HTML v2, footnote 1", PassageKind.PROSE]
    assert note.startswith("Similar to OpenAI, each segment")  # its mark, tag and citation out
    assert any("report 282 context sources" in t for t in _texts(got))
    # the paragraph the footnote sits in does not hold the footnote's text
    assert not any("Similar to OpenAI" in p.text for p in got.passages if "footnote" not in p.where)
    # navigation, the license box, authors' addresses and the footer are not the paper's text
    everything = " ".join(_texts(got))
    for chrome in ("Back to arXiv", "CC BY 4.0", "illinois.edu", "build logs", "[12]"):
        assert chrome not in everything


def test_math_is_read_from_alttext_not_its_pieces() -> None:
    html = _page(
        '<p class="ltx_p">Speed-up of <math alttext="3.2\\times"><mn>3.2</mn><mo>×</mo>'
        '<annotation encoding="application/x-tex">3.2\\times</annotation></math> and '
        '<math alttext="72.7\\%"><mn>72.7</mn><mo>%</mo></math> coverage.</p>'
    )
    assert _texts(passages_from_latexml(html, 1)) == ["Speed-up of 3.2× and 72.7% coverage."]


def test_tables_in_spans_and_their_caption_number_and_nested_parts() -> None:
    html = _page(
        '<section class="ltx_section"><h2 class="ltx_title"><span class="ltx_tag '
        'ltx_tag_section">3 </span>Results</h2>'
        '<figure class="ltx_table"><figcaption class="ltx_caption"><span class="ltx_tag '
        'ltx_tag_table">Table 3: </span>Throughput in tok/s.</figcaption>'
        '<span class="ltx_inline-block"><span class="ltx_tabular"><span class="ltx_thead">'
        '<span class="ltx_tr"><span class="ltx_td">System</span><span class="ltx_td">tok/s'
        '</span></span></span><span class="ltx_tbody"><span class="ltx_tr"><span class="ltx_td">'
        'Ours</span><span class="ltx_td"><span class="ltx_p">1,234</span></span></span></span>'
        "</span></span></figure>"
        '<div class="ltx_para"><p class="ltx_p">Ours reaches 1,234 tok/s.</p></div></section>'
    )
    got = passages_from_latexml(html, 4)
    assert [(p.where, p.kind.value, p.text) for p in got.passages] == [
        ("HTML v4, Table 3", "caption", "Throughput in tok/s."),
        ("HTML v4, Table 3", "table-row", "System | tok/s"),
        ("HTML v4, Table 3", "table-row", "Ours | 1,234"),
        ("HTML v4, §3", "prose", "Ours reaches 1,234 tok/s."),
    ]


def test_the_bibliography_pictures_and_errors_are_left_out() -> None:
    html = _page(
        '<p class="ltx_p">We gain 12%.</p><svg><text>87%</text></svg>'
        '<span class="ltx_ERROR">\\undefinedmacro</span>'
        '<section class="ltx_bibliography"><ul class="ltx_biblist"><li class="ltx_bibitem">'
        '<span class="ltx_tag ltx_tag_bibitem">[1]</span><span class="ltx_bibblock">A. Author. '
        "Reports 99.1% accuracy. 2020.</span></li></ul></section>"
    )
    assert _texts(passages_from_latexml(html, 1)) == ["We gain 12%."]


def test_figures_appendices_and_footnotes_outside_paragraphs_have_places() -> None:
    html = _page(
        '<section class="ltx_appendix"><h2 class="ltx_title"><span class="ltx_tag '
        'ltx_tag_appendix">Appendix A </span>More</h2><figure class="ltx_figure">'
        '<img src="x1.png" alt="Refer to caption"><figcaption><span class="ltx_tag '
        'ltx_tag_figure">Figure 2: </span>Latency drops 40%.</figcaption></figure>'
        '<p class="ltx_p">Text.</p><span class="ltx_note ltx_role_footnote"><sup class="'
        'ltx_note_mark">7</sup><span class="ltx_note_outer"><span class="ltx_note_content">'
        '<sup class="ltx_note_mark">7</sup>Measured on 8 GPUs.</span></span></span></section>'
    )
    got = passages_from_latexml(html, 1)
    assert [(p.where, p.text) for p in got.passages] == [
        ("HTML v1, Figure 2", "Latency drops 40%."),
        ("HTML v1, Appendix A", "Text."),
        ("HTML v1, footnote 7", "Measured on 8 GPUs."),
    ]


def test_a_conversion_arxiv_flags_is_read_but_incomplete() -> None:
    html = _page(
        '<div class="package-alerts ltx_document" role="status"><p>HTML conversions sometimes '
        "display errors.</p><ul><li>failed: xr-hyper</li></ul></div>"
        '<p class="ltx_p">We gain 12%.</p>'
    )
    got = passages_from_latexml(html, 1)
    assert _texts(got) == ["We gain 12%."]
    why = "HTML conversions sometimes display errors. failed: xr-hyper"
    assert got.gaps == (f"arXiv says the HTML conversion had errors ({why})",)


@pytest.mark.slow
def test_what_cannot_be_read_whole_is_a_gap() -> None:
    deep = _page("<div>" * 300 + '<p class="ltx_p">Deep 5%.</p>' + "</div>" * 300)
    assert passages_from_latexml(deep, 1).gaps == (
        f"the page nests elements deeper than {MAX_DEPTH}, past what is read",
    )
    assert MAX_DEPTH == FRAGMENT_DEPTH  # one fact: libxml2's limit
    para = '<p class="ltx_p">Row 42% here.</p>'
    big = _page(para * (MAX_PAGE_BYTES // len(para) + 10))
    got = passages_from_latexml(big, 1)
    assert got.gaps == ("only the first 2 MiB of the page were read",)
    assert got.passages[0] == Passage("Row 42% here.", "HTML v1")
    assert passages_from_latexml(b"", 1).gaps == ("the page is empty",)
    declared = b'<?xml version="1.0" encoding="latin-1"?>' + _page('<p class="ltx_p">5% é</p>')
    assert _texts(passages_from_latexml(declared, 1)) == ["5% é"]  # read as UTF-8, no error
    not_paper = passages_from_latexml(b'<html><p class="ltx_p">12%</p></html>', 1)
    assert not_paper.gaps == ("the page holds no LaTeXML document (not a paper's HTML full text)",)


def test_a_page_over_its_time_budget_is_read_in_part() -> None:
    ticks = iter(range(0, 10**9, 600))  # each look at the clock finds 600 s gone
    html = _page('<p class="ltx_p">A 1% gain.</p>' * 5000)
    got = passages_from_latexml(html, 1, budget=1000, clock=lambda: float(next(ticks)))
    assert got.gaps == ("reading the page took longer than 1000 s; the rest was not read",)
    assert 0 < len(got.passages) < 5000
