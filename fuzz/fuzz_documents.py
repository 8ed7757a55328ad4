"""atheris fuzz target for the living-document reader, section numbers and the document's
comparison with a registry: any text is a document (headings, citations, numbers of any
length), nothing may raise, and a section's normal spelling is its own normal spelling.

    pip install '.[fuzz]' && python fuzz/fuzz_documents.py -max_total_time=60 -max_len=1048576
"""

from __future__ import annotations

import sys
from datetime import date

import atheris

with atheris.instrument_imports():
    from anchors import sections
    from anchors.document import compare, parse_document
    from anchors.extract.docrefs import document_refs
    from anchors.registry.loader import parse_text

D = date(2026, 9, 24)
#: a registry whose entries stand in sections a fuzzed document may or may not write
REGISTRY = parse_text(
    b"version: 1\nanchors:\n"
    b'  - arxiv: "2609.18063"\n    first_anchored: 2026-09-01\n    status: new\n'
    b'    section: "\xc2\xa71.3 KV Cache"\n    cited_in: ["2026-09-01"]\n'
    b'  - url: "https://example.org/a"\n    first_anchored: 2026-09-20\n    status: new\n'
    b'    section: "\xc2\xa72 Agents"\n    cited_in: ["2026-09-20"]\n',
    "registry.yaml",
)


def one_input(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    choice = fdp.ConsumeIntInRange(0, 2)
    text = fdp.ConsumeUnicodeNoSurrogates(len(data))
    if choice == 0:
        doc = parse_document(text, "doc.md")
        compare([REGISTRY], [doc], D, 14)
    elif choice == 1:
        once = sections.normal(text)
        assert sections.normal(once) == once, (text, once)
        assert sections.key(once) == sections.key(text)
        sections.section_order(text)
    else:
        for ref in document_refs(text.splitlines()):
            assert ref.section == sections.normal(ref.section)


if __name__ == "__main__":
    atheris.Setup(sys.argv, one_input)
    atheris.Fuzz()
