"""One loopback server for the figures check: the arXiv API (papers with their abstracts), arXiv's
HTML full text (LaTeXML pages, with ETags) and the GitHub API (tests/githubfake.py: issues,
threads paged by Link, ETags and 304s), on one port, so a plain `anchors check` reaches all
three through `--arxiv-api`, `--arxiv-html` and `--github-api`.

The answers have the services' real shapes (shared/reference, cassettes/): the Atom feed's
`<summary>` is the abstract in raw TeX; a page is LaTeXML's markup (`ltx_document`, `ltx_p`,
`figure.ltx_table` with its caption's tag, `<math alttext>`), written by us around the numbers
a test needs; a DOI answers CSL-JSON as doi.org does. Every request is counted by service
(`asked`), every HTML status in `html_statuses`, GitHub's in `github.statuses`.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import socket
from collections import Counter
from dataclasses import dataclass, field
from html import escape
from urllib.parse import parse_qs, unquote, urlsplit

from .claimfakes import atom_feed
from .githubfake import FakeGithub
from .loopback import LoopbackServer, Request, respond

__all__ = ["FakeSources", "Paper", "latexml_page"]


@dataclass
class Paper:
    title: str
    abstract: str
    version: int = 1
    published: str = "2023-09-12"


def latexml_page(
    abstract: str, paragraphs: list[str], tables: list[tuple[str, str, list[list[str]]]] = ()
) -> bytes:  # type: ignore[assignment]
    """A paper's HTML full text as LaTeXML writes it: the abstract, one section of paragraphs,
    and tables (tag such as "Table 3", caption, rows; a cell `$…$` is math with its alttext)."""

    def cell(text: str, tag: str) -> str:
        if text.startswith("$") and text.endswith("$"):
            tex = escape(text[1:-1])
            return f'<{tag} class="ltx_td"><math alttext="{tex}"><mn>x</mn></math></{tag}>'
        return f'<{tag} class="ltx_td">{escape(text)}</{tag}>'

    body = "".join(
        f'<div class="ltx_para"><p class="ltx_p">{escape(p)}</p></div>' for p in paragraphs
    )
    for tag, caption, rows in tables:
        cells = "".join(
            "<tr>" + "".join(cell(c, "th" if i == 0 else "td") for c in row) + "</tr>"
            for i, row in enumerate(rows)
        )
        body += (
            f'<figure class="ltx_table"><figcaption class="ltx_caption">'
            f'<span class="ltx_tag ltx_tag_table">{escape(tag)}: </span>{escape(caption)}'
            f'</figcaption><table class="ltx_tabular">{cells}</table></figure>'
        )
    return (
        "<!DOCTYPE html><html><head><title>paper</title></head><body>"
        '<article class="ltx_document">'
        f'<div class="ltx_abstract"><p class="ltx_p">{escape(abstract)}</p></div>'
        '<section class="ltx_section" id="S5"><h2 class="ltx_title">'
        '<span class="ltx_tag ltx_tag_section">5 </span>Evaluation</h2>'
        f"{body}</section></article></body></html>"
    ).encode()


def _entry(ident: str, p: Paper) -> str:
    return (
        f"<entry><id>http://arxiv.org/abs/{ident}v{p.version}</id>"
        f"<title>{escape(p.title)}</title>"
        f"<updated>{p.published}T12:00:00Z</updated>"
        f"<published>{p.published}T12:00:00Z</published>"
        f'<link href="https://arxiv.org/abs/{ident}v{p.version}" rel="alternate" '
        'type="text/html"/>'
        f"<summary>{escape(p.abstract)}</summary>"
        '<category term="cs.DC" scheme="http://arxiv.org/schemas/atom"/>'
        '<arxiv:primary_category term="cs.DC"/>'
        "<author><name>A. Author</name></author></entry>"
    )


@dataclass
class FakeSources:
    """`papers` by arXiv ID, `pages` by `<id>v<N>` (absent: a 404, no HTML), and a GitHub."""

    papers: dict[str, Paper] = field(default_factory=dict)
    pages: dict[str, bytes] = field(default_factory=dict)
    github: FakeGithub = field(default_factory=FakeGithub)
    #: CSL-JSON by DOI, as doi.org's content negotiation answers (at `/<doi>`)
    dois: dict[str, dict[str, object]] = field(default_factory=dict)
    asked: Counter[str] = field(default_factory=Counter)
    html_statuses: Counter[int] = field(default_factory=Counter)
    #: every HTML page asked for, by `<id>v<N>`
    html_asked: list[str] = field(default_factory=list)
    port: int = 0

    def server(self) -> LoopbackServer:
        """The server, on one port for the life of this fake (a second run's ETags apply)."""
        if not self.port:
            with socket.socket() as s:
                s.bind(("127.0.0.1", 0))
                self.port = s.getsockname()[1]
        srv = LoopbackServer(lambda _: self._handle, port=self.port)
        self.github.base = srv.url("").rstrip("/")
        self.github.port = self.port
        return srv

    def args(self, srv: LoopbackServer) -> list[str]:
        """The flags that point a check at this server."""
        return [
            "--arxiv-api", srv.url("/api/query"),
            "--arxiv-html", srv.url("/html"),
            "--arxiv-delay", "0",
            "--github-api", srv.url(""),
            "--doi-api", srv.url(""),
        ]  # fmt: skip

    async def _handle(self, req: Request, w: asyncio.StreamWriter) -> bool:
        parts = urlsplit(req.path)
        if parts.path == "/api/query":
            self.asked["arxiv-api"] += 1
            ids = parse_qs(parts.query).get("id_list", [""])[0].split(",")
            bare = [i.split("v")[0] for i in ids]
            found = [_entry(i, self.papers[i]) for i in bare if i in self.papers]
            return await respond(
                w, 200, atom_feed(found), {"Content-Type": "application/atom+xml"}, req=req
            )
        if parts.path.startswith("/html/"):
            self.asked["arxiv-html"] += 1
            self.html_asked.append(parts.path.removeprefix("/html/"))
            status, body, headers = self._page(req, parts.path.removeprefix("/html/"))
            self.html_statuses[status] += 1
            return await respond(w, status, body, headers, req=req)
        if unquote(parts.path.lstrip("/")) in self.dois:
            self.asked["doi"] += 1
            body = json.dumps(self.dois[unquote(parts.path.lstrip("/"))]).encode()
            csl = {"Content-Type": "application/vnd.citationstyles.csl+json"}
            return await respond(w, 200, body, csl, req=req)
        self.asked["github"] += 1
        return await self.github._handle(req, w)

    def _page(self, req: Request, name: str) -> tuple[int, bytes, dict[str, str]]:
        if name not in self.pages:
            return 404, b"<html><body>no_html</body></html>", {}
        body = self.pages[name]
        tag = '"' + hashlib.sha256(body).hexdigest()[:16] + '"'
        if req.headers.get("if-none-match") == tag:
            return 304, b"", {"ETag": tag}
        return 200, body, {"ETag": tag}
