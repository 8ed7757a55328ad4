"""What each finding code means and how to fix it: the one text docs/findings.md and SARIF read.

The entries live by what the code is about: `entries` (the registry's own entries and
identifiers), `sources` (what arXiv, GitHub and Crossref answer), `links` (fetching a URL),
`document` (the living document) and `figures` (figures and quotes against their source). A
new `Code` needs its entry in one of them (tests/test_docs.py fails until it has one); then
rerun `python scripts/gen_docs.py` to regenerate docs/findings.md.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..findings import Code
from .codedoc import CodeDoc
from .document import DOCUMENT
from .entries import ENTRIES
from .figures import FIGURES
from .links import LINKS
from .sources import SOURCES

__all__ = ["CATALOGUE", "DOCS_PAGE", "CodeDoc", "describe", "doc_anchor"]

#: the page, relative to the repository root, that documents every code under its own heading
DOCS_PAGE = "docs/findings.md"

_ALL: Mapping[Code, CodeDoc] = {**ENTRIES, **SOURCES, **LINKS, **DOCUMENT, **FIGURES}
#: every documented code, in the `Code` enum's order (the order of the docs page and SARIF rules)
CATALOGUE: Mapping[Code, CodeDoc] = {code: _ALL[code] for code in Code if code in _ALL}


def describe(code: Code) -> CodeDoc:
    return CATALOGUE[code]


def doc_anchor(code: Code) -> str:
    """`docs/findings.md#dead-link`: the heading of the code on its page (a SARIF `helpUri`)."""
    return f"{DOCS_PAGE}#{code.value}"
