"""atheris fuzz target for the ID parser, URL canonicalisation, briefing extraction and the
registry loader: any input may be refused with the module's own error, nothing may crash.

    pip install '.[fuzz]' && python fuzz/fuzz_parsers.py -max_total_time=60 -max_len=4096
"""

from __future__ import annotations

import sys
from datetime import date

import atheris

with atheris.instrument_imports():
    from anchors.errors import RegistryError
    from anchors.extract import extract
    from anchors.ids import InvalidId, canonical_url, parse_anchor
    from anchors.registry.loader import parse_text

D = date(2026, 9, 24)


def one_input(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    choice = fdp.ConsumeIntInRange(0, 3)
    text = fdp.ConsumeUnicodeNoSurrogates(len(data))
    if choice == 0:
        try:
            key = parse_anchor(text)
        except InvalidId:
            return
        assert parse_anchor(getattr(key, "url", None) or str(key)).key == key.key
    elif choice == 1:
        try:
            once = canonical_url(text)
        except InvalidId:
            return
        assert canonical_url(once) == once
    elif choice == 2:
        extract(text, "fuzz.md", D)
    else:
        try:
            parse_text(text.encode("utf-8", "surrogatepass"), "fuzz.yaml")
        except RegistryError:
            pass


if __name__ == "__main__":
    atheris.Setup(sys.argv, one_input)
    atheris.Fuzz()
