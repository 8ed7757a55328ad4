"""Merging briefings into a registry: new vs continued, earliest first-anchored date, duplicates.

`merge` is pure: it reads a loaded `Registry` and briefings and returns a `MergeResult` holding
the entries to add and the field changes to make. `store.render` turns that into text; `add`
does the whole read-merge-write under the registry's lock.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from .errors import RegistryError
from .extract.citations import Briefing, Citation, InvalidCitation
from .extract.claims import UnbackedClaim, continuity_gap
from .ids import parse_anchor
from .ids.model import ArxivId, Doi, InvalidId, cited_url, is_future
from .registry.loader import gc_paused, load
from .registry.model import Anchor, Entry, Registry, Status
from .titles import same_title

__all__ = ["Conflict", "Duplicate", "Entry", "MergeResult", "add", "cited_id", "merge"]


@dataclass(frozen=True, slots=True)
class Duplicate:
    """The same anchor listed more than once in one briefing."""

    anchor: str
    path: str
    lines: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Conflict:
    """Two places disagree on a field; the registry's (or the first) value is kept."""

    anchor: str
    path: str
    line: int
    field: str
    kept: str
    other: str
    #: "briefing" when two mentions disagree, "registry" when the registry's value differs
    against: str




@dataclass(slots=True)
class MergeResult:
    registry: str
    entries: dict[str, Entry] = field(default_factory=dict)
    added: list[str] = field(default_factory=list)
    continued: list[str] = field(default_factory=list)
    duplicates: list[Duplicate] = field(default_factory=list)
    conflicts: list[Conflict] = field(default_factory=list)
    invalid: list[InvalidCitation] = field(default_factory=list)
    #: arXiv IDs later than their briefing's own month (warnings)
    later: list[tuple[str, str, int]] = field(default_factory=list)
    #: continuity claims (`9-22锚定`, `续立`) the registry did not back (warnings)
    unbacked: list[UnbackedClaim] = field(default_factory=list)
    written: bool = False
    #: the registry file did not exist (`add` creates it, with its header comment)
    new_file: bool = False

    @property
    def changes(self) -> list[Entry]:
        return [e for e in self.entries.values() if e.existing is None or e.changed_fields()]

    @property
    def extended(self) -> list[str]:
        """Continued anchors the merge actually changes (a new date, status or filled field)."""
        return [k for k in self.continued if self.entries[k].changed_fields()]

    @property
    def up_to_date(self) -> bool:
        """Nothing would be added or continued: the registry already holds these briefings."""
        return not self.changes


def cited_id(c: Citation) -> str:
    """What a new entry stores: a URL as the briefing cited it, an ID in its canonical form.

    Storing the canonical form (the duplicate key) turned `/pull/9120` into `/issues/9120` and
    `http://host/dir/` into `http://host/dir`, which `check` then reported as a redirect back to
    exactly what was cited. Only tracking parameters are dropped (`ids.cited_url`).
    """
    if isinstance(c.key, (ArxivId, Doi)):
        return str(c.key)
    if "://" in c.raw:
        url = cited_url(c.raw)
        try:
            if parse_anchor(url).key == c.key.key:
                return url
        except InvalidId:
            pass
    return c.key.url  # `owner/repo#N`, or a repository URL followed by `(GitHub Issue N)`


def _status(first: date, cited: Iterable[date]) -> Status:
    return Status.NEW if all(d == first for d in cited) else Status.CONTINUED


def merge(reg: Registry, briefings: Iterable[Briefing], today: date) -> MergeResult:
    result = MergeResult(reg.path)
    known = reg.by_cited_key()
    for b in briefings:
        groups: dict[str, list[Citation]] = {}
        for c in b.citations:
            if isinstance(c.key, ArxivId) and is_future(c.key, today):
                result.invalid.append(InvalidCitation(
                    c.raw, c.path, c.line,
                    f"{c.key.yymm} is later than today ({today:%Y-%m}): arXiv has not issued it"))
                continue
            groups.setdefault(c.key.key, []).append(c)
        result.invalid.extend(b.invalid)
        for key, cites in groups.items():
            _merge_one(result, known, b, key, cites)
    return result


def _merge_one(result: MergeResult, known: dict[str, Anchor], b: Briefing, key: str,
               cites: list[Citation]) -> None:
    primaries = [c for c in cites if c.primary]
    lead = (primaries or cites)[0]
    if len(primaries) > 1:
        result.duplicates.append(Duplicate(lead.raw, b.path, tuple(c.line for c in primaries)))
    ordered = primaries + cites
    written = next((c.written_title for c in ordered if c.written_title), None)
    # an inferred (heading) title may fill an empty field, but never conflicts with anything
    title = written or next((c.title for c in ordered if c.title), None)
    inferred = written is None and title is not None
    section = next((c.section for c in ordered if c.section), None)
    _briefing_conflicts(result, b, lead.raw, cites, written, section)
    claims = [c.claimed_date for c in cites if c.claimed_date]
    first = min([b.date, *claims])
    if isinstance(lead.key, ArxivId) and (lead.key.year, lead.key.month) > (b.date.year, b.date.month):
        result.later.append((lead.raw, b.path, lead.line))
    _continuity(result, known, key, cites)
    entry = result.entries.get(key)
    if entry is None:
        existing = known.get(key)
        if existing is not None:
            entry = Entry(lead.key, existing.raw_id, existing.first_anchored or first,
                          list(existing.cited_in), existing.status or Status.NEW, existing.title,
                          existing.section, existing.version, existing, existing.title_inferred)
            result.continued.append(key)  # once per key: a list look-up here was quadratic
        else:
            entry = Entry(lead.key, cited_id(lead), first, [], Status.NEW, title, section,
                          getattr(lead.key, "version", None), title_inferred=inferred)
            result.added.append(key)
        result.entries[key] = entry
    _registry_conflicts(result, entry, lead, written, section)
    entry.first_anchored = min(entry.first_anchored, first)
    if b.date not in entry.cited_in:
        entry.cited_in.append(b.date)
    entry.cited_in.sort()
    if not entry.title and title:
        entry.title, entry.title_inferred = title, inferred
    entry.section = entry.section or section
    derived = _status(entry.first_anchored, entry.cited_in)
    # A person may have marked an entry continued by hand; merging never turns it back to new.
    if entry.existing is None or derived is Status.CONTINUED:
        entry.status = derived


def _continuity(result: MergeResult, known: dict[str, Anchor], key: str,
                cites: list[Citation]) -> None:
    """Record the first continuity claim in `cites` that the registry (so far) does not back."""
    held = result.entries.get(key)
    existing = known.get(key)
    first = held.first_anchored if held else existing.first_anchored if existing else None
    for c in cites:
        gap = continuity_gap(c.raw, c.path, c.line, c.claim, c.claimed_date, first,
                             held is not None or existing is not None)
        if gap is not None:
            result.unbacked.append(gap)
            return


def _briefing_conflicts(result: MergeResult, b: Briefing, label: str, cites: list[Citation],
                        title: str | None, section: str | None) -> None:
    """Mentions that disagree; `title` is the first *written* title (None if all inferred)."""
    seen: set[tuple[str, str]] = set()
    for c in cites:
        for name, kept, other in (("title", title, c.written_title),
                                  ("section", section, c.section)):
            if not kept or not other or (name, other) in seen:
                continue
            differs = not same_title(other, kept) if name == "title" else other != kept
            if differs:
                seen.add((name, other))
                result.conflicts.append(Conflict(label, b.path, c.line, name, kept, other,
                                                 "briefing"))


def _registry_conflicts(result: MergeResult, entry: Entry, lead: Citation, title: str | None,
                        section: str | None) -> None:
    """The briefing against the registry; `title` is None unless written for the citation."""
    a = entry.existing
    if a is None:
        return
    if a.title and not a.title_inferred and title and not same_title(title, a.title):
        result.conflicts.append(Conflict(a.label, lead.path, lead.line, "title", a.title, title,
                                         "registry"))
    if a.section and section and section != a.section:
        result.conflicts.append(Conflict(a.label, lead.path, lead.line, "section", a.section,
                                         section, "registry"))


def add(registry_path: str | Path, briefings: list[Briefing], today: date,
        dry_run: bool = False, on_wait: Callable[[str], None] | None = None) -> MergeResult:
    """Load, merge and (unless `dry_run`) save, all under the registry's lock.

    A registry with schema problems is refused untouched: splicing into an entry whose shape
    was not understood could corrupt it. A dry run takes no lock, so it creates no file at all
    (a write is an atomic rename, so reading without the lock sees the old or the new file).
    """
    import contextlib

    from .registry import store

    with contextlib.nullcontext() if dry_run else store.locked(registry_path, on_wait), \
            gc_paused():  # all under the lock: linear, not slowed by the collector
        reg = load(registry_path, missing_ok=True)
        if reg.unsafe:
            p = reg.unsafe[0]
            n = len(reg.unsafe) - 1
            more = f" (and {n} more problem{'s' if n > 1 else ''})" if n else ""
            raise RegistryError(reg.path, f"{p.message}{more}; fix it before adding", p.line)
        result = merge(reg, briefings, today)
        result.new_file = not reg.exists
        if not dry_run and result.changes:
            store.save(reg, result.changes)
            result.written = True
    return result
