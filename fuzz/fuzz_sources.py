"""atheris fuzz target for the readers of figures' sources: arXiv HTML (LaTeXML) pages, GitHub
thread answers (JSON through anchors.jsonread) and Markdown bodies, arXiv abstracts. Any bytes
may give no passages or gaps; nothing may crash, and every passage is non-empty text at a place.

    pip install '.[fuzz]' && python fuzz/fuzz_sources.py -max_total_time=60 -max_len=2200000

`-max_len` past 2 MiB reaches the page bound (`MAX_PAGE_BYTES`). `FUZZ_SOURCE=latexml` (or
`thread`) fuzzes one reader alone, for a long run of each.
"""

from __future__ import annotations

import json
import os
import sys

import atheris

with atheris.instrument_imports():
    from anchors.figures.abstract import passages_from_abstract
    from anchors.figures.latexml import passages_from_latexml
    from anchors.figures.markdown import passages_from_markdown
    from anchors.figures.passages import PassageKind, SourceText
    from anchors.figures.threads import MAX_BODY_CHARS, passages_from_thread
    from anchors.jsonread import loads


def _sound(got: SourceText, where: str) -> None:
    for p in got.passages:
        assert p.text and p.text == p.text.strip(), p
        assert p.where.startswith(where), p
        assert isinstance(p.kind, PassageKind)


def _thread_from_answers(data: bytes) -> None:
    """Raw bytes as one API answer: an issue object or a page of comments."""
    try:
        value = loads(data)
    except ValueError:
        return
    if isinstance(value, list):
        got = passages_from_thread({"body": ""}, value, value, value)
    else:
        got = passages_from_thread(value)
    _sound(got, "")


def _thread_built(fdp: atheris.FuzzedDataProvider) -> None:
    """A well-formed thread whose bodies are anything, sent through JSON as GitHub's are."""
    items = [
        {"id": fdp.ConsumeIntInRange(0, 1 << 40), "body": fdp.ConsumeUnicodeNoSurrogates(4096),
         "updated_at": "2026-09-01T00:00:00Z"}
        for _ in range(fdp.ConsumeIntInRange(0, 8))
    ]  # fmt: skip
    issue = {"body": fdp.ConsumeUnicodeNoSurrogates(1 << 20), "updated_at": None}
    answer = json.dumps({"issue": issue, "items": items}).encode("utf-8", "surrogatepass")
    value = loads(answer)
    assert isinstance(value, dict)
    _sound(passages_from_thread(value["issue"], value["items"], (), value["items"]), "")


#: the one reader a long run fuzzes (first byte of each input picks it otherwise)
ONLY = {"latexml": 0, "thread": 1}.get(os.environ.get("FUZZ_SOURCE", ""))


def one_input(data: bytes) -> None:
    if not data:
        return
    choice, rest = data[0] % 5, data[1:]
    if ONLY is not None:
        choice = ONLY if ONLY == 0 else 1 + data[0] % 2  # the thread: as answers, or built
    if choice == 0:
        _sound(passages_from_latexml(rest, 3), "HTML v3")
    elif choice == 1:
        _thread_from_answers(rest)
    elif choice == 2:
        _thread_built(atheris.FuzzedDataProvider(rest))
    elif choice == 3:
        text = rest.decode("utf-8", "replace")[:MAX_BODY_CHARS]  # as a thread reads a body
        for p in passages_from_markdown(text, "comment 1"):
            assert p.text and p.where == "comment 1"
    else:
        _sound(passages_from_abstract(rest.decode("utf-8", "replace"), 2), "abstract v2")


if __name__ == "__main__":
    atheris.Setup(sys.argv, one_input)
    atheris.Fuzz()
