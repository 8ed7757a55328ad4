"""The BibTeX export typeset by TeX: bibtex (plain, unsrt, plainnat) and biblatex with biber,
each a document citing every key, with 0 errors and 0 warnings from every step; what the PDF
says shows every identifier, and titles from GitHub and blogs typeset as written."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from anchors.cli.app import app

from .library import HOSTILE, PUBLISHED_AS, library
from .tex import compile_bib, datamodel_problems

#: runs a consumer program (the slow tier: .ci/run, not a plain `pytest`)
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]


def export(reg: Path, *args: str) -> str:
    r = CliRunner().invoke(app, ["export", "-r", str(reg), *args])
    assert r.exit_code == 0, r.output
    return r.stdout


def identifiers(reg: Path) -> dict[str, str]:
    """Each entry's citation key and what a reader must find in its reference."""
    out = {}
    for item in json.loads(export(reg, "-f", "csl-json")):
        out[item["id"]] = (
            f"arXiv:{item['number']}" if item.get("number") else item.get("DOI") or item["URL"]
        )
    return out


def squeezed(text: str) -> str:
    """PDF text with spaces and hyphens gone: a URL broken across lines (pdftotext drops the
    hyphen it breaks at) reads whole."""
    return re.sub(r"[\s-]+", "", text)


@pytest.mark.parametrize("style", ["plain", "unsrt", "plainnat"])
def test_classic_styles_typeset_every_entry_with_no_warning(tmp_path: Path, style: str) -> None:
    reg = library(tmp_path)
    done = compile_bib(export(reg, "-f", "bibtex"), tmp_path / "tex", style=style)
    assert done.problems == []
    text = squeezed(done.text)
    for key, ident in identifiers(reg).items():
        assert squeezed(ident.replace("arXiv:", "")) in text.replace("arXiv:", ""), key
    assert "Nature,596(7873):583–589" in text  # journal, volume, number, pages
    # typeset as written under OT1: no en dash, no "¡tips¿", no dash for |
    assert (
        squeezed(HOSTILE.replace("`", "‘", 1).replace("`", "‘")).replace("_", "")
        in (text.replace("_", ""))
        or squeezed("--swap-space") in text
    )
    assert "¡" not in text and "¿" not in text and "–swap" not in text
    assert "<tips>" in text and "ignored|fp8" in text
    assert "框" not in done.text  # the registry's section stays out of the bibliography
    # the published DOI arXiv names for a preprint: classic entries have no `doi`, so its note
    assert squeezed(f"Published as doi:{PUBLISHED_AS}") in text
    snapshot = "web.archive.org/web/20260901080000/https://blog.example/a_b%20c?x=1&y=2#part"
    assert squeezed(snapshot) in text


def test_biblatex_with_biber_typesets_every_entry_with_no_warning(tmp_path: Path) -> None:
    reg = library(tmp_path)
    folder = tmp_path / "tex"
    done = compile_bib(export(reg, "-f", "bibtex", "--bib-style", "biblatex"), folder, biber=True)
    assert done.problems == []
    assert datamodel_problems(folder) == []  # no field biber's data model refuses
    text = squeezed(done.text)
    for key, ident in identifiers(reg).items():
        assert squeezed(ident.replace("arXiv:", "")) in text, key
    # the archived copy is a link that breaks lines, with its % and # as they are
    assert (
        squeezed("web.archive.org/web/20260901080000/https://blog.example/a_b%20c?x=1&y=2#part")
        in text
    )
    assert "`--swap-space` <tips> ignored | fp8" in done.text and "¡" not in text


@pytest.mark.parametrize("biber", [False, True])
def test_the_bundled_registry_typesets_with_its_chinese_titles(tmp_path: Path, biber: bool) -> None:
    """Titles in Chinese are the briefings' own: xelatex with a CJK font typesets them."""
    reg = ROOT / "registry.yaml"
    bib = export(reg, "-f", "bibtex", *(["--bib-style", "biblatex"] if biber else []))
    done = compile_bib(bib, tmp_path / "tex", engine="xelatex", biber=biber)
    assert done.problems == []
    text = squeezed(done.text)
    for key, ident in identifiers(reg).items():
        assert squeezed(ident.replace("arXiv:", "")) in text, key


def test_the_tex_check_sees_a_title_that_is_not_inert(tmp_path: Path) -> None:
    """What a raw title did under OT1: the check reads it in the PDF."""
    bib = '@misc{k,\n  title = "{<tips> a|b --swap}",\n  key = "k"\n}\n'
    done = compile_bib(bib, tmp_path / "tex")
    assert "¡tips¿" in done.text and "–swap" in done.text


def test_the_tex_check_sees_a_warning(tmp_path: Path) -> None:
    """An @article without its journal: bibtex warns, and the check says so."""
    bib = '@article{k,\n  author = "A. Author",\n  title = "T",\n  year = "2020"\n}\n'
    done = compile_bib(bib, tmp_path / "tex")
    assert any("journal" in p for p in done.problems)
