"""A loopback GitHub REST API that answers conditional requests, for tests and bench/github.py.

Issues (PRs too), issue and review comments and file contents, as a test states them, in the
shapes anchors reads (shared/reference: the issue JSON, its rate-limit headers, a weak ETag).
A thread's lists (`threads`: its comments, a PR's review comments and reviews) come in pages
of `per_page`, each naming the next in a `Link` header the way GitHub does, under
`/repositories/<id>/...` rather than the path asked (so a client must follow the link).
Every 200 carries an ETag made from its body, so a changed resource has a new one; a request
whose `If-None-Match` names the current ETag gets a 304 that costs nothing of the rate limit,
as GitHub documents. `budget` is the primary limit: each 200 or 404 spends one; once spent,
every request is a 403 with `x-ratelimit-remaining: 0` and a reset far ahead.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import socket
from collections import Counter
from dataclasses import dataclass, field
from urllib.parse import parse_qs

from .loopback import LoopbackServer, Request, respond

__all__ = ["FakeGithub", "Issue"]

#: 2100-01-01: a reset no run waits for
RESET = 4102444800


@dataclass
class Issue:
    title: str
    state: str = "open"
    state_reason: str | None = None
    closed_at: str | None = None
    pull: bool = False
    body: str = ""
    updated_at: str = "2026-09-01T10:00:00Z"


@dataclass
class FakeGithub:
    """`issues` by `owner/repo#N`; `comments` by ID: (`owner/repo#N`, review?); `files` by
    `owner/repo@REF:PATH`: the text. Statuses sent are counted in `statuses`."""

    issues: dict[str, Issue] = field(default_factory=dict)
    comments: dict[int, tuple[str, bool]] = field(default_factory=dict)
    files: dict[str, str] = field(default_factory=dict)
    budget: int = 5000
    #: seconds before each answer, and bytes of issue text (a real issue's JSON is ~5 KB)
    delay: float = 0.0
    pad: int = 0
    statuses: Counter[int] = field(default_factory=Counter)
    #: every conditional request's If-None-Match, by path
    conditional: Counter[str] = field(default_factory=Counter)
    #: a thread's lists by `owner/repo#N comments` (`review-comments`, `reviews`): the items
    threads: dict[str, list[dict[str, object]]] = field(default_factory=dict)
    #: (list key, page) -> the status that page answers instead (a 403, a 502...)
    fail: dict[tuple[str, int], int] = field(default_factory=dict)
    #: (list key, page) -> the body that page answers with instead (a truncated JSON...)
    broken: dict[tuple[str, int], bytes] = field(default_factory=dict)

    #: the server's own root, for the Link headers it sends, and its port (set by `server`)
    base: str = ""
    port: int = 0

    def server(self) -> LoopbackServer:
        def route(_: Request):  # type: ignore[no-untyped-def]
            return self._handle

        if not self.port:  # chosen once, so the Links can name it and a second run's URLs
            with socket.socket() as s:  # are the first's (its ETags apply)
                s.bind(("127.0.0.1", 0))
                self.port = s.getsockname()[1]
        srv = LoopbackServer(route, port=self.port)
        self.base = srv.url("").rstrip("/")
        return srv

    async def _handle(self, req: Request, w: asyncio.StreamWriter) -> bool:
        status, body, link = self._thread_page(req.path) or (*self._answer(req.path), None)
        tag = 'W/"' + hashlib.sha256(body).hexdigest() + '"'
        if status == 200 and req.headers.get("if-none-match") == tag:
            status, body = 304, b""
        if req.headers.get("if-none-match"):
            self.conditional[req.path] += 1
        if status != 304 and self.budget <= 0:
            status, body = 403, b'{"message": "API rate limit exceeded for 127.0.0.1."}'
        elif status != 304:
            self.budget -= 1
        self.statuses[status] += 1
        headers = {
            "Content-Type": "application/json; charset=utf-8",
            "x-ratelimit-limit": "5000",
            "x-ratelimit-remaining": str(max(self.budget, 0)),
            "x-ratelimit-reset": str(RESET),
            "x-ratelimit-resource": "core",
        }
        if status in (200, 304):
            headers["ETag"] = tag
        if link and status == 200:
            headers["Link"] = link
        return await respond(w, status, body, headers, req=req, delay=self.delay)

    def _thread_page(self, path: str) -> tuple[int, bytes, str | None] | None:
        """A page of a thread's list: by `/repos/o/r/...` (page 1) or the `Link` form."""
        bare, _, query = path.partition("?")
        segs = bare.strip("/").split("/")
        keys = sorted({k.split("#")[0] for k in self.threads})
        if segs[0] == "repositories" and len(segs) == 5 and segs[1].isdigit():
            if not 0 < int(segs[1]) <= len(keys):
                return None
            repo, rest = keys[int(segs[1]) - 1], segs[2:]
        elif segs[0] == "repos" and len(segs) == 6:
            repo, rest = f"{segs[1]}/{segs[2]}", segs[3:]
        else:
            return None
        kind = {"issues/comments": "comments", "pulls/comments": "review-comments"}.get(
            f"{rest[0]}/{rest[2]}", "reviews" if rest[0::2] == ["pulls", "reviews"] else ""
        )
        key = f"{repo}#{rest[1]} {kind}"
        if key not in self.threads:
            return None
        q = parse_qs(query)
        per_page, page = int(q.get("per_page", ["30"])[0]), int(q.get("page", ["1"])[0])
        if (key, page) in self.fail:
            return self.fail[key, page], b'{"message": "Forbidden"}', None
        if (key, page) in self.broken:
            return 200, self.broken[key, page], None
        items = self.threads[key][(page - 1) * per_page : page * per_page]
        link = None
        if page * per_page < len(self.threads[key]):
            rid = keys.index(repo) + 1
            nxt = f"/repositories/{rid}/{'/'.join(rest)}?per_page={per_page}&page={page + 1}"
            link = f'<{self.base}{nxt}>; rel="next", <{self.base}{nxt}>; rel="last"'
        return 200, json.dumps(items).encode(), link

    def _answer(self, path: str) -> tuple[int, bytes]:
        bare, _, query = path.partition("?")
        segs = bare.strip("/").split("/")
        if len(segs) < 4 or segs[0] != "repos":
            return 404, b'{"message": "Not Found"}'
        repo = f"{segs[1]}/{segs[2]}"
        if segs[3:5] == ["issues", "comments"] or segs[3:5] == ["pulls", "comments"]:
            return self._comment(repo, segs[3] == "pulls", int(segs[5]))
        if segs[3] == "issues" and len(segs) == 5:
            issue = self.issues.get(f"{repo}#{segs[4]}")
            if issue is not None:
                return 200, _issue(repo, int(segs[4]), issue, self.pad)
        if segs[3] == "contents":
            ref = query.removeprefix("ref=")
            text = self.files.get(f"{repo}@{ref}:{'/'.join(segs[4:])}")
            if text is not None:
                content = base64.encodebytes(text.encode()).decode()
                data = {"type": "file", "encoding": "base64", "content": content}
                return 200, json.dumps(data).encode()
            return 404, json.dumps({"message": f"No commit found for the ref {ref}"}).encode()
        return 404, b'{"message": "Not Found"}'

    def _comment(self, repo: str, review: bool, number: int) -> tuple[int, bytes]:
        where = self.comments.get(number)
        if where is None or where[1] != review or not where[0].startswith(repo + "#"):
            return 404, b'{"message": "Not Found"}'
        n = where[0].rsplit("#", 1)[1]
        api = f"https://api.github.com/repos/{repo}"
        data = {"id": number, "body": "a comment"}
        if review:
            data["pull_request_url"] = f"{api}/pulls/{n}"
        else:
            data["issue_url"] = f"{api}/issues/{n}"
        return 200, json.dumps(data).encode()


def _issue(repo: str, number: int, i: Issue, pad: int = 0) -> bytes:
    kind = "pull" if i.pull else "issues"
    data: dict[str, object] = {
        "url": f"https://api.github.com/repos/{repo}/issues/{number}",
        "html_url": f"https://github.com/{repo}/{kind}/{number}",
        "number": number,
        "title": i.title,
        "state": i.state,
        "state_reason": i.state_reason,
        "closed_at": f"{i.closed_at}T10:00:00Z" if i.closed_at else None,
        "updated_at": i.updated_at,
        "body": i.body or "x" * pad,
    }
    if i.pull:
        data["pull_request"] = {"merged_at": None}
    return json.dumps(data).encode()
