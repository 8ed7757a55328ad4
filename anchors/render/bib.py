"""BibTeX in pybtex's layout, for the two families of styles people typeset with.

pybtex reads each name (`bibnames`); the entries are written here in its writer's layout and
quoting, and tests read them back with its parser. Each value is encoded once (`bibvalues`):
text made inert for TeX, URLs, DOIs and arXiv IDs verbatim.

The families (docs/export.md):
- `classic`, the default: what bibtex's plain, abbrv, alpha and unsrt, natbib's styles and
  pybtex print, which biblatex prints too. A link is `howpublished = {\\url{...}}` (a web page)
  or a `note` (a DOI, an archived copy), an arXiv paper `howpublished = {arXiv:ID}` (its
  published DOI, when arXiv names one, "Published as doi:…" in its `note`: no `doi` field,
  which natbib's styles would print beside the link), and an entry without authors has a
  `key`, which these styles sort and label by.
- `biblatex`: biber's data model: `@online` with `url`/`urldate`, `doi`, `eprint` with
  `eprinttype`, an archived copy as a linked `addendum`.
Both give a journal article `journal`, `volume`, `number` and `pages`, keep the registry's
bookkeeping in `annote` (which no standard style prints), and add no character the source did
not have.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from .bibnames import bib_name
from .bibvalues import latex, quoted, url_field, verbatim

if TYPE_CHECKING:
    from ..export import ExportItem

__all__ = ["STYLES", "bibtex", "bibtex_chunks"]

#: the families of styles `--bib-style` chooses between
STYLES = ("classic", "biblatex")

#: what is not a word of an authorless entry's sort key
_NOT_KEY_WORD_RE = re.compile(r"[^\w\s-]|_")
#: the dash of a page range, with the spaces around it
_PAGE_DASH_RE = re.compile(r"(?:(?<!\s)\s++)?[-\u2010-\u2015]+\s*")


def _entry(key: str, kind: str, authors: list[str], fields: list[tuple[str, str]]) -> str:
    """One entry as pybtex's BibTeX writer lays it out (`@kind{key`, a field a line, indented
    by four, `author` first), each value as this module encoded it: pybtex's writer would
    LaTeX-encode every value again (the `\\` of `\\url{}`, the `_` of a URL), and building its
    entry objects cost as much as the text."""
    out = [f"@{kind}{{{key}"]
    if authors:
        out.append(f",\n    author = {quoted(' and '.join(authors))}")
    out += (f",\n    {name} = {quoted(value)}" for name, value in dict(fields).items())
    out.append("\n}\n")
    return "".join(out)


def _bookkeeping(it: ExportItem) -> str:
    """The registry's record of the entry, for `annote`: plain ASCII, no section name (that is
    the registry's own text, in whatever script, and never printed)."""
    parts = []
    if it.first_anchored:
        parts.append(f"first anchored {it.first_anchored.isoformat()}")
    if it.status:
        parts.append(it.status)
    if it.cited_in:
        parts.append("cited in " + ", ".join(d.isoformat() for d in it.cited_in))
    return "; ".join(parts)


def _entry_type(it: ExportItem, style: str) -> str:
    """`@article`/`@inproceedings` for a DOI whose metadata has all those need (else a
    standard style leaves a gap or, as pybtex does, refuses the whole bibliography)."""
    if it.kind == "doi" and it.container and it.authors and it.title and it.year:
        proceedings = it.work_type == "paper-conference" or (
            it.work_type is None and "proceedings" in it.container.lower()
        )
        if proceedings:
            return "inproceedings"
        if it.work_type in (None, "article-journal", "article"):
            return "article"
    return "online" if style == "biblatex" and it.kind in ("url", "github") else "misc"


def _key(it: ExportItem, style: str) -> str:
    """What an authorless entry sorts and is labelled by: its title's words, else what it is."""
    words = " ".join(_NOT_KEY_WORD_RE.sub(" ", it.title or "").split())
    if words:
        return latex(words, style)
    if it.arxiv_id:
        return f"arXiv:{it.arxiv_id}"
    if it.kind == "doi" and it.doi:
        return latex(it.doi, style)
    parts = urlsplit(it.url)
    if it.kind == "github":  # owner/repo#N, as GitHub writes a reference
        owner, repo, _, number = [*parts.path.strip("/").split("/"), "", "", "", ""][:4]
        return latex(f"{owner}/{repo}#{number}", style)
    return latex((parts.hostname or it.anchor).removeprefix("www."), style)


def _pages(pages: str) -> str:
    """A page range with BibTeX's en dash (`583--589`), whatever dash it came with."""
    return "--".join(latex(x) for x in _PAGE_DASH_RE.split(pages))


def _common(it: ExportItem, kind: str, style: str) -> list[tuple[str, str]]:
    f: list[tuple[str, str]] = []
    if it.title:  # braces keep the title's case
        f.append(("title", "{" + latex(it.title, style) + "}"))
    if not it.authors:
        f.append(("key", _key(it, style)))
    if it.year:
        f.append(("year", it.year))
    if kind in ("article", "inproceedings"):
        assert it.container is not None
        f.append(("journal" if kind == "article" else "booktitle", latex(it.container, style)))
        f += [(k, latex(v)) for k, v in (("volume", it.volume), ("number", it.issue)) if v]
        if it.pages:
            f.append(("pages", _pages(it.pages)))
    return f


def _classic(it: ExportItem, kind: str) -> list[tuple[str, str]]:
    f = _common(it, kind, "classic")
    if not it.year:  # author-year styles (natbib's) label by year and warn without one
        f.append(("year", "n.d."))
    note = []
    if kind == "misc":
        if it.arxiv_id:
            f.append(
                ("howpublished", f"arXiv:{it.arxiv_id}" + (f"v{it.version}" if it.version else ""))
            )
        elif it.kind == "doi" and it.container:
            f.append(("howpublished", latex(it.container)))
            note.append(url_field(it.url))
        else:
            f.append(("howpublished", url_field(it.url)))
            if it.first_anchored and it.kind != "doi":
                note.append(f"Accessed {it.first_anchored.isoformat()}")
    else:
        note.append(url_field(it.url))
    if it.eprint:  # its preprint, registered too
        note.append(f"arXiv:{it.eprint}")
    if it.journal_ref:
        note.append("Published in " + latex(it.journal_ref))
    # a preprint's published version: never dropped, and in `note` (these styles take no `doi`)
    if it.doi and it.kind != "doi":
        note.append("Published as doi:" + latex(it.doi))
    if it.archived:
        note.append(f"Archived {latex(it.archived[1])}: {url_field(it.archived[0])}")
    if note:
        f.append(("note", ". ".join(note)))
    return f


def _biblatex(it: ExportItem, kind: str) -> list[tuple[str, str]]:
    f = _common(it, kind, "biblatex")
    if it.arxiv_id:
        f += [("eprint", verbatim(it.arxiv_id)), ("eprinttype", "arxiv")]
        if it.version:
            f.append(("version", str(it.version)))
    elif it.eprint:  # a published work whose preprint is registered too
        f += [("eprint", verbatim(it.eprint)), ("eprinttype", "arxiv")]
    if it.doi:
        f.append(("doi", verbatim(it.doi)))
    if it.kind != "doi":  # a DOI's link is its `doi`
        f.append(("url", verbatim(it.url)))
        if it.first_anchored:
            f.append(("urldate", it.first_anchored.isoformat()))
    if it.kind == "doi" and kind == "misc" and it.container:
        f.append(("howpublished", latex(it.container, "biblatex")))
    if it.journal_ref:
        f.append(("note", "Published in " + latex(it.journal_ref, "biblatex")))
    if it.archived:
        snapshot = url_field(it.archived[0])
        f.append(("addendum", f"Archived {latex(it.archived[1], 'biblatex')}: {snapshot}"))
    return f


def bibtex_chunks(items: list[ExportItem], style: str = "classic") -> Iterator[str]:
    """The .bib an entry at a time (`render.write` streams them to the file): the text of one
    entry is all it holds.

    A key twice, as BibTeX compares them (case-insensitively), is refused as pybtex refuses
    it; `export` makes keys unique, so this never happens to its items.
    """
    # start-up: pybtex (~75 ms to import) loads when a bibliography is written
    from pybtex.database import BibliographyDataError  # type: ignore[import-untyped]

    fields = _biblatex if style == "biblatex" else _classic
    seen: set[str] = set()
    for i, it in enumerate(items):
        if (low := it.cite_key.lower()) in seen:
            raise BibliographyDataError(f"repeated bibliography entry: {it.cite_key}")
        seen.add(low)
        kind = _entry_type(it, style)
        f = fields(it, kind)
        if note := _bookkeeping(it):
            f.append(("annote", note))
        authors = [bib_name(a, style) for a in it.authors]
        # a blank line between entries, as pybtex writes them
        yield ("\n" if i else "") + _entry(it.cite_key, kind, authors, f)


def bibtex(items: list[ExportItem], style: str = "classic") -> str:
    return "".join(bibtex_chunks(items, style))
