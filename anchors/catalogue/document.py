"""Codes about the living document (`--document`) against the registry.

One entry per code; `anchors.catalogue` gathers them into `CATALOGUE`.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..findings import Code
from .codedoc import CodeDoc

__all__ = ["DOCUMENT"]

_C = CodeDoc
DOCUMENT: Mapping[Code, CodeDoc] = {
    Code.UNREGISTERED: _C(
        "Living document cites an anchor the registry lacks",
        "With `--document`, the document cites an arXiv ID, DOI, GitHub issue or URL that no "
        "registry entry holds (compared as duplicates are: a version or an abs URL is the same "
        "paper); reported once, at the document's line of its first citation. An online check "
        "checks it too, once, and reports its verdict at that line.",
        "`inference.md` cites `https://arxiv.org/abs/2609.25053` that no briefing was added for.",
        "`anchors add` the briefing the citation came from, or remove the citation from the "
        "document.",
    ),
    Code.NOT_IN_DOCUMENT: _C(
        "Registered anchor not yet in its section",
        "With `--document`, the entry's `section` is a heading of the document, and the document "
        "does not cite the anchor anywhere yet.",
        "An anchor added on 09-24 for `§1.3 KV Cache` that the writer has not reached.",
        "Write it into its section; after `--pending-days` days it becomes `overdue`.",
    ),
    Code.OVERDUE: _C(
        "Registered anchor waiting too long for the document",
        "With `--document`, an entry that would be `not-in-document`, or `new-section` and "
        "cited nowhere in the document, whose latest citation (`cited_in`, else "
        "`first_anchored`) is more than `--pending-days` days before `--today` (14 by default).",
        "An anchor registered for `§1.3 KV Cache` on 09-01 and still absent on 10-01.",
        "Write it into its section, or drop the entry's `section` if it will not go in.",
    ),
    Code.SECTION_MISMATCH: _C(
        "Document cites an anchor under another section",
        "With `--document`, the entry's `section` is a heading, but the document cites the "
        "anchor only under other sections; reported at the document's line, JSON gives both "
        "sections (`section`, `document_section`) and the entry (`registry`, `registry_line`).",
        "Registered for `§1.3 KV Cache`, cited under `§1.1 框架格局`.",
        "Move the citation to its section, or correct the entry's `section`.",
    ),
    Code.UNKNOWN_SECTION: _C(
        "Section is no heading of the document",
        "With `--document`, the entry's `section` is no heading of the document, while a heading "
        "of the same name stands under another number: the document was renumbered (JSON "
        "`suggestion`; `candidates` when several headings have the name: the first 20, and "
        "`candidates_total`). Also a briefing's "
        "`inference.md §N` (seen by `add` and `check --briefing`) that is no heading of the "
        "document of that file name, at the briefing's line.",
        "`section: §1.3 KV Cache` after the document made it `§1.4 KV Cache`.",
        "`anchors fix --document DOC` rewrites the entries' `section` (a reviewable diff); with "
        "several candidates, choose by hand. Correct a briefing's reference in the briefing.",
    ),
    Code.NEW_SECTION: _C(
        "Section the document does not have yet",
        "With `--document`, the entry's `section` is no heading of the document and no heading "
        "has its name: a section a briefing proposed.",
        "`建议归入章节：§2.5 Agents` before the document has a §2.5.",
        "Create the section in the document, or file the anchor under an existing one.",
    ),
}
