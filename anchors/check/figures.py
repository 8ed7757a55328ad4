"""`anchors check`'s figures step: every figure and quote `add` kept with an entry, judged
against the source it is attributed to (issue 35; the rulings page, "Attribution of a figure").

By line, a claim gets every verdict: an arXiv paper's cited version is searched in its
abstract first (no request), and only when the claim is not there in its HTML full text; a
GitHub issue or pull request in its whole thread. By block, a claim is searched in each of its
increment's checkable sources (the entries that keep the same record): `supported` where one
holds it, else `unverifiable`, never a warning. A DOI, a blog or a PDF is not read: one
`unverifiable (source not read)` per anchor. A line claim supported before (its `Support` in
the history) whose passage changed or went is `source-changed` (`figures.drift`). Judging is
CPU work on whole papers, so it runs in a worker thread, off the event loop.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date

from ..figures.checked import ClaimCheck, Place
from ..figures.drift import Support, claim_key, recheck, support_of
from ..figures.model import Attribution, Figure, Quote
from ..figures.parse import figures_in
from ..figures.passages import SourceText
from ..figures.verdict import ClaimKind, Reason, Verdict, VerdictKind, judge, judge_block
from ..findings import Finding
from ..history.claims import ClaimSeen
from ..ids.model import ArxivId, GithubRef
from ..registry.claims import Claims
from ..registry.model import Anchor
from ..resolve.base import Resolution
from .claimfindings import finding_of, place_of
from .claimsources import ClaimSources

__all__ = ["ClaimsChecked", "check_claims"]

#: verdicts the full text cannot change: found, or never checkable against an English paper
_SETTLED = frozenset({Reason.VAGUE, Reason.TRANSLATED})


@dataclass(frozen=True, slots=True)
class _Claim:
    """One figure or quote record of an entry, read back as the figure or quote it writes."""

    anchor: Anchor
    record: Claims
    claim: Figure | Quote
    what: ClaimKind

    @property
    def key(self) -> str:
        assert self.anchor.key is not None
        return self.anchor.key.key

    @property
    def words(self) -> str:
        return self.record.figure if self.record.figure is not None else self.record.quote or ""

    @property
    def by(self) -> Attribution:
        return self.record.by or Attribution.LINE

    @property
    def ckey(self) -> str:
        return claim_key(self.key, self.what, self.words, self.by)

    @property
    def at(self) -> str:
        r = self.record
        return f"{r.path}:{r.line}" if r.path and r.line else r.path


@dataclass(slots=True)
class ClaimsChecked:
    """What the step found: a record per claim, the warnings, and what the history keeps."""

    checks: list[ClaimCheck] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    seen: list[ClaimSeen] = field(default_factory=list)


def _parsed(a: Anchor, record: Claims) -> _Claim | None:
    """The record as a figure or quote; None for one that writes no figure (edited by hand)."""
    if record.quote is not None:
        return _Claim(a, record, Quote(record.quote), ClaimKind.QUOTE)
    found = figures_in(record.figure or "")
    exact = [f for f in found if f.text == record.figure] or found
    return _Claim(a, record, exact[0], ClaimKind.FIGURE) if exact else None


def _readable(a: Anchor) -> bool:
    return isinstance(a.key, ArxivId | GithubRef)


@dataclass(slots=True)
class _Collected:
    line: list[_Claim] = field(default_factory=list)
    #: a block's claim by (where written, what, words): one record per source of the block
    blocks: dict[tuple[str, str, str], list[_Claim]] = field(default_factory=dict)
    #: an anchor whose source is not read: its claims
    unread: dict[str, list[_Claim]] = field(default_factory=dict)


def _collect(targets: Mapping[str, Anchor]) -> _Collected:
    out = _Collected()
    for a in targets.values():
        if a.file is not None or a.key is None:
            continue  # a living document's citation keeps no claims
        for record in a.claims:
            c = _parsed(a, record) if record.attributed else None
            if c is None:
                continue
            if not _readable(a):
                out.unread.setdefault(c.key, []).append(c)
            elif c.by is Attribution.BLOCK and c.at:
                out.blocks.setdefault((c.at, c.what.value, c.words), []).append(c)
            else:
                out.line.append(c)
    return out


@dataclass(slots=True)
class _Texts:
    """What was read for this run's claims, by anchor key."""

    abstracts: dict[str, SourceText | None] = field(default_factory=dict)
    full: dict[str, SourceText] = field(default_factory=dict)

    def best(self, key: str) -> SourceText | None:
        return self.full.get(key) or self.abstracts.get(key)


def _found(claim: Figure | Quote, source: SourceText | None) -> bool:
    """Whether `source` settles the claim: it holds it, or no full text could change that."""
    if source is None or not source.passages:
        return False
    v = judge(claim, source)
    return v.kind is VerdictKind.SUPPORTED or v.reason in _SETTLED


async def check_claims(
    registry: str,
    targets: Mapping[str, Anchor],
    resolutions: Mapping[str, Resolution],
    sources: ClaimSources,
    before: Mapping[str, Support],
    today: date,
) -> ClaimsChecked:
    """Every figure and quote of the `targets`' entries, judged; `before` are the supports
    earlier checks kept (by claim key)."""
    got = _collect(targets)
    if not (got.line or got.blocks or got.unread):
        return ClaimsChecked()
    texts = _Texts()
    claims = [*got.line, *(c for group in got.blocks.values() for c in group)]
    for c in claims:
        if isinstance(c.anchor.key, ArxivId) and c.key not in texts.abstracts:
            texts.abstracts[c.key] = sources.abstract(c.anchor, resolutions.get(c.key))
        elif isinstance(c.anchor.key, GithubRef) and c.key not in texts.full:
            texts.full[c.key] = await sources.thread(c.anchor, resolutions.get(c.key))
    for c in _needing_full_text(got, texts):
        if c.key not in texts.full:
            texts.full[c.key] = await sources.paper(c.anchor, resolutions.get(c.key))
    return await asyncio.to_thread(_judged, registry, got, texts, before, today)


def _needing_full_text(got: _Collected, texts: _Texts) -> list[_Claim]:
    """The arXiv claims whose abstract does not settle them (a block's only when none of its
    sources' abstracts or threads holds it)."""
    out = [
        c
        for c in got.line
        if isinstance(c.anchor.key, ArxivId) and not _found(c.claim, texts.abstracts[c.key])
    ]
    for group in got.blocks.values():
        if not any(_found(c.claim, texts.best(c.key)) for c in group):
            out += [c for c in group if isinstance(c.anchor.key, ArxivId)]
    return out


def _judged(
    registry: str,
    got: _Collected,
    texts: _Texts,
    before: Mapping[str, Support],
    today: date,
) -> ClaimsChecked:
    out = ClaimsChecked()
    places: dict[str, Place | None] = {}
    memo: dict[str, Verdict] = {}  # one claim in two briefings: judged and kept once
    for c in got.line:
        if c.ckey not in memo:
            memo[c.ckey] = verdict = _line_verdict(c, texts, before.get(c.ckey))
            assert c.anchor.key is not None
            seen = ClaimSeen(c.anchor.key, c.ckey, verdict.kind, c.what, c.words, c.at)
            support = support_of(verdict, today.isoformat())
            out.seen.append(replace(seen, message=verdict.message, support=support))
        out.checks.append(_check(registry, c, memo[c.ckey], places))
    for group in got.blocks.values():
        holder, verdict = _block_verdict(group, texts)
        sources = tuple(c.anchor.label for c in group)
        out.checks.append(_check(registry, holder, verdict, places, sources))
    for claims in got.unread.values():
        out.checks.append(_unread(registry, claims))
    out.checks.sort(key=_order)
    out.findings = [finding_of(c) for c in out.checks if c.warning]
    return out


def _order(c: ClaimCheck) -> tuple[str, int, str, int]:
    """Registry order, then where each briefing wrote it (line 9 before line 10)."""
    return (c.file, c.line, c.at.rpartition(":")[0], c.briefing_line or 0)


def _line_verdict(c: _Claim, texts: _Texts, was: Support | None) -> Verdict:
    """Found in the abstract, or judged on all that was read (and told from drift)."""
    abstract = texts.abstracts.get(c.key)
    if abstract is not None and _found(c.claim, abstract):
        return judge(c.claim, abstract)
    source = texts.best(c.key) or SourceText((), "nothing", ("nothing of it was read",))
    return recheck(judge(c.claim, source), was, source)


def _block_verdict(group: Sequence[_Claim], texts: _Texts) -> tuple[_Claim, Verdict]:
    read = [(c, s) for c in group if (s := texts.best(c.key)) is not None]
    for c, source in read:
        v = judge(c.claim, source, Attribution.BLOCK)
        if v.kind is VerdictKind.SUPPORTED:
            return c, v
    return group[0], judge_block(group[0].claim, [s for _, s in read])


def _check(
    registry: str,
    c: _Claim,
    verdict: Verdict,
    places: dict[str, Place | None],
    sources: tuple[str, ...] = (),
) -> ClaimCheck:
    r = c.record
    return ClaimCheck(
        c.anchor.label, c.key, registry, c.anchor.line, verdict, c.by, r.said_on, c.at,
        place_of(c.at, registry, places), sources,
    )  # fmt: skip


def _unread(registry: str, claims: Sequence[_Claim]) -> ClaimCheck:
    """One record for an anchor whose source is not read, whatever its number of claims."""
    first = claims[0]
    words = tuple(dict.fromkeys(c.words for c in claims))
    what = first.what if all(c.what is first.what for c in claims) else ClaimKind.FIGURE
    verdict = Verdict(
        VerdictKind.UNVERIFIABLE,
        what,
        "; ".join(words),
        Reason.SOURCE_NOT_READ,
        detail="a DOI, a blog or a PDF is not read for figures in this version",
    )
    a = first.anchor
    return ClaimCheck(a.label, first.key, registry, a.line, verdict, claims=words)
