"""The registry against its living documents: what is waiting, misfiled or missing.

Every registry entry names the section it is meant for; the documents say where each anchor
stands. The rules, one finding per entry at most (the first that applies):
- cited in its section (or a section inside it): nothing;
- the section is a heading, the anchor is cited only under others: `section-mismatch`, at the
  document's line;
- the section is a heading, the anchor is not cited: `not-in-document`, or `overdue` once the
  entry's latest citation is older than the pending days;
- the section is no heading, but its name stands under another number (a renumbering):
  `unknown-section`, with the heading to move to when there is one (`anchors fix` rewrites it);
- the section is no heading and no heading has its name: `new-section` (a section a briefing
  proposed), or `overdue` as above when no document cites the anchor at all.
And every anchor a document cites that no registry holds is `unregistered`, once, at its first
citation. Several documents are one body of text: an anchor cited in any of them is cited.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from typing import TypedDict, Unpack

from ..defaults import DEFAULT_PENDING_DAYS
from ..details import CitedElsewhere, Details, SectionStanding, Unregistered
from ..findings import Code, Finding
from ..registry.model import Anchor, Registry
from ..sections import number
from .model import Heading, LivingDocument, Mention, same_section
from .renumber import moved_to

#: headings a message names when a section's name stands under several (the details keep
#: `renumber.KEPT`, `candidates_total` counts them all): a document that repeats one name
#: 20,000 times made each such finding 20,000 headings long
_SHOWN_CANDIDATES = 5

__all__ = [
    "DEFAULT_PENDING_DAYS",
    "Standing",
    "compare",
    "standings",
    "unregistered",
    "unregistered_anchors",
]


@dataclass(frozen=True, slots=True)
class Standing:
    """One registry entry that its section does not cite yet, and the finding that says so."""

    anchor: Anchor
    #: the entry's section, as the registry writes it
    section: str
    finding: Finding
    #: the date its waiting counts from (its latest citation), and the days since
    since: date | None
    days: int | None
    #: cited under the heading its section was renumbered to: placed, only the number is stale
    placed: bool = False


def compare(
    registries: Sequence[Registry],
    documents: Sequence[LivingDocument],
    today: date,
    pending_days: int,
) -> list[Finding]:
    """The findings of `registries` against `documents` (see the module docstring)."""
    found = standings(registries, documents, today, pending_days)
    return [*unregistered(registries, documents), *(s.finding for s in found)]


def standings(
    registries: Sequence[Registry],
    documents: Sequence[LivingDocument],
    today: date,
    pending_days: int,
) -> list[Standing]:
    """Each entry with a section that is not cited there, once per anchor, in registry order."""
    out = []
    seen: set[str] = set()
    cited: dict[str, list[tuple[LivingDocument, Mention]]] = {}  # each entry looks up its own
    for doc in documents:
        for mention in doc.mentions:
            cited.setdefault(mention.key.key, []).append((doc, mention))
    for reg in registries:
        for anchor in reg.anchors:
            if anchor.key is None or not anchor.section or anchor.key.key in seen:
                continue
            seen.add(anchor.key.key)
            keys = dict.fromkeys(k.key for k in (anchor.key, anchor.cited_key) if k is not None)
            mentions = [dm for k in keys for dm in cited.get(k, ())]
            if len(keys) > 1:  # a moved entry cited under both URLs: in document order again
                mentions.sort(key=lambda dm: (documents.index(dm[0]), dm[1].line))
            judged = _judge(reg.path, anchor, mentions, documents, today, pending_days)
            if judged is not None:
                out.append(judged)
    return out


def _judge(
    path: str,
    anchor: Anchor,
    mentions: list[tuple[LivingDocument, Mention]],
    documents: Sequence[LivingDocument],
    today: date,
    pending_days: int,
) -> Standing | None:
    """The standing of `anchor`, which the documents cite at `mentions` (in document order)."""
    target = anchor.section or ""
    if any(same_section(s, target) for _, m in mentions for s in m.within):
        return None
    since = _latest(anchor)
    holder = next((d for d in documents if d.has_section(target)), None)
    e = _Entry(path, anchor, target, holder or _home(documents, target), since, today)
    late = e.days is not None and e.days > pending_days
    if holder is not None and mentions:
        doc, first = mentions[0]
        where = first.section or "outside any numbered section"
        return e.standing(
            Code.SECTION_MISMATCH,
            f"registered for {target} ({path}:{anchor.line}), but {doc.path} cites it only "
            f"under {where}; move the citation, or correct the entry's section",
            at=(doc.path, first.line),
            details=CitedElsewhere(
                target, doc.path, first.section, path, anchor.line, e.since_day, e.days
            ),
        )
    if holder is not None:
        if late:
            return e.overdue(pending_days)
        return e.standing(
            Code.NOT_IN_DOCUMENT,
            f"registered for {target}, which {holder.path} has, but not cited there yet" + e.last,
        )
    moved, total = moved_to(documents, target)
    if total:
        return e.renumbered(moved, total, mentions)
    if late and not mentions:
        return e.overdue(pending_days)
    return e.standing(
        Code.NEW_SECTION,
        f"{target} is not a section of the document yet: a section a briefing proposed{e.last}",
    )


class _Facts(TypedDict, total=False):
    """What a standing says beyond its section and document (`SectionStanding`'s fields)."""

    limit: int
    candidates: tuple[str, ...]
    candidates_total: int
    suggestion: str
    heading_line: int


@dataclass(frozen=True, slots=True)
class _Entry:
    """One entry being judged: what every finding about it says."""

    registry: str
    anchor: Anchor
    target: str
    #: the document that has its section, else the one it belongs in
    document: LivingDocument
    since: date | None
    today: date

    @property
    def days(self) -> int | None:
        return None if self.since is None else (self.today - self.since).days

    @property
    def since_day(self) -> str | None:
        return self.since.isoformat() if self.since is not None else None

    @property
    def last(self) -> str:
        return f" (last cited {self.since.isoformat()})" if self.since else ""

    def standing(
        self,
        code: Code,
        message: str,
        at: tuple[str, int] | None = None,
        placed: bool = False,
        details: Details | None = None,
        document: str | None = None,
        **facts: Unpack[_Facts],
    ) -> Standing:
        """The finding, at `at` (a document's line) or at the entry's registry line; its
        details are a `SectionStanding` of the `facts` unless given."""
        if details is None:
            details = SectionStanding(
                self.target,
                document or self.document.path,
                **facts,
                since=self.since_day,
                days=self.days,
            )
        file, line = at or (self.registry, self.anchor.line)
        f = Finding(code, self.anchor.label, file, line, message, details)
        return Standing(self.anchor, self.target, f, self.since, self.days, placed)

    def overdue(self, limit: int) -> Standing:
        return self.standing(
            Code.OVERDUE,
            f"registered for {self.target} and not in the document after {self.days} days"
            f"{self.last}; the limit is {limit} (--pending-days)",
            limit=limit,
        )

    def renumbered(
        self,
        moved: list[tuple[LivingDocument, Heading]],
        total: int,
        mentions: list[tuple[LivingDocument, Mention]],
    ) -> Standing:
        if total > 1:
            shown = moved[:_SHOWN_CANDIDATES]
            where = ", ".join(f"{h.section} ({d.path}:{h.line})" for d, h in shown)
            if total > len(shown):
                where += f" and {total - len(shown)} more headings"
            return self.standing(
                Code.UNKNOWN_SECTION,
                f"{self.target} is no heading of the document; its name stands under {where}: "
                "correct the entry's section by hand",
                document=moved[0][0].path,
                candidates=tuple(h.section for _, h in moved),
                candidates_total=total,
            )
        doc, heading = moved[0]
        return self.standing(
            Code.UNKNOWN_SECTION,
            f"{self.target} is no heading of {doc.path}; did you mean {heading.section} "
            f"(line {heading.line})? `anchors fix --document {doc.path}` rewrites the section",
            placed=any(same_section(s, heading.section) for _, m in mentions for s in m.within),
            document=doc.path,
            suggestion=heading.section,
            heading_line=heading.line,
        )


def _latest(anchor: Anchor) -> date | None:
    """When the entry was last cited (its latest briefing), the day its waiting counts from."""
    dates = [d for d in (*anchor.cited_in, anchor.first_anchored) if d is not None]
    return max(dates) if dates else None


def _home(documents: Sequence[LivingDocument], target: str) -> LivingDocument:
    """The document a missing section belongs in: the one with a heading above its number
    (§2 for §2.5), else the first."""
    num = number(target)
    if num is not None:
        for doc in documents:
            if doc.encloses(num):
                return doc
    return documents[0]


def unregistered(
    registries: Sequence[Registry], documents: Sequence[LivingDocument]
) -> list[Finding]:
    """Each anchor the documents cite that no registry holds, at its first citation."""
    out = []
    for doc, mention in _unheld(registries, documents):
        where = f" under {mention.section}" if mention.section else ""
        out.append(
            Finding(
                Code.UNREGISTERED,
                mention.raw,
                doc.path,
                mention.line,
                f"{doc.path} cites it{where}, but the registry does not hold it; "
                "`anchors add` the briefing it came from",
                Unregistered(mention.section, doc.path),
            )
        )
    return out


def unregistered_anchors(
    registries: Sequence[Registry], documents: Sequence[LivingDocument]
) -> list[Anchor]:
    """The same citations as anchors written in their document (`Anchor.file`), for an online
    check to look at once each beside the registry's."""
    return [
        Anchor(line=m.line, id_field=m.key.id_field, raw_id=m.raw, key=m.key, file=doc.path)
        for doc, m in _unheld(registries, documents)
    ]


def _unheld(
    registries: Sequence[Registry], documents: Sequence[LivingDocument]
) -> list[tuple[LivingDocument, Mention]]:
    held: set[str] = set()
    for reg in registries:
        held.update(reg.by_cited_key())
    return [(d, m) for d, m in _first_mentions(documents) if m.key.key not in held]


def _first_mentions(
    documents: Sequence[LivingDocument],
) -> Iterable[tuple[LivingDocument, Mention]]:
    seen: set[str] = set()
    for doc in documents:
        for mention in doc.mentions:
            if mention.key.key not in seen:
                seen.add(mention.key.key)
                yield doc, mention
