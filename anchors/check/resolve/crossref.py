"""Retractions and corrections from Crossref's update relations, one request per Crossref DOI.

Crossref records an update (retraction, correction, erratum, withdrawal...) as a relation
between a notice and the work it updates: the notice's record holds `update-to`, and the
work's record (`GET /works/{doi}`) lists its notices under `updated-by`, each with `type`,
`DOI`, `updated` and `source` (`publisher` or `retraction-watch`). Only the work's own record
is read; a DOI Crossref does not know (another agency's) is a 404 and has no updates to tell.
A 5xx, 408, 429 or a timeout is tried again under the run's one retry policy (check/retry.py).
"""

from __future__ import annotations

import httpx

from ...defaults import CROSSREF_API, USER_AGENT
from ..retry import RetryPolicy, Sent, send_once

__all__ = ["CROSSREF_API", "CrossrefUpdates"]


class CrossrefUpdates:
    def __init__(
        self,
        client: httpx.AsyncClient,
        api_url: str = CROSSREF_API,
        timeout: float = 10.0,
        policy: RetryPolicy | None = None,
    ) -> None:
        self.client = client
        self.api = api_url.rstrip("/")
        self.timeout = timeout
        self.policy = policy or RetryPolicy()
        self.requests = 0

    async def updates(self, doi: str) -> tuple[tuple[str, str], ...] | None:
        """(type, notice DOI) for each update relation; () for none; None if it cannot tell."""
        resp = (await self.policy.run(lambda: self._try(doi))).resp
        if resp is None or resp.status_code not in (200, 404):
            return None
        if resp.status_code == 404:
            return ()
        try:
            message = resp.json().get("message") or {}
        except (ValueError, AttributeError):
            return None
        return _relations(message, doi)

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
    for u in relations if isinstance(relations, list) else []:
        if not isinstance(u, dict):
            continue
        kind, notice = str(u.get("type") or "").lower(), str(u.get("DOI") or "")
        if kind and notice.lower() != doi.lower():
            out[(kind, notice)] = None  # the same notice from two sources counts once
    return tuple(out)
