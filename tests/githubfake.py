"""A loopback GitHub REST API that answers conditional requests, for tests and bench/github.py.

Issues (PRs too), issue and review comments and file contents, as a test states them, in the
shapes anchors reads (shared/reference: the issue JSON, its rate-limit headers, a weak ETag).
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
from collections import Counter
from dataclasses import dataclass, field

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

    def server(self) -> LoopbackServer:
        def route(_: Request):  # type: ignore[no-untyped-def]
            return self._handle

        return LoopbackServer(route)

    async def _handle(self, req: Request, w: asyncio.StreamWriter) -> bool:
        status, body = self._answer(req.path)
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
        return await respond(w, status, body, headers, req=req, delay=self.delay)

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
        "body": "x" * pad,
    }
    if i.pull:
        data["pull_request"] = {"merged_at": None}
    return json.dumps(data).encode()
