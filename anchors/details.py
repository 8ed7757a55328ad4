"""The machine-readable facts of each kind of finding, one frozen dataclass per kind.

A check builds them by field and every reader (renderers, the report, `fix`) reads fields, so
mypy follows a fact from the module that finds it to the one that prints it. Each is also a
read-only mapping, the JSON shape `--format json` writes (`as_json`: fields in order, nested
facts as objects, a None left out unless the kind keeps it) and library callers index by key.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import MISSING, Field, dataclass, field, fields
from typing import ClassVar

__all__ = [
    "AlsoRegistered",
    "Answer",
    "CaptureJob",
    "CaptureRefused",
    "Captured",
    "CitedElsewhere",
    "ClaimMismatch",
    "Conflict",
    "Details",
    "DuplicateEntry",
    "DuplicateLines",
    "Extra",
    "FigureCheck",
    "Fragment",
    "IssueClosed",
    "LatestVersion",
    "Line",
    "Moved",
    "NotAsked",
    "NotLookedUp",
    "OverQuota",
    "Published",
    "PublisherNotice",
    "RepoArchived",
    "Retitled",
    "SectionStanding",
    "StaleClaim",
    "Suggestion",
    "TitleMismatch",
    "Unbacked",
    "Unregistered",
    "Withdrawn",
    "WrongTarget",
    "details_of",
]


@dataclass(frozen=True, slots=True)
class Line:
    """A line of a file a person opens: where a briefing cites a URL or writes a figure."""

    file: str
    line: int

    def as_json(self) -> dict[str, object]:
        return {"file": self.file, "line": self.line}

    @classmethod
    def read(cls, value: object) -> Line | None:
        """A `{"file", "line"}` object as JSON has it; None for anything else."""
        if isinstance(value, Mapping):
            file, line = value.get("file"), value.get("line")
            if isinstance(file, str) and isinstance(line, int):
                return cls(file, line)
        return None


@dataclass(frozen=True, slots=True)
class Suggestion:
    """Another anchor the title belongs to, found by a search."""

    anchor: str
    title: str

    def as_json(self) -> dict[str, object]:
        return {"anchor": self.anchor, "title": self.title}


def _json(value: object) -> object:
    if isinstance(value, (Line, Suggestion)):
        return value.as_json()
    if isinstance(value, tuple):
        return [_json(v) for v in value]
    return value


def _lines(value: object) -> tuple[Line, ...] | None:
    if not isinstance(value, (list, tuple)):
        return None
    return tuple(line for v in value if (line := Line.read(v)) is not None)


def _suggestion(value: object) -> Suggestion | None:
    if isinstance(value, Mapping) and isinstance(anchor := value.get("anchor"), str):
        title = value.get("title")
        return Suggestion(anchor, title if isinstance(title, str) else "")
    return None


def _tuple(value: object) -> tuple[object, ...] | None:
    return tuple(value) if isinstance(value, (list, tuple)) else None


#: how a field holding more than one value is read back from its JSON form (`details_of`)
_READ = "read"
#: a field written as null when None (its key was always there), in a kind that leaves None out
_NULL = "null"


@dataclass(frozen=True, slots=True, eq=False)
class Details(Mapping[str, object]):
    """No facts beyond the message; the base every kind of details extends."""

    #: whether a None field is written as null (the kinds whose JSON always had the key)
    keeps_none: ClassVar[bool] = False

    def as_json(self) -> dict[str, object]:
        """The facts as `--format json` writes them, in field order."""
        out: dict[str, object] = {}
        for fld in fields(self):
            value = getattr(self, fld.name)
            if value is not None or self.keeps_none or fld.metadata.get(_NULL, False):
                out[fld.name] = _json(value)
        return out

    def __getitem__(self, key: str) -> object:
        return self.as_json()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.as_json())

    def __len__(self) -> int:
        return len(self.as_json())


@dataclass(frozen=True, slots=True, eq=False)
class Extra(Details):
    """Facts given as a plain mapping no kind holds (a library caller's): kept as given."""

    facts: tuple[tuple[str, object], ...] = ()

    def as_json(self) -> dict[str, object]:
        return dict(self.facts)


@dataclass(frozen=True, slots=True, eq=False)
class Answer(Details):
    """What a server or a service answered: a link's or a lookup's outcome."""

    status: int | None = None
    #: where the redirects ended
    final_url: str | None = None
    #: the requests the server saw, when more than one
    requests: int | None = None
    #: the redirect lands on a page that says the old one is gone
    soft_404: bool | None = None
    #: the briefing lines citing the URL word for word (`extract.citing`)
    cited_at: tuple[Line, ...] | None = field(default=None, metadata={_READ: _lines})


@dataclass(frozen=True, slots=True, eq=False)
class Withdrawn(Details):
    #: arXiv's withdrawal comment
    comment: str


@dataclass(frozen=True, slots=True, eq=False)
class LatestVersion(Details):
    """The entry cites a version the service does not have."""

    latest_version: int


@dataclass(frozen=True, slots=True, eq=False)
class TitleMismatch(Details):
    claimed: str | None = None
    actual: str | None = None
    resolved_title: str | None = None
    suggested: Suggestion | None = field(default=None, metadata={_READ: _suggestion})


@dataclass(frozen=True, slots=True, eq=False)
class Retitled(Details):
    """The title the entry has is the one the cited version had."""

    claimed: str
    actual: str
    cited_version: int | None
    cited_title: str


@dataclass(frozen=True, slots=True, eq=False)
class Published(Details):
    journal_ref: str | None = None
    doi: str | None = None


@dataclass(frozen=True, slots=True, eq=False)
class ClaimMismatch(Details):
    #: which claim: date or venue
    field: str
    claimed: str
    actual: str


@dataclass(frozen=True, slots=True, eq=False)
class RepoArchived(Details):
    #: the repository's name
    actual: str | None = None


@dataclass(frozen=True, slots=True, eq=False)
class Moved(Details):
    """A repository or issue now at another address (a `redirect` not from a link)."""

    final_url: str
    claimed: str | None = None
    actual: str | None = None


@dataclass(frozen=True, slots=True, eq=False)
class PublisherNotice(Details):
    #: the kind of notice: retraction, correction, erratum...
    update: str
    notice: str


@dataclass(frozen=True, slots=True, eq=False)
class StaleClaim(Details):
    """A state claim its own day contradicts; dates are YYYY-MM-DD, as the service has them."""

    claimed: str
    actual: str
    said_on: str | None = None
    #: the briefing line that said it (`path:line`)
    briefing: str | None = None
    state: str | None = None
    state_reason: str | None = None
    closed_at: str | None = None
    merged_at: str | None = None


@dataclass(frozen=True, slots=True, eq=False)
class IssueClosed(Details):
    """An issue or pull request closed; `claimed` and `said_on` when a briefing said open."""

    state: str | None = None
    state_reason: str | None = None
    merged: bool | None = None
    claimed: str | None = None
    said_on: str | None = None


@dataclass(frozen=True, slots=True, eq=False)
class WrongTarget(Details):
    claimed: str
    actual: str


@dataclass(frozen=True, slots=True, eq=False)
class FigureCheck(Details):
    """A figure or quote not found in its source, or no longer there."""

    claim: str
    #: figure or quote
    what: str
    verdict: str
    by: str | None = None
    said_on: str | None = None
    #: where the briefing wrote it, as the claim says (`path:line`)
    at: str | None = None
    nearest: tuple[str, ...] = field(default=(), metadata={_READ: _tuple})
    scope: str | None = None
    #: that briefing line, when it is a file of the checked repository
    briefing_at: Line | None = field(default=None, metadata={_READ: Line.read})


@dataclass(frozen=True, slots=True, eq=False)
class DuplicateLines(Details):
    """One briefing lists the anchor on each of these lines (`add`)."""

    keeps_none = True
    lines: tuple[int, ...] = field(default=(), metadata={_READ: _tuple})


@dataclass(frozen=True, slots=True, eq=False)
class DuplicateEntry(Details):
    """The registry's earlier entry for the same anchor."""

    keeps_none = True
    first_line: int


@dataclass(frozen=True, slots=True, eq=False)
class Conflict(Details):
    field: str
    kept: str
    other: str
    #: whose value is kept: the briefing's first mention, or the registry's
    against: str
    registry_line: int | None = None


@dataclass(frozen=True, slots=True, eq=False)
class Unbacked(Details):
    keeps_none = True
    #: the date the briefing claims, or "continued"
    claimed: str
    actual: str | None


@dataclass(frozen=True, slots=True, eq=False)
class SectionStanding(Details):
    """Where an entry stands against the living document's sections; `since` (YYYY-MM-DD)
    is its latest citation, the day its waiting counts from."""

    section: str
    document: str
    limit: int | None = None
    #: the headings the section's name stands under, when more than one
    candidates: tuple[str, ...] | None = field(default=None, metadata={_READ: _tuple})
    candidates_total: int | None = None
    #: the heading the section was renumbered to, and its line
    suggestion: str | None = None
    heading_line: int | None = None
    since: str | None = None
    days: int | None = None


@dataclass(frozen=True, slots=True, eq=False)
class CitedElsewhere(Details):
    """The document cites the entry, but under another section than the entry's."""

    section: str
    document: str
    #: the section the document cites it under (null: outside any numbered section)
    document_section: str | None = field(metadata={_NULL: True})
    registry: str
    registry_line: int
    since: str | None = None
    days: int | None = None


@dataclass(frozen=True, slots=True, eq=False)
class Unregistered(Details):
    keeps_none = True
    section: str | None
    document: str


@dataclass(frozen=True, slots=True, eq=False)
class AlsoRegistered(Details):
    keeps_none = True
    other: str
    other_line: int
    said_by: str


@dataclass(frozen=True, slots=True, eq=False)
class Fragment(Details):
    keeps_none = True
    fragment: str


@dataclass(frozen=True, slots=True, eq=False)
class NotLookedUp(Details):
    keeps_none = True
    not_looked_up: int


@dataclass(frozen=True, slots=True, eq=False)
class NotAsked(Details):
    keeps_none = True
    not_asked: int


@dataclass(frozen=True, slots=True, eq=False)
class OverQuota(Details):
    keeps_none = True
    over_quota: int


@dataclass(frozen=True, slots=True, eq=False)
class Captured(Details):
    keeps_none = True
    snapshot: str
    date: str


@dataclass(frozen=True, slots=True, eq=False)
class CaptureRefused(Details):
    keeps_none = True
    reason: str | None


@dataclass(frozen=True, slots=True, eq=False)
class CaptureJob(Details):
    keeps_none = True
    job: str | None


#: the kinds a plain mapping may be read into, the first that holds all its keys winning
_KINDS: tuple[type[Details], ...] = (
    Answer,
    TitleMismatch,
    Withdrawn,
    LatestVersion,
    Retitled,
    Published,
    ClaimMismatch,
    Moved,
    PublisherNotice,
    StaleClaim,
    IssueClosed,
    FigureCheck,
    DuplicateLines,
    DuplicateEntry,
    Conflict,
    SectionStanding,
    CitedElsewhere,
    AlsoRegistered,
    Fragment,
    NotLookedUp,
    NotAsked,
    OverQuota,
    Captured,
)


def details_of(facts: Mapping[str, object]) -> Details:
    """Facts given as a plain mapping (a library caller of the untyped `details`) as the
    first kind whose fields hold all its keys, else `Extra`, so the JSON shape is kept."""
    if not facts:
        return Details()
    for kind in _KINDS:
        names = {fld.name: fld for fld in fields(kind)}
        if set(facts) <= set(names) and all(
            fld.name in facts for fld in names.values() if _required(fld)
        ):
            read: dict[str, object] = {}
            for name, value in facts.items():
                convert: Callable[[object], object] | None = names[name].metadata.get(_READ)
                read[name] = convert(value) if convert is not None else value
            return kind(**read)
    return Extra(tuple(facts.items()))


def _required(fld: Field[object]) -> bool:
    return fld.default is MISSING and fld.default_factory is MISSING
