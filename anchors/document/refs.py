"""A briefing's references to the document (`inference.md §1.1 已有 …`) against the document.

A reference names a section by file name and number, sometimes with the name in brackets; the
section must be a heading of the document with that file name, else `unknown-section` at the
briefing's line (with the heading a renumbering moved it to, when its name says which). A
reference to a file that is not among the documents given is not judged: anchors cannot tell
a document it was not shown from one that does not exist.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import PurePath

from ..details import SectionStanding
from ..extract.docrefs import DocumentRef
from ..findings import Code, Finding
from .model import LivingDocument

__all__ = ["check_refs"]


def check_refs(
    briefing: str, refs: Iterable[DocumentRef], documents: Sequence[LivingDocument]
) -> list[Finding]:
    """`unknown-section` for each reference in `briefing` to a section its document lacks,
    once per section named."""
    by_name: dict[str, LivingDocument] = {}
    for document in documents:
        by_name.setdefault(PurePath(document.path).name, document)
    out = []
    seen: set[tuple[str, str]] = set()
    for ref in refs:
        doc = by_name.get(ref.file)
        if doc is None or doc.has_section(ref.section) or (ref.file, ref.section) in seen:
            continue
        seen.add((ref.file, ref.section))
        moved, total = doc.renamed(ref.section, 1)
        hint = f"; did you mean {moved[0].section} (line {moved[0].line})?" if total == 1 else ""
        suggestion = moved[0].section if total == 1 else None
        details = SectionStanding(ref.section, doc.path, suggestion=suggestion)
        out.append(
            Finding(
                Code.UNKNOWN_SECTION,
                str(ref),
                briefing,
                ref.line,
                f"the briefing says {ref.file} has {ref.section}, which is no heading of "
                f"{doc.path}{hint}",
                details,
            )
        )
    return out
