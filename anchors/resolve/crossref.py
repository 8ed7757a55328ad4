"""Retractions, corrections and preprints from Crossref's relations, one request per Crossref DOI.

Crossref records an update (retraction, correction, erratum, withdrawal...) as a relation
between a notice and the work it updates: the notice's record holds `update-to`, and the
work's record (`GET /works/{doi}`) lists its notices under `updated-by`, each with `type`,
`DOI`, `updated` and `source` (`publisher` or `retraction-watch`). The same record's
`relation` says which preprint the work is a version of (`has-preprint`, `is-preprint-of`;
each `{"id-type", "id"}`): an arXiv one is named by its arXiv ID, its arXiv DOI
(`10.48550/arXiv.ID`) or its URL. Only the work's own record is read; a DOI Crossref does not
know (another agency's) is a 404 and has nothing to tell. A 5xx, 408, 429 or a timeout is tried
again under the run's one retry policy (net/retry.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit

import httpx

from ..defaults import CROSSREF_API, DEFAULT_TIMEOUT, USER_AGENT
from ..ids.model import AnchorKey, ArxivId, Doi, InvalidId
from ..ids.urls import key_from_url
from ..net.bounded import Unreadable, answer_json
from ..net.retry import RetryPolicy, Sent, send_once

__all__ = ["CROSSREF_API", "CrossrefRecord", "CrossrefUpdates"]


@dataclass(frozen=True, slots=True)
class CrossrefRecord:
    """What a work's Crossref record says beside its metadata."""

    #: (type, notice DOI) for each update relation
    updates: tuple[tuple[str, str], ...] = ()
    #: the arXiv IDs (canonical, unversioned) Crossref names as this work's preprint
    preprints: tuple[str, ...] = ()
    #: why Crossref's answer could not be read, when it could not (it is JSON by its own
    #: account, but malformed or nested too deep): what it holds is unverifiable
    unreadable: str | None = None


class CrossrefUpdates:
    def __init__(
        self,
        client: httpx.AsyncClient,
        api_url: str = CROSSREF_API,
        timeout: float = DEFAULT_TIMEOUT,
        policy: RetryPolicy | None = None,
    ) -> None:
        self.client = client
        self.api = api_url.rstrip("/")
        self.timeout = timeout
        self.policy = policy or RetryPolicy()
        self.requests = 0

    def holds(self, url: httpx.URL) -> bool:
        """Whether doi.org sent a DOI's metadata from Crossref (so Crossref has its record): a
        Crossref host, or anywhere under the configured API root (a mirror, a test's fake)."""
        return "crossref" in (url.host or "") or str(url).startswith(self.api + "/")

    async def updates(self, doi: str) -> tuple[tuple[str, str], ...] | None:
        """(type, notice DOI) for each update relation; () for none; None if it cannot tell."""
        got = await self.record(doi)
        return got.updates if got is not None else None

    async def record(self, doi: str) -> CrossrefRecord | None:
        """The work's update relations and arXiv preprints; None if Crossref cannot tell."""
        resp = (await self.policy.run(lambda: self._try(doi))).resp
        if resp is None or resp.status_code not in (200, 404):
            return None
        if resp.status_code == 404:
            return CrossrefRecord()
        try:
            doc = answer_json(resp)
        except Unreadable as exc:
            return CrossrefRecord(unreadable=str(exc))
        message = doc.get("message") if isinstance(doc, dict) else None
        if not isinstance(message, dict):
            return None
        return CrossrefRecord(_relations(message, doi), _preprints(message.get("relation")))

    async def _try(self, doi: str) -> Sent:
        self.requests += 1
        return await send_once(
            lambda: self.client.get(
                f"{self.api}/works/{doi}",
                timeout=self.timeout,
                headers={"Accept": "application/json", "User-Agent": USER_AGENT},
                follow_redirects=False,
            )
        )


def _relations(message: dict[str, object], doi: str) -> tuple[tuple[str, str], ...]:
    out: dict[tuple[str, str], None] = {}
    relations = message.get("updated-by")
    for update in relations if isinstance(relations, list) else []:
        if not isinstance(update, dict):
            continue
        kind, notice = str(update.get("type") or "").lower(), str(update.get("DOI") or "")
        if kind and notice.lower() != doi.lower():
            out[(kind, notice)] = None  # the same notice from two sources counts once
    return tuple(out)


def _preprints(relation: object) -> tuple[str, ...]:
    """The arXiv IDs a `relation` object names as preprints (`has-preprint`, `is-preprint-of`)."""
    out: dict[str, None] = {}
    items = relation if isinstance(relation, dict) else {}
    for kind in ("has-preprint", "is-preprint-of"):
        group = items.get(kind)
        for related in group if isinstance(group, list) else []:
            if isinstance(related, dict) and (
                found := _arxiv_of(related.get("id-type"), related.get("id"))
            ):
                out[found] = None
    return tuple(out)


def _arxiv_of(kind: object, ident: object) -> str | None:
    """The arXiv ID a relation's identifier names: `arxiv` (`arXiv:2106.09685`), a `doi`
    (`10.48550/arXiv.2106.09685`) or a `uri` (`https://arxiv.org/abs/2106.09685`)."""
    text = str(ident or "").strip()
    key: AnchorKey
    try:
        if kind == "arxiv":
            key = ArxivId.parse(text)
        elif kind == "doi":
            key = Doi.parse(text)
        elif kind == "uri" and urlsplit(text).scheme in ("http", "https"):
            key = key_from_url(text)
        else:
            return None
    except (InvalidId, ValueError):
        return None
    return key.canonical if isinstance(key, ArxivId) else None
