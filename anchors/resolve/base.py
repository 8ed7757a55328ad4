"""What a resolver returns: one `Resolution` per anchor key, failures included as values.

A resolution is the lookup's outcome plus the facts it learnt, typed per kind of anchor
(`history.facts`); the protocols say what each service's resolver offers the check.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, TypeVar

from ..figures.passages import SourceText
from ..findings import Outcome
from ..history.facts import ArxivFacts, Facts, facts_from_json, facts_to_json
from ..ids.model import AnchorKind, ArxivId

if TYPE_CHECKING:
    from ..net.cache import Cache

__all__ = ["ArxivFullText", "ArxivLookup", "FollowUp", "Mismatch", "Resolution", "Resolver"]

K_contra = TypeVar("K_contra", contravariant=True)


@dataclass(frozen=True, slots=True)
class Resolution:
    """One anchor's lookup: what it learnt, or why it learnt nothing (`outcome` is not OK)."""

    outcome: Outcome
    #: None for a failed lookup (and for an answer that held no metadata)
    facts: Facts | None = None
    status: int | None = None
    error: str | None = None
    #: False when nothing was asked (a spent rate limit): the anchor is not checked this run,
    #: and nothing about it is recorded
    asked: bool = True

    def to_cache(self) -> dict[str, object]:
        """The cache's flat object: the outcome, the status and the facts by name."""
        head: dict[str, object] = {"outcome": self.outcome.value}
        if self.status is not None:
            head["status"] = self.status
        return head | (facts_to_json(self.facts) if self.facts is not None else {})

    @classmethod
    def from_cache(cls, kind: AnchorKind, data: Mapping[str, object]) -> Resolution:
        """`to_cache` read back for an anchor of `kind`; ValueError for an unknown outcome."""
        status = data.get("status")
        return cls(
            Outcome(data.get("outcome", "ok")),
            facts_from_json(kind, data),
            status if isinstance(status, int) and not isinstance(status, bool) else None,
        )


class Resolver(Protocol[K_contra]):
    """A service that looks anchors up (arXiv, GitHub, DOI)."""

    async def resolve(self, keys: Iterable[K_contra]) -> dict[str, Resolution]:
        """Resolutions keyed by anchor key; every key asked for is in the answer."""
        ...


@dataclass(frozen=True, slots=True)
class Mismatch:
    """An arXiv paper whose written title is not its title: what a follow-up starts from."""

    cited: ArxivId
    written: str
    facts: ArxivFacts


@dataclass(frozen=True, slots=True)
class FollowUp:
    """What the extra arXiv requests for a title mismatch found."""

    #: the title of the cited (or first) version, when it was asked for
    cited_title: str | None = None
    cited_version: int | None = None
    #: (ID, title) of a paper whose title is the registry's, from a title search
    suggested: tuple[str, str] | None = None
    #: False when a request failed: not cached, asked again next run
    complete: bool = True

    def to_cache(self, written: str) -> dict[str, object]:
        return {
            "written": written,
            "cited_title": self.cited_title,
            "cited_version": self.cited_version,
            "suggested": list(self.suggested) if self.suggested else None,
        }

    @classmethod
    def from_cache(cls, data: Mapping[str, object], written: str) -> FollowUp | None:
        """The cached follow-up, if it was made for this same written title."""
        if data.get("written") != written:
            return None
        title, version = data.get("cited_title"), data.get("cited_version")
        suggested = data.get("suggested")
        return cls(
            title if isinstance(title, str) else None,
            version if isinstance(version, int) and not isinstance(version, bool) else None,
            (str(suggested[0]), str(suggested[1]))
            if isinstance(suggested, list) and len(suggested) == 2
            else None,
        )


class ArxivLookup(Resolver[ArxivId], Protocol):
    """The arXiv resolver, which can also look further into title mismatches."""

    async def follow_up(self, wanted: Mapping[str, Mismatch]) -> dict[str, FollowUp]:
        """For each mismatch (by key): the cited version's title, or a paper of that title."""
        ...


class ArxivFullText(Protocol):
    """arXiv's HTML full text of paper versions (`arxiv_html.ArxivHtml`)."""

    async def read(self, aid: ArxivId, cache: Cache | None = None) -> SourceText:
        """The passages of versioned `aid`'s HTML, and what could not be read (`gaps`)."""
        ...
