"""The classic BibTeX family never drops the published DOI arXiv names for a preprint.

Classic entries take no `doi` field (natbib's styles would print it beside the link), so the
DOI is said in `note`, "Published as doi:…", beside "Published in …"; biblatex keeps `doi`.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from pybtex.database import parse_string
from typer.testing import CliRunner

from anchors.cli.app import app
from anchors.net.cache import Cache

DOI = "10.1145/3600006.3613165"


def _export(folder: Path, meta: dict[str, object], style: str) -> dict[str, str]:
    reg = folder / "registry.yaml"
    reg.write_text(
        'version: 1\nanchors:\n  - arxiv: "2309.06180"\n    first_anchored: 2026-09-24\n'
        "    status: new\n",
        encoding="utf-8",
    )
    cache = Cache(folder / ".anchors" / "cache.json")
    cache.put("arxiv:2309.06180", {"outcome": "ok", "title": "PagedAttention", **meta})
    cache.save()
    r = CliRunner().invoke(app, ["export", "-r", str(reg), "-f", "bibtex", "--bib-style", style])
    assert r.exit_code == 0, r.output
    (entry,) = parse_string(r.stdout, "bibtex").entries.values()
    return {k.lower(): v for k, v in entry.fields.items()}


def test_the_classic_note_carries_the_published_doi(tmp_path: Path) -> None:
    fields = _export(tmp_path, {"doi": DOI}, "classic")
    assert "doi" not in fields and fields["note"] == f"Published as doi:{DOI}"


def test_beside_the_journal_reference(tmp_path: Path) -> None:
    fields = _export(tmp_path, {"doi": DOI, "journal_ref": "SOSP '23"}, "classic")
    assert fields["note"] == f"Published in SOSP '23. Published as doi:{DOI}"


@pytest.mark.parametrize("doi", ["10.1002/(SICI)1097-4571(199806)49:8<693::AID-ASI4>3.0.CO;2-O"])
def test_a_doi_with_tex_specials_is_written_inert(tmp_path: Path, doi: str) -> None:
    note = _export(tmp_path, {"doi": doi}, "classic")["note"]
    assert note.startswith("Published as doi:10.1002/(SICI)1097-4571(199806)49:8")
    assert "<" not in note and "\\textless{}" in note  # what OT1 would print as ¡


def test_biblatex_keeps_its_doi_field(tmp_path: Path) -> None:
    fields = _export(tmp_path, {"doi": DOI}, "biblatex")
    assert fields["doi"] == DOI and "Published as" not in fields.get("note", "")


def test_a_preprint_without_a_published_version_says_nothing_of_one(tmp_path: Path) -> None:
    assert "note" not in _export(tmp_path, {}, "classic")
