"""Export formats: BibTeX (through pybtex), CSL-JSON, and Markdown to paste under a section.

pybtex writes the BibTeX: it owns the syntax (quoting, brace balance, `&`/`%`/`#`/`_` escapes,
"Last, First and ..." name lists), which is easy to get subtly wrong by hand. Text from the
network can still carry LaTeX (`\\input{...}`, unbalanced braces), so every value is made
inert first: backslashes, braces, `$`, `^` and `~` become their text commands. The verbatim
fields (`url`, `doi`, `eprint`) are the exception: biblatex reads them verbatim and url.sty's
`\\url` typesets them as they are, so an escape would end up in the link (`\\%20`, `\\_`);
they are written as they are, and what a .bib cannot hold is percent-encoded instead.
"""

from __future__ import annotations

import re
from itertools import groupby
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from ..sections import key as section_key
from ..sections import normal
from .escape import markdown, markdown_url, plain

if TYPE_CHECKING:
    from ..export import ExportItem

__all__ = ["bibtex", "csl_json", "markdown_list"]

_NO_SECTION = "(no section)"
_TEX = {
    "\\": r"\textbackslash{}",
    "{": r"\textbraceleft{}",
    "}": r"\textbraceright{}",
    "$": r"\$",
    "^": r"\textasciicircum{}",
    "~": r"\textasciitilde{}",
    '"': '{"}',
}


def _tex(s: str) -> str:
    return "".join(_TEX.get(ch, ch) for ch in plain(s))


#: fields biblatex declares verbatim (and classic styles pass to url.sty's `\\url`)
_VERBATIM = frozenset({"url", "doi", "eprint"})
#: what a verbatim field cannot hold as itself: a backslash, white space, control characters
_NOT_VERBATIM = re.compile(r"[\\\s\x00-\x1f\x7f-\x9f]")


def _balanced(s: str) -> bool:
    depth = 0
    for ch in s:
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


def _writer() -> Any:
    """pybtex's BibTeX writer, with the verbatim fields left as they are.

    NOTE: pybtex has no option for this: `Writer._write_field` LaTeX-encodes every value
    (latexcodec: `%` `&` `#` `_` `~` become `\\%` `\\&` `\\#` `\\_` `\\textasciitilde`).
    The override is the one place that depends on that private method (pybtex pinned <0.27);
    tests/test_export.py::test_urls_are_verbatim_in_bibtex fails if it stops being called.
    """
    from pybtex.database.output.bibtex import Writer  # type: ignore[import-untyped]

    class VerbatimWriter(Writer):  # type: ignore[misc]
        def _write_field(self, stream: Any, type: str, value: str) -> None:
            if type in _VERBATIM:
                stream.write(f",\n    {type} = {self.quote(value)}")
            else:
                super()._write_field(stream, type, value)

    return VerbatimWriter()


def _note(it: ExportItem) -> str:
    parts = []
    if it.first_anchored:
        parts.append(f"first anchored {it.first_anchored.isoformat()}")
    if it.status:
        parts.append(it.status)
    if it.cited_in:
        parts.append("cited in " + ", ".join(d.isoformat() for d in it.cited_in))
    if it.section:
        parts.append(plain(it.section))
    return "; ".join(parts)


def _bib_fields(it: ExportItem) -> list[tuple[str, str]]:
    f: list[tuple[str, str]] = []
    if it.title:
        f.append(("title", "{" + _tex(it.title) + "}"))  # braces keep the title's case
    if it.year:
        f.append(("year", it.year))
    if it.arxiv_id:
        f += [("eprint", _verbatim(it.arxiv_id)), ("archivePrefix", "arXiv")]
        if it.version:
            f.append(("version", str(it.version)))
    if it.venue:
        f.append(("journal" if it.kind == "arxiv" else "booktitle", _tex(it.venue)))
    if it.doi:
        f.append(("doi", _verbatim(it.doi)))
    f.append(("url", _verbatim(it.url)))
    if it.first_anchored:
        f.append(("urldate", it.first_anchored.isoformat()))
    if it.archived:
        f.append(("addendum", _tex(f"archived {it.archived[1]}: {it.archived[0]}")))
    f.append(("note", _tex(_note(it))))
    return f


def bibtex(items: list[ExportItem]) -> str:
    from pybtex.database import BibliographyData, Entry  # type: ignore[import-untyped]

    # a list, not a dict: pybtex refuses a repeated key (case-insensitively, as BibTeX reads
    # them) where a dict would keep the last entry silently; `export` makes keys unique
    entries = []
    for it in items:
        kind = (
            "article"
            if it.kind == "doi" and it.venue and "proceedings" not in it.venue.lower()
            else "inproceedings"
            if it.kind == "doi" and it.venue
            else "misc"
        )
        persons = {"author": [_bib_person(a) for a in it.authors]} if it.authors else None
        entries.append((it.cite_key, Entry(kind, fields=_bib_fields(it), persons=persons)))
    if not entries:
        return ""
    text = str(_writer().to_string(BibliographyData(entries=entries)))
    return text if text.endswith("\n") else text + "\n"


#: a word BibTeX reads as a separator between two people (`Alice and Bob`), in any case
_AND = re.compile(r"(?:^|[\s,])and(?:[\s,]|$)", re.IGNORECASE)


def _parsed(name: str) -> Any:
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


def _bib_person(name: str) -> Any:
    """An author for BibTeX: parsed as Last, First where it is one person, else the whole name
    as one braced literal (`{Alice and Bob}`), which BibTeX never splits or reorders."""
    from pybtex.database import Person

    t = _tex(name).strip()
    return _parsed(t) or Person(last="{" + t + "}")


def _csl_name(name: str) -> dict[str, str]:
    p = _parsed(name)
    family = " ".join(p.prelast_names + p.last_names) if p else ""
    given = " ".join(p.first_names + p.middle_names) if p else ""
    if not family or not given:
        return {"literal": name}
    out = {"family": family, "given": given}
    if p.lineage_names:
        out["suffix"] = " ".join(p.lineage_names)
    return out


def _date(iso: str) -> dict[str, Any]:
    return {"date-parts": [[int(x) for x in iso.split("-")[:3]]]}


_CSL_TYPE = {"arxiv": "article", "doi": "article-journal", "github": "webpage", "url": "webpage"}


def _csl_item(it: ExportItem) -> dict[str, Any]:
    d: dict[str, Any] = {"id": it.cite_key, "type": _CSL_TYPE[it.kind]}
    if it.kind == "doi" and it.venue and "proceedings" in it.venue.lower():
        d["type"] = "paper-conference"
    if it.title:
        d["title"] = it.title
    if it.authors:
        d["author"] = [_csl_name(a) for a in it.authors]
    if it.published:
        d["issued"] = _date(it.published)
    if it.first_anchored:
        d["accessed"] = _date(it.first_anchored.isoformat())
    if it.arxiv_id:
        d.update(publisher="arXiv", number=it.arxiv_id)
        if it.version:
            d["version"] = str(it.version)
    if it.venue:
        d["container-title"] = it.venue
    if it.doi:
        d["DOI"] = it.doi
    d["URL"] = it.url
    if it.archived:
        d.update(archive="Internet Archive", archive_location=it.archived[0])
    d["note"] = _note(it)
    d["custom"] = {
        "anchor": it.key,
        "section": it.section,
        "status": it.status,
        "cited_in": [c.isoformat() for c in it.cited_in],
        "first_anchored": it.first_anchored.isoformat() if it.first_anchored else None,
    }
    return d


def csl_json(items: list[ExportItem]) -> list[dict[str, Any]]:
    return [_csl_item(it) for it in items]


def _md_line(it: ExportItem) -> str:
    who = ", ".join(markdown(a) for a in it.authors[:3]) + (
        " et al." if len(it.authors) > 3 else ""
    )
    link = f"<{markdown_url(it.url)}>"
    # an untitled web page is its own link; anything else is named, then linked
    head = (
        f"**{markdown(it.title)}**"
        if it.title
        else link
        if it.kind == "url"
        else markdown(it.anchor)
    )
    bits = [head + (f" — {who}" if who else "") + (f" ({it.year})" if it.year else "")]
    if it.arxiv_id:
        bits.append(f"arXiv:{it.arxiv_id}" + (f"v{it.version}" if it.version else ""))
    if it.venue:
        bits.append(markdown(it.venue))
    if it.doi and it.kind != "doi":
        bits.append(f"doi:{markdown(it.doi)}")
    if head != link:
        bits.append(link)
    if it.archived:  # a Robust Link: the original, its version date and the snapshot
        bits.append(f"[archived {markdown(it.archived[1])}](<{markdown_url(it.archived[0])}>)")
    line = "- " + ". ".join(bits) + "."
    return (
        line + f" First anchored {it.first_anchored or '?'} ({it.status or '?'}); cited in "
        f"{', '.join(d.isoformat() for d in it.cited_in) or '—'}."
    )


def markdown_list(items: list[ExportItem], grouped: bool = True) -> str:
    out: list[str] = []
    if not grouped:
        return "\n".join(_md_line(it) for it in items) + ("\n" if items else "")
    # one heading per section however its entries spell it, in the first entry's spelling
    for _, group in groupby(items, key=lambda it: section_key(it.section or "")):
        entries = list(group)
        heading = normal(entries[0].section or "") or _NO_SECTION
        out += [f"### {markdown(heading)}", ""] + [_md_line(it) for it in entries] + [""]
    return "\n".join(out)
