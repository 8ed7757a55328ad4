"""What a briefing says the living document holds: `inference.md §1.1 已有 … 锚定`.

A briefing relates its findings to the document it feeds by file name and section number,
with the section's name in brackets at times (`inference.md §1.3（KV Cache）`). Each such
reference names a section that must exist in the document of that file name; `anchors add` and
`check --briefing` hold them against the documents `--document` names (`document.refs`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..sections import normal

__all__ = ["DocumentRef", "document_refs"]

#: a file name (ASCII, so `已有inference.md` is `inference.md`), then `§` and a number, then
#: perhaps the section's name in brackets (possessive `*+`: a repeat that keeps no state per
#: part, so `§1.1.1…` on a long line costs no memory a part)
_REF_RE = re.compile(
    r"(?<![A-Za-z0-9_.-])(?P<file>[A-Za-z0-9_][A-Za-z0-9_.-]*\.md)\s*"
    r"(?P<section>§\s*+[0-9０-９]++(?:\s*+[.．]\s*+[0-9０-９]++)*+)"
    r"(?:\s*[（(](?P<name>[^（()）\n]{1,60})[）)])?"
)


@dataclass(frozen=True, slots=True)
class DocumentRef:
    """A briefing line naming a section of a document by its file name."""

    file: str
    #: in the spelling `sections.normal` gives: `§1.3 KV Cache`, or a bare `§1.1`
    section: str
    line: int

    def __str__(self) -> str:
        return f"{self.file} {self.section}"


def document_refs(lines: Sequence[str], skipped: Sequence[bool] = ()) -> list[DocumentRef]:
    """Each `inference.md §1.1` written on `lines` (1-based line numbers), except on the lines
    `skipped` marks (code blocks, ignored regions)."""
    refs = []
    for i, line in enumerate(lines):
        if ".md" not in line or (i < len(skipped) and skipped[i]):
            continue
        for ref in _REF_RE.finditer(line):
            written = ref["section"] + (f" {ref['name']}" if ref["name"] else "")
            refs.append(DocumentRef(ref["file"], normal(written), i + 1))
    return refs
