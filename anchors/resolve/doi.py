"""DOIs through doi.org content negotiation (any registration agency: Crossref, DataCite...).

`GET https://doi.org/<doi>` with a CSL-JSON Accept header redirects to the agency's metadata;
an unknown DOI is a 404 at doi.org itself. Redirect hops go through the same guarded client
as link checks, so a DOI cannot lead the checker to a private address. A 5xx, 408 or 429
and a timeout or reset are tried again under the run's retry policy (anchors.net.retry).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import httpx

from ..defaults import DEFAULT_TIMEOUT, DOI_API, USER_AGENT
from ..findings import Outcome
from ..history.facts import DoiFacts
from ..ids.model import Doi
from ..net.bounded import Unreadable, answer_json
from ..net.netguard import Blocked, GuardError
from ..net.redirects import follow, location_of
from ..net.retry import (
    RetryPolicy,
    error_chain,
    parse_retry_after,
    retryable_error,
    retryable_status,
)
from .base import Resolution
from .crossref import CrossrefRecord, CrossrefUpdates

__all__ = ["DOI_API", "DoiResolver"]

_CSL = "application/vnd.citationstyles.csl+json"
_HEADERS = {"Accept": _CSL, "User-Agent": USER_AGENT}
#: doi.org sends a DOI to its agency, which may redirect once or twice more
_MAX_REDIRECTS = 4


@dataclass(slots=True)
class _Answer:
    """One DOI lookup try, redirects followed: the answer, or the failure that ended it."""

    resp: httpx.Response | None = None
    failed: Resolution | None = None
    url: httpx.URL | None = None
    retryable: bool = False
    retry_after: float | None = None


class DoiResolver:
    def __init__(
        self,
        client: httpx.AsyncClient,
        api_url: str = DOI_API,
        timeout: float = DEFAULT_TIMEOUT,
        crossref: CrossrefUpdates | None = None,
        policy: RetryPolicy | None = None,
    ) -> None:
        self.client = client
        #: asked for update relations when doi.org sends a DOI to Crossref
        self.crossref = crossref
        self.api = api_url.rstrip("/")
        self.timeout = timeout
        self.policy = policy or RetryPolicy()
        self.requests = 0

    async def resolve(self, keys: Iterable[Doi]) -> dict[str, Resolution]:
        return {d.key: await self._one(d) for d in dict.fromkeys(keys)}

    async def _one(self, doi: Doi) -> Resolution:
        got = await self.policy.run(lambda: self._try(doi))
        if got.failed is not None:
            return got.failed
        resp, url = got.resp, got.url
        assert resp is not None and url is not None
        if resp.status_code == 404:
            return Resolution(Outcome.DEAD, status=404, error=f"doi.org does not know {doi.doi}")
        if resp.status_code != 200:
            return Resolution(
                Outcome.UNVERIFIABLE,
                status=resp.status_code,
                error=f"DOI metadata answered HTTP {resp.status_code}",
            )
        try:
            data = answer_json(resp)
        except Unreadable as exc:
            return _unreadable("the DOI's metadata", exc)
        if not isinstance(data, dict):  # a landing page: the agency reads no Accept header
            return Resolution(Outcome.OK, status=200)
        record = None
        if self.crossref is not None and self.crossref.holds(url):
            record = await self.crossref.record(doi.doi)
        if record is not None and record.unreadable is not None:
            return _unreadable("Crossref's record (retractions, corrections)", record.unreadable)
        return Resolution(Outcome.OK, _csl_facts(data, record or CrossrefRecord()), status=200)

    async def _try(self, doi: Doi) -> _Answer:
        """doi.org and the agency it sends us to; a 5xx or a timeout is worth another try."""
        url = httpx.URL(f"{self.api}/{doi.encoded}")  # `#`, `%`, `?` in a DOI are not URL syntax
        try:
            end = await follow(url, self._get, location_of, max_redirects=_MAX_REDIRECTS)
        except (httpx.HTTPError, GuardError) as exc:
            guard = next((e for e in error_chain(exc) if isinstance(e, GuardError)), None)
            outcome = Outcome.BLOCKED if isinstance(guard, Blocked) else Outcome.UNREACHABLE
            error = guard.reason if guard else f"DOI lookup failed ({type(exc).__name__})"
            return _Answer(failed=Resolution(outcome, error=error), retryable=retryable_error(exc))
        if end.stop is not None:
            return _Answer(failed=Resolution(Outcome.UNREACHABLE, error=end.reason(_MAX_REDIRECTS)))
        status = end.answer.status_code
        return _Answer(
            end.answer,
            url=end.url,
            retryable=retryable_status(status),
            retry_after=parse_retry_after(end.answer.headers.get("retry-after")),
        )

    async def _get(self, url: httpx.URL) -> httpx.Response:
        self.requests += 1
        return await self.client.get(
            url, headers=_HEADERS, follow_redirects=False, timeout=self.timeout
        )


def _unreadable(what: str, why: object) -> Resolution:
    """An answer that could not be read: its facts unverifiable, never a verdict on the DOI."""
    return Resolution(Outcome.UNVERIFIABLE, status=200, error=f"{what} could not be read ({why})")


def _small(digits: str) -> bool:
    return digits.isascii() and digits.isdigit() and len(digits) < 6


def _first(value: object) -> str | None:
    if isinstance(value, list):
        value = value[0] if value else None
    return str(value) if value else None


def _csl_facts(data: dict[str, object], record: CrossrefRecord) -> DoiFacts:
    """Title, authors, issue date and container title from a CSL-JSON item (all optional)."""
    authors = []
    for author in _list(data.get("author")):
        if isinstance(author, dict):
            name = author.get("literal") or " ".join(
                str(author[k]) for k in ("given", "family") if author.get(k)
            )
            if name:
                authors.append(str(name))
    issued = data.get("issued")
    parts = issued.get("date-parts") if isinstance(issued, dict) else None
    published = None
    if isinstance(parts, list) and parts and isinstance(parts[0], list) and parts[0]:
        # ASCII digits, a year's worth at most (`²` is a digit to isdigit, not to int)
        nums = [int(x) for x in map(str, parts[0][:3]) if _small(x)]
        published = "-".join(f"{n:02d}" if i else str(n) for i, n in enumerate(nums)) or None
    return DoiFacts(
        title=_first(data.get("title")),  # Crossref's own API gives lists
        authors=tuple(authors),
        published=published,
        journal_ref=_first(data.get("container-title")),
        updates=record.updates,
        preprints=record.preprints,
        volume=_first(data.get("volume")),
        issue=_first(data.get("issue")),
        page=_first(data.get("page")),
        # CSL's word, though Crossref's own API says `journal-article`
        work_type={"journal-article": "article-journal"}.get(kind, kind)
        if (kind := _first(data.get("type")))
        else None,
    )


def _list(value: object) -> list[object]:
    return value if isinstance(value, list) else []
