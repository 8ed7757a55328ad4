"""One observation: what one run saw of one anchor, the only record that crosses from `check`
to the history and on to `report` and `fix`.

`check` makes one per answer (a link's verdict, or a lookup's with its facts), the history
stores it and gives it back parsed, and the readers ask it what it means: how its outcome
reads (`reading`), and whether it says the anchor moved (`move_of`). Each of those rules is
here once, so the report's transitions and `fix` cannot disagree about a move.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import assert_never

from ..findings import Outcome
from ..ids.github import repo_under
from ..ids.model import AnchorKey, AnchorKind
from .facts import Facts

__all__ = [
    "DEFINITE",
    "NEUTRAL",
    "SUCCESS",
    "Move",
    "MoveKind",
    "Observation",
    "Reading",
    "move_of",
    "reading",
    "target_of",
    "tells_place",
]


@dataclass(frozen=True, slots=True)
class Observation:
    """One target in one run: a URL's link check, or an anchor's lookup (arXiv, GitHub, DOI).

    A repository's page is asked of the GitHub API but observed as the page it is (its key is
    the URL, a rename is a redirect, its facts are the repository's).
    """

    key: AnchorKey
    #: the registry entry as written (its ID or URL), for people to find it
    anchor: str
    outcome: Outcome
    status: int | None = None
    #: where a permanent redirect (or a moved issue) leads, or the last URL a link reached
    final_url: str | None = None
    error: str | None = None
    elapsed_ms: int | None = None
    checked_at: float = 0.0
    run_id: int = 0
    #: what a successful lookup learnt (None for links, failures and empty answers)
    facts: Facts | None = None

    @property
    def kind(self) -> AnchorKind:
        return self.key.kind

    @property
    def target(self) -> str:
        return target_of(self.key)


def target_of(key: AnchorKey) -> str:
    """What was looked at, as reports and the history name it: the (canonical) URL of a page,
    else the key."""
    return key.url if key.kind is AnchorKind.URL else key.key


class Reading(str, Enum):
    """What an outcome says about the anchor (`reading`)."""

    #: it works, or it moved for good to a page that works
    WORKS = "works"
    #: definitely gone: 404/410, an unknown name, a refused connection, a redirect loop
    GONE = "gone"
    #: the check could not tell: a timeout, a 5xx, a 429, a TLS problem
    UNSURE = "unsure"
    #: the run did not look at it (a private address without --allow-private)
    NOT_LOOKED = "not-looked"


def reading(outcome: Outcome) -> Reading:
    """The one reading of each outcome; a new outcome is a type error here until it has one."""
    match outcome:
        case Outcome.OK | Outcome.REDIRECT:
            return Reading.WORKS
        case Outcome.DEAD:
            return Reading.GONE
        case Outcome.UNREACHABLE | Outcome.UNVERIFIABLE | Outcome.RATE_LIMITED | Outcome.TLS_ERROR:
            return Reading.UNSURE
        case Outcome.BLOCKED:
            return Reading.NOT_LOOKED
        case _:
            assert_never(outcome)


SUCCESS = frozenset(o for o in Outcome if reading(o) is Reading.WORKS)
#: outcomes of runs that did not look at the target: neither a success nor a failure
NEUTRAL = frozenset(o for o in Outcome if reading(o) is Reading.NOT_LOOKED)
#: outcomes that say what the link is (works, moved, gone); the others only that the check
#: could not tell, so a link's state changes only from one of these to another
DEFINITE = frozenset(o for o in Outcome if reading(o) in (Reading.WORKS, Reading.GONE))


class MoveKind(str, Enum):
    REDIRECT = "redirect"
    RENAMED_REPO = "renamed-repo"
    MOVED_ISSUE = "moved-issue"


@dataclass(frozen=True, slots=True)
class Move:
    """The anchor is now at `to`: a permanent redirect, a renamed repository, a moved issue."""

    kind: MoveKind
    to: str


def move_of(seen: Observation) -> Move | None:
    """Where `seen` says its anchor moved to (its `final_url`), or None.

    A page moved when every hop of its redirect chain was permanent (the link checker reports
    nothing else as a redirect, and a renamed repository's page is recorded so); a move to
    another repository is a rename or transfer. An issue moved when GitHub answers for it
    from another repository (a transfer: the lookup records its page there). Papers and DOIs
    do not move.
    """
    match seen.key.kind:
        case AnchorKind.URL:
            if seen.outcome is not Outcome.REDIRECT or not seen.final_url:
                return None
            old, new = repo_under(seen.key.url), repo_under(seen.final_url)
            renamed = old is not None and new is not None and old != new
            return Move(MoveKind.RENAMED_REPO if renamed else MoveKind.REDIRECT, seen.final_url)
        case AnchorKind.GITHUB:
            moved = seen.final_url if seen.outcome is Outcome.OK else None
            return Move(MoveKind.MOVED_ISSUE, moved) if moved else None
        case AnchorKind.ARXIV | AnchorKind.DOI:
            return None
        case _:
            assert_never(seen.key.kind)


def tells_place(seen: Observation) -> bool:
    """Whether `seen` says where its anchor is (so a change of `move_of` from the last one that
    did is a move): a page's definite answer, an issue's answered lookup."""
    match seen.key.kind:
        case AnchorKind.URL:
            return seen.outcome in DEFINITE
        case AnchorKind.GITHUB:
            return seen.outcome is Outcome.OK
        case AnchorKind.ARXIV | AnchorKind.DOI:
            return False
        case _:
            assert_never(seen.key.kind)
