"""atheris fuzz target for what `add` writes into a registry a pull request wrote: any registry
text that loads takes a briefing's anchors, and what is written loads again, with them (or
nothing is written, with the registry's error).

    pip install '.[fuzz]' && python fuzz/fuzz_registry_write.py -max_total_time=60 -max_len=1048576
"""

from __future__ import annotations

import sys
import tempfile
from datetime import date
from pathlib import Path

import atheris

with atheris.instrument_imports():
    from anchors.errors import RegistryError
    from anchors.extract import extract
    from anchors.merging.merge import merge
    from anchors.registry.loader import parse_text
    from anchors.registry.store import save

D = date(2026, 9, 24)
PATH = str(Path(tempfile.mkdtemp(prefix="fuzz-registry-")) / "registry.yaml")
BRIEFING = extract(
    "# Briefing 2026-09-24\n\n## 增量 1：KV\n建议归入章节：§1.3 KV Cache\n"
    "- 2609.18063 Edge0 (continued)\n- [Paged attention](https://example.org/paged) 续立\n"
    "- vllm-project/vllm#8242 仍 open\n- doi:10.1000/xyz182 A title\n",
    "briefings/2026-09-24.md",
    D,
)


#: a registry's start, so most inputs are entries (the fuzzer rarely finds `version: 1` alone)
HEAD = b'version: 1\nanchors:\n  - arxiv: "2609.18063"\n    first_anchored: 2026-09-01\n'


def one_input(data: bytes) -> None:
    text = data[1:] if data[:1] == b"!" else HEAD + data
    try:
        reg = parse_text(text, "registry.yaml")
    except RegistryError:
        return
    result = merge(reg, [BRIEFING], D)
    reg.path = PATH
    try:
        save(reg, result.changes)  # refuses a text that would not load or hold them
    except RegistryError:
        return
    again = parse_text(Path(PATH).read_bytes(), "registry.yaml")
    held = set(again.by_cited_key())
    assert set(result.added) <= held, (sorted(result.added), sorted(held))


if __name__ == "__main__":
    atheris.Setup(sys.argv, one_input)
    atheris.Fuzz()
