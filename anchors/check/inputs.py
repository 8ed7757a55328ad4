"""What a check reads besides its registries, before anything is asked of the network: the
living documents its settings name (`--document`) and the briefings it is given (`--briefing`),
so an unusable one is exit 2 before a request is made."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

from ..registry.model import Anchor
from ..result import Cited

if TYPE_CHECKING:
    from ..config import Settings
    from ..document import LivingDocument
    from ..extract.citations import Briefing
    from ..registry.model import Registry

__all__ = ["briefings", "document_anchors", "document_cited", "document_fragments", "documents"]


def documents(settings: list[Settings]) -> list[LivingDocument]:
    """The living documents every registry's settings name, each read once."""
    paths = list(dict.fromkeys(d for s in settings for d in s.document))
    if not paths:
        return []
    # the living documents' reader (~20 ms) loads only for a run that names a document
    from ..document import read_documents

    return read_documents(paths)


def briefings(paths: Iterable[Path], online: bool, documents: bool) -> list[Briefing]:
    """The `--briefing` files, read when their claims (online) or their references to the
    documents (any run with a document) are compared."""
    if not online and not documents:
        return []
    # the extractor's patterns load only when briefings are read: never in `check --offline`
    # (tests/test_entry.py counts what an offline check imports)
    from ..extract.citations import read_briefing

    return [read_briefing(b, undated=date.min) for b in paths]


def document_anchors(
    regs: list[Registry], docs: list[LivingDocument], online: bool, narrowed: bool
) -> list[Anchor]:
    """What the documents cite and no registry holds, checked online with the registry's
    anchors; a run `narrowed` to some keys (`--changed-since`, `export --refresh`) leaves them."""
    if not online or not docs or narrowed:
        return []
    # the living documents' reader (~20 ms) loads only for a run that names a document
    from ..document import unregistered_anchors

    return unregistered_anchors(regs, docs)


def document_fragments(docs: list[LivingDocument]) -> list[Anchor]:
    """Each citation in the documents that names a `#fragment`, as an anchor written there:
    the fragment travels on the citation, so it is looked for in its page beside the
    registry's own (two fragments of one page are one anchor, two places)."""
    return [
        Anchor(line=m.line, id_field=m.key.id_field, raw_id=m.raw, key=m.key, file=doc.path)
        for doc in docs
        for m in doc.mentions
        if m.fragment
    ]


def document_cited(docs: list[LivingDocument]) -> dict[tuple[str, int], Cited]:
    """Each citation of the documents as written, by place: a JUnit test case each."""
    return {
        (doc.path, m.line): Cited(m.raw, m.key.kind.value, m.key.url)
        for doc in docs
        for m in doc.mentions
    }
