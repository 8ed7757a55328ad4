"""arXiv metadata through the `arxiv` package, in batches, politely.

The `arxiv` client is synchronous (requests + time.sleep), so it runs in a worker thread. One
Client serves the whole run, so its own spacing keeps requests at least `delay` seconds apart
and one at a time, as arXiv's terms of use ask. What is tried again is the run's retry policy
(anchors.net.retry, run in this thread): a 429, a 5xx, a timeout or a reset, not a 400; the
client's own retries are off (anchors/resolve/arxiv_client.py sets it up). Results are
matched by ID, never by position: the API may reorder a batch and silently drops IDs it does not
have, so the missing ones are asked once more, on their own, before they are called not-found.
"""

from __future__ import annotations

import asyncio
import re
import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace

import arxiv
import requests

from ..defaults import (
    ARXIV_API,
    ARXIV_BATCH,
    ARXIV_MAX_SEARCHES,
    ARXIV_MIN_INTERVAL,
    ARXIV_TIMEOUT,
)
from ..errors import UsageError
from ..findings import Outcome
from ..history.facts import ArxivFacts
from ..ids.model import ArxivId, InvalidId
from ..net.retry import RetryPolicy, retryable_error, retryable_status
from ..titles import TitleVerdict, compare_titles, normalise
from .arxiv_client import NotAFeed, UnreadableFeed, answered_a_feed, make_client
from .arxiv_pace import ArxivPace
from .base import FollowUp, Mismatch, Resolution

__all__ = ["ARXIV_API", "ARXIV_BATCH", "ARXIV_MAX_SEARCHES", "ARXIV_MIN_INTERVAL", "ArxivResolver"]

_SEARCH_RESULTS = 5
_WITHDRAWN_RE = re.compile(r"\bwithdra(?:wn|w)\b", re.IGNORECASE)


@dataclass(slots=True)
class _Page:
    """One API request's results, or the error that ended it; what the retry policy reads."""

    results: list[arxiv.Result] = field(default_factory=list)
    error: Exception | None = None
    tries: int = 1

    @property
    def retryable(self) -> bool:
        e = self.error
        if isinstance(e, arxiv.HTTPError):
            return retryable_status(e.status)
        if isinstance(e, NotAFeed):  # a maintenance page passes
            return True
        return isinstance(
            e, (requests.RequestException, arxiv.UnexpectedEmptyPageError)
        ) and retryable_error(e)

    @property
    def retry_after(self) -> float | None:
        return None  # the client does not pass the headers on


class ArxivResolver:
    """Resolves ArxivIds; `client` may be injected (tests replay cassettes through it)."""

    def __init__(
        self,
        api_url: str = ARXIV_API,
        *,
        delay: float = ARXIV_MIN_INTERVAL,
        timeout: float = ARXIV_TIMEOUT,
        batch_size: int = ARXIV_BATCH,
        policy: RetryPolicy | None = None,
        client: arxiv.Client | None = None,
        max_searches: int = ARXIV_MAX_SEARCHES,
        sleep: Callable[[float], None] | None = None,
        pace: ArxivPace | None = None,
    ) -> None:
        self.batch_size = max(1, min(batch_size, ARXIV_BATCH))
        self.stopped = threading.Event()
        self.client = make_client(
            api_url,
            page_size=self.batch_size,
            delay=delay,
            timeout=timeout,
            client=client,
            stop=self.stopped,  # a cancelled run ends the request in flight too
            pace=pace,  # shared with the HTML full text's requests, when given
        )
        self.api_url = api_url
        self.policy = policy or RetryPolicy()
        #: how this thread waits between tries (the client's own spacing comes on top of it,
        #: so a retry is never closer than `delay`); a cancelled run stops the wait
        self.sleep = sleep or self.stopped_wait
        self.requests = 0
        #: title searches ("did you mean") allowed in this run; each is one more request
        self.max_searches = max(0, max_searches)
        self.searches = 0

    def stopped_wait(self, seconds: float) -> None:
        self.stopped.wait(seconds)

    def _fetch(self, search: arxiv.Search) -> _Page:
        """One request for `search`, tried again as the retry policy says."""
        self.client.page_size = search.max_results or _SEARCH_RESULTS
        tries = 0

        def attempt() -> _Page:
            nonlocal tries
            tries += 1
            self.requests += 1
            try:
                results = list(self.client.results(search))
            except (arxiv.ArxivError, requests.RequestException) as exc:
                return _Page(error=exc, tries=tries)
            except (ValueError, OverflowError) as exc:  # the feed's content, not the network
                return _Page(error=UnreadableFeed(str(exc)), tries=tries)
            if not answered_a_feed(self.client):
                return _Page(error=NotAFeed(), tries=tries)
            return _Page(results, tries=tries)

        return self.policy.run_sync(attempt, self.sleep, give_up=lambda _: self.stopped.is_set())

    async def resolve(self, keys: Iterable[ArxivId]) -> dict[str, Resolution]:
        key_of = {k.canonical: k.key for k in keys}  # a cited version is the same paper
        try:
            return await asyncio.to_thread(self._resolve_all, key_of)
        except asyncio.CancelledError:
            self.stopped.set()  # the thread finishes its current request, then stops
            raise

    def _resolve_all(self, key_of: dict[str, str]) -> dict[str, Resolution]:
        """Resolutions by key of the papers `key_of` names by canonical ID, in batches."""
        out: dict[str, Resolution] = {}
        ids = list(key_of)
        for i in range(0, len(ids), self.batch_size):
            if self.stopped.is_set():
                break
            batch = ids[i : i + self.batch_size]
            found, failure = self._query(batch)
            missing = [b for b in batch if b not in found]
            if missing and failure is None and not self.stopped.is_set():
                again, failure = self._query(missing)
                found.update(again)
            for canon in batch:
                key = key_of[canon]
                if canon in found:
                    out[key] = found[canon]
                elif failure is not None:  # the request failed: say why, for every ID in it
                    out[key] = failure
                else:
                    out[key] = Resolution(
                        Outcome.DEAD,
                        status=200,
                        error="arXiv has no paper with this ID (asked twice)",
                    )
        return out

    async def follow_up(self, wanted: Mapping[str, Mismatch]) -> dict[str, FollowUp]:
        """For each title mismatch: the cited version's title, else a search by the written title.

        Both go through the same client, so they are spaced like every other arXiv request.
        """
        return await asyncio.to_thread(self._follow_all, wanted)

    def _follow_all(self, wanted: Mapping[str, Mismatch]) -> dict[str, FollowUp]:
        out: dict[str, FollowUp] = {}
        for key, mismatch in wanted.items():
            if self.stopped.is_set():
                break
            aid, written, latest = mismatch.cited, mismatch.written, mismatch.facts.version
            follow = FollowUp()
            cited = aid.version or (1 if (latest or 1) > 1 else None)
            if cited and cited != latest:
                got = self._results(
                    arxiv.Search(id_list=[f"{aid.canonical}v{cited}"], max_results=1)
                )
                if got:
                    follow = replace(follow, cited_title=got[0][1], cited_version=cited)
                    if compare_titles(written, got[0][1]) is TitleVerdict.SAME:
                        out[key] = follow
                        continue
                follow = replace(follow, complete=got is not None)
            if self.searches < self.max_searches:
                self.searches += 1
                hits = self._search(written)
                found = next(
                    (
                        h
                        for h in hits or ()
                        if h[0] != aid.canonical
                        and compare_titles(written, h[1]) is TitleVerdict.SAME
                    ),
                    None,
                )
                follow = replace(
                    follow, suggested=found, complete=follow.complete and hits is not None
                )
            out[key] = follow
        return out

    def _search(self, written: str) -> list[tuple[str, str]] | None:
        words = " ".join(w for w in normalise(written).split() if w.isascii())
        if not words:
            return []
        return self._results(arxiv.Search(query=f'ti:"{words}"', max_results=_SEARCH_RESULTS))

    def _results(self, search: arxiv.Search) -> list[tuple[str, str]] | None:
        """(canonical ID, title) of each real result; None when the request failed."""
        page = self._fetch(search)
        if page.error is not None:
            return None
        out = []
        for result in page.results:
            got = _paper(result)
            if got is not None and got[1].title:
                out.append((got[0].canonical, got[1].title))
        return out

    def _query(self, ids: list[str]) -> tuple[dict[str, Resolution], Resolution | None]:
        """One API request for `ids`: (found by canonical ID, or the failure for all)."""
        page = self._fetch(arxiv.Search(id_list=ids, max_results=len(ids)))
        asked = set(ids)
        found: dict[str, Resolution] = {}
        for result in page.results:
            got = _paper(result)
            if got is not None and got[0].canonical in asked:
                found.setdefault(got[0].canonical, Resolution(Outcome.OK, got[1], status=200))
        exc = page.error
        if isinstance(exc, arxiv.HTTPError):
            if exc.status in (404, 405, 410):
                # The query endpoint itself is missing: the arXiv API never answers this for
                # /api/query, so `--arxiv-api` points somewhere else (a configuration error).
                raise UsageError(
                    f"--arxiv-api {self.api_url}: answered HTTP {exc.status}, "
                    "which the arXiv API does not; check the URL"
                ) from None
            outcome = (
                Outcome.RATE_LIMITED
                if exc.status in (429, 503)
                else Outcome.UNVERIFIABLE
                if exc.status == 400
                else Outcome.UNREACHABLE
            )
            return found, Resolution(
                outcome,
                status=exc.status,
                error=f"arXiv API answered HTTP {exc.status} after {page.tries} tries",
            )
        if isinstance(exc, NotAFeed):
            return found, Resolution(
                Outcome.UNVERIFIABLE,
                status=200,
                error=f"arXiv API answered 200 with no Atom feed "
                f"after {page.tries} tries (a maintenance page?)",
            )
        if isinstance(exc, UnreadableFeed):
            why = f"arXiv API answer could not be read ({exc})"
            return found, Resolution(Outcome.UNVERIFIABLE, status=200, error=why)
        if exc is not None:
            return found, Resolution(
                Outcome.UNREACHABLE, error=f"arXiv API unreachable ({type(exc).__name__})"
            )
        return found, None


def _paper(result: arxiv.Result) -> tuple[ArxivId, ArxivFacts] | None:
    """The ID (with the version returned) and facts of one API result; None for no paper."""
    entry = result.entry_id or ""
    if "/api/errors" in entry:  # the API's fake "Error" entry; never trust the title
        return None
    try:
        parsed = ArxivId.parse(result.get_short_id())
    except (InvalidId, ValueError):
        return None
    comment = result.comment or ""
    withdrawn = comment if _WITHDRAWN_RE.search(comment) else None
    return parsed, ArxivFacts(
        title=" ".join(result.title.split()),
        version=parsed.version,
        withdrawn=withdrawn,
        authors=tuple(a.name for a in result.authors),
        published=result.published.date().isoformat() if result.published else None,
        journal_ref=result.journal_ref or None,
        doi=result.doi or None,
        updated=result.updated.date().isoformat() if result.updated else None,
        comment=comment or None,
        abstract=" ".join((result.summary or "").split()) or None,
    )
