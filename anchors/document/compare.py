"""The registry against its living document: what is waiting, misfiled or missing.

Every registry entry names the section it is meant for; the document says where each anchor
stands. The rules, one finding per entry at most (the first that applies):
- cited in its section (or a section inside it): nothing;
- the section is a heading, the anchor is cited only under others: `section-mismatch`;
- the section is a heading, the anchor is not cited: `not-in-document`, or `overdue` once the
  entry's latest citation is older than the pending days;
- the section is no heading, but its name stands under another number (a renumbering):
  `unknown-section`, with the heading to move to (`anchors fix` rewrites it);
- the section is no heading and no heading has its name: `new-section` (a section a briefing
  proposed), or `overdue` as above when the document does not cite the anchor at all.
And every anchor the document cites that the registry does not hold is `unregistered`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import PurePath

from .. import sections
from ..findings import Code, Finding
from ..registry.model import Anchor, Registry
from .model import Heading, LivingDocument, Mention, same_section

__all__ = ["DEFAULT_PENDING_DAYS", "DocumentRef", "check_refs", "compare", "document_refs"]

#: Days an entry may wait for its section before it is `overdue` (`--pending-days`).
DEFAULT_PENDING_DAYS = 14

#: `inference.md §1.1`, `inference.md §1.3（KV Cache）`: a briefing saying what the document holds
_REF_RE = re.compile(
    r"(?P<file>[\w.-]+\.md)\s*(?P<section>§\s*[0-9０-９]+(?:\s*[.．]\s*[0-9０-９]+)*)"
    r"(?:\s*[（(](?P<name>[^（()）\n]{1,40})[）)])?"
)


@dataclass(frozen=True, slots=True)
class DocumentRef:
    """A briefing line naming a section of a document by file name."""

    file: str
    section: str
    line: int


def compare(
    registry: Registry, documents: Sequence[LivingDocument], today: date, pending_days: int
) -> list[Finding]:
    """The findings of `registry` against `documents` (see the module docstring)."""
    out = list(_unregistered(registry, documents))
    seen: set[str] = set()
    for anchor in registry.anchors:
        if anchor.key is None or not anchor.section or anchor.key.key in seen:
            continue
        seen.add(anchor.key.key)
        finding = _judge(registry.path, anchor, anchor.section, documents, today, pending_days)
        if finding is not None:
            out.append(finding)
    return out


def _judge(
    path: str,
    anchor: Anchor,
    target: str,
    documents: Sequence[LivingDocument],
    today: date,
    pending_days: int,
) -> Finding | None:
    keys = {k.key for k in (anchor.key, anchor.cited_key) if k is not None}
    mentions = [m for d in documents for m in d.mentions if m.key.key in keys]
    if any(same_section(s, target) for m in mentions for s in m.within):
        return None
    holder = next((d for d in documents if d.has_section(target)), None)
    waited = _waited(anchor, today)
    late = waited is not None and waited > pending_days
    facts = {"section": target, "document": (holder or documents[0]).path}
    if holder is not None and mentions:
        first = mentions[0]
        doc = next(d for d in documents if first in d.mentions)
        where = first.section or "outside any numbered section"
        return Finding(
            Code.SECTION_MISMATCH,
            anchor.label,
            doc.path,
            first.line,
            f"registered for {target}, but {doc.path} cites it only under {where}",
            {"section": target, "document_section": first.section, "document": doc.path},
        )
    if holder is not None:
        if late:
            return _overdue(path, anchor, target, waited, pending_days, facts)
        return Finding(
            Code.NOT_IN_DOCUMENT,
            anchor.label,
            path,
            anchor.line,
            f"registered for {target}, which {holder.path} has, but not cited there yet"
            + _since(anchor),
            facts,
        )
    moved = _renamed(documents, target)
    if moved is not None:
        doc, heading = moved
        return Finding(
            Code.UNKNOWN_SECTION,
            anchor.label,
            path,
            anchor.line,
            f"{target} is no heading of {doc.path}; did you mean {heading.section} "
            f"(line {heading.line})? `anchors fix --document {doc.path}` rewrites the section",
            {**facts, "document": doc.path, "suggestion": heading.section},
        )
    if late and not mentions:
        return _overdue(path, anchor, target, waited, pending_days, facts)
    return Finding(
        Code.NEW_SECTION,
        anchor.label,
        path,
        anchor.line,
        f"{target} is not a section of the document yet: a section a briefing proposed",
        facts,
    )


def _overdue(
    path: str,
    anchor: Anchor,
    target: str,
    waited: int | None,
    pending_days: int,
    facts: dict[str, str],
) -> Finding:
    return Finding(
        Code.OVERDUE,
        anchor.label,
        path,
        anchor.line,
        f"registered for {target} and not in the document after {waited} days"
        f"{_since(anchor)} (the limit is {pending_days}, --pending-days)",
        {**facts, "days": waited},
    )


def _latest(anchor: Anchor) -> date | None:
    dates = [d for d in (*anchor.cited_in, anchor.first_anchored) if d is not None]
    return max(dates) if dates else None


def _waited(anchor: Anchor, today: date) -> int | None:
    latest = _latest(anchor)
    return None if latest is None else (today - latest).days


def _since(anchor: Anchor) -> str:
    latest = _latest(anchor)
    return f" (last cited {latest.isoformat()})" if latest else ""


def _renamed(
    documents: Sequence[LivingDocument], target: str
) -> tuple[LivingDocument, Heading] | None:
    for doc in documents:
        heading = doc.renamed(target)
        if heading is not None:
            return doc, heading
    return None


def _unregistered(registry: Registry, documents: Sequence[LivingDocument]) -> Iterable[Finding]:
    held = registry.by_cited_key()
    reported: set[str] = set()
    for doc in documents:
        for m in doc.mentions:
            if m.key.key in held or m.key.key in reported:
                continue
            reported.add(m.key.key)
            yield _unregistered_finding(doc, m)


def _unregistered_finding(doc: LivingDocument, m: Mention) -> Finding:
    where = f" under {m.section}" if m.section else ""
    return Finding(
        Code.UNREGISTERED,
        m.raw,
        doc.path,
        m.line,
        f"the document cites {m.raw}{where}, which the registry does not hold; "
        "`anchors add` the briefing it came from",
        {"section": m.section, "document": doc.path},
    )


def document_refs(text: str) -> list[DocumentRef]:
    """Each `inference.md §1.1` a briefing writes, with its line (`§1.3（KV Cache）` keeps
    the name, so a renumbered heading can be found)."""
    refs = []
    for lineno, line in enumerate(text.splitlines(), 1):
        for m in _REF_RE.finditer(line):
            written = m["section"] + (f" {m['name']}" if m["name"] else "")
            refs.append(DocumentRef(m["file"], sections.normal(written), lineno))
    return refs


def check_refs(
    briefing: str, refs: Iterable[DocumentRef], documents: Sequence[LivingDocument]
) -> list[Finding]:
    """`unknown-section` for each reference to a section its document does not have; a
    reference to a document that is not among `documents` is not judged."""
    by_name = {PurePath(d.path).name: d for d in documents}
    out = []
    for ref in refs:
        doc = by_name.get(ref.file)
        if doc is None or doc.has_section(ref.section):
            continue
        heading = doc.renamed(ref.section)
        hint = f"; did you mean {heading.section} (line {heading.line})?" if heading else ""
        out.append(
            Finding(
                Code.UNKNOWN_SECTION,
                f"{ref.file} {ref.section}",
                briefing,
                ref.line,
                f"the briefing says {ref.file} has {ref.section}, which is no heading of "
                f"{doc.path}{hint}",
                {"section": ref.section, "document": doc.path},
            )
        )
    return out
