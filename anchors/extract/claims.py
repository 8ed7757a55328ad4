"""What a briefing claims about a citation, read from the citation's own line and increment.

A briefing says more than an ID: "9-22锚定；续立" (the registry already holds it, first
anchored on 09-22), "Issue #8242 仍 open" (a state), "arXiv 2026-09-19" (a v1 date),
"HPDC'26" (a venue). Each is a claim the live facts can contradict; `truth` compares them.
Parsing works from text only, so any extractor can hand over the lines it found.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from enum import Enum

from ..ids.model import AnchorKind
from ..registry.model import Status

__all__ = [
    "Claims",
    "StateClaim",
    "UnbackedClaim",
    "Venue",
    "briefing_claims",
    "claims_in",
    "continuity_gap",
    "state_claim",
    "venue_claim",
    "venues_in",
]


class StateClaim(str, Enum):
    """What a briefing says a GitHub issue or PR is."""

    OPEN = "open"
    CLOSED = "closed"
    MERGED = "merged"
    FIXED = "fixed"


@dataclass(frozen=True, slots=True)
class Venue:
    name: str
    year: int | None = None

    def __str__(self) -> str:
        return f"{self.name} {self.year}" if self.year else self.name


@dataclass(frozen=True, slots=True)
class Claims:
    """Every claim one citation carries; None means the briefing is silent on it."""

    title: str | None = None
    state: StateClaim | None = None
    #: the words that made the state claim, as written ("仍 open")
    state_text: str | None = None
    #: a submission date written next to an arXiv ID
    date: date | None = None
    venue: Venue | None = None
    version: int | None = None
    #: where the claims were read: (file, line)
    path: str = ""
    line: int | None = None


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


# -- state, date and venue claims ---------------------------------------------------------

_STATE_WORDS: tuple[tuple[re.Pattern[str], StateClaim], ...] = (
    (
        re.compile(
            r"仍\s*(?:为\s*)?open|still\s+open|仍(?:未关闭|开放)|尚未(?:关闭|修复|合并)"
            r"|(?<![\w-])open(?![\w-])",
            re.IGNORECASE,
        ),
        StateClaim.OPEN,
    ),
    (re.compile(r"已合并|(?<![\w-])merged(?![\w-])", re.IGNORECASE), StateClaim.MERGED),
    (re.compile(r"已修复|(?<![\w-])fixed(?![\w-])", re.IGNORECASE), StateClaim.FIXED),
    (re.compile(r"已关闭|(?<![\w-])closed(?![\w-])", re.IGNORECASE), StateClaim.CLOSED),
)
#: "open" also names things that are not states ("open models", "open source", "OpenAI")
_NOT_STATE_RE = re.compile(
    r"open[\s-]*(?:source|models?|weights?|ai|api|problem|question)s?\b"
    r"|(?:is|are)\s+open\s+to|待核实|是否",
    re.IGNORECASE,
)


def state_claim(text: str) -> tuple[StateClaim, str] | None:
    """The one state a piece of text claims, with its words; None if none or several."""
    cleaned = _NOT_STATE_RE.sub(" ", text)
    found: dict[StateClaim, str] = {}
    for pattern, state in _STATE_WORDS:
        m = pattern.search(cleaned)
        if m:
            found.setdefault(state, m.group())
    if (
        StateClaim.OPEN in found
        and len(found) > 1
        and re.search(r"仍|still", found[StateClaim.OPEN], re.IGNORECASE)
    ):
        return StateClaim.OPEN, found[StateClaim.OPEN]
    if len(found) != 1:
        return None
    ((state, words),) = found.items()
    return state, words


_DATE_RE = re.compile(
    r"(?:arXiv\s*[:：]?\s*(?P<a>\d{4}-\d{2}-\d{2}))"
    r"|(?P<b>\d{4}-\d{2}-\d{2})\s*(?:提交|submitted|投稿|发布)",
    re.IGNORECASE,
)
_VENUE_NAMES = (
    "OSDI",
    "SOSP",
    "NSDI",
    "ATC",
    "EuroSys",
    "ASPLOS",
    "ISCA",
    "MICRO",
    "HPCA",
    "HPDC",
    "SC",
    "PPoPP",
    "MLSys",
    "NeurIPS",
    "ICML",
    "ICLR",
    "ACL",
    "EMNLP",
    "NAACL",
    "CVPR",
    "ICCV",
    "ECCV",
    "AAAI",
    "IJCAI",
    "KDD",
    "SIGMOD",
    "VLDB",
    "FAST",
    "SIGCOMM",
    "COLM",
    "DAC",
    "ICDE",
    "WWW",
    "SoCC",
    "Middleware",
)
_VENUE_RE = re.compile(
    r"(?<![A-Za-z])(?P<name>"
    + "|".join(_VENUE_NAMES)
    + r")(?:\s*[’'](?P<yy>\d{2})|\s*(?P<yyyy>(?:19|20)\d{2}))?"
    r"(?![A-Za-z])"
)


def venues_in(text: str) -> list[Venue]:
    """Every venue named in `text`, with its year when one is written next to it."""
    out = []
    for m in _VENUE_RE.finditer(text):
        yy, yyyy = m["yy"], m["yyyy"]
        out.append(Venue(m["name"], int(yyyy) if yyyy else 2000 + int(yy) if yy else None))
    return out


def venue_claim(text: str) -> Venue | None:
    """`HPDC'26` → HPDC 2026, `OSDI 2026` → OSDI 2026; a venue needs its year to be a claim."""
    return next((v for v in venues_in(text) if v.year), None)


def date_claim(text: str) -> date | None:
    m = _DATE_RE.search(text)
    if not m:
        return None
    try:
        return date.fromisoformat(m["a"] or m["b"])
    except ValueError:
        return None


def claims_in(
    text: str,
    *,
    title: str | None = None,
    version: int | None = None,
    path: str = "",
    line: int | None = None,
    github: bool = False,
) -> Claims:
    """Claims one citation's text makes (GitHub citations: a state; arXiv: a date, a venue)."""
    state = state_claim(text) if github else None
    return Claims(
        title=title,
        state=state[0] if state else None,
        state_text=state[1] if state else None,
        date=None if github else date_claim(text),
        venue=None if github else venue_claim(text),
        version=version,
        path=path,
        line=line,
    )


# -- claims of a whole briefing -----------------------------------------------------------

_BLOCK_RE = re.compile(
    r"^\s*(?:#{1,6}\s|增量\s*\d+|(?:Increment|Item)\s*\d+|[一二三四五六七八九十]+、)", re.IGNORECASE
)


def _block_lines(lines: list[str], lineno: int) -> list[str]:
    """The lines of the increment (heading block) that holds 1-based line `lineno`."""
    start = lineno - 1
    while start > 0 and not _BLOCK_RE.match(lines[start]):
        start -= 1
    end = lineno
    while end < len(lines) and not _BLOCK_RE.match(lines[end]):
        end += 1
    return lines[start:end]


def _github_text(lines: list[str], lineno: int, number: int) -> str:
    """The citation's line plus the lines of its increment that name the same number."""
    mention = re.compile(rf"(?:#|issues?/|pull/|(?:issue|pr)\s*#?\s*){number}(?!\d)", re.IGNORECASE)
    near = [ln for ln in _block_lines(lines, lineno) if mention.search(ln)]
    return "\n".join(dict.fromkeys([lines[lineno - 1], *near]))


def briefing_claims(paths: list[str]) -> dict[str, Claims]:
    """Claims per anchor key in briefing files (the first citation's, filled from the others')."""
    out: dict[str, Claims] = {}
    for path in paths:
        _one_briefing(path, out)
    return out


def _one_briefing(path: str, out: dict[str, Claims]) -> None:
    from .citations import read_briefing

    # the briefing's own date only matters to continuity claims, which `add` checks: a file
    # without one (a changelog, a reading list) still has state, date and venue claims
    b = read_briefing(path, date.today())
    with open(path, encoding="utf-8-sig") as fh:
        lines = fh.read().splitlines()
    for c in b.citations:
        gh = c.key.kind is AnchorKind.GITHUB
        text = (
            _github_text(lines, c.line, c.key.number)
            if c.key.kind is AnchorKind.GITHUB
            else lines[c.line - 1]
        )
        if c.written_title:  # the issue's own title ("Open file leak") claims no state
            text = text.replace(c.written_title, " ")
        version = c.key.version if c.key.kind is AnchorKind.ARXIV else None
        got = claims_in(
            text, title=c.written_title, version=version, path=c.path, line=c.line, github=gh
        )
        prev = out.get(c.key.key)
        out[c.key.key] = got if prev is None else _fill(prev, got)


def _fill(first: Claims, other: Claims) -> Claims:
    from dataclasses import replace

    return replace(
        first,
        **{
            k: getattr(other, k)
            for k in ("title", "state", "state_text", "date", "venue", "version")
            if getattr(first, k) is None and getattr(other, k) is not None
        },
    )
