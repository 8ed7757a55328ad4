"""Extraction scored on real public Markdown (tests/data/markdown, sources in SOURCES.md).

Recall and precision are counted per kind over (line, anchor) pairs and printed; each must be
at least 99.5%. Beyond the counts: no URL that is a Markdown link's target or an HTML
attribute is cut short, and no title is a piece of a URL.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from datetime import date
from pathlib import Path

import pytest

from anchors.extract import Citation, extract
from anchors.extract.plaintext import markdown_to_text
from anchors.ids import ArxivId, Doi, GithubRef

CORPUS = Path(__file__).parent / "data" / "markdown"
DOCS = sorted(CORPUS.glob("*.md"))
DOCS = [p for p in DOCS if p.name != "SOURCES.md"]
KINDS = ("arxiv", "github", "doi", "url")
TARGET = 0.995
Pair = tuple[int, str, str]


def as_pair(c: Citation) -> Pair:
    if isinstance(c.key, ArxivId):
        return c.line, "arxiv", c.key.canonical
    if isinstance(c.key, GithubRef):
        return c.line, "github", f"{c.key.owner}/{c.key.repo}#{c.key.number}".lower()
    if isinstance(c.key, Doi):
        return c.line, "doi", c.key.doi.lower()
    return c.line, "url", c.raw


def expected(doc: Path) -> set[Pair]:
    rows = doc.with_suffix(".anchors.tsv").read_text(encoding="utf-8").splitlines()
    out = set()
    for row in rows:
        if row and not row.startswith("#"):
            line, kind, anchor = row.split("\t")
            out.add((int(line), kind, anchor))
    return out


def citations(doc: Path) -> list[Citation]:
    return extract(doc.read_text(encoding="utf-8"), doc.name, date(2026, 12, 1)).citations


def test_corpus_is_real_and_varied() -> None:
    assert len(DOCS) >= 6
    assert {p.name[:3] for p in DOCS} == {"en-", "zh-"}
    counts = Counter(k for doc in DOCS for _, k, _ in expected(doc))
    assert all(counts[k] >= 15 for k in KINDS), counts


def test_recall_and_precision_per_kind(summary: Callable[[str], None]) -> None:
    tp: Counter[str] = Counter()
    fp: Counter[str] = Counter()
    fn: Counter[str] = Counter()
    misses = []
    for doc in DOCS:
        want = expected(doc)
        got = {as_pair(c) for c in citations(doc)}
        for _, kind, _ in got & want:
            tp[kind] += 1
        for pair in got - want:
            fp[pair[1]] += 1
            misses.append(f"{doc.name}: extra {pair}")
        for pair in want - got:
            fn[pair[1]] += 1
            misses.append(f"{doc.name}: missed {pair}")
    lines = [f"extraction corpus: {len(DOCS)} documents"]
    figures = {}
    for kind in KINDS:
        recall = tp[kind] / ((tp[kind] + fn[kind]) or 1)
        precision = tp[kind] / ((tp[kind] + fp[kind]) or 1)
        figures[kind] = (recall, precision)
        lines.append(
            f"  {kind:7} expected {tp[kind] + fn[kind]:4}  found {tp[kind] + fp[kind]:4}  "
            f"recall {recall:7.2%}  precision {precision:7.2%}"
        )
    for line in lines:
        summary(line)
    assert all(r >= TARGET and p >= TARGET for r, p in figures.values()), "\n".join(misses)


_DELIMITED = re.compile(r"(\]\(<?|href=\"|src=\")$")


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_no_url_is_cut_inside_a_link_target(doc: Path) -> None:
    lines = doc.read_text(encoding="utf-8").splitlines()
    found = citations(doc)
    for c in found:
        line = lines[c.line - 1]
        longer = [x.raw for x in found if x.line == c.line and len(x.raw) > len(c.raw)]
        at = line.find(c.raw)
        while at >= 0:
            opener = _DELIMITED.search(line[:at])
            if opener and not any(line.startswith(r, at) for r in longer):
                after = line[at + len(c.raw) : at + len(c.raw) + 1]
                closer = {"](": ")", "](<": ">", 'href="': '"', 'src="': '"'}[opener[1]]
                assert after in (closer, " "), (
                    f"{doc.name}:{c.line}: {c.raw!r} cut before {after!r}"
                )
            at = line.find(c.raw, at + 1)


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_no_title_is_a_piece_of_a_url(doc: Path) -> None:
    """A title is text the document writes outside the URL: its words are still there when
    every cited URL is cut out of the line (of the heading, for a title inferred from it)."""
    text = doc.read_text(encoding="utf-8")
    lines = text.splitlines()
    found = citations(doc)
    raws = sorted({x.raw for x in found}, key=len, reverse=True)
    for c in found:
        if not c.title:
            continue
        where = f"{doc.name}:{c.line}: title {c.title!r}"
        assert "://" not in c.title, where
        context = lines[c.line - 1] if c.written_title else text
        for raw in raws:
            context = context.replace(raw, " ")
        plain = markdown_to_text(context)
        words = re.findall(r"\w{2,}", c.title)
        assert words and all(w in context or w in plain for w in words), where
