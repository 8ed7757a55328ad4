"""`export --format markdown`: a reading list to paste under a section of the living document."""

from __future__ import annotations

from itertools import groupby
from typing import TYPE_CHECKING

from ..sections import key as section_key
from ..sections import normal
from .escape import markdown, markdown_url

if TYPE_CHECKING:
    from ..export import ExportItem

__all__ = ["markdown_list"]

_NO_SECTION = "(no section)"


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
        if it.kind in ("url", "github")
        else markdown(it.anchor)
    )
    bits = [head + (f" — {who}" if who else "") + (f" ({it.year})" if it.year else "")]
    if it.arxiv_id:
        bits.append(f"arXiv:{it.arxiv_id}" + (f"v{it.version}" if it.version else ""))
    if venue := it.container or it.journal_ref:
        bits.append(markdown(venue))
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
