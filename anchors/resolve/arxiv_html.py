"""arXiv's HTML full text of one paper version, read for a figure its abstract does not hold.

`<root>/<id>v<N>` (root `https://arxiv.org/html`, or the user's `--arxiv-html`), one request per
paper version, at arXiv's pace: every request takes its turn in the run's `ArxivPace`, shared
with the API's, so the two together keep to one request every three seconds. The page goes
through the same bounded session as the API's answers (`arxiv_client.TimeoutSession`: one
deadline, a cap on decoded bytes, redirects only on the root's host) and is read into passages
in the worker thread (`figures.latexml`), never on the event loop.

What was read is kept by versioned ID: the run cache says a version was read lately (no
request at all until it expires; `--no-cache` asks again), and the ETag store keeps the
passages with the page's `ETag`/`Last-Modified`, so asking again is a conditional request that
a 304 answers. A 404 is "no HTML version" (kept too: a PDF-only paper stays one); a timeout,
a page over the cap, a refused redirect or an error status is a gap of the `SourceText`.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import requests

from ..defaults import ARXIV_HTML, ARXIV_TIMEOUT, USER_AGENT
from ..figures.abstract import passages_from_abstract
from ..figures.latexml import BUDGET_GAP, html_scope, passages_from_latexml
from ..figures.passages import Passage, PassageKind, SourceText
from ..history.facts import ArxivFacts
from ..ids.model import ArxivId
from ..net.cache import Cache
from ..net.retry import RetryPolicy, parse_retry_after, retryable_error, retryable_status
from .arxiv_client import ArxivAnswerTooLarge, RedirectedOffHost, TimeoutSession
from .arxiv_pace import ArxivPace

__all__ = ["FRESH_PREFIX", "NO_HTML", "ArxivHtml", "abstract_of", "read_arxiv_html"]

#: the run cache's name for "this version's HTML was read lately": `arxiv-html:<id>v<N>`
FRESH_PREFIX = "arxiv-html"
#: the gap of a paper version arXiv has no HTML for (a 404: PDF-only, or not converted)
NO_HTML = "no HTML version"


@dataclass(frozen=True, slots=True)
class _Held:
    """What this machine kept of a page: its validators and the passages read from it."""

    etag: str
    modified: str
    source: SourceText


@dataclass(slots=True)
class _Got:
    """One try's answer, or why it ended; what the retry policy reads."""

    status: int | None = None
    body: bytes = b""
    headers: Mapping[str, str] | None = None
    error: str | None = None
    retryable: bool = False
    retry_after: float | None = None


class ArxivHtml:
    """Reads paper versions' HTML; `session` may be injected (tests), `pace` is the run's."""

    def __init__(
        self,
        root: str = ARXIV_HTML,
        *,
        pace: ArxivPace | None = None,
        timeout: float = ARXIV_TIMEOUT,
        etags: Cache | None = None,
        policy: RetryPolicy | None = None,
        session: requests.Session | None = None,
        sleep: Callable[[float], None] | None = None,
    ) -> None:
        self.root = root.rstrip("/")
        self.stopped = threading.Event()
        self.session = session or TimeoutSession(timeout, stop=self.stopped, pace=pace)
        self.timeout = timeout
        self.etags = etags
        self.policy = policy or RetryPolicy()
        self.sleep = sleep or self._wait
        #: requests sent, and how many a 304 answered
        self.requests = 0
        self.not_modified = 0

    def _wait(self, seconds: float) -> None:
        self.stopped.wait(seconds)  # a cancelled run ends a wait between tries

    def url(self, aid: ArxivId) -> str:
        return f"{self.root}/{aid.canonical}v{aid.version}"

    async def read(self, aid: ArxivId, cache: Cache | None = None) -> SourceText:
        """The passages of `aid`'s HTML (a versioned ID: each version is its own page)."""
        if aid.version is None:
            raise ValueError(f"{aid.canonical}: the HTML of a paper is read by version")
        try:
            return await asyncio.to_thread(self._read, aid, cache)
        except asyncio.CancelledError:
            self.stopped.set()  # the thread finishes its current request, then stops
            raise

    def _read(self, aid: ArxivId, cache: Cache | None) -> SourceText:
        key, url = f"{FRESH_PREFIX}:{aid.canonical}v{aid.version}", self.url(aid)
        held = self._held(url)
        fresh = cache.get(key) if cache is not None else None
        if fresh is not None and fresh.get("status") == 404:
            return _gap(aid.version, NO_HTML)
        if fresh is not None and held is not None:
            return held.source
        got = self.policy.run_sync(
            lambda: self._try(url, held), self.sleep, give_up=lambda _: self.stopped.is_set()
        )
        return self._judge(got, aid.version, url, held, lambda status: _mark(cache, key, status))

    def _try(self, url: str, held: _Held | None) -> _Got:
        """One request, conditional when a page was kept; never raises for the network."""
        self.requests += 1
        headers = {"User-Agent": USER_AGENT, "Accept": "text/html"}
        if held is not None and held.etag:
            headers["If-None-Match"] = held.etag
        if held is not None and held.modified:
            headers["If-Modified-Since"] = held.modified
        try:
            resp = self.session.get(url, headers=headers)
        except ArxivAnswerTooLarge as exc:  # "answer larger than 16777216 bytes (decoded)"
            return _Got(error=f"{exc}; not read")
        except RedirectedOffHost as exc:
            return _Got(error=str(exc))
        except requests.Timeout:
            return _Got(error=f"no complete answer within {self.timeout:g} s", retryable=True)
        except requests.RequestException as exc:
            why = f"arXiv HTML unreachable ({type(exc).__name__})"
            return _Got(error=why, retryable=retryable_error(exc))
        status = resp.status_code
        wait = parse_retry_after(resp.headers.get("retry-after"))
        return _Got(status, resp.content, resp.headers, None, retryable_status(status), wait)

    def _judge(
        self,
        got: _Got,
        version: int | None,
        url: str,
        held: _Held | None,
        mark: Callable[[int], None],
    ) -> SourceText:
        """What one answer means for the version's text (and what is kept of it)."""
        if got.error is not None or got.status is None:
            return _gap(version, f"{html_scope(version)} could not be read: {got.error}")
        if got.status in (404, 410):
            mark(404)
            return _gap(version, NO_HTML)
        if got.status == 304 and held is not None:
            self.not_modified += 1
            self._keep(url, held)
            mark(200)
            return held.source
        if got.status != 200:
            return _gap(version, f"arXiv HTML answered HTTP {got.status}")
        source = passages_from_latexml(got.body, version)
        if not any(g.startswith(BUDGET_GAP) for g in source.gaps):
            headers = got.headers or {}
            etag, modified = headers.get("etag") or "", headers.get("last-modified") or ""
            self._keep(url, _Held(etag, modified, source))
            mark(200)
        return source

    def _keep(self, url: str, held: _Held) -> None:
        if self.etags is not None:
            self.etags.put(f"etag:{url}", _to_store(held))

    def _held(self, url: str) -> _Held | None:
        if self.etags is None:
            return None
        return self.etags.get(f"etag:{url}", _from_store)


async def read_arxiv_html(
    reader: ArxivHtml, versioned: ArxivId, cache: Cache | None = None
) -> SourceText:
    """The HTML full text of the paper version `versioned` names, as passages (the check calls
    this only for a paper whose figure its abstract does not hold)."""
    return await reader.read(versioned, cache)


def abstract_of(facts: ArxivFacts, cited: ArxivId) -> SourceText | None:
    """The cited version's abstract as passages, from the API answer the check already has
    (which is the latest version's); None when `cited` names an older version (its HTML page
    holds its own abstract) or the answer had none."""
    if facts.abstract is None or (cited.version is not None and cited.version != facts.version):
        return None
    return passages_from_abstract(facts.abstract, facts.version)


def _gap(version: int | None, why: str) -> SourceText:
    return SourceText((), html_scope(version), (why,))


def _mark(cache: Cache | None, key: str, status: int) -> None:
    if cache is not None:
        cache.put(key, {"status": status})


def _to_store(held: _Held) -> dict[str, object]:
    passages = [[p.text, p.where, p.kind.value, p.version] for p in held.source.passages]
    kept = {"scope": held.source.scope, "passages": passages, "gaps": list(held.source.gaps)}
    return {"etag": held.etag, "modified": held.modified, "kept": kept}


def _from_store(data: dict[str, object]) -> _Held:
    """A kept page read back; KeyError/TypeError/ValueError for one not of this shape (the
    cache drops it)."""
    kept = data["kept"]
    if not isinstance(kept, dict) or not isinstance(kept["passages"], list):
        raise TypeError("kept")
    passages = tuple(
        Passage(str(t), str(w), PassageKind(k), str(v)) for t, w, k, v in kept["passages"]
    )
    gaps = tuple(str(g) for g in kept["gaps"])
    source = SourceText(passages, str(kept["scope"]), gaps)
    return _Held(str(data.get("etag") or ""), str(data.get("modified") or ""), source)
