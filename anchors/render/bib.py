"""BibTeX in pybtex's layout, for the two families of styles people typeset with.

pybtex reads each name (`Person`: von, last, jr, first); the entries are written here in its
writer's layout and quoting, and tests read them back with its parser. Each value is encoded
here, once: text from the network can carry LaTeX (`\\input{...}`, braces, `$`) and
characters that typeset as something else (`--` as a dash, `<` as "¡" under OT1, `|` as a
dash, a backtick as a quote), so text is made inert; URLs, DOIs and arXiv IDs are written as
they are (url.sty and biblatex read them verbatim), with only what a .bib cannot hold
percent-encoded.

The families (docs/export.md):
- `classic`, the default: what bibtex's plain, abbrv, alpha and unsrt, natbib's styles and
  pybtex print, which biblatex prints too. A link is `howpublished = {\\url{...}}` (a web page)
  or a `note` (a DOI, an archived copy), an arXiv paper `howpublished = {arXiv:ID}`, and an
  entry without authors has a `key`, which these styles sort and label by.
- `biblatex`: biber's data model: `@online` with `url`/`urldate`, `doi`, `eprint` with
  `eprinttype`, an archived copy as a linked `addendum`.
Both give a journal article `journal`, `volume`, `number` and `pages`, keep the registry's
bookkeeping in `annote` (which no standard style prints), and add no character the source did
not have.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache
from typing import TYPE_CHECKING, Any
from urllib.parse import quote, urlsplit

from .escape import plain

if TYPE_CHECKING:
    from ..export import ExportItem

__all__ = ["STYLES", "bibtex", "bibtex_chunks", "parsed_name"]

#: the families of styles `--bib-style` chooses between
STYLES = ("classic", "biblatex")

_TEX = {
    "\\": r"\textbackslash{}",
    "{": r"\textbraceleft{}",
    "}": r"\textbraceright{}",
    "$": r"\$",
    "^": r"\textasciicircum{}",
    "~": r"\textasciitilde{}",
    '"': '{"}',
}
#: under OT1 (pdflatex's default) `<`, `>`, `|` and a backtick print as "¡", "¿", a dash and a
#: quote. bibtex copies text commands as they are; biber decodes them back to the character, so
#: for biblatex they are math symbols and a TS1 glyph, which biber leaves alone
_GLYPHS = {
    "classic": {
        "<": r"\textless{}",
        ">": r"\textgreater{}",
        "|": r"\textbar{}",
        "`": r"\textasciigrave{}",
    },
    "biblatex": {
        "<": r"\ensuremath{<}",
        ">": r"\ensuremath{>}",
        "|": r"\ensuremath{|}",
        "`": r"\UseTextSymbol{TS1}{\textasciigrave}",
    },
}


#: what pybtex's own encoding (latexcodec's `ulatex+utf8`) changes in text once the rest is
#: done, as one table: `str.translate` instead of its lexer, which cost 3/4 of a 100k export
#: (tests/test_export.py::test_latex_encoding_is_pybtexs compares the two)
_PYBTEX = str.maketrans({"#": r"\#", "%": r"\%", "&": r"\&", "_": r"\_"})
#: every character `_latex` rewrites, so text with none of them is returned as it is
_SPECIAL = re.compile(
    r"[\\{}$^~\"<>|`#%&_\x00-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069]|--"
)


def _latex(text: str, style: str = "classic") -> str:
    """Text that typesets as itself: TeX's specials as text commands, `--` not a dash, then
    pybtex's own encoding (`%`, `&`, `#`, `_`)."""
    if not _SPECIAL.search(text):
        return text
    glyphs = _GLYPHS[style]
    t = "".join(_TEX.get(ch) or glyphs.get(ch, ch) for ch in plain(text))
    return t.replace("--", "-{}-").replace("--", "-{}-").translate(_PYBTEX)


#: what a verbatim field cannot hold as itself: a backslash, white space, control characters
_NOT_VERBATIM = re.compile(r"[\\\s\x00-\x1f\x7f-\x9f]")


#: all but braces, which `_balanced` walks alone rather than every character
_NOT_BRACE = re.compile(r"[^{}]+")


def _balanced(s: str) -> bool:
    depth = 0
    for ch in _NOT_BRACE.sub("", s):
        depth += (ch == "{") - (ch == "}")
        if depth < 0:
            return False
    return depth == 0


def _verbatim(value: str) -> str:
    """A URL or DOI as it is (`%20` stays `%20`, `~` and `_` stay), except what the .bib syntax
    cannot carry: a backslash, white space or a control, and braces that do not balance, are
    percent-encoded, which in a URL means the same."""
    v = _NOT_VERBATIM.sub(lambda m: quote(m[0], safe=""), value)
    return v if _balanced(v) else v.replace("{", "%7B").replace("}", "%7D")


def _url(value: str) -> str:
    r"""A link as `\url{...}` (url.sty's, or hyperref's, which links it), breaking lines at
    slashes. `%` and `#` are escaped: biblatex stores a field in a macro first, and pybtex
    reads LaTeX, where a bare `%` ends the line; hyperref's `\url` reads them back as `%` and
    `#` (url.sty alone prints the backslash, docs/export.md)."""
    return r"\url{" + _verbatim(value).replace("%", r"\%").replace("#", r"\#") + "}"


def _quoted(value: str) -> str:
    """A field's value as BibTeX reads it back: in quotes, or in braces when it holds a quote
    (pybtex's rule), refused when its braces do not balance (as pybtex refuses it)."""
    if not _balanced(value):
        from pybtex.database.output.bibtex import BibTeXError  # type: ignore[import-untyped]

        raise BibTeXError(f"String has unmatched braces: {value}")
    return f'"{value}"' if '"' not in value else "{" + value + "}"


def _entry(key: str, kind: str, authors: list[str], fields: list[tuple[str, str]]) -> str:
    """One entry as pybtex's BibTeX writer lays it out (`@kind{key`, a field a line, indented
    by four, `author` first), each value as this module encoded it: pybtex's writer would
    LaTeX-encode every value again (the `\\` of `\\url{}`, the `_` of a URL), and building its
    entry objects cost as much as the text."""
    out = [f"@{kind}{{{key}"]
    if authors:
        out.append(f",\n    author = {_quoted(' and '.join(authors))}")
    out += (f",\n    {name} = {_quoted(value)}" for name, value in dict(fields).items())
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
    words = " ".join(re.sub(r"[^\w\s-]|_", " ", it.title or "").split())
    if words:
        return _latex(words, style)
    if it.arxiv_id:
        return f"arXiv:{it.arxiv_id}"
    if it.kind == "doi" and it.doi:
        return _latex(it.doi, style)
    parts = urlsplit(it.url)
    if it.kind == "github":  # owner/repo#N, as GitHub writes a reference
        owner, repo, _, number = [*parts.path.strip("/").split("/"), "", "", "", ""][:4]
        return _latex(f"{owner}/{repo}#{number}", style)
    return _latex((parts.hostname or it.anchor).removeprefix("www."), style)


def _pages(p: str) -> str:
    """A page range with BibTeX's en dash (`583--589`), whatever dash it came with."""
    return "--".join(_latex(x) for x in re.split(r"\s*[-\u2010-\u2015]+\s*", p))


def _common(it: ExportItem, kind: str, style: str) -> list[tuple[str, str]]:
    f: list[tuple[str, str]] = []
    if it.title:  # braces keep the title's case
        f.append(("title", "{" + _latex(it.title, style) + "}"))
    if not it.authors:
        f.append(("key", _key(it, style)))
    if it.year:
        f.append(("year", it.year))
    if kind in ("article", "inproceedings"):
        assert it.container is not None
        f.append(("journal" if kind == "article" else "booktitle", _latex(it.container, style)))
        f += [(k, _latex(v)) for k, v in (("volume", it.volume), ("number", it.issue)) if v]
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
            f.append(("howpublished", _latex(it.container)))
            note.append(_url(it.url))
        else:
            f.append(("howpublished", _url(it.url)))
            if it.first_anchored and it.kind != "doi":
                note.append(f"Accessed {it.first_anchored.isoformat()}")
    else:
        note.append(_url(it.url))
    if it.eprint:  # its preprint, registered too
        note.append(f"arXiv:{it.eprint}")
    if it.journal_ref:
        note.append("Published in " + _latex(it.journal_ref))
    if it.archived:
        note.append(f"Archived {_latex(it.archived[1])}: {_url(it.archived[0])}")
    if note:
        f.append(("note", ". ".join(note)))
    return f


def _biblatex(it: ExportItem, kind: str) -> list[tuple[str, str]]:
    f = _common(it, kind, "biblatex")
    if it.arxiv_id:
        f += [("eprint", _verbatim(it.arxiv_id)), ("eprinttype", "arxiv")]
        if it.version:
            f.append(("version", str(it.version)))
    elif it.eprint:  # a published work whose preprint is registered too
        f += [("eprint", _verbatim(it.eprint)), ("eprinttype", "arxiv")]
    if it.doi:
        f.append(("doi", _verbatim(it.doi)))
    if it.kind != "doi":  # a DOI's link is its `doi`
        f.append(("url", _verbatim(it.url)))
        if it.first_anchored:
            f.append(("urldate", it.first_anchored.isoformat()))
    if it.kind == "doi" and kind == "misc" and it.container:
        f.append(("howpublished", _latex(it.container, "biblatex")))
    if it.journal_ref:
        f.append(("note", "Published in " + _latex(it.journal_ref, "biblatex")))
    if it.archived:
        snapshot = _url(it.archived[0])
        f.append(("addendum", f"Archived {_latex(it.archived[1], 'biblatex')}: {snapshot}"))
    return f


def bibtex_chunks(items: list[ExportItem], style: str = "classic") -> Iterator[str]:
    """The .bib an entry at a time (`render.write` streams them to the file): the text of one
    entry is all it holds.

    A key twice, as BibTeX compares them (case-insensitively), is refused as pybtex refuses
    it; `export` makes keys unique, so this never happens to its items.
    """
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
        authors = [_bib_name(a, style) for a in it.authors]
        # a blank line between entries, as pybtex writes them
        yield ("\n" if i else "") + _entry(it.cite_key, kind, authors, f)


def bibtex(items: list[ExportItem], style: str = "classic") -> str:
    return "".join(bibtex_chunks(items, style))


#: a word BibTeX reads as a separator between two people (`Alice and Bob`), in any case
_AND = re.compile(r"(?:^|[\s,])and(?:[\s,]|$)", re.IGNORECASE)


def parsed_name(name: str) -> Any:
    """pybtex's reading of one name as one person, or None where it is not one: a string
    pybtex refuses (`Smith, Jr., John, III`: too many commas), one BibTeX would split into two
    people (` and `) or read as "et al." (`others`), or one without a last name."""
    from pybtex.database import Person
    from pybtex.exceptions import PybtexError  # type: ignore[import-untyped]

    if _AND.search(name) or name.strip().lower() == "others":
        return None
    try:
        p = Person(name)
    except PybtexError:
        return None
    return p if p.last_names else None


@lru_cache(maxsize=1 << 16)
def _bib_name(name: str, style: str) -> str:
    """An author for BibTeX, read once per distinct name: `Last, First` (pybtex's order: von
    Last, Jr, First Middle) where it is one person, else the whole name as one braced literal
    (`{Alice and Bob}`), which BibTeX never splits or reorders."""
    t = _latex(name, style).strip()
    p = parsed_name(t)
    if p is None:
        return "{" + t + "}"
    last = " ".join(p.prelast_names + p.last_names)
    first = " ".join(p.first_names + p.middle_names)
    lineage = " ".join(p.lineage_names)
    return last + (f", {lineage}" if lineage else "") + (f", {first}" if first else "")
