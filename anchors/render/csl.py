"""CSL-JSON: the export citeproc processors (Zotero, pandoc, citeproc-py) format in any style.

Titles carry CSL's own markup: a technical token (`fp8_e4m3`, `@vllm-team`, `--swap-space`,
`vLLM`) is wrapped in `<span class="nocase">`, so a style that title-cases (Chicago) does not
print "Fp8_E4M3". The registry's bookkeeping stays in `custom`, which no style prints; an arXiv
journal reference is a note, not a container title ("In ActaAstron.56:1-50,2006").
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from functools import lru_cache
from json.encoder import encode_basestring
from typing import TYPE_CHECKING

from ..numbers import whole
from .bibnames import parsed_name

if TYPE_CHECKING:
    from ..export import ExportItem

__all__ = ["csl_chunks", "csl_json", "protect"]

#: a word a title-casing style must leave as written: one with a digit beside letters, a
#: capital after its first letter, or a character no English word has (`_ @ / . : # + = ~`),
#: or one that starts with `-` (a command-line flag). Each test reads a word once, from its
#: start, up to the first character that decides it (a letter, then the first digit after
#: it): linear in a title of any length
_SPECIAL = r"_@/:#+=~\\|<>`$%^*&"
_TECHNICAL = re.compile(
    r"(?<!\S)(?:[^\sA-Za-z]*+[A-Za-z][^\s\d]*+\d|[^\s\d]*+\d[^\sA-Za-z]*+[A-Za-z]"
    rf"|[^\s{_SPECIAL}]*+[{_SPECIAL}]|\S[^\s.]*+\.[^\sA-Za-z]*+[A-Za-z]|-"
    r"|[^\sa-z]*+[a-z][^\sA-Z]*+[A-Z])\S*+"
)
_MARKUP = re.compile(r"<(/?)(i|b|sup|sub|span)\b", re.IGNORECASE)


def protect(title: str) -> str:
    """The title with each technical word (all of a run of non-space) in a nocase span;
    markup-like text in the title itself (`<i>`, `</span>`) has its `<` made a look-alike so it
    stays text. One pass of one pattern: a title has ~10 words, a 100k export a million."""
    if "<" in title:
        title = _MARKUP.sub(lambda match: "\u2039" + match[1] + match[2], title)
    return _TECHNICAL.sub(r'<span class="nocase">\g<0></span>', title)


def _name(name: str) -> dict[str, str]:
    return dict(_name_parts(name))


@lru_cache(maxsize=1 << 16)
def _name_parts(name: str) -> tuple[tuple[str, str], ...]:
    """A name's CSL parts, read once per distinct name: authors recur across a field's papers,
    and pybtex's reading of one costs ~0.2 ms."""
    person = parsed_name(name)
    if person is None or not person.family or not person.given:
        return (("literal", name),)
    out: tuple[tuple[str, str], ...] = (("family", person.family), ("given", person.given))
    if person.lineage:
        out += (("suffix", " ".join(person.lineage)),)
    return out


def _date(iso: str) -> dict[str, object]:
    parts = [whole(x, 4) for x in iso.split("-")[:3]]
    return {"date-parts": [[n for n in parts if n is not None]]}


_TYPE = {"arxiv": "article", "doi": "article-journal", "github": "webpage", "url": "webpage"}
#: the DOI work types (CSL's own words, from the agency) exported as they are
_DOI_TYPES = frozenset(
    {"article-journal", "paper-conference", "chapter", "book", "dataset", "report"}
)


def _item(it: ExportItem) -> dict[str, object]:
    """One CSL item, its fields in a fixed order: what the work is, where it appeared, where
    to read it, then anchors' own (`custom`)."""
    csl: dict[str, object] = {"id": it.cite_key, "type": _type(it)}
    csl.update(_about(it))
    csl.update(_published(it))
    csl["URL"] = it.url
    if it.archived:
        csl.update(archive="Internet Archive", archive_location=it.archived[0])
    csl["custom"] = {
        "anchor": it.key,
        "section": it.section,
        "status": it.status,
        "cited_in": [c.isoformat() for c in it.cited_in],
        "first_anchored": it.first_anchored.isoformat() if it.first_anchored else None,
    }
    return csl


def _type(it: ExportItem) -> str:
    """A DOI's own work type where CSL has it (a proceedings volume's paper when it has
    none), else the kind's."""
    if it.kind == "doi":
        if it.work_type in _DOI_TYPES:
            return it.work_type
        if it.work_type is None and it.container and "proceedings" in it.container.lower():
            return "paper-conference"
    return _TYPE[it.kind]


def _about(it: ExportItem) -> dict[str, object]:
    """Title, authors, when it was issued and when first anchored (accessed)."""
    out: dict[str, object] = {}
    if it.title:
        out["title"] = protect(it.title)
    if it.authors:
        out["author"] = [_name(a) for a in it.authors]
    if it.published:
        out["issued"] = _date(it.published)
    if it.first_anchored:
        out["accessed"] = _date(it.first_anchored.isoformat())
    return out


def _published(it: ExportItem) -> dict[str, object]:
    """Where it appeared: arXiv's number and version, the container and its numbers, the
    journal reference, the DOI."""
    out: dict[str, object] = {}
    if it.arxiv_id:
        out.update(publisher="arXiv", number=it.arxiv_id)
        if it.version:
            out["version"] = str(it.version)
    if it.container:
        out["container-title"] = it.container
    for name, value in (("volume", it.volume), ("issue", it.issue), ("page", it.pages)):
        if value:
            out[name] = value
    if it.journal_ref:
        out["note"] = f"Published in {it.journal_ref}"
    if it.doi:
        out["DOI"] = it.doi
    return out


def csl_json(items: list[ExportItem]) -> list[dict[str, object]]:
    return [_item(it) for it in items]


def csl_chunks(items: list[ExportItem]) -> Iterator[str]:
    """The items as one JSON array indented by two, an item at a time: the text
    `json.dumps(csl_json(items), indent=2)` gives, without every item's dict, the encoder's
    chunks and the whole text in memory at once (2.2x the memory of `check --offline` at 100k
    anchors; `render.write` streams these to the file)."""
    if not items:
        yield "[]\n"
        return
    yield "["
    for i, it in enumerate(items):
        yield ("\n  " if i == 0 else ",\n  ") + _indented(_item(it), "  ")
    yield "\n]\n"


def _indented(value: object, pad: str) -> str:
    """`v` as `json.dumps(v, ensure_ascii=False, indent=2)` writes it at the indent `pad`,
    strings through the json module's C encoder: with `indent`, json.dumps runs its pure-Python
    encoder, a third of a 100k CSL-JSON export."""
    if isinstance(value, str):
        return encode_basestring(value)
    inner = pad + "  "
    if isinstance(value, dict):
        if not value:
            return "{}"
        sep = ",\n" + inner
        fields = sep.join(
            f"{encode_basestring(k)}: {_indented(x, inner)}" for k, x in value.items()
        )
        return "{\n" + inner + fields + "\n" + pad + "}"
    if isinstance(value, (list, tuple)):
        if not value:
            return "[]"
        sep = ",\n" + inner
        return "[\n" + inner + sep.join(_indented(x, inner) for x in value) + "\n" + pad + "]"
    return json.dumps(value)  # a number, true, false or null: one token
