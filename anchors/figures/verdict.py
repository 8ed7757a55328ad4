"""One verdict per figure or quote, from the source it is attributed to.

`supported` (with the snippet and where), `derived` (info: the pair is shown), `not-found` (a
warning: the whole scope was read, the figure has a known unit class, and no supporting
number, derived value or near miss exists), `unverifiable` with a reason (never a warning),
and `source-changed` (drift.py). A `not-found` must be rare enough to trust: whenever the
evidence is partial the answer is `unverifiable`, and why.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from .model import Attribution, Figure, Quote
from .normal import fold
from .passages import SourceText
from .quotes import SURVIVES, longest_run
from .reading import Found, Read, derived, near, nearest, passage_hash, read, support

__all__ = [
    "ClaimKind",
    "Evidence",
    "Reason",
    "Verdict",
    "VerdictKind",
    "judge",
    "judge_block",
    "unread",
]

#: characters of context on each side of the evidence in a snippet
SNIPPET_CONTEXT = 70


class VerdictKind(str, Enum):
    SUPPORTED = "supported"
    DERIVED = "derived"
    NOT_FOUND = "not-found"
    UNVERIFIABLE = "unverifiable"
    SOURCE_CHANGED = "source-changed"

    @property
    def warning(self) -> bool:
        """The verdicts a check warns about; the others are information."""
        return self in (VerdictKind.NOT_FOUND, VerdictKind.SOURCE_CHANGED)


class Reason(str, Enum):
    """Why a figure or quote is `unverifiable`."""

    VAGUE = "vague"
    TRANSLATED = "translated"
    #: part of the source was not read (a failed or truncated page): its gaps are the detail
    INCOMPLETE = "incomplete"
    #: not in the abstract, and the full text could not be read
    NOT_IN_ABSTRACT = "not-in-abstract"
    #: a number close to it is there: a paraphrase may have rounded it
    NEAR_MISS = "near-miss"
    #: a block's figure found in none of its checkable sources
    BLOCK = "block"
    #: a DOI, blog or PDF: not read in this version
    SOURCE_NOT_READ = "source-not-read"


_REASON_WORDS = {
    Reason.VAGUE: "vague",
    Reason.TRANSLATED: "translated",
    Reason.INCOMPLETE: "source not read whole",
    Reason.NOT_IN_ABSTRACT: "not in the abstract, and no full text",
    Reason.NEAR_MISS: "near miss",
    Reason.BLOCK: "block: not attributed to one source",
    Reason.SOURCE_NOT_READ: "source not read",
}


class ClaimKind(str, Enum):
    FIGURE = "figure"
    QUOTE = "quote"


@dataclass(frozen=True, slots=True)
class Evidence:
    """Where a source says it: a person finds it from `where`; `passage_sha` tells later
    whether that passage changed (drift.py)."""

    where: str
    snippet: str
    #: the source's number(s) as written: `72.7%`; for a derived value the pair
    said: tuple[str, ...]
    passage_sha: str


@dataclass(frozen=True, slots=True)
class Verdict:
    """The answer for one figure or quote: a frozen record any renderer can print."""

    kind: VerdictKind
    what: ClaimKind
    #: the figure or quote as the briefing writes it
    claim: str
    reason: Reason | None = None
    evidence: Evidence | None = None
    #: the same-class numbers nearest to it, as written, each with where (`27.7% (abstract v2)`)
    nearest: tuple[str, ...] = ()
    #: what was read: `abstract v2`, `body + 63 comments`
    scope: str = ""
    #: more words: a source's gaps, what changed
    detail: str = ""

    @property
    def message(self) -> str:
        """One line for a person."""
        head = self.kind.value
        if self.reason is not None:
            head += f" ({_REASON_WORDS[self.reason]})"
        parts = [f"{self.what.value} {self.claim}: {head}"]
        if self.evidence is not None:
            said = " vs ".join(self.evidence.said)
            parts.append(f"{said} in {self.evidence.where}: {self.evidence.snippet}")
        if self.nearest:
            parts.append("nearest: " + ", ".join(self.nearest))
        if self.detail:
            parts.append(self.detail)
        if self.scope and self.kind is VerdictKind.NOT_FOUND:
            parts.append(f"read: {self.scope}")
        return "; ".join(parts)


def unread(claim: str, what: ClaimKind = ClaimKind.FIGURE) -> Verdict:
    """The verdict for a claim on a source this version does not read (DOI, blog, PDF)."""
    return Verdict(VerdictKind.UNVERIFIABLE, what, claim, Reason.SOURCE_NOT_READ)


def snippet(reading: Read, found: Found) -> Evidence:
    starts = [n.start for n in found.numbers]
    ends = [n.end for n in found.numbers]
    said = found.said or tuple(n.text for n in found.numbers)
    return _evidence(reading, min(starts), max(ends), said)


def _evidence(reading: Read, start: int, end: int, said: tuple[str, ...]) -> Evidence:
    text = reading.text
    lo, hi = max(0, start - SNIPPET_CONTEXT), min(len(text), end + SNIPPET_CONTEXT)
    cut = " ".join(text[lo:hi].split())
    cut = ("…" if lo > 0 else "") + cut + ("…" if hi < len(text) else "")
    return Evidence(reading.passage.where, cut, said, passage_hash(reading.passage))


def _gaps(claim: str, what: ClaimKind, source: SourceText) -> Verdict | None:
    """`unverifiable` when the source was not read whole (or nothing of it was read)."""
    if source.passages and source.complete:
        return None
    abstract = all(p.where.startswith("abstract") for p in source.passages)
    reason = Reason.NOT_IN_ABSTRACT if abstract and source.passages else Reason.INCOMPLETE
    detail = "; ".join(source.gaps) or "nothing was read"
    return Verdict(VerdictKind.UNVERIFIABLE, what, claim, reason, scope=source.scope, detail=detail)


def judge(claim: Figure | Quote, source: SourceText, by: Attribution = Attribution.LINE) -> Verdict:
    """The verdict for one figure or quote attributed to `source`."""
    if isinstance(claim, Quote):
        return _judge_quote(claim, source, by)
    what, text = ClaimKind.FIGURE, claim.text
    if not claim.checkable:
        return Verdict(VerdictKind.UNVERIFIABLE, what, text, Reason.VAGUE)
    reads = read(source)
    found = support(claim, reads)
    if found is not None:
        ev = snippet(found.read, found)
        return Verdict(VerdictKind.SUPPORTED, what, text, evidence=ev, scope=source.scope)
    if by is Attribution.BLOCK:
        return Verdict(VerdictKind.UNVERIFIABLE, what, text, Reason.BLOCK, scope=source.scope)
    pair = derived(claim, reads)
    if pair is not None:
        ev = snippet(pair.read, pair)
        return Verdict(VerdictKind.DERIVED, what, text, evidence=ev, scope=source.scope)
    gap = _gaps(text, what, source)
    if gap is not None:
        return gap
    close = [f"{n.text} ({r.passage.where})" for n, r in nearest(claim, reads)]
    if near(claim, reads) is not None:
        return Verdict(
            VerdictKind.UNVERIFIABLE, what, text, Reason.NEAR_MISS, None, tuple(close), source.scope
        )
    return Verdict(VerdictKind.NOT_FOUND, what, text, None, None, tuple(close), source.scope)


def _latin(source: SourceText) -> bool:
    """True when the source is written in Latin script (its first 20,000 letters)."""
    letters = latin = 0
    for passage in source.passages:
        for char in passage.text[:20_000]:
            if char.isalpha():
                letters += 1
                latin += char.isascii()
        if letters >= 20_000:
            break
    return letters > 0 and latin * 2 >= letters


def _judge_quote(quote: Quote, source: SourceText, by: Attribution) -> Verdict:
    what, text = ClaimKind.QUOTE, quote.text
    if not quote.latin and _latin(source):
        return Verdict(VerdictKind.UNVERIFIABLE, what, text, Reason.TRANSLATED)
    reads = read(source)
    index, run = longest_run(text, [reading.text for reading in reads])
    if index >= 0 and run.share >= SURVIVES:
        reading = reads[index]
        ev = _quote_evidence(reading, run.end - run.length, run.end)
        return Verdict(VerdictKind.SUPPORTED, what, text, evidence=ev, scope=source.scope)
    if by is Attribution.BLOCK:
        return Verdict(VerdictKind.UNVERIFIABLE, what, text, Reason.BLOCK, scope=source.scope)
    gap = _gaps(text, what, source)
    if gap is not None:
        return gap
    detail = f"longest run found: {run.share:.0%} of it" if index >= 0 else ""
    return Verdict(VerdictKind.NOT_FOUND, what, text, scope=source.scope, detail=detail)


def _quote_evidence(reading: Read, start: int, end: int) -> Evidence:
    """Evidence for a quote: positions are in the folded text, close enough for a snippet."""
    folded = fold(reading.text)
    inner = Read(reading.passage, folded, ())
    return _evidence(inner, start, end, (folded[start:end],))


def judge_block(claim: Figure | Quote, sources: Sequence[SourceText]) -> Verdict:
    """A block's figure or quote against each of the block's checkable sources: `supported`
    where one holds it, else `unverifiable` — never a warning (it may come from a blog)."""
    last: Verdict | None = None
    for source in sources:
        last = judge(claim, source, Attribution.BLOCK)
        if last.kind is VerdictKind.SUPPORTED:
            return last
    what = ClaimKind.QUOTE if isinstance(claim, Quote) else ClaimKind.FIGURE
    if last is not None and last.reason in (Reason.VAGUE, Reason.TRANSLATED):
        return last
    scope = " + ".join(s.scope for s in sources if s.scope)
    return Verdict(VerdictKind.UNVERIFIABLE, what, claim.text, Reason.BLOCK, scope=scope)
