"""What a lookup learnt about an anchor that can change between checks, one record per kind.

arXiv (the latest version, its title, a venue), a GitHub issue or pull request (its state, a
transfer), a GitHub repository (archived, renamed) and a DOI (its metadata, update notices).
The check records them with each observation, the cache keeps them between runs, the report
compares consecutive ones and `fix` and `export` read them. Stored as a JSON object of the
fields that differ from their default, by name, so a new fact needs no schema change; what is
read back is checked field by field (a history or a cache is untrusted data), and a value of
the wrong type is that field's default, never an error.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import assert_never

from ..ids.model import AnchorKind

__all__ = [
    "ArxivFacts",
    "DoiFacts",
    "Facts",
    "IssueFacts",
    "RepoFacts",
    "facts_from_json",
    "facts_to_json",
]


@dataclass(frozen=True, slots=True)
class ArxivFacts:
    """An arXiv paper as the API answers for its latest version."""

    title: str | None = None
    #: the latest version
    version: int | None = None
    #: the withdrawal comment, when the latest version is a withdrawal notice
    withdrawn: str | None = None
    authors: tuple[str, ...] = ()
    #: the first version's date (YYYY-MM-DD)
    published: str | None = None
    #: the venue the authors give (`journal_ref`) and a venue DOI
    journal_ref: str | None = None
    doi: str | None = None
    #: the returned version's date (YYYY-MM-DD) and its Comments line (venue hints)
    updated: str | None = None
    comment: str | None = None
    #: the returned version's abstract (the Atom `<summary>`, raw TeX, whitespace collapsed):
    #: where an attributed figure is looked for first, at no extra request
    abstract: str | None = None


@dataclass(frozen=True, slots=True)
class IssueFacts:
    """A GitHub issue or pull request."""

    title: str | None = None
    #: open | closed, with GitHub's reason for closing
    state: str | None = None
    state_reason: str | None = None
    is_pull: bool = False
    merged: bool = False
    #: the issue's page now, when it was transferred to another repository
    moved_to: str | None = None
    #: when it was closed or merged (YYYY-MM-DD)
    closed_at: str | None = None
    merged_at: str | None = None


@dataclass(frozen=True, slots=True)
class RepoFacts:
    """A GitHub repository cited by its page (asked of the API)."""

    #: its full name (`owner/repo`) now
    title: str | None = None
    #: its page now, when it was renamed or transferred
    moved_to: str | None = None
    archived: bool = False


@dataclass(frozen=True, slots=True)
class DoiFacts:
    """A DOI's metadata (CSL-JSON from its agency) and Crossref's update notices."""

    title: str | None = None
    authors: tuple[str, ...] = ()
    published: str | None = None
    #: the container title (journal or proceedings)
    journal_ref: str | None = None
    #: (type, notice DOI) for each update relation (`retraction`, `correction`...)
    updates: tuple[tuple[str, str], ...] = ()
    #: where in the container, for a bibliography (`export`): volume, issue, page range
    volume: str | None = None
    issue: str | None = None
    page: str | None = None
    #: what the work is, in CSL's words (`article-journal`, `paper-conference`...)
    work_type: str | None = None
    #: the arXiv IDs Crossref names as this work's preprint (`has-preprint`, `is-preprint-of`)
    preprints: tuple[str, ...] = ()


Facts = ArxivFacts | IssueFacts | RepoFacts | DoiFacts
_Json = str | int | bool | list[str] | list[list[str]]


def facts_to_json(facts: Facts) -> dict[str, _Json]:
    """The fields that differ from their default (tuples as lists), by name."""
    out: dict[str, _Json] = {}
    for f in fields(facts):
        value = getattr(facts, f.name)
        if value == f.default:
            continue
        if isinstance(value, tuple):
            out[f.name] = [list(v) if isinstance(v, tuple) else v for v in value]
        else:
            out[f.name] = value
    return out


def facts_from_json(kind: AnchorKind, data: Mapping[str, object]) -> Facts:
    """The facts of a `kind` of anchor from `facts_to_json`'s object (a URL's are a
    repository's: the only pages a lookup answers for)."""
    text, get = _text, data.get
    match kind:
        case AnchorKind.ARXIV:
            return ArxivFacts(
                title=text(get("title")),
                version=_number(get("version")),
                withdrawn=text(get("withdrawn")),
                authors=_texts(get("authors")),
                published=text(get("published")),
                journal_ref=text(get("journal_ref")),
                doi=text(get("doi")),
                updated=text(get("updated")),
                comment=text(get("comment")),
                abstract=text(get("abstract")),
            )
        case AnchorKind.GITHUB:
            return IssueFacts(
                title=text(get("title")),
                state=text(get("state")),
                state_reason=text(get("state_reason")),
                is_pull=get("is_pull") is True,
                merged=get("merged") is True,
                moved_to=text(get("moved_to")),
                closed_at=text(get("closed_at")),
                merged_at=text(get("merged_at")),
            )
        case AnchorKind.URL:
            return RepoFacts(
                title=text(get("title")),
                moved_to=text(get("moved_to")),
                archived=get("archived") is True,
            )
        case AnchorKind.DOI:
            return DoiFacts(
                title=text(get("title")),
                authors=_texts(get("authors")),
                published=text(get("published")),
                journal_ref=text(get("journal_ref")),
                updates=_pairs(get("updates")),
                volume=text(get("volume")),
                issue=text(get("issue")),
                page=text(get("page")),
                work_type=text(get("work_type")),
                preprints=_texts(get("preprints")),
            )
        case _:
            assert_never(kind)


def _text(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _number(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _texts(value: object) -> tuple[str, ...]:
    return tuple(x for x in value if isinstance(x, str)) if isinstance(value, list) else ()


def _pairs(value: object) -> tuple[tuple[str, str], ...]:
    if not isinstance(value, list):
        return ()
    return tuple(
        (p[0], p[1])
        for p in value
        if isinstance(p, list) and len(p) == 2 and isinstance(p[0], str) and isinstance(p[1], str)
    )
