"""A loopback GitLab REST API (v4), as much of it as the weekly job of
ci/gitlab/anchors.gitlab-ci.yml calls: list a project's open issues by label, open one, edit
one. Shapes as GitLab documents them (doc/api/issues.md): `iid` numbers an issue within its
project, a request authenticates with `PRIVATE-TOKEN`, and a form-encoded body carries the
fields (`title`, `labels`, `description`). A description over GitLab's limit is refused."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from urllib.parse import parse_qs, urlsplit

from .loopback import LoopbackServer, Request, respond

__all__ = ["DESCRIPTION_LIMIT", "FakeGitlab", "Issue"]

#: GitLab's limit on an issue description (doc/api/issues.md: 1,048,576 characters; it was
#: 1,000,000 before GitLab raised it, the figure the issue that asked for this template names)
DESCRIPTION_LIMIT = 1_000_000


@dataclass
class Issue:
    iid: int
    title: str
    labels: list[str]
    description: str
    state: str = "opened"


@dataclass
class FakeGitlab:
    project: int = 7
    token: str = "glpat-test-token"
    issues: list[Issue] = field(default_factory=list)
    #: (method, path) of every request, in order
    calls: list[tuple[str, str]] = field(default_factory=list)

    def server(self) -> LoopbackServer:
        return LoopbackServer(lambda req: self._handle)

    def url(self, srv: LoopbackServer) -> str:
        return srv.url("/api/v4")

    async def _handle(self, req: Request, w) -> bool:  # type: ignore[no-untyped-def]
        self.calls.append((req.method, req.path))
        status, body = self._answer(req)
        headers = {"Content-Type": "application/json"}
        return await respond(w, status, json.dumps(body).encode(), headers, req=req)

    def _answer(self, req: Request) -> tuple[int, object]:
        if req.headers.get("private-token") != self.token:
            return 401, {"message": "401 Unauthorized"}
        parts = urlsplit(req.path)
        base = f"/api/v4/projects/{self.project}/issues"
        form = {k: v[0] for k, v in parse_qs(req.body.decode("utf-8")).items()}
        if len(form.get("description", "")) > DESCRIPTION_LIMIT:
            return 400, {"message": {"description": ["is too long"]}}
        if req.method == "GET" and parts.path == base:
            query = {k: v[0] for k, v in parse_qs(parts.query).items()}
            label = query.get("labels", "")
            found = [i for i in self.issues if i.state == query.get("state") and label in i.labels]
            return 200, [_shape(i) for i in found][: int(query.get("per_page", "20"))]
        if req.method == "POST" and parts.path == base:
            issue = Issue(
                len(self.issues) + 1,
                form["title"],
                form.get("labels", "").split(","),
                form.get("description", ""),
            )
            self.issues.append(issue)
            return 201, _shape(issue)
        if req.method == "PUT" and parts.path.startswith(base + "/"):
            iid = int(parts.path.rsplit("/", 1)[1])
            issue = next((i for i in self.issues if i.iid == iid), None)
            if issue is None:
                return 404, {"message": "404 Not found"}
            issue.description = form.get("description", issue.description)
            return 200, _shape(issue)
        return 404, {"message": "404 Not found"}


def _shape(i: Issue) -> dict[str, object]:
    return {
        "id": 1000 + i.iid,
        "iid": i.iid,
        "project_id": 7,
        "title": i.title,
        "description": i.description,
        "state": i.state,
        "labels": i.labels,
    }
