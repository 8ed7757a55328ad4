"""`anchors export`: the registry's anchors as a bibliography, per section of the living document.

Pure and offline: metadata comes from the registry and the check cache (whatever its age; an
export is not a verdict), so exporting never touches the network. `--refresh` re-resolves the
anchors first through the ordinary check path (`check.session.refresh`), which refills the
cache.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Any, assert_never

from .check.cache import Cache
from .check.samework import pairs
from .history.facts import facts_from_json
from .ids.citekeys import cite_keys
from .ids.model import AnchorKey, AnchorKind, ArxivId, Doi
from .registry.model import Anchor, Registry, Status
from .sections import key as section_key
from .sections import name as section_name
from .sections import number, section_order

if TYPE_CHECKING:
    from .check.session import Hooks
    from .config import Settings

__all__ = [
    "ExportFormat",
    "ExportItem",
    "bibtex_keys",
    "collect",
    "export",
    "filter_items",
    "select",
]


class ExportFormat(str, Enum):
    MARKDOWN = "markdown"
    BIBTEX = "bibtex"
    CSL_JSON = "csl-json"


@dataclass(frozen=True, slots=True)
class ExportItem:
    """One anchor with what is known about it; `meta` is the cached resolution (may be {})."""

    key: str
    cite_key: str
    kind: str
    anchor: str
    url: str
    #: the bibliographic title: the resolved one, else one a briefing wrote (never a heading's)
    title: str | None
    authors: tuple[str, ...]
    published: str | None
    #: a DOI's journal or proceedings, with its volume, issue and pages (Crossref's)
    container: str | None
    doi: str | None
    arxiv_id: str | None
    version: int | None
    first_anchored: date | None
    status: str | None
    section: str | None
    cited_in: tuple[date, ...]
    archived: tuple[str, str] | None = None
    meta: dict[str, Any] = field(default_factory=dict)
    #: the registry line of the entry
    line: int = 0
    #: (the key this entry would have had, the line of the entry that has it), when two met
    clash: tuple[str, int] | None = None
    #: arXiv's journal reference, as the authors wrote it (free text, not a container title)
    journal_ref: str | None = None
    volume: str | None = None
    issue: str | None = None
    pages: str | None = None
    #: what the DOI's agency says the work is, in CSL's words (`article-journal`,
    #: `paper-conference`...); None when unknown
    work_type: str | None = None
    #: why `check` last found it gone (`dead-link`, `not-found`), for the warning export gives
    gone: str | None = None
    #: the arXiv ID of this published work's preprint, when both are registered (`same-work`)
    eprint: str | None = None

    @property
    def year(self) -> str | None:
        return self.published[:4] if self.published else None


def bibtex_keys(anchors: list[Anchor]) -> list[str]:
    """Each entry's citation key (`ids.citekeys`), given over the entries of the whole registry
    in its order, so an export of one section and of all agree. The identifier is the one the
    briefings cited (`cited_url`), so a `\\cite{}` survives `fix` moving the entry to another
    host, path or repository owner."""
    cited = []
    for a in anchors:
        k = a.cited_key
        assert k is not None  # an entry with a key has a cited key
        cited.append(k)
    return cite_keys(cited)


def _unique(items: list[ExportItem]) -> list[ExportItem]:
    """Every key once, nothing dropped. Distinct identifiers have distinct keys except where an
    8-hex hash repeats (two web pages of one host, about 1 in 4 billion per pair) or two entries
    claim one cited identifier (a moved entry and one for its old URL); the later entry then
    also carries 16 hex of its own anchor key's SHA-1, and `clash` says so."""
    taken = {it.cite_key for it in items}
    holder: dict[str, ExportItem] = {}
    out = []
    for it in items:
        first = holder.get(it.cite_key)
        if first is not None:
            digest = hashlib.sha1(it.key.encode("utf-8")).hexdigest()
            key = next(k for n in (16, 40) if (k := f"{it.cite_key}-{digest[:n]}") not in taken)
            taken.add(key)
            it = replace(it, cite_key=key, clash=(it.cite_key, first.line))
        holder.setdefault(it.cite_key, it)
        out.append(it)
    return out


def _url(a: Anchor) -> str:
    k = a.key
    if k is None:
        return a.raw_id
    match k.kind:
        case AnchorKind.ARXIV:
            return f"https://arxiv.org/abs/{k.canonical}" + (f"v{a.version}" if a.version else "")
        case AnchorKind.DOI:
            return k.url  # hex-encoded as the DOI Handbook says (`#` is `%23`)
        case AnchorKind.GITHUB | AnchorKind.URL:  # the page the briefing pointed at
            return a.written_url or k.url
        case _:
            assert_never(k)


def _names(authors: Any) -> tuple[str, ...]:
    """The cached author names that are names: a blank one (or a hand-edited non-string) would
    be an empty author in every format."""
    return tuple(n for n in authors or () if isinstance(n, str) and n.strip())


def _text(v: Any) -> str | None:
    """A cached value as text, where it is text or a number (a hand-edited cache is untrusted)."""
    if isinstance(v, bool) or not isinstance(v, (str, int)):
        return None
    return str(v).strip() or None


def _item(a: Anchor, cite: str, meta: dict[str, Any]) -> ExportItem:
    assert a.key is not None
    k = a.key
    archived = a.archived
    venue = _text(meta.get("journal_ref"))
    return ExportItem(
        key=k.key,
        cite_key=cite,
        kind=k.kind.value,
        anchor=a.raw_id,
        url=_url(a),
        # the resolved title is the work's; a title written for the citation comes next; a
        # heading's is the briefing's (two pages under one heading would get one title)
        title=_text(meta.get("title")) or (None if a.title_inferred else a.title),
        authors=_names(meta.get("authors")),
        published=meta.get("published"),
        container=venue if k.kind is AnchorKind.DOI else None,
        journal_ref=venue if k.kind is AnchorKind.ARXIV else None,
        volume=_text(meta.get("volume")),
        issue=_text(meta.get("issue")),
        pages=_text(meta.get("page")),
        work_type=_text(meta.get("work_type")),
        doi=k.doi if k.kind is AnchorKind.DOI else meta.get("doi"),
        arxiv_id=k.canonical if k.kind is AnchorKind.ARXIV else None,
        version=a.version or (meta.get("version") if k.kind is AnchorKind.ARXIV else None),
        first_anchored=a.first_anchored,
        status=a.status.value if a.status else None,
        section=a.section,
        cited_in=tuple(a.cited_in),
        archived=(archived["url"], archived["date"]) if archived else None,
        meta=meta,
        line=a.line,
    )


def collect(reg: Registry, cache: Cache | None = None) -> list[ExportItem]:
    """Every valid anchor (first entry per key), in living-document order of sections."""
    entries = reg.by_key()
    cites = bibtex_keys(list(entries.values()))
    items = _unique(
        [
            _item(a, cite, (cache.get(key) if cache else None) or {})
            for (key, a), cite in zip(entries.items(), cites, strict=True)
        ]
    )
    items = _same_work(items, {k: a.key for k, a in entries.items() if a.key is not None})
    order = {key: i for i, key in enumerate(entries)}
    # a registry has a few dozen sections: each one's place is worked out once
    places = {s: section_order(s) for s in {it.section for it in items}}
    items.sort(key=lambda it: (places[it.section], order[it.key]))
    return items


def _same_work(items: list[ExportItem], keys: dict[str, AnchorKey]) -> list[ExportItem]:
    """A preprint and its published version, both registered, keep their own entries (documents
    cite both keys), each naming the other: the published one its arXiv ID (`eprint`), the
    preprint its published DOI (`doi`, as arXiv itself gives it)."""
    # only an arXiv ID's facts (its DOI) and a DOI's (its preprints) can pair two entries
    facts = {
        it.key: facts_from_json(kind, it.meta)
        for it in items
        if it.meta and (kind := keys[it.key].kind) in (AnchorKind.ARXIV, AnchorKind.DOI)
    }
    found = {s.preprint: s.published for s in pairs(keys, facts)}
    preprint_of = {v: k for k, v in found.items()}
    out = []
    for it in items:
        if it.key in preprint_of:
            pre = keys[preprint_of[it.key]]
            it = replace(it, eprint=pre.canonical if isinstance(pre, ArxivId) else None)
        elif it.key in found and not it.doi:
            pub = keys[found[it.key]]
            it = replace(it, doi=pub.doi if isinstance(pub, Doi) else None)
        out.append(it)
    return out


def _section_matches(wanted: str, section: str | None) -> bool:
    """A bare number (`§1.3`, `§ 1.3`, `§１.３`) matches every section of that number, whatever
    its name, and not `§1.30`; a full name (`§1.3 KV Cache`) matches that section however
    spelt; a name without a number matches itself and the names it begins (`sections`)."""
    if section is None:
        return False
    nums = number(wanted)
    if nums is not None and not section_name(wanted):
        return number(section) == nums
    w, s = section_key(wanted), section_key(section)
    return s == w or (nums is None and s.startswith(w + " "))


def _within(d: date, today: date, since: float) -> bool:
    """`d` is one of the days in the `since` seconds up to and including `today`: `7d` is today
    and the six days before it (not eight calendar days), and a day after `today` is not."""
    return d <= today and (today - d).days * 86400 < since


def filter_items(
    items: list[ExportItem],
    *,
    section: str | None = None,
    since: float | None = None,
    status: Status | None = None,
    today: date | None = None,
) -> list[ExportItem]:
    """The subset asked for: one section, cited within `since` seconds of `today`, a status."""
    out = items
    if section is not None:
        out = [i for i in out if _section_matches(section, i.section)]
    if since is not None:
        day = today or date.today()
        out = [
            i
            for i in out
            if any(
                _within(d, day, since) for d in (i.cited_in or (i.first_anchored,)) if d is not None
            )
        ]
    if status is not None:
        out = [i for i in out if i.status == status.value]
    return out


def select(
    registry: Path,
    cache_path: Path | None,
    *,
    section: str | None = None,
    since: float | None = None,
    status: str | None = None,
    today: date | None = None,
) -> list[ExportItem]:
    """Load the registry (refusing an unreadable one) and the cache; pick the items asked for."""
    from .errors import UsageError
    from .registry.loader import gc_paused, load

    want = None
    if status is not None:
        try:
            want = Status(status)
        except ValueError:
            raise UsageError(f"--status {status!r} is not a status (new or continued)") from None
    reg = load(registry, stream_ok=True)  # export writes nothing: `-` and pipes are read
    # many small objects and no cycles: each pass of the collector would walk them all
    with gc_paused():
        cache = Cache(cache_path, ttls=_FOREVER) if cache_path is not None else None
        items = collect(reg, cache)
    return filter_items(items, section=section, since=since, status=want, today=today)


def export(
    registry: Path,
    settings: Settings,
    *,
    today: date,
    refresh: bool = False,
    hooks: Hooks | None = None,
    section: str | None = None,
    since: float | None = None,
    status: str | None = None,
) -> list[ExportItem]:
    """`anchors export`: the items asked for, with the cache the settings place beside the
    registry; `refresh` first re-resolves every ID anchor online, refilling that cache."""
    if refresh:
        from .check.session import Hooks
        from .check.session import refresh as refresh_cache

        refresh_cache(registry, settings, today, hooks or Hooks())
    items = select(
        registry,
        settings.cache_path(registry),
        section=section,
        since=since,
        status=status,
        today=today,
    )
    return _gone(items, settings.history_path(registry), registry)


def _gone(items: list[ExportItem], history: Path, registry: Path) -> list[ExportItem]:
    """The items, each the latest check found gone (a dead link, an ID that does not exist)
    marked with why, so `export` can warn instead of citing it silently. No history, or one
    that cannot be read, marks nothing: an export is not a check."""
    from .errors import AnchorsError
    from .findings import Outcome
    from .history import History
    from .history.observation import NEUTRAL

    if not items or not history.is_file():
        return items
    latest: dict[str, tuple[str, float]] = {}
    try:
        h = History.read_only(history)
        try:
            for obs in h.rows(until=float("inf"), registry=registry):
                if obs.outcome in NEUTRAL:
                    continue
                dead = obs.outcome is Outcome.DEAD
                why = obs.error or obs.outcome.value
                latest[obs.key.key] = (why, obs.checked_at) if dead else ("", 0.0)
        finally:
            h.close()
    except AnchorsError:
        return items
    out = []
    for it in items:
        why, at = latest.get(it.key, ("", 0.0))
        if why:
            day = datetime.fromtimestamp(at, UTC).date().isoformat()
            it = replace(it, gone=f"{why}, {day}")
        out.append(it)
    return out


#: an export uses cached metadata of any age: a title or author list does not expire
_FOREVER = {k.value: float("inf") for k in AnchorKind}
