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
        record = self.record
        return f"{record.path}:{record.line}" if record.path and record.line else record.path


@dataclass(slots=True)
class ClaimsChecked:
    """What the step found: a record per claim, the warnings, and what the history keeps."""

    checks: list[ClaimCheck] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    seen: list[ClaimSeen] = field(default_factory=list)


def _parsed(anchor: Anchor, record: Claims) -> _Claim | None:
    """The record as a figure or quote; None for one that writes no figure (edited by hand)."""
    if record.quote is not None:
        return _Claim(anchor, record, Quote(record.quote), ClaimKind.QUOTE)
    found = figures_in(record.figure or "")
    exact = [f for f in found if f.text == record.figure] or found
    return _Claim(anchor, record, exact[0], ClaimKind.FIGURE) if exact else None


def _readable(anchor: Anchor) -> bool:
    return isinstance(anchor.key, ArxivId | GithubRef)


@dataclass(slots=True)
class _Collected:
    line: list[_Claim] = field(default_factory=list)
    #: a block's claim by (where written, what, words): one record per source of the block
    blocks: dict[tuple[str, str, str], list[_Claim]] = field(default_factory=dict)
    #: an anchor whose source is not read: its claims
    unread: dict[str, list[_Claim]] = field(default_factory=dict)


def _collect(targets: Mapping[str, Anchor]) -> _Collected:
    out = _Collected()
    for anchor in targets.values():
        if anchor.file is not None or anchor.key is None:
            continue  # a living document's citation keeps no claims
        for record in anchor.claims:
            claim = _parsed(anchor, record) if record.attributed else None
            if claim is None:
                continue
            if not _readable(anchor):
                out.unread.setdefault(claim.key, []).append(claim)
            elif claim.by is Attribution.BLOCK and claim.at:
                out.blocks.setdefault((claim.at, claim.what.value, claim.words), []).append(claim)
            else:
                out.line.append(claim)
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
    verdict = judge(claim, source)
    return verdict.kind is VerdictKind.SUPPORTED or verdict.reason in _SETTLED


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
    claims = [*got.line, *(claim for group in got.blocks.values() for claim in group)]
    for claim in claims:
        if isinstance(claim.anchor.key, ArxivId) and claim.key not in texts.abstracts:
            texts.abstracts[claim.key] = sources.abstract(claim.anchor, resolutions.get(claim.key))
        elif isinstance(claim.anchor.key, GithubRef) and claim.key not in texts.full:
            texts.full[claim.key] = await sources.thread(claim.anchor, resolutions.get(claim.key))
    for claim in _needing_full_text(got, texts):
        if claim.key not in texts.full:
            texts.full[claim.key] = await sources.paper(claim.anchor, resolutions.get(claim.key))
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
    for claim in got.line:
        if claim.ckey not in memo:
            memo[claim.ckey] = verdict = _line_verdict(claim, texts, before.get(claim.ckey))
            assert claim.anchor.key is not None
            seen = ClaimSeen(
                claim.anchor.key, claim.ckey, verdict.kind, claim.what, claim.words, claim.at
            )
            support = support_of(verdict, today.isoformat())
            out.seen.append(replace(seen, message=verdict.message, support=support))
        out.checks.append(_check(registry, claim, memo[claim.ckey], places))
    for group in got.blocks.values():
        holder, verdict = _block_verdict(group, texts)
        sources = tuple(claim.anchor.label for claim in group)
        out.checks.append(_check(registry, holder, verdict, places, sources))
    for claims in got.unread.values():
        out.checks.append(_unread(registry, claims))
    out.checks.sort(key=_order)
    out.findings = [finding_of(claim) for claim in out.checks if claim.warning]
    return out


def _order(check: ClaimCheck) -> tuple[str, int, str, int]:
    """Registry order, then where each briefing wrote it (line 9 before line 10)."""
    return (check.file, check.line, check.at.rpartition(":")[0], check.briefing_line or 0)


def _line_verdict(claim: _Claim, texts: _Texts, was: Support | None) -> Verdict:
    """Found in the abstract, or judged on all that was read (and told from drift)."""
    abstract = texts.abstracts.get(claim.key)
    if abstract is not None and _found(claim.claim, abstract):
        return judge(claim.claim, abstract)
    source = texts.best(claim.key) or SourceText((), "nothing", ("nothing of it was read",))
    return recheck(judge(claim.claim, source), was, source)


def _block_verdict(group: Sequence[_Claim], texts: _Texts) -> tuple[_Claim, Verdict]:
    read = [(claim, s) for claim in group if (s := texts.best(claim.key)) is not None]
    for claim, source in read:
        verdict = judge(claim.claim, source, Attribution.BLOCK)
        if verdict.kind is VerdictKind.SUPPORTED:
            return claim, verdict
    return group[0], judge_block(group[0].claim, [s for _, s in read])


def _check(
    registry: str,
    claim: _Claim,
    verdict: Verdict,
    places: dict[str, Place | None],
    sources: tuple[str, ...] = (),
) -> ClaimCheck:
    record = claim.record
    return ClaimCheck(
        claim.anchor.label, claim.key, registry, claim.anchor.line, verdict, claim.by,
        record.said_on, claim.at, place_of(claim.at, registry, places), sources,
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
    anchor = first.anchor
    return ClaimCheck(anchor.label, first.key, registry, anchor.line, verdict, claims=words)
