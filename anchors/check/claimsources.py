"""The sources a check reads for the figures and quotes briefings attribute, each once a run.

An arXiv paper is read in two steps: the abstract of the cited version, from the API answer
the metadata lookup already has (no request), and only for a claim not found there, the HTML
full text of that version (`resolve.arxiv_html`: one request per version, cached, at the
API's pace). A GitHub issue or pull request is read whole: body, every comment page, a pull
request's review comments and reviews (`resolve.github_thread`, through the API client, its
rate budget and ETags). What could not be read is a gap of the `SourceText`, so a figure
missing from it is `unverifiable`, never `not-found`. An anchor whose lookup failed is not
read again here: its gap says why.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace

from ..figures.passages import SourceText
from ..history.facts import ArxivFacts
from ..ids.model import ArxivId, GithubRef
from ..net.cache import Cache
from ..registry.model import Anchor
from ..resolve.base import ArxivFullText, Resolution

__all__ = ["ClaimSources", "ThreadReader", "cited_version"]

#: reads a GitHub issue or pull request's whole thread (`resolve.github_thread`)
ThreadReader = Callable[[GithubRef], Awaitable[SourceText]]


def cited_version(anchor: Anchor, facts: ArxivFacts | None) -> ArxivId | None:
    """The paper version the entry cites (its pinned version, else the latest the API gave);
    None when neither says one."""
    if not isinstance(anchor.key, ArxivId):
        return None
    version = anchor.key.version or anchor.version or (facts.version if facts is not None else None)
    return replace(anchor.key, version=version) if version else None


def _nothing(scope: str, why: str) -> SourceText:
    return SourceText((), scope, (why,))


def _failed(resolution: Resolution | None, what: str) -> str | None:
    """Why the anchor's own lookup says its source cannot be read this run, if it does."""
    if resolution is None:
        return f"the {what} was not looked up in this run"
    if resolution.outcome.failed or resolution.facts is None:
        return f"the {what} could not be looked up ({resolution.error or resolution.outcome.value})"
    return None


@dataclass(slots=True)
class ClaimSources:
    """The run's readers and what they read, by paper version and by thread."""

    html: ArxivFullText | None = None
    threads: ThreadReader | None = None
    cache: Cache | None = None
    _full: dict[str, SourceText] = field(default_factory=dict)
    _threads: dict[str, SourceText] = field(default_factory=dict)

    def abstract(self, anchor: Anchor, resolution: Resolution | None) -> SourceText | None:
        """The cited version's abstract, from the lookup's answer; None when there is none (an
        older version is cited, or the lookup failed)."""
        facts = (
            resolution.facts if resolution is not None and not resolution.outcome.failed else None
        )
        cited = cited_version(anchor, facts if isinstance(facts, ArxivFacts) else None)
        if not isinstance(facts, ArxivFacts) or cited is None:
            return None
        from ..resolve.arxiv_html import abstract_of  # it sends through `requests`: on first use

        return abstract_of(facts, cited)

    async def paper(self, anchor: Anchor, resolution: Resolution | None) -> SourceText:
        """The cited version's abstract and HTML full text together (one request per version
        a run, none while the run cache holds it)."""
        why = _failed(resolution, "paper")
        facts = resolution.facts if resolution is not None else None
        cited = cited_version(anchor, facts if isinstance(facts, ArxivFacts) else None)
        if why is not None or cited is None:
            return _nothing("nothing", why or "the paper's version is not known")
        name = f"{cited.canonical}v{cited.version}"
        if name not in self._full:
            self._full[name] = await self._paper(cited, self.abstract(anchor, resolution))
        return self._full[name]

    async def _paper(self, cited: ArxivId, abstract: SourceText | None) -> SourceText:
        if self.html is None:
            full = _nothing(f"HTML v{cited.version}", "the HTML full text is not read in this run")
        else:
            full = await self.html.read(cited, self.cache)
        if abstract is None:
            return full
        return SourceText(
            abstract.passages + full.passages,
            f"{abstract.scope} + {full.scope}",
            abstract.gaps + full.gaps,
        )

    async def thread(self, anchor: Anchor, resolution: Resolution | None) -> SourceText:
        """The issue or pull request's whole thread, read once a run."""
        assert isinstance(anchor.key, GithubRef)
        why = _failed(resolution, "issue")
        if why is not None:
            return _nothing("nothing", why)
        if self.threads is None:
            return _nothing("nothing", "GitHub threads are not read in this run")
        key = anchor.key.key
        if key not in self._threads:
            self._threads[key] = await self.threads(anchor.key)
        return self._threads[key]
