"""atheris fuzz target for the figure and quote readers (briefing lines and source passages are
untrusted text): figures, numbers, TeX, quotes and the verdicts over them never crash, and
every figure a briefing line gives reads back from its own words as the same figure; a claim
record as the history keeps it (a file: untrusted too) reads back as one, or as nothing.

    pip install '.[fuzz]' && python fuzz/fuzz_figures.py -max_total_time=60 -max_len=65536
"""

from __future__ import annotations

import sys

import atheris

with atheris.instrument_imports():
    from anchors.figures.drift import Support, recheck, support_of
    from anchors.figures.normal import fold, normalise, normalise_tex
    from anchors.figures.parse import figures_in, numbers_in
    from anchors.figures.passages import Passage, PassageKind, SourceText
    from anchors.figures.quotes import quotes_in
    from anchors.figures.verdict import judge
    from anchors.history.claims import read_record, read_support
    from anchors.ids.model import key_from_text

#: what one input is cut into: a briefing line, and a source of a few passages
_KINDS = list(PassageKind)
_KEY = key_from_text("github:acme/engine#7")


def _source(fdp: atheris.FuzzedDataProvider, size: int) -> SourceText:
    passages = []
    for i in range(fdp.ConsumeIntInRange(0, 4)):
        text = fdp.ConsumeUnicodeNoSurrogates(size)
        passages.append(Passage(text, f"passage {i}", _KINDS[fdp.ConsumeIntInRange(0, 3)]))
    gaps = ("page 2: HTTP 403",) if fdp.ConsumeBool() else ()
    return SourceText(tuple(passages), "fuzz", gaps)


def one_input(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    size = max(1, len(data) // 3)
    line = fdp.ConsumeUnicodeNoSurrogates(size)
    norm = normalise(line)
    assert len(norm.origin) == len(norm.text) + 1
    normalise_tex(line)
    fold(line)
    figures = figures_in(line)
    for f in figures:
        assert line[f.start : f.end].strip() == f.text
        again = figures_in(f.text)
        assert len(again) == 1 and again[0].unit is f.unit and again[0].hedge is f.hedge, (f, again)
    source = _source(fdp, size)
    for p in source.passages:
        numbers_in(p.text)
    for claim in [*figures[:8], *quotes_in(line)[:4]]:
        verdict = judge(claim, source)
        assert verdict.message
        support = support_of(verdict)
        if support is not None:
            assert Support.from_json(support.to_json()) == support
            recheck(verdict, support, source)
    stored = fdp.ConsumeUnicodeNoSurrogates(size)
    read_support(stored)
    read_record(_KEY, "claim", 1.0, fdp.ConsumeUnicodeNoSurrogates(32), stored)


if __name__ == "__main__":
    atheris.Setup(sys.argv, one_input)
    atheris.Fuzz()
