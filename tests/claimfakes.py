"""A loopback GitHub and arXiv for claim tests: issues and papers as a test states them.

The answers have the services' real shapes (the GitHub issue JSON fields anchors reads, the
arXiv API's Atom feed, see shared/reference and cassettes/), filled with the facts a test
gives, so one server can answer for as many anchors as a labelled set needs.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from typer.testing import CliRunner

from anchors.cli.app import app

from .loopback import LoopbackServer, Request, respond

__all__ = ["Issue", "Paper", "check_findings", "cli", "fake_services"]


@dataclass(frozen=True)
class Issue:
    title: str
    state: str = "open"
    state_reason: str | None = None
    closed_at: str | None = None
    merged_at: str | None = None
    pull: bool = False


@dataclass(frozen=True)
class Paper:
    title: str
    published: str  # YYYY-MM-DD, v1
    version: int = 1
    comment: str | None = None
    journal_ref: str | None = None
    doi: str | None = None


def _issue_json(owner: str, repo: str, number: int, i: Issue) -> bytes:
    kind = "pull" if i.pull else "issues"
    data: dict[str, object] = {
        "url": f"https://api.github.com/repos/{owner}/{repo}/issues/{number}",
        "html_url": f"https://github.com/{owner}/{repo}/{kind}/{number}",
        "number": number,
        "title": i.title,
        "state": i.state,
        "state_reason": i.state_reason,
        "closed_at": f"{i.closed_at}T10:00:00Z" if i.closed_at else None,
    }
    if i.pull:
        data["pull_request"] = {
            "url": f"https://api.github.com/repos/{owner}/{repo}/pulls/{number}",
            "merged_at": f"{i.merged_at}T10:00:00Z" if i.merged_at else None,
        }
    return json.dumps(data).encode()


def _entry(ident: str, p: Paper) -> str:
    more = "".join(
        f"<arxiv:{tag}>{escape(v)}</arxiv:{tag}>"
        for tag, v in (("comment", p.comment), ("journal_ref", p.journal_ref), ("doi", p.doi))
        if v
    )
    return (
        f"<entry><id>http://arxiv.org/abs/{ident}v{p.version}</id>"
        f"<title>{escape(p.title)}</title>"
        f"<updated>{p.published}T12:00:00Z</updated>"
        f"<published>{p.published}T12:00:00Z</published>"
        f'<link href="https://arxiv.org/abs/{ident}v{p.version}" rel="alternate" '
        'type="text/html"/>'
        f"<summary>About {escape(p.title)}.</summary>"
        '<category term="cs.DC" scheme="http://arxiv.org/schemas/atom"/>'
        f'{more}<arxiv:primary_category term="cs.DC"/>'
        "<author><name>A. Author</name></author></entry>"
    )


def atom_feed(entries: list[str]) -> bytes:
    """arXiv's Atom answer holding `entries` (what the fake arXiv APIs of the tests serve)."""
    return (
        "<?xml version='1.0' encoding='UTF-8'?>"
        '<feed xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/" '
        'xmlns:arxiv="http://arxiv.org/schemas/atom" xmlns="http://www.w3.org/2005/Atom">'
        "<id>https://arxiv.org/api/fake</id><title>arXiv Query</title>"
        "<updated>2026-12-02T09:00:00Z</updated>"
        f"<opensearch:itemsPerPage>{len(entries)}</opensearch:itemsPerPage>"
        f"<opensearch:totalResults>{len(entries)}</opensearch:totalResults>"
        "<opensearch:startIndex>0</opensearch:startIndex>" + "".join(entries) + "</feed>"
    ).encode()


def fake_services(
    issues: dict[str, Issue], papers: dict[str, Paper], dois: dict[str, dict] | None = None
) -> LoopbackServer:
    """`issues` by `owner/repo#N`, `papers` by arXiv ID; GitHub at `/repos/…`, arXiv at
    `/api/query`; `dois` (CSL-JSON by DOI) as doi.org's content negotiation answers, at
    `/<doi>`. Anything else (and anything unknown) is a 404."""

    def route(_: Request):
        async def handler(req: Request, w: asyncio.StreamWriter) -> bool:
            parts = urlsplit(req.path)
            segs = parts.path.strip("/").split("/")
            if parts.path == "/api/query":
                ids = parse_qs(parts.query).get("id_list", [""])[0].split(",")
                found = [
                    _entry(i.split("v")[0], papers[i.split("v")[0]])
                    for i in ids
                    if i.split("v")[0] in papers
                ]
                return await respond(
                    w, 200, atom_feed(found), {"Content-Type": "application/atom+xml"}, req=req
                )
            csl = (dois or {}).get(unquote(parts.path.lstrip("/")))
            if csl is not None:
                body = json.dumps(csl).encode()
                csl_type = {"Content-Type": "application/vnd.citationstyles.csl+json"}
                return await respond(w, 200, body, csl_type, req=req)
            if len(segs) == 5 and segs[0] == "repos" and segs[3] == "issues":
                ref = f"{segs[1]}/{segs[2]}#{segs[4]}".lower()
                hit = next((v for k, v in issues.items() if k.lower() == ref), None)
                if hit is not None:
                    body = _issue_json(segs[1], segs[2], int(segs[4]), hit)
                    return await respond(
                        w, 200, body, {"Content-Type": "application/json"}, req=req
                    )
            return await respond(
                w, 404, b'{"message": "Not Found"}', {"Content-Type": "application/json"}, req=req
            )

        return handler

    return LoopbackServer(route)


def cli(*args: str) -> tuple[int, str, str]:
    """anchors run in-process as a user types it: exit code, stdout, stderr."""
    r = CliRunner().invoke(app, list(args))
    return r.exit_code, r.stdout, r.stderr


def check_findings(reg: Path, srv: LoopbackServer, *more: str) -> list[dict[str, Any]]:
    """A plain `check` of `reg` against these services (JSON, on 2026-12-02): its findings."""
    code, out, err = cli(
        "check",
        str(reg),
        "--github-api",
        srv.url(""),
        "--arxiv-api",
        srv.url("/api/query"),
        "--arxiv-delay",
        "0",
        "-f",
        "json",
        "--today",
        "2026-12-02",
        *more,
    )
    assert code in (0, 1), out + err
    found: list[dict[str, Any]] = json.loads(out)["findings"]
    return found
