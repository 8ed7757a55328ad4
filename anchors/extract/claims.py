"""What a briefing claims about a citation, read from the citation's own line and increment.

A briefing says more than an ID: "9-22锚定；续立" (the registry already holds it, first
anchored on 09-22), "Issue #8242 仍 open" (a state), "arXiv 2026-09-19" (a v1 date),
"HPDC'26" (a venue). Each is a claim the live facts can contradict; `truth` compares them.
Parsing works from text only, so any extractor can hand over the lines it found.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from typing import TYPE_CHECKING

from ..ids.model import AnchorKind, GithubRef
from ..registry.claims import Claims, StateClaim, Venue
from ..registry.model import Status
from .model import Citation
from .phrases import date_claim, state_claim, venue_claim, venues_in, version_claim
from .plaintext import useful_title

if TYPE_CHECKING:
    from .place import Block

__all__ = [
    "Claims",
    "StateClaim",
    "UnbackedClaim",
    "Venue",
    "citation_claims",
    "claims_in",
    "continuity_gap",
    "state_claim",
    "venue_claim",
    "venues_in",
]


@dataclass(frozen=True, slots=True)
class UnbackedClaim:
    """A continuity claim (`9-22锚定`, `续立`) the registry does not back."""

    anchor: str
    path: str
    line: int
    #: the first-anchored date the briefing claims (None for a bare `续立`)
    claimed: date | None
    #: the registry's first-anchored date (None when it does not hold the anchor)
    registry: date | None

    @property
    def message(self) -> str:
        said = f"first anchored {self.claimed:%Y-%m-%d}" if self.claimed else "continued"
        if self.registry is None:
            return f"the briefing says {said}, but the registry does not hold it"
        return (
            f"the briefing says {said}, but the registry first anchored it on "
            f"{self.registry:%Y-%m-%d}"
        )


def continuity_gap(
    anchor: str,
    path: str,
    line: int,
    claim: Status | None,
    claimed: date | None,
    held: date | None,
    known: bool,
) -> UnbackedClaim | None:
    """The unbacked claim, if a `continued` claim finds no (or a later) registry entry."""
    if claim is not Status.CONTINUED:
        return None
    if not known:
        return UnbackedClaim(anchor, path, line, claimed, None)
    if claimed is not None and held is not None and held > claimed:
        return UnbackedClaim(anchor, path, line, claimed, held)
    return None


def claims_in(
    text: str,
    *,
    title: str | None = None,
    version: int | None = None,
    path: str = "",
    line: int | None = None,
    github: bool = False,
    said_on: date | None = None,
) -> Claims:
    """Claims one citation's text makes (GitHub citations: a state; papers: a date, a venue
    and a version written beside the ID)."""
    state = state_claim(text) if github else None
    return Claims(
        title=title,
        state=state[0] if state else None,
        state_text=state[1] if state else None,
        date=None if github else date_claim(text),
        venue=None if github else venue_claim(text),
        version=version if version is not None or github else version_claim(text),
        path=path,
        line=line,
        said_on=said_on,
    )


# -- the text that belongs to each citation -------------------------------------------------

#: `#12`, `issues/12`, `PR #12`: possessive spaces (`\s*+`), so `PR` + a long run of spaces
#: is read once
_MENTION_RE = re.compile(
    r"(?:#|issues?/|pull/|\b(?:issue|pr)\s*+(?:#\s*+)?)([0-9]{1,9})(?![0-9])", re.IGNORECASE
)
#: a line about "this issue" without naming it: it speaks of the GitHub citation above it
_THIS_RE = re.compile(
    r"(?:该|此|这个|这一|本|上述)\s*(?:issue|pr|pull\s*request|问题|议题|bug)"
    r"|\b(?:this|that|the\s+same)\s+(?:issue|pr|pull\s+request|bug|ticket)\b",
    re.IGNORECASE,
)


def citation_claims(
    lines: Sequence[str], blocks: Sequence[Block], found: Sequence[Citation], said_on: date | None
) -> list[Claims]:
    """Claims of each citation in `found` (in order), read in one pass over the briefing.

    A paper's claims are on its own line. A GitHub citation's are on its line, on the lines of
    its increment that name the same number, and on the lines about "this issue" / "该 issue"
    that follow it before the next GitHub citation (the nearest one above them).
    """
    near = _Nearby(lines, blocks)
    near.scan({cite.line for cite in found if cite.key.kind is AnchorKind.GITHUB})
    return [near.claims(cite, said_on) for cite in found]


@dataclass(slots=True)
class _Nearby:
    """The lines that speak of each GitHub citation, from one pass over the briefing."""

    lines: Sequence[str]
    blocks: Sequence[Block]
    #: citation line -> the "this issue" lines that follow it
    about: dict[int, list[int]] = field(default_factory=dict)
    #: (block, number) -> the lines naming that number
    numbers: dict[tuple[int, int], list[int]] = field(default_factory=dict)

    def scan(self, gh_lines: set[int]) -> None:
        blocks = self.blocks
        wanted = {id(blocks[n - 1]) for n in gh_lines}
        last: int | None = None
        for i, text in enumerate(self.lines):
            block = id(blocks[i])
            if block not in wanted:
                continue
            if last is not None and id(blocks[last - 1]) != block:
                last = None
            for mention in _MENTION_RE.finditer(text):
                self.numbers.setdefault((block, int(mention[1])), []).append(i + 1)
            if i + 1 in gh_lines:
                last = i + 1
            elif last is not None and _THIS_RE.search(text):
                self.about.setdefault(last, []).append(i + 1)

    def claims(self, cite: Citation, said_on: date | None) -> Claims:
        """One citation's claims, at the line that holds its state words."""
        lines = self.lines
        own = lines[cite.line - 1]
        picked: dict[int, None] = {}
        gh = isinstance(cite.key, GithubRef)
        if isinstance(cite.key, GithubRef):
            named = self.numbers.get((id(self.blocks[cite.line - 1]), cite.key.number), [])
            picked = dict.fromkeys([cite.line, *named, *self.about.get(cite.line, [])])
            own = "\n".join(lines[n - 1] for n in picked)
        if cite.written_title:  # the issue's own title ("Open file leak") claims no state
            own = own.replace(cite.written_title, " ")
        title = cite.written_title
        if title is None and isinstance(cite.key, GithubRef):
            title = described(lines[cite.line - 1], cite.raw, cite.key.number)
        version = cite.key.version if cite.key.kind is AnchorKind.ARXIV else None
        got = claims_in(
            own,
            title=title,
            version=version,
            path=cite.path,
            line=cite.line,
            github=gh,
            said_on=said_on,
        )
        if gh and got.state_text and got.state_text not in lines[cite.line - 1]:
            said = next((n for n in picked if got.state_text in lines[n - 1]), cite.line)
            got = replace(got, line=said)  # where the words are: "该 issue 已关闭" below it
        return got


#: a list item: `- `, `* `, `1. `
_ITEM_RE = re.compile(r"^\s*(?:[-*+]|[0-9]{1,3}[.)])\s+")
#: what a link that names its issue by number only reads (`#3109`, `PR #3109`, `GH-3109`)
#: (`\s*+`: a run of spaces is read once, never split between two `\s*` around an optional
#: part, which made a long run quadratic)
_BY_NUMBER = (
    r"\[\s*+(?:(?:pr|pull(?:\s++request)?|issue|gh)\s*+)?(?:[#-]\s*+)?{n}"
    r"\s*+\]\(\s*+<?{url}>?\s*+\)"
)
_EMPTY_BRACKETS_RE = re.compile(r"[(（\[]\s*+(?:[,;，；]\s*+)?[)）\]]")


def described(line: str, url: str, number: int) -> str | None:
    """What a list item says an issue is when it cites it by number only, as changelogs do:
    `- Fix the pool leak ([#3109](…/pull/3109))` describes #3109 as "Fix the pool leak". Only a
    line that names no other issue or PR describes one; it is the words `wrong-target` compares
    with the live title, never a title of the citation (it says what the change did)."""
    item = _ITEM_RE.match(line)
    if item is None or {int(m[1]) for m in _MENTION_RE.finditer(line)} != {number}:
        return None
    link = _link_by_number(number, url)
    if not link.search(line):
        return None
    return useful_title(_EMPTY_BRACKETS_RE.sub(" ", link.sub(" ", line[item.end() :])))


def _link_by_number(number: int, url: str) -> re.Pattern[str]:
    """The link `[#N](url)` (or `[PR #N](<url>)`…) to this one URL, as a pattern."""
    return re.compile(_BY_NUMBER.format(n=number, url=re.escape(url)), re.IGNORECASE)
