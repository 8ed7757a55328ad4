"""`anchors fix`: apply what the latest check learnt to the registry, as a reviewable diff.

The facts come from the history (the latest observation of each target): permanent redirects,
renamed or transferred repositories, moved issues, and Wayback snapshots found by
`check --archive`. Only a chain of permanent redirects (301/308) is ever applied; the link
checker reports nothing else as a redirect. A redirect that lands on a login page or a site's
home page is a soft 404 (the page is gone), never a new address.

A moved entry keeps the URL its briefings cited as `cited_url` (the first one, if it moves
again): the registry stays the one source of truth, reviewed in git, and `add` still continues
the entry when a briefing cites the old URL. Writing goes through the splice writer under the
registry's lock, like `add`: comments and untouched lines stay byte-identical.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path

from .config import Settings
from .document import LivingDocument, read_documents, renumberings
from .errors import RegistryError, UsageError
from .history import History, Observation, Snapshot, move_of
from .ids import parse_anchor
from .ids.landing import landing_url, soft_404
from .ids.model import InvalidId
from .registry import store
from .registry.loader import load
from .registry.model import Anchor, Registry
from .registry.patch import unified_diff
from .registry.scalars import like, quote, url_value
from .registry.splice import set_fields, splice

__all__ = ["Fix", "FixKind", "FixResult", "fix", "fix_registry", "parse_kinds", "plan"]


class FixKind(str, Enum):
    """What a fix does: each kind of move (`history.MoveKind`, by value), or a snapshot."""

    REDIRECT = "redirect"
    RENAMED_REPO = "renamed-repo"
    MOVED_ISSUE = "moved-issue"
    ARCHIVE = "archive"
    #: an entry's `section` after the living document was renumbered (`--document`)
    SECTION = "section"


def parse_kinds(value: str | None) -> frozenset[FixKind] | None:
    """`--only redirect,archive`: the kinds asked for; None (every kind) when not given."""
    if not value:
        return None
    try:
        return frozenset(FixKind(k.strip()) for k in value.split(","))
    except ValueError:
        raise UsageError(
            f"--only {value!r}: choose from {', '.join(k.value for k in FixKind)}"
        ) from None


@dataclass(frozen=True, slots=True)
class Fix:
    kind: FixKind
    #: the entry's position in `Registry.anchors`: what the edit is keyed on, since two flow
    #: entries (`anchors: [{...}, {...}]`) can share a line
    entry: int
    anchor: str
    line: int
    old: str | None
    new: str
    #: the snapshot's date (YYYY-MM-DD), for ARCHIVE
    date: str | None = None


@dataclass(slots=True)
class FixResult:
    registry: str
    fixes: list[Fix] = field(default_factory=list)
    #: redirects not applied, with why (soft 404s)
    skipped: list[tuple[str, int, str, str]] = field(default_factory=list)
    diff: str = ""
    written: bool = False


def _latest(rows: Iterable[Observation]) -> dict[str, Observation]:
    """The latest observation of each anchor, by key."""
    out: dict[str, Observation] = {}
    for seen in rows:
        key = seen.key.key
        if key not in out or seen.checked_at >= out[key].checked_at:
            out[key] = seen
    return out


def plan(
    reg: Registry,
    rows: Iterable[Observation],
    only: frozenset[FixKind] | None = None,
    snapshots: Mapping[str, Snapshot] | None = None,
    documents: Sequence[LivingDocument] = (),
) -> FixResult:
    """Which entries to change, from the latest observation of each target (pure).

    `snapshots` are the Wayback snapshots `check --archive` found (the history keeps them), by
    anchor key; `documents`
    the living documents whose renumbered headings the entries' sections follow.
    """
    result = FixResult(reg.path)
    index = reg.by_key()
    position = {id(a): i for i, a in enumerate(reg.anchors)}
    found: list[Fix] = []
    for key, row in _latest(rows).items():
        entry = index.get(key)
        if entry is not None and entry.id_field == "url":
            found += _moves(position[id(entry)], entry, row, result)
    for key, snap in (snapshots or {}).items():
        entry = index.get(key)
        if entry is not None and entry.archived is None:
            at = position[id(entry)]
            found.append(
                Fix(FixKind.ARCHIVE, at, entry.raw_id, entry.line, None, snap.url, snap.date)
            )
    found += _sections(reg, documents, result)
    result.fixes = [f for f in found if only is None or f.kind in only]
    result.fixes.sort(key=lambda f: (f.entry, f.kind.value))
    return result


def _sections(reg: Registry, documents: Sequence[LivingDocument], result: FixResult) -> list[Fix]:
    """An entry whose section a renumbering moved follows it; one whose name now stands under
    several headings is left for a person (a warning says which)."""
    out = []
    for moved in renumberings(reg, documents):
        if moved.total == 1:
            out.append(
                Fix(
                    FixKind.SECTION,
                    moved.entry,
                    moved.anchor.raw_id,
                    moved.anchor.line,
                    moved.old,
                    moved.to[0],
                )
            )
        else:
            why = f"to another section: the name of {moved.old} stands under {moved.total} headings"
            result.skipped.append(
                (moved.anchor.raw_id, moved.anchor.line, ", ".join(moved.to), why)
            )
    return out


def _moves(entry: int, anchor: Anchor, row: Observation, result: FixResult) -> list[Fix]:
    """The entry's new URL when its latest observation says it moved (`move_of`), keeping the
    cited fragment; a move to a login or home page is a soft 404, skipped with why."""
    move = move_of(row)
    new = landing_url(anchor.raw_id, move.to) if move else None
    if move is None or not new or new == anchor.raw_id:
        return []
    why = soft_404(anchor.raw_id, new)
    if why:
        result.skipped.append((anchor.raw_id, anchor.line, new, why))
        return []
    return [Fix(FixKind(move.kind.value), entry, anchor.raw_id, anchor.line, anchor.raw_id, new)]


def _edits(reg: Registry, res: FixResult) -> str:
    edits = []
    for entry in sorted({f.entry for f in res.fixes}):
        anchor = reg.anchors[entry]
        values: dict[str, str] = {}
        for f in (f for f in res.fixes if f.entry == entry):
            if f.kind is FixKind.ARCHIVE:
                values["archived"] = f"{{url: {quote(f.new)}, date: {f.date}}}"
            elif f.kind is FixKind.SECTION:
                values["section"] = like(f.new, anchor.spans["section"].style, anchor.flow)
            else:
                quoted = anchor.flow or anchor.spans["url"].style in ('"', "'")
                values["url"] = quote(f.new) if quoted else url_value(f.new)
                if anchor.cited_url is None:
                    values["cited_url"] = (
                        quote(anchor.raw_id) if quoted else url_value(anchor.raw_id)
                    )
        edits += set_fields(reg, anchor, values)
    return splice(reg, edits)


def _check_moves(reg: Registry, fixes: list[Fix]) -> None:
    """Refuse the run if it would leave two entries naming one anchor.

    The registry after the run is what counts: each moved entry takes the key of its new URL,
    parsed as `add` parses a citation (an arXiv abstract page is the `arxiv:` entry's paper, a
    doi.org URL the `doi:` one's), and no two entries may then share a key, whether the other
    one stays where it is or this run moves it too. Entries that already share a key are
    `check`'s duplicate finding, not a move's doing, so they are left alone.
    """
    moved = {f.entry: f for f in fixes if f.kind not in (FixKind.ARCHIVE, FixKind.SECTION)}
    owner: dict[str, int] = {}
    for i, entry in enumerate(reg.anchors):
        if i not in moved and entry.key is not None:
            owner.setdefault(entry.key.key, i)
    for i, f in sorted(moved.items()):
        try:
            key = parse_anchor(f.new).key
        except InvalidId as exc:
            raise RegistryError(
                reg.path, f"the new URL {f.new} is not usable: {exc.reason}", f.line
            ) from None
        owner_index = owner.setdefault(key, i)
        if owner_index != i:
            other = reg.anchors[owner_index]
            also = ", which this run moves there too" if owner_index in moved else ""
            raise RegistryError(
                reg.path,
                f"moving {f.old} to {f.new} would duplicate the entry "
                f"on line {other.line} ({other.label}{also}); merge the two by "
                "hand",
                f.line,
            )


def fix(
    registry: Path,
    history: Path,
    *,
    dry_run: bool = False,
    only: frozenset[FixKind] | None = None,
    now: float | None = None,
    documents: Sequence[LivingDocument] = (),
    chosen: bool = False,
) -> FixResult:
    """Plan and (unless `dry_run`) write, all under the registry's lock, like `add`. With
    `documents` and no history yet, only the sections are fixed; `chosen`: the user named the
    history's place (`state.untrusted`)."""
    store.writable(registry)
    if only is not None and FixKind.SECTION in only and not documents:
        raise UsageError("--only section: name the living document with --document")
    learnt = only is None or bool(only - {FixKind.SECTION})
    if learnt and not history.exists():
        if not documents:
            raise UsageError(
                f"{history}: no history yet; run `anchors check` online first "
                "(`check --offline` records nothing)"
            )
        learnt = False
    with store.locked(registry):
        reg = load(registry)
        if reg.unsafe:
            problem = reg.unsafe[0]
            raise RegistryError(
                reg.path, f"{problem.message}; fix it before `anchors fix`", problem.line
            )
        if not learnt:
            res = plan(reg, (), only, None, documents)
        else:
            history_file = History.read_only(history, chosen)
            try:
                latest = history_file.latest(time.time() if now is None else now, registry)
                res = plan(reg, latest, only, history_file.snapshots(registry), documents)
            finally:
                history_file.close()
        if not res.fixes:
            return res
        _check_moves(reg, res.fixes)
        text = _edits(reg, res)
        res.diff = unified_diff(reg, text, registry.name)
        if not dry_run:
            store.write(reg, text)
            res.written = True
    return res


def fix_registry(
    registry: Path,
    settings: Settings,
    *,
    dry_run: bool = False,
    only: frozenset[FixKind] | None = None,
) -> FixResult:
    """`anchors fix`: with the history the settings place beside `registry`, and the living
    documents they name (read before the registry is locked)."""
    return fix(
        registry,
        settings.history_path(registry),
        dry_run=dry_run,
        only=only,
        documents=read_documents(settings.document),
        chosen=settings.chose_history,
    )
