"""The title read beside each citation, measured on citation lines in the shapes real
documents write them (tests/data/title_lines.yaml): at least 98% exactly the title a person
takes, and never a label, venue or link word."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from pathlib import Path

import pytest
import yaml

from anchors.extract import extract

DATA = Path(__file__).parent / "data" / "title_lines.yaml"


def _read(line: str) -> str | None:
    b = extract(line + "\n", "list.md", date(2026, 9, 24))
    assert b.invalid == [] and len(b.citations) >= 1, line
    return b.citations[0].written_title


@pytest.mark.slow
def test_titles_as_real_documents_write_them(summary: Callable[[str], None]) -> None:
    cases = yaml.safe_load(DATA.read_text(encoding="utf-8"))
    assert len(cases) >= 200 and all(c["source"]["url"] and c["source"]["line"] for c in cases)
    exact, wrong_kind, misses = 0, [], []
    for c in cases:
        got = _read(c["line"])
        if got == c["title"]:
            exact += 1
        else:
            misses.append((c["line"], got, c["title"]))
        if got is not None and any(w.lower() == got.lower() for w in c["not_title"]):
            wrong_kind.append((c["line"], got))
    rate = exact / len(cases)
    shapes = len({c["shape"] for c in cases})
    summary(
        f"title lines: {len(cases)} lines in {shapes} shapes: {rate:.1%} exact, "
        f"{len(wrong_kind)} with a label, venue or link word taken as the title"
    )
    assert wrong_kind == []
    assert rate >= 0.98, misses[:10]
