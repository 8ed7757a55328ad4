"""What a resolver returns: one `Resolution` per anchor key, failures included as values."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Protocol

from ...findings import Outcome

__all__ = ["Resolution", "Resolver"]


@dataclass(frozen=True, slots=True)
class Resolution:
    """Metadata for one anchor, or why there is none (`outcome` is not OK)."""

    key: str
    outcome: Outcome
    title: str | None = None
    #: latest version (arXiv)
    version: int | None = None
    #: the withdrawal comment, when arXiv's latest version is a withdrawal notice
    withdrawn: str | None = None
    #: GitHub: open | closed; with state_reason and merged for PRs
    state: str | None = None
    state_reason: str | None = None
    merged: bool = False
    is_pull: bool = False
    #: the canonical page now (a transferred issue, a renamed repository)
    moved_to: str | None = None
    #: bibliographic facts, for `anchors export`: authors as written, first-version date
    #: (YYYY-MM-DD), the venue (arXiv journal_ref, a DOI's container title) and a venue DOI
    authors: tuple[str, ...] = ()
    published: str | None = None
    journal_ref: str | None = None
    doi: str | None = None
    #: GitHub: when an issue/PR was closed or merged (YYYY-MM-DD); a repository is archived
    closed_at: str | None = None
    merged_at: str | None = None
    archived: bool = False
    #: arXiv: the date of the returned version (YYYY-MM-DD) and the Comments line (venue hints)
    updated: str | None = None
    comment: str | None = None
    #: DOI: Crossref update relations (`retraction`, `correction`...) with the notice's DOI
    updates: tuple[tuple[str, str], ...] = ()
    status: int | None = None
    error: str | None = None

    def to_cache(self) -> dict[str, Any]:
        return {
            k: (list(map(_plain, v)) if isinstance(v, tuple) else v)
            for k, v in asdict(self).items()
            if v not in (None, False, ()) and k != "key"
        }

    @classmethod
    def from_cache(cls, key: str, data: dict[str, Any]) -> Resolution:
        fields = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
        fields["outcome"] = Outcome(fields.get("outcome", "ok"))
        if isinstance(fields.get("authors"), list):
            fields["authors"] = tuple(str(a) for a in fields["authors"])
        if isinstance(fields.get("updates"), list):
            fields["updates"] = tuple((str(u[0]), str(u[1])) for u in fields["updates"])
        return cls(key=key, **fields)


def _plain(v: Any) -> Any:
    return list(v) if isinstance(v, tuple) else v


class Resolver(Protocol):
    async def resolve(self, keys: list[Any]) -> dict[str, Resolution]:
        """Resolutions keyed by anchor key; every key asked for is in the answer."""
        ...
