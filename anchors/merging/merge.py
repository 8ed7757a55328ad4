"""Merging briefings into a registry: new vs continued, earliest first-anchored date, duplicates.

`merge` is pure: it reads a loaded `Registry` and briefings and returns a `MergeResult` holding
the entries to add, the field changes to make and, as `Finding`s (check's vocabulary), what a
person should look at. `splice.render` turns the changes into text; `add` does the whole
read-merge-write under the registry's lock.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from ..extract.citations import Briefing, Citation
from ..extract.model import Attributed
from ..figures.verdict import ClaimKind
from ..ids import parse_anchor
from ..ids.model import ArxivId, Doi, InvalidId, cited_url, is_future, issued_after
from ..registry import store
from ..registry.claims import Claims, record_of, written_at
from ..registry.loader import gc_paused, load
from ..registry.model import Anchor, Entry, Registry, Status
from ..titles import same_title
from .findings import conflict, duplicate, future, invalid, later, refuse, unbacked_claim
from .result import Change, MergeResult

__all__ = ["Change", "Entry", "MergeResult", "add", "cited_id", "merge"]


def cited_id(cite: Citation) -> str:
    """What a new entry stores: a URL as the briefing cited it, an ID in its canonical form.

    Storing the canonical form (the duplicate key) turned `/pull/9120` into `/issues/9120` and
    `http://host/dir/` into `http://host/dir`, which `check` then reported as a redirect back to
    exactly what was cited. Only tracking parameters are dropped (`ids.cited_url`).
    """
    if isinstance(cite.key, (ArxivId, Doi)):
        return str(cite.key)
    if "://" in cite.raw:
        url = cited_url(cite.raw)
        try:
            if parse_anchor(url).key == cite.key.key:
                return url
        except InvalidId:
            pass
    return cite.key.url  # `owner/repo#N`, or a repository URL followed by `(GitHub Issue N)`


@dataclass(frozen=True, slots=True)
class _Mentions:
    """What one briefing says about one anchor, over all the lines that cite it."""

    cites: list[Citation]
    primaries: list[Citation]
    #: the first title *written* for the citation (None when every title is inferred)
    written: str | None
    #: the title to fill an empty field with: written, else inferred from a heading
    title: str | None
    section: str | None
    #: the earliest date the briefing cites or claims for it
    first: date

    @classmethod
    def of(cls, briefing: Briefing, cites: list[Citation]) -> _Mentions:
        primaries = [c for c in cites if c.primary]
        ordered = primaries + cites
        written = next((c.written_title for c in ordered if c.written_title), None)
        title = written or next((c.title for c in ordered if c.title), None)
        section = next((c.section for c in ordered if c.section), None)
        claims = [c.claimed_date for c in cites if c.claimed_date]
        return cls(cites, primaries, written, title, section, min([briefing.date, *claims]))

    @property
    def lead(self) -> Citation:
        return (self.primaries or self.cites)[0]

    @property
    def inferred(self) -> bool:
        """The title came from a heading: it fills an empty field but never conflicts."""
        return self.written is None and self.title is not None


def merge(reg: Registry, briefings: Iterable[Briefing], today: date) -> MergeResult:
    """The briefings into `reg`. A registry with no entry yet (new, or empty) has nothing to
    back a briefing's "9-21锚定；续立" with: the briefings' own history of each anchor is the
    starting point (its first-anchored date and status are taken, no `unbacked-claim`)."""
    result = MergeResult(reg.path, starting_point=not reg.anchors)
    known = reg.by_cited_key()
    for briefing in briefings:
        figures: dict[str, list[Attributed]] = {}
        for said in briefing.figures:
            figures.setdefault(said.anchor, []).append(said)
        result.briefings += 1
        for key, cites in _groups(result, briefing, today).items():
            _merge_one(result, known, briefing, key, cites)
            _keep_figures(result.registry, briefing.date, result.entries[key], figures.get(key, []))
    return result


def _groups(result: MergeResult, briefing: Briefing, today: date) -> dict[str, list[Citation]]:
    """The briefing's valid citations by key; future and invalid ones become findings."""
    groups: dict[str, list[Citation]] = {}
    for cite in briefing.citations:
        if isinstance(cite.key, ArxivId) and is_future(cite.key, today):
            result.findings.append(future(cite, cite.key.yymm, today))
        else:
            groups.setdefault(cite.key.key, []).append(cite)
    result.findings.extend(invalid(i) for i in briefing.invalid)
    return groups


def _merge_one(
    result: MergeResult,
    known: dict[str, Anchor],
    briefing: Briefing,
    key: str,
    cites: list[Citation],
) -> None:
    mentions = _Mentions.of(briefing, cites)
    lead = mentions.lead
    if len(mentions.primaries) > 1:
        result.findings.append(duplicate(lead, briefing, [c.line for c in mentions.primaries]))
    _briefing_conflicts(result, briefing, lead.raw, mentions)
    if isinstance(lead.key, ArxivId) and issued_after(lead.key, briefing.date):
        result.findings.append(later(lead, briefing))
    held, existing = result.entries.get(key), known.get(key)
    first = held.first_anchored if held else existing.first_anchored if existing else None
    gap = unbacked_claim(cites, first, held is not None or existing is not None)
    if gap is not None and not result.starting_point:
        result.findings.append(gap)
    entry = result.entries.get(key)
    if entry is None:
        entry = result.entries[key] = _start(result, known.get(key), key, mentions)
        result.cited_at[key] = (lead.path, lead.line)
    _registry_conflicts(result, entry, lead, mentions)
    said = entry.status is Status.CONTINUED or any(c.claim is Status.CONTINUED for c in cites)
    _fold(entry, briefing.date, mentions)
    if result.starting_point and said:
        entry.status = Status.CONTINUED  # "续用" with no date: continued, since an unknown day
    _keep_claims(result.registry, briefing, entry, mentions)


def _keep_claims(registry: str, briefing: Briefing, entry: Entry, mentions: _Mentions) -> None:
    """What this briefing claims about the anchor joins the entry, dated, so a plain `check`
    compares it later without the briefing (`registry.claims`)."""
    said = [c.claims for c in mentions.primaries + mentions.cites if c.claims is not None]
    held = [*(entry.existing.claims if entry.existing else ()), *entry.claims]
    at = (written_at(mentions.lead.path, registry), mentions.lead.line)
    record = record_of(said, briefing.date, at, entry.title, entry.version, held)
    if record is not None:
        entry.claims.append(record)


def _keep_figures(registry: str, day: date, entry: Entry, said: list[Attributed]) -> None:
    """Each figure and quote the briefing attributes to the anchor joins the entry as a record
    of its own, once: re-adding a briefing adds nothing (`registry.claims`)."""
    held = [*(entry.existing.claims if entry.existing else ()), *entry.claims]
    for attributed in said:
        figure = attributed.words if attributed.what is ClaimKind.FIGURE else None
        quote = attributed.words if attributed.what is ClaimKind.QUOTE else None
        at = written_at(attributed.path, registry)
        record = Claims(
            said_on=day, path=at, line=attributed.line, by=attributed.by, figure=figure, quote=quote
        )
        if not any(record.same_claims(h) for h in held):
            entry.claims.append(record)
            held.append(record)


def _start(result: MergeResult, existing: Anchor | None, key: str, mentions: _Mentions) -> Entry:
    """The entry a key's first mention in this run opens: the registry's, or a new one."""
    if existing is not None:
        result.continued.append(key)  # once per key: a list look-up here was quadratic
        return Entry(
            mentions.lead.key,
            existing.raw_id,
            existing.first_anchored or mentions.first,
            list(existing.cited_in),
            existing.status or Status.NEW,
            existing.title,
            existing.section,
            existing.version,
            existing,
            existing.title_inferred,
        )
    result.added.append(key)
    return Entry(
        mentions.lead.key,
        cited_id(mentions.lead),
        mentions.first,
        [],
        Status.NEW,
        mentions.title,
        mentions.section,
        getattr(mentions.lead.key, "version", None),
        title_inferred=mentions.inferred,
    )


def _fold(entry: Entry, day: date, mentions: _Mentions) -> None:
    """One briefing's mentions into the entry: dates, empty fields filled, the status."""
    entry.first_anchored = min(entry.first_anchored, mentions.first)
    if day not in entry.cited_in:
        entry.cited_in.append(day)
    entry.cited_in.sort()
    if not entry.title and mentions.title:
        entry.title, entry.title_inferred = mentions.title, mentions.inferred
    entry.section = entry.section or mentions.section
    derived = (
        Status.NEW if all(d == entry.first_anchored for d in entry.cited_in) else Status.CONTINUED
    )
    # A person may have marked an entry continued by hand; merging never turns it back to new.
    if entry.existing is None or derived is Status.CONTINUED:
        entry.status = derived


def _briefing_conflicts(
    result: MergeResult, briefing: Briefing, label: str, mentions: _Mentions
) -> None:
    """Mentions that disagree with the first written title or section (each value once)."""
    seen: set[tuple[str, str]] = set()
    for cite in mentions.cites:
        for name, kept, other in (
            ("title", mentions.written, cite.written_title),
            ("section", mentions.section, cite.section),
        ):
            if not kept or not other or (name, other) in seen:
                continue
            if not same_title(other, kept) if name == "title" else other != kept:
                seen.add((name, other))
                result.findings.append(
                    conflict(label, briefing.path, cite.line, name, kept, other, None)
                )


def _registry_conflicts(
    result: MergeResult, entry: Entry, lead: Citation, mentions: _Mentions
) -> None:
    """The briefing against the registry; only a title written for the citation can differ."""
    anchor = entry.existing
    if anchor is None:
        return
    if (
        anchor.title
        and not anchor.title_inferred
        and mentions.written
        and not same_title(mentions.written, anchor.title)
    ):
        result.findings.append(
            conflict(
                anchor.label, lead.path, lead.line, "title", anchor.title, mentions.written, anchor
            )
        )
    if anchor.section and mentions.section and mentions.section != anchor.section:
        result.findings.append(
            conflict(
                anchor.label,
                lead.path,
                lead.line,
                "section",
                anchor.section,
                mentions.section,
                anchor,
            )
        )


def add(
    registry_path: str | Path,
    briefings: list[Briefing],
    today: date,
    dry_run: bool = False,
    on_wait: Callable[[str], None] | None = None,
) -> MergeResult:
    """Load, merge and (unless `dry_run`) save, all under the registry's lock.

    A registry with schema problems is refused untouched: splicing into an entry whose shape
    was not understood could corrupt it. A dry run takes no lock, so it creates no file at all
    (a write is an atomic rename, so reading without the lock sees the old or the new file).
    """
    with (
        contextlib.nullcontext() if dry_run else store.locked(registry_path, on_wait),
        gc_paused(),
    ):  # all under the lock: linear, not slowed by the collector
        reg = load(registry_path, missing_ok=True)
        if reg.unsafe:
            raise refuse(reg)
        result = merge(reg, briefings, today)
        result.new_file = not reg.exists
        if not dry_run and result.changes:
            store.save(reg, result.changes)
            result.written = True
    return result
