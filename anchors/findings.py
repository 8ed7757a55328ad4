"""Findings: the one vocabulary every check reports in, and the exit code they imply."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import Enum, IntEnum

from .details import Details, details_of

__all__ = [
    "CITED_IN_BRIEFINGS",
    "Code",
    "ExitCode",
    "Finding",
    "Outcome",
    "Severity",
    "State",
    "Unchecked",
    "exit_code",
    "ordered",
    "state_of",
    "summary",
]


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"

    @property
    def rank(self) -> int:
        return {"error": 0, "warning": 1, "info": 2}[self.value]


class Code(str, Enum):
    """Stable finding codes; each has one severity, and its text in `catalogue.CATALOGUE`."""

    INVALID_ID = "invalid-id"
    FUTURE_ID = "future-id"
    DUPLICATE = "duplicate"
    CONFLICT = "conflict"
    SCHEMA = "schema"
    NOT_FOUND = "not-found"
    TITLE_MISMATCH = "title-mismatch"
    WITHDRAWN = "withdrawn"
    DEAD_LINK = "dead-link"
    UNREACHABLE = "unreachable"
    UNVERIFIABLE = "unverifiable"
    RATE_LIMITED = "rate-limited"
    REDIRECT = "redirect"
    ISSUE_STATE = "issue-state"
    TLS_ERROR = "tls-error"
    BLOCKED_URL = "blocked-url"
    LATER_THAN_BRIEFING = "later-than-briefing"
    ARCHIVE_UNAVAILABLE = "archive-unavailable"
    ARCHIVE_CAPTURE = "archive-capture"
    UNBACKED_CLAIM = "unbacked-claim"
    RETITLED = "retitled"
    STALE_CLAIM = "stale-claim"
    WRONG_TARGET = "wrong-target"
    REPO_ARCHIVED = "repo-archived"
    PUBLISHED = "published"
    CLAIM_MISMATCH = "claim-mismatch"
    RETRACTED = "retracted"
    CORRECTED = "corrected"
    UNREGISTERED = "unregistered"
    NOT_IN_DOCUMENT = "not-in-document"
    OVERDUE = "overdue"
    SECTION_MISMATCH = "section-mismatch"
    UNKNOWN_SECTION = "unknown-section"
    NEW_SECTION = "new-section"
    MISSING_FRAGMENT = "missing-fragment"
    SAME_WORK = "same-work"
    FIGURE_NOT_FOUND = "figure-not-found"
    QUOTE_NOT_FOUND = "quote-not-found"
    SOURCE_CHANGED = "source-changed"

    @property
    def severity(self) -> Severity:
        return _SEVERITY[self]


_SEVERITY = {
    Code.INVALID_ID: Severity.ERROR,
    Code.FUTURE_ID: Severity.ERROR,
    Code.DUPLICATE: Severity.ERROR,
    Code.CONFLICT: Severity.WARNING,
    Code.SCHEMA: Severity.ERROR,
    Code.NOT_FOUND: Severity.ERROR,
    Code.TITLE_MISMATCH: Severity.WARNING,
    Code.WITHDRAWN: Severity.WARNING,
    Code.DEAD_LINK: Severity.ERROR,
    Code.UNREACHABLE: Severity.WARNING,
    Code.UNVERIFIABLE: Severity.WARNING,
    Code.RATE_LIMITED: Severity.WARNING,
    Code.REDIRECT: Severity.INFO,
    Code.ISSUE_STATE: Severity.INFO,
    Code.TLS_ERROR: Severity.WARNING,
    Code.BLOCKED_URL: Severity.WARNING,
    Code.LATER_THAN_BRIEFING: Severity.WARNING,
    Code.ARCHIVE_UNAVAILABLE: Severity.WARNING,
    Code.ARCHIVE_CAPTURE: Severity.INFO,
    Code.UNBACKED_CLAIM: Severity.WARNING,
    Code.RETITLED: Severity.INFO,
    Code.STALE_CLAIM: Severity.WARNING,
    Code.WRONG_TARGET: Severity.WARNING,
    Code.REPO_ARCHIVED: Severity.INFO,
    Code.PUBLISHED: Severity.INFO,
    Code.CLAIM_MISMATCH: Severity.WARNING,
    Code.RETRACTED: Severity.ERROR,
    Code.CORRECTED: Severity.INFO,
    Code.UNREGISTERED: Severity.WARNING,
    Code.NOT_IN_DOCUMENT: Severity.INFO,
    Code.OVERDUE: Severity.WARNING,
    Code.SECTION_MISMATCH: Severity.INFO,
    Code.UNKNOWN_SECTION: Severity.WARNING,
    Code.NEW_SECTION: Severity.INFO,
    Code.MISSING_FRAGMENT: Severity.WARNING,
    Code.SAME_WORK: Severity.INFO,
    Code.FIGURE_NOT_FOUND: Severity.WARNING,
    Code.QUOTE_NOT_FOUND: Severity.WARNING,
    Code.SOURCE_CHANGED: Severity.WARNING,
}

#: Codes whose anchor is a URL a briefing may cite word for word: `extract.citing` says where;
#: a check reads the briefings (and imports the extractor) only when a finding has one.
CITED_IN_BRIEFINGS = frozenset({Code.DEAD_LINK})


class Outcome(str, Enum):
    """The verdict classes; also the `outcome` column of the history."""

    OK = "ok"
    REDIRECT = "redirect"
    DEAD = "dead"
    UNREACHABLE = "unreachable"
    UNVERIFIABLE = "unverifiable"
    RATE_LIMITED = "rate-limited"
    TLS_ERROR = "tls-error"
    BLOCKED = "blocked"

    @property
    def failed(self) -> bool:
        return self not in (Outcome.OK, Outcome.REDIRECT)


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem, pointing at the registry line a person has to edit."""

    code: Code
    #: the anchor as written in the registry (ID or URL); "" for file-level problems
    anchor: str
    #: the file the problem is in, as the user named it
    file: str
    #: 1-based line, or None when the problem has no single line
    line: int | None
    #: what is wrong and what to do, in one sentence
    message: str
    #: the machine-readable facts of its kind (`details`: resolved title, final URL, status...)
    details: Details = field(default_factory=Details, compare=False, hash=False)
    #: a severity other than the code's, where one command weighs a code differently: `add`
    #: merges an anchor listed twice in one briefing into one entry, so that duplicate warns
    level: Severity | None = None

    def __post_init__(self) -> None:
        facts: object = self.details
        if not isinstance(facts, Details) and isinstance(facts, Mapping):
            # a caller of the untyped API (a plain dict): read into its kind once, here
            object.__setattr__(self, "details", details_of(facts))

    @property
    def severity(self) -> Severity:
        return self.code.severity if self.level is None else self.level

    def as_dict(self) -> dict[str, object]:
        """The finding as `--format json` writes it: its own fields, then its details'."""
        out: dict[str, object] = {
            "code": self.code.value,
            "severity": self.severity.value,
            "anchor": self.anchor,
            "file": self.file,
            "line": self.line,
            "message": self.message,
        }
        out.update(self.details.as_json())
        return out


def summary(findings: Iterable[Finding]) -> dict[str, int]:
    """Findings by severity; a finding is not an anchor (see `State` for those)."""
    counts = Counter(f.severity for f in findings)
    return {s.value: counts.get(s, 0) for s in Severity}


class State(str, Enum):
    """The one state each anchor of a check is counted in, so the states sum to its entries."""

    #: checked; nothing but notes (a closed issue is still OK)
    OK = "ok"
    #: it works, at a new address (a permanent redirect, a renamed repository)
    REDIRECTED = "redirected"
    #: a warning about the anchor itself: its title, a claim, a date, a withdrawal...
    WARNED = "warned"
    #: looked at, but the answer could not tell: unreachable, rate-limited, a site that
    #: refuses checkers, a TLS problem, an address the guard blocked
    UNVERIFIED = "unverified"
    #: an error: dead, not found, invalid, duplicate...
    FAILING = "failing"
    #: not looked at this run (`Unchecked` says why): never OK, never failing
    NOT_CHECKED = "not-checked"


class Unchecked(str, Enum):
    """Why an anchor was not checked this run."""

    #: `check: skip` in its entry
    SKIPPED = "skipped"
    #: left out by `--changed-since` (unchanged since the ref)
    UNCHANGED = "unchanged"
    #: its URL matches an `exclude` pattern
    EXCLUDED = "excluded"
    #: what the check found of it is not among the `--only` codes
    FILTERED = "filtered"
    #: the service's rate limit was spent before it was asked (GitHub): checked on a later run
    RATE_LIMIT = "rate-limit"


#: warnings that say the check could not tell, not that the anchor is wrong
_UNDECIDED = frozenset(
    {Code.UNREACHABLE, Code.RATE_LIMITED, Code.UNVERIFIABLE, Code.TLS_ERROR, Code.BLOCKED_URL}
)


def _rank(finding: Finding) -> State:
    if finding.severity is Severity.ERROR:
        return State.FAILING
    if finding.severity is Severity.WARNING:
        return State.UNVERIFIED if finding.code in _UNDECIDED else State.WARNED
    return State.REDIRECTED if finding.code is Code.REDIRECT else State.OK


#: the worse state wins: an anchor that is dead and moved is failing
_WORST = (State.FAILING, State.WARNED, State.UNVERIFIED, State.REDIRECTED, State.OK)


def state_of(findings: Iterable[Finding]) -> State:
    """The state one anchor's findings put it in: the worst of them; none is OK."""
    states = {_rank(f) for f in findings}
    return next((s for s in _WORST if s in states), State.OK)


class ExitCode(IntEnum):
    """Every exit status `anchors` uses, named once (docs/commands.md, "Exit codes").

    A CI job reads 1 as "the registry has problems" and 2 as "the job is misconfigured", so the
    two must never be confused; a stopped run exits as shells expect (128 + signal number).
    """

    OK = 0
    #: an error-severity finding (with `--strict`, a warning too), or a failed `add --check`
    FINDINGS = 1
    #: unusable input, output or environment (arguments, files, a reader that went away, an
    #: outage): nothing was judged, or what was judged could not be delivered
    USAGE = 2
    #: an internal error (an unexpected exception, a bug): one line saying where to report it
    #: (sysexits' EX_SOFTWARE), never 1, which a script reads as findings
    INTERNAL = 70
    HUNG_UP = 129
    INTERRUPTED = 130
    TERMINATED = 143


def exit_code(findings: Iterable[Finding], strict: bool = False, stale: bool = False) -> ExitCode:
    """FINDINGS when anything is an error, else OK (USAGE is reserved for unusable input).

    `strict` (`add --strict`) fails on warnings too: the gate for a team that wants a briefing
    with a duplicate, a conflict or an unbacked claim fixed before it lands. `stale` (`add
    --check` on a registry behind its briefings) fails whatever the findings say.
    """
    failing = {Severity.ERROR, Severity.WARNING} if strict else {Severity.ERROR}
    bad = stale or any(f.severity in failing for f in findings)
    return ExitCode.FINDINGS if bad else ExitCode.OK


def ordered(findings: Iterable[Finding]) -> list[Finding]:
    """The one order every format shows: by file and line (as an editor walks), then severity."""
    return sorted(
        findings, key=lambda f: (f.file, f.line or 0, f.severity.rank, f.code.value, f.anchor)
    )
