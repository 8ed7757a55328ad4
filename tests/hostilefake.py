"""One loopback server playing every service `check` asks, each of which can turn hostile.

A web site (`/page`, and `/moved`, a redirect whose Location is raw UTF-8), GitHub's REST API
(`/gh`), doi.org sending a DOI to Crossref's transform (`/doi`), Crossref's REST API
(`/crossref`), arXiv's API (`/api/query`), the Wayback Machine's availability API and its
snapshots (`/wayback/available`, `/web/...`) and Save Page Now (`/save`), in the shapes anchors
reads (tests/claimfakes.py, cassettes/). `hostile` names one service and how it misbehaves:
"header" (raw Latin-1 and raw UTF-8 bytes in its response headers), "nested" (100,000 `[` as
its JSON), "headers" (the headers and status a test gives); for arXiv "bad-date" (an entry
whose date no calendar has); for GitHub "etag" (an ETag holding raw UTF-8), "surrogate"
(a title with a `\ud800` escape and no partner); for doi.org "marks" and "spaces" (titles of
320,000 combining marks, of 80,000 spaces).
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

from .loopback import LoopbackServer, Request, respond

__all__ = ["DOI", "ISSUE", "PAPER", "SNAPSHOT", "Services"]

DOI = "10.1234/abc"
ISSUE = "https://github.com/acme/engine/issues/5"
PAPER = "2309.06180"
#: the Wayback timestamp of every snapshot and capture the fake knows
SNAPSHOT = "20260918103000"
#: header values as a server may send them: a Latin-1 byte, and raw UTF-8 (sent as Latin-1
#: characters, so `respond` writes the UTF-8 bytes as they are)
_HOSTILE_HEADERS = {"X-Note": "caf\xe9", "X-Name": "café".encode().decode("latin-1")}
_JSON = {"Content-Type": "application/json; charset=utf-8"}
_NESTED = b"[" * 100_000
#: a title by how its service misbehaves: a lone surrogate; 320,000 combining marks, which
#: Python's normalization puts in order by insertion (minutes); 80,000 spaces, which the title
#: rules' separator patterns went over again from each space (87 s)
_TITLES = {
    ("github", "surrogate"): "Engine \ud800stalls",
    ("doi", "marks"): "A Paper" + "\u0301\u0316" * 160_000,
    ("doi", "spaces"): "A" + " " * 80_000 + "Paper",
}
_CSL = {
    "type": "article-journal",
    "DOI": DOI,
    "title": "A Paper",
    "issued": {"date-parts": [[2024]]},
}


@dataclass
class Services:
    """`hostile`: (service, kind), or None for services that all behave."""

    hostile: tuple[str, str] | None = None
    #: Wayback knows no snapshot (so `--archive-save` asks Save Page Now for captures)
    no_snapshots: bool = False
    #: for the kind "headers": these headers (values as Latin-1 characters: their bytes are
    #: sent), and this status, instead of the service's own
    headers: dict[str, str] | None = None
    status: int | None = None
    #: the port to serve on (0: any); a second run on the same port finds its ETags again
    port: int = 0
    #: GitHub requests, and those that came with `If-None-Match`
    github_asked: int = 0
    conditional: int = 0

    def server(self) -> LoopbackServer:
        def route(_: Request):  # type: ignore[no-untyped-def]
            return self._handle

        return LoopbackServer(route, port=self.port)

    def _is(self, service: str, kind: str) -> bool:
        return self.hostile == (service, kind)

    async def _send(
        self,
        w: asyncio.StreamWriter,
        req: Request,
        who: str,
        status: int,
        body: bytes,
        **h: str,
    ) -> bool:
        """The answer, made hostile when service `who` is the one that misbehaves."""
        headers = dict(h)
        if self._is(who, "header"):
            headers.update(_HOSTILE_HEADERS)
        if self._is(who, "nested") and body.startswith((b"{", b"[")):
            body = _NESTED
        if self._is(who, "headers"):
            headers.update(self.headers or {})
            status = self.status or status
        return await respond(w, status, body, headers, req=req)

    async def _handle(self, req: Request, w: asyncio.StreamWriter) -> bool:
        path = unquote(urlsplit(req.path).path)
        if path in ("/page", "/café"):
            return await self._send(w, req, "link", 200, b"<html><body>live</body></html>")
        if path == "/moved":  # raw UTF-8 bytes in the Location, with a Latin-1 header beside
            to = "/café".encode().decode("latin-1")
            return await self._send(w, req, "link", 302, b"", Location=to)
        if path.startswith("/gh/"):
            return await self._github(req, w, path)
        if path.startswith(("/doi/", "/crossref/")):
            return await self._doi(req, w, path)
        if path == "/api/query":
            return await self._arxiv(req, w)
        if path.startswith(("/wayback/", "/web/")):
            return await self._wayback(req, w, path)
        if path.startswith("/save"):
            return await self._save(req, w, path)
        return await respond(w, 404, b"no route", req=req)

    async def _github(self, req: Request, w: asyncio.StreamWriter, path: str) -> bool:
        self.github_asked += 1
        self.conditional += "if-none-match" in req.headers
        etag = {"ETag": 'W/"café"'.encode().decode("latin-1")} if self._is("github", "etag") else {}
        if path != "/gh/repos/acme/engine/issues/5":
            return await self._send(w, req, "github", 404, b'{"message": "Not Found"}', **_JSON)
        issue = {
            "html_url": ISSUE,
            "number": 5,
            "title": _TITLES.get(self.hostile, "Engine stalls"),
            "state": "open",
            "state_reason": None,
            "closed_at": None,
        }
        body = json.dumps(issue).encode()
        return await self._send(w, req, "github", 200, body, **_JSON, **etag)

    async def _doi(self, req: Request, w: asyncio.StreamWriter, path: str) -> bool:
        if path == f"/doi/{DOI}":  # doi.org's hop to the agency
            to = f"/crossref/v1/works/{DOI}/transform"
            return await self._send(w, req, "doi", 302, b"", Location=to)
        if path == f"/crossref/v1/works/{DOI}/transform":
            csl = {**_CSL, "title": _TITLES.get(self.hostile, "A Paper")}
            return await self._send(w, req, "doi", 200, json.dumps(csl).encode(), **_JSON)
        if path == f"/crossref/works/{DOI}":
            record = {"status": "ok", "message": {"DOI": DOI, "updated-by": []}}
            return await self._send(w, req, "crossref", 200, json.dumps(record).encode(), **_JSON)
        return await respond(w, 404, b'{"message": "Not Found"}', _JSON, req=req)

    async def _arxiv(self, req: Request, w: asyncio.StreamWriter) -> bool:
        day = "2023-09-12"
        when = "yesterday" if self._is("arxiv", "bad-date") else f"{day}T12:00:00Z"
        entry = (
            f"<entry><id>http://arxiv.org/abs/{PAPER}v1</id><title>A Paper</title>"
            f"<updated>{when}</updated><published>{day}T12:00:00Z</published>"
            "<author><name>A. Author</name></author></entry>"
        )
        feed = (
            '<feed xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/" '
            'xmlns:arxiv="http://arxiv.org/schemas/atom" xmlns="http://www.w3.org/2005/Atom">'
            "<opensearch:itemsPerPage>1</opensearch:itemsPerPage>"
            "<opensearch:totalResults>1</opensearch:totalResults>"
            f"<opensearch:startIndex>0</opensearch:startIndex>{entry}</feed>"
        )
        atom = {"Content-Type": "application/atom+xml"}
        return await self._send(w, req, "arxiv", 200, feed.encode(), **atom)

    async def _wayback(self, req: Request, w: asyncio.StreamWriter, path: str) -> bool:
        if path.startswith("/web/"):  # a snapshot (or a capture) is there
            return await self._send(w, req, "wayback", 200, b"", **{"Content-Type": "text/html"})
        url = dict(p.split("=", 1) for p in urlsplit(req.path).query.split("&")).get("url", "")
        snap = {
            "status": "200",
            "available": True,
            "url": f"http://web.archive.org/web/{SNAPSHOT}/{unquote(url)}",
            "timestamp": SNAPSHOT,
        }
        found = {} if self.no_snapshots else {"closest": snap}
        body = json.dumps({"url": unquote(url), "archived_snapshots": found}).encode()
        return await self._send(w, req, "wayback", 200, body, **_JSON)

    async def _save(self, req: Request, w: asyncio.StreamWriter, path: str) -> bool:
        if path == "/save" and req.method == "POST":
            job = {"url": "page", "job_id": "spn2-0123abcd"}
            return await self._send(w, req, "save", 200, json.dumps(job).encode(), **_JSON)
        if path == "/save/status/spn2-0123abcd":
            done = {"status": "success", "timestamp": SNAPSHOT, "original_url": "page"}
            return await self._send(w, req, "save", 200, json.dumps(done).encode(), **_JSON)
        return await respond(w, 404, b'{"status": "error"}', _JSON, req=req)
