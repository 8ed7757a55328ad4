"""The registry and the check cache as export items: citation keys, metadata, same-work links.

Every valid anchor (the first entry per key) becomes one item in living-document order of
sections; its citation key is the registry's (`bibtex_keys`), made unique where two meet.
"""

from __future__ import annotations

import hashlib
from dataclasses import replace
from typing import TYPE_CHECKING, assert_never

from ..history.facts import facts_from_json
from ..history.samework import pairs
from ..ids.citekeys import cite_keys
from ..ids.model import AnchorKey, AnchorKind, ArxivId, Doi
from ..sections import section_order
from .item import ExportItem

if TYPE_CHECKING:
    from ..net.cache import Cache
    from ..registry.model import Anchor, Registry

__all__ = ["bibtex_keys", "collect"]


def bibtex_keys(anchors: list[Anchor]) -> list[str]:
    """Each entry's citation key (`ids.citekeys`), given over the entries of the whole registry
    in its order, so an export of one section and of all agree. The identifier is the one the
    briefings cited (`cited_url`), so a `\\cite{}` survives `fix` moving the entry to another
    host, path or repository owner."""
    cited = []
    for anchor in anchors:
        key = anchor.cited_key
        assert key is not None  # an entry with a key has a cited key
        cited.append(key)
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


def _url(anchor: Anchor) -> str:
    key = anchor.key
    if key is None:
        return anchor.raw_id
    match key.kind:
        case AnchorKind.ARXIV:
            return f"https://arxiv.org/abs/{key.canonical}" + (
                f"v{anchor.version}" if anchor.version else ""
            )
        case AnchorKind.DOI:
            return key.url  # hex-encoded as the DOI Handbook says (`#` is `%23`)
        case AnchorKind.GITHUB | AnchorKind.URL:  # the page the briefing pointed at
            return anchor.written_url or key.url
        case _:
            assert_never(key)


def _names(authors: object) -> tuple[str, ...]:
    """The cached author names that are names: a blank one (or a hand-edited non-string) would
    be an empty author in every format."""
    if not isinstance(authors, (list, tuple)):
        return ()
    return tuple(n for n in authors if isinstance(n, str) and n.strip())


def _text(value: object) -> str | None:
    """A cached value as text, where it is text or a number (a hand-edited cache is untrusted)."""
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        return None
    return str(value).strip() or None


def _string(value: object) -> str | None:
    """A cached value that is a string, else None (a hand-edited cache is untrusted)."""
    return value if isinstance(value, str) else None


def _count(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _item(anchor: Anchor, cite: str, meta: dict[str, object]) -> ExportItem:
    assert anchor.key is not None
    key = anchor.key
    archived = anchor.archived
    venue = _text(meta.get("journal_ref"))
    return ExportItem(
        key=key.key,
        cite_key=cite,
        kind=key.kind.value,
        anchor=anchor.raw_id,
        url=_url(anchor),
        # the resolved title is the work's; a title written for the citation comes next; a
        # heading's is the briefing's (two pages under one heading would get one title)
        title=_text(meta.get("title")) or anchor.work_title,
        authors=_names(meta.get("authors")),
        published=_string(meta.get("published")),
        container=venue if key.kind is AnchorKind.DOI else None,
        journal_ref=venue if key.kind is AnchorKind.ARXIV else None,
        volume=_text(meta.get("volume")),
        issue=_text(meta.get("issue")),
        pages=_text(meta.get("page")),
        work_type=_text(meta.get("work_type")),
        doi=key.doi if key.kind is AnchorKind.DOI else _string(meta.get("doi")),
        arxiv_id=key.canonical if key.kind is AnchorKind.ARXIV else None,
        version=anchor.version
        or (_count(meta.get("version")) if key.kind is AnchorKind.ARXIV else None),
        first_anchored=anchor.first_anchored,
        status=anchor.status.value if anchor.status else None,
        section=anchor.section,
        cited_in=tuple(anchor.cited_in),
        archived=(archived["url"], archived["date"]) if archived else None,
        meta=meta,
        line=anchor.line,
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
