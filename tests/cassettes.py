"""Cassettes: recorded HTTP exchanges in `cassettes/<service>/<scenario>.yaml`, replayed two ways.

Each file holds `interactions: [{request: {method, url}, response: {status, headers, body}}]`
with the body in the service's real wire format (Atom XML, GitHub JSON). `mock(router)` serves
them through respx to httpx clients; `serve()` serves them from a loopback server to the
requests-based `arxiv` client, matched on path and query. A request no interaction matches
fails the test with the URL that was asked for; a cassette file no test loaded fails the run.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import httpx
import respx
import yaml

from .loopback import LoopbackServer, Request, respond

__all__ = ["CASSETTES", "Cassette", "load", "used"]

CASSETTES = Path(__file__).resolve().parent.parent / "cassettes"
used: set[Path] = set()


def _norm(url: str) -> tuple[str, tuple[tuple[str, str], ...]]:
    parts = urlsplit(url)
    return parts.path, tuple(sorted(parse_qsl(parts.query, keep_blank_values=True)))


@dataclass
class Cassette:
    path: Path
    interactions: list[dict]
    misses: list[str] = field(default_factory=list)
    #: every request asked, in order: (method, URL or path, headers)
    seen: list[tuple[str, str, dict[str, str]]] = field(default_factory=list)

    def find(self, method: str, url: str, body: bytes = b"") -> dict | None:
        """The first unplayed interaction for this request; the last one repeats. An
        interaction with a `body` (form fields) matches only a request posting those fields."""
        want = _norm(url)
        form = sorted(parse_qsl(body.decode("utf-8", "replace"), keep_blank_values=True))
        matches = [
            i
            for i in self.interactions
            if i["request"]["method"] == method
            and _norm(i["request"]["url"]) == want
            and (
                "body" not in i["request"]
                or sorted(parse_qsl(i["request"]["body"], keep_blank_values=True)) == form
            )
        ]
        if not matches:
            return None
        for i in matches:
            if not i.get("_played"):
                i["_played"] = True
                return i["response"]
        return matches[-1]["response"]

    def reply(self, request: httpx.Request) -> httpx.Response:
        self.seen.append((request.method, str(request.url), dict(request.headers)))
        resp = self.find(request.method, str(request.url), request.content)
        if resp is None:
            self.misses.append(f"{request.method} {request.url}")
            return httpx.Response(599, content=b"no interaction in cassette")
        return httpx.Response(
            resp["status"],
            headers=resp.get("headers", {}),
            content=resp.get("body", "").encode("utf-8"),
        )

    def mock(self, router: respx.MockRouter) -> None:
        """Serve every interaction to httpx through respx, routed by host."""
        hosts = {urlsplit(i["request"]["url"]).hostname for i in self.interactions}
        for host in hosts:
            router.route(host=host).mock(side_effect=self.reply)

    def transport(self) -> httpx.MockTransport:
        """The same answers as an injectable transport, for one client only."""
        return httpx.MockTransport(self.reply)

    @contextmanager
    def serve(self) -> Iterator[LoopbackServer]:
        """A loopback server answering by path+query; `misses` lists what it could not."""

        def route(_: Request):  # one handler for every path
            async def handler(req: Request, w: asyncio.StreamWriter) -> bool:
                self.seen.append((req.method, req.path, req.headers))
                resp = self.find(req.method, req.path, req.body)
                if resp is None:
                    self.misses.append(f"{req.method} {req.path}")
                    return await respond(w, 599, b"no interaction in cassette", req=req)
                return await respond(
                    w,
                    resp["status"],
                    resp.get("body", "").encode("utf-8"),
                    resp.get("headers", {}),
                    req=req,
                )

            return handler

        with LoopbackServer(route) as srv:
            yield srv
        assert not self.misses, f"{self.path.name}: no interaction for {self.misses}"


def load(name: str) -> Cassette:
    path = CASSETTES / f"{name}.yaml"
    if not path.exists():
        raise FileNotFoundError(f"missing cassette {path}; add it (see cassettes/README.md)")
    used.add(path)
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    return Cassette(path, doc["interactions"])
