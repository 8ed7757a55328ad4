"""`missing-fragment` through the CLI: pages on loopback with and without the cited places, a
page past the bound, one too slow to read; GitHub comments and lines from a loopback API."""

from __future__ import annotations

import asyncio
import json
import socket
from datetime import date
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner

from anchors.check.run import Services, check_online
from anchors.cli.app import app
from anchors.findings import Code
from anchors.net.fragments import FRAGMENT_BODY_LIMIT
from anchors.net.netguard import StaticResolver
from anchors.registry.loader import load
from anchors.resolve.github import GithubResolver
from anchors.resolve.github_places import GithubPlaces
from anchors.result import CheckResult

from .githubfake import FakeGithub, Issue
from .loopback import LoopbackServer, Request, respond
from .stack import links

DOCS = b"""<!doctype html><html><body>
<h1 id="top">Docs</h1>
<h2>Quick start</h2>
<a name="legacy"></a>
<div id="user-content-setup"><p>GitHub-rendered Markdown</p></div>
</body></html>"""


async def _docs(req: Request, w: asyncio.StreamWriter) -> bool:
    return await respond(w, 200, DOCS, req=req)


async def _big(req: Request, w: asyncio.StreamWriter) -> bool:
    """The cited id comes only after the bound; the one near the top is found."""
    pad = b"<p>" + b"x" * FRAGMENT_BODY_LIMIT + b"</p>"
    body = b'<html><body><h2 id="early">Early</h2>' + pad + b'<h2 id="late">Late</h2></body></html>'
    return await respond(w, 200, body, req=req)


async def _slow(req: Request, w: asyncio.StreamWriter) -> bool:
    """The head and a first piece at once, the rest never in time."""
    head = "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 100000\r\n\r\n"
    w.write(head.encode() + b"<html><body><p>")
    await w.drain()
    await asyncio.sleep(3)
    return False


async def _pdf(req: Request, w: asyncio.StreamWriter) -> bool:
    return await respond(w, 200, b"%PDF-1.7", {"Content-Type": "application/pdf"}, req=req)


ROUTES = {"/docs": _docs, "/big": _big, "/slow": _slow, "/paper.pdf": _pdf, "/plain": _docs}


def _entry(url: str) -> str:
    return (
        f'  - url: "{url}"\n    first_anchored: 2026-09-24\n'
        '    status: new\n    cited_in: ["2026-09-24"]\n'
    )


def _check(tmp_path: Path, urls: list[str], *more: str) -> tuple[int, dict, str]:
    reg = tmp_path / "registry.yaml"
    reg.write_text("version: 1\nanchors:\n" + "".join(map(_entry, urls)), encoding="utf-8")
    r = CliRunner().invoke(
        app,
        ["check", str(reg), "--allow-private", "-f", "json", "--today", "2026-12-02", *more],
    )
    assert r.exit_code in (0, 1), r.stdout + r.stderr
    return r.exit_code, json.loads(r.stdout), r.stderr


def _by_fragment(doc: dict) -> dict[str, tuple[str, str]]:
    return {f.get("fragment", ""): (f["code"], f["message"]) for f in doc["findings"]}


def test_a_cited_fragment_the_page_lacks_is_missing_and_the_link_is_fine(tmp_path: Path) -> None:
    with LoopbackServer(ROUTES) as site:
        urls = [
            site.url("/docs#top"),
            site.url("/docs?v=2#install"),  # the page has no such place
            site.url("/docs?v=3#quick-start"),  # a heading's generated slug
            site.url("/docs?v=4#setup"),  # GitHub's user-content- prefix
            site.url("/docs?v=5#legacy"),  # <a name>
            site.url("/docs?v=6#:~:text=Quick"),  # a text fragment: not a place, not checked
            site.url("/paper.pdf#page=3"),  # not HTML: nothing to look in
            site.url("/plain"),  # no fragment: HEAD only, as before
        ]
        code, doc, _ = _check(tmp_path, urls)
        methods = dict(site.methods)
    found = _by_fragment(doc)
    assert set(found) == {"install"}
    assert found["install"][0] == "missing-fragment"
    assert "#install: the page has no element with this id or name" in found["install"][1]
    assert "the link itself is fine" in found["install"][1]
    [f] = doc["findings"]
    assert (f["severity"], f["line"]) == ("warning", 7)
    assert code == 0 and doc["states"]["warned"] == 1 and doc["states"]["ok"] == 7
    # only pages cited with a fragment are read with GET; the others keep their HEAD
    assert methods.get(("HEAD", "/plain")) == 1 and ("GET", "/plain") not in methods
    assert methods[("GET", "/docs")] == 1 and ("HEAD", "/docs") not in methods
    assert methods.get(("GET", "/docs?v=6")) is None  # the text fragment's page: a HEAD


def test_a_page_past_the_bound_or_the_deadline_is_unverifiable_not_missing(
    tmp_path: Path,
) -> None:
    with LoopbackServer(ROUTES) as site:
        urls = [site.url("/big#early"), site.url("/big?again#late"), site.url("/slow#x")]
        code, doc, _ = _check(tmp_path, urls, "--timeout", "1")
    found = _by_fragment(doc)
    assert set(found) == {"late", "x"}
    assert found["late"][0] == "unverifiable" and "first 2 MiB of the page" in found["late"][1]
    assert found["x"][0] == "unverifiable" and "before the timeout" in found["x"][1]
    assert code == 0 and not [f for f in doc["findings"] if f["code"] == "dead-link"]


def test_two_fragments_of_one_page_are_one_request(tmp_path: Path) -> None:
    with LoopbackServer(ROUTES) as site:
        _, doc, _ = _check(tmp_path, [site.url("/docs#top"), site.url("/docs#gone")])
        assert site.methods[("GET", "/docs")] == 1
    assert {f["code"] for f in doc["findings"]} == {"duplicate", "missing-fragment"}
    [missing] = [f for f in doc["findings"] if f["code"] == "missing-fragment"]
    assert missing["line"] == 7 and missing["fragment"] == "gone"  # the entry that cites it


def test_found_places_are_cached_a_missing_one_is_read_again(tmp_path: Path) -> None:
    with LoopbackServer(ROUTES) as site:
        _check(tmp_path, [site.url("/docs#top")])
        _check(tmp_path, [site.url("/docs#top")])
        assert site.methods[("GET", "/docs")] == 1
        _check(tmp_path, [site.url("/docs#gone")])
        _, doc, _ = _check(tmp_path, [site.url("/docs#gone")])
        assert site.methods[("GET", "/docs")] == 3
    assert _by_fragment(doc)["gone"][0] == "missing-fragment"


def test_github_comments_are_asked_of_the_api(tmp_path: Path) -> None:
    gh = FakeGithub(
        issues={f"acme/engine#{n}": Issue(f"Issue {n}") for n in (5, 6, 7, 8)},
        comments={101: ("acme/engine#5", False), 102: ("acme/engine#8", False)},
    )
    gh.issues["acme/engine#9"] = gh.issues["acme/engine#10"] = Issue("A fix", pull=True)
    gh.comments[201] = ("acme/engine#9", True)
    gh.comments[202] = ("acme/engine#9", True)
    with gh.server() as api:
        urls = [
            "https://github.com/acme/engine/issues/5#issuecomment-101",
            "https://github.com/acme/engine/issues/6#issuecomment-102",  # a comment on #8
            "https://github.com/acme/engine/issues/7#issuecomment-103",  # deleted
            "https://github.com/acme/engine/pull/9#discussion_r201",
            "https://github.com/acme/engine/pull/10/files#discussion_r202",  # on #9
        ]
        code, doc, _ = _check(tmp_path, urls, "--github-api", api.url(""))
        asked = dict(api.counts)
    found = _by_fragment(doc)
    assert set(found) == {"issuecomment-102", "issuecomment-103", "discussion_r202"}
    assert all(c == "missing-fragment" for c, _ in found.values())
    assert "comment 102 belongs to #8, not #6" in found["issuecomment-102"][1]
    assert "comment 103 does not exist" in found["issuecomment-103"][1]
    assert "review comment 202 belongs to #9, not #10" in found["discussion_r202"][1]
    assert code == 0
    assert asked["/repos/acme/engine/issues/comments/101"] == 1
    assert asked["/repos/acme/engine/pulls/comments/201"] == 1


def test_comments_a_spent_rate_limit_left_unasked_are_not_checked_never_ok(
    tmp_path: Path,
) -> None:
    """The limit covers the two issues but not their cited comments: both entries are "not
    checked" this run (rate-limit), with the reset time said, even the one with a note of its
    own (a closed issue); next run asks the comments."""
    gh = FakeGithub(
        issues={
            "acme/engine#5": Issue("Issue 5", "closed", "completed", "2026-10-01"),
            "acme/engine#6": Issue("Issue 6"),
        },
        comments={101: ("acme/engine#5", False), 102: ("acme/engine#8", False)},
    )
    gh.budget = 2
    urls = [
        "https://github.com/acme/engine/issues/5#issuecomment-101",
        "https://github.com/acme/engine/issues/6#issuecomment-102",  # a comment on #8
    ]
    with gh.server() as api:
        code, doc, err = _check(tmp_path, urls, "--github-api", api.url(""))
        assert "/repos/acme/engine/issues/comments/101" not in api.counts
        assert doc["states"]["ok"] == 0 and doc["states"]["not-checked"] == 2
        assert doc["not_checked"]["rate-limit"] == 2
        assert [f["code"] for f in doc["findings"]] == ["issue-state"]
        assert code == 0  # never failing
        assert "spent until 2100-01-01 00:00 UTC: 2 GitHub anchors not checked" in err
        gh.budget = 5000
        _, again, _ = _check(tmp_path, urls, "--github-api", api.url(""))
    assert [f["fragment"] for f in again["findings"] if "fragment" in f] == ["issuecomment-102"]
    assert again["states"] == {**again["states"], "ok": 1, "warned": 1, "not-checked": 0}


def test_cited_lines_are_asked_of_the_contents_api(tmp_path: Path) -> None:
    """`blob/REF/PATH#L2-L3`: the file at that ref has those lines; a ref with a slash is
    found by trying it longer; the page itself is link-checked as ever (here on loopback)."""
    gh = FakeGithub(
        files={
            "acme/engine@v1.2:src/run.py": "a\nb\nc\n",
            "acme/engine@feat/x:a.py": "1\n2",
        }
    )
    blob = "http://github.com/acme/engine/blob"
    reg = tmp_path / "registry.yaml"
    reg.write_text(
        "version: 1\nanchors:\n"
        + "".join(
            _entry(u)
            for u in (
                f"{blob}/v1.2/src/run.py#L2-L3",
                f"{blob}/v1.2/src/run.py?plain=1#L4",  # past the end: missing
                f"{blob}/feat/x/a.py#L2",  # a ref with a slash
                f"{blob}/v1.2/src/run.py?x#L2C3-L3C1",  # column marks read as lines
            )
        ),
        encoding="utf-8",
    )

    async def page(req: Request, w: asyncio.StreamWriter) -> bool:
        return await respond(w, 200, b"<html></html>", req=req)

    async def go(api: str, port: int) -> CheckResult:
        resolver = StaticResolver({"github.com": ["127.0.0.1"]})
        async with (
            links(resolver=resolver, allow_private=True, attempts=1, port=port) as lc,
            httpx.AsyncClient() as client,
        ):
            github = GithubResolver(client, api)
            services = Services(lc, github=github, places=GithubPlaces(github.api))
            return await check_online(load(reg), date(2026, 12, 2), services)

    with gh.server() as api, LoopbackServer(lambda req: page) as site:
        result = asyncio.run(go(api.url(""), site.port))
        asked = {p for p in api.counts if "contents" in p}
    found = {f.details.get("fragment"): f for f in result.findings}
    assert set(found) == {"L4"}
    assert found["L4"].code is Code.MISSING_FRAGMENT
    assert "the file has 3 lines at v1.2, not 4" in found["L4"].message
    assert asked == {
        "/repos/acme/engine/contents/src/run.py?ref=v1.2",
        "/repos/acme/engine/contents/x/a.py?ref=feat",
        "/repos/acme/engine/contents/a.py?ref=feat/x",
    }


def test_cited_lines_through_the_cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same through `anchors check`: the page on loopback under the name github.com (the
    name is mapped here, never resolved), the lines asked under the --github-api root."""
    real = socket.getaddrinfo

    def getaddrinfo(host: object, port: object, *args: object, **kw: object) -> object:
        name = host.decode() if isinstance(host, bytes) else str(host)
        if name.lower() not in ("github.com", "127.0.0.1"):
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return real("127.0.0.1", port, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    gh = FakeGithub(files={"acme/engine@v1.2:src/run.py": "a\nb\nc\n"})

    async def page(req: Request, w: asyncio.StreamWriter) -> bool:
        return await respond(w, 200, b"<html></html>", req=req)

    with gh.server() as api, LoopbackServer(lambda req: page) as site:
        blob = f"http://github.com:{site.port}/acme/engine/blob/v1.2/src/run.py"
        urls = [f"{blob}#L2-L3", f"{blob}?plain=1#L4", f"{blob}?x#L1-L9"]
        code, doc, _ = _check(tmp_path, urls, "--github-api", api.url(""))
        asked = {p for p in api.counts if "contents" in p}
    found = _by_fragment(doc)
    assert set(found) == {"L4", "L1-L9"}
    assert all(c == "missing-fragment" for c, _ in found.values())
    assert "the file has 3 lines at v1.2, not 9" in found["L1-L9"][1]
    assert [f["line"] for f in doc["findings"]] == [7, 11]
    assert code == 0 and doc["states"]["ok"] == 1 and doc["states"]["warned"] == 2
    assert asked == {"/repos/acme/engine/contents/src/run.py?ref=v1.2"}


def test_a_fragment_the_living_document_cites_travels_on_its_citation(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The registry cites /docs#top; the document cites the same page at #gone: one anchor,
    one request, and the missing place is reported at the document's line."""
    monkeypatch.chdir(tmp_path)
    with LoopbackServer(ROUTES) as site:
        (tmp_path / "inference.md").write_text(
            f"# Inference\n\n## §1.1 Docs\n\nSee [the docs]({site.url('/docs#gone')}).\n",
            encoding="utf-8",
        )
        code, doc, _ = _check(tmp_path, [site.url("/docs#top")], "--document", "inference.md")
        assert site.methods[("GET", "/docs")] == 1
    [f] = [f for f in doc["findings"] if f["code"] == "missing-fragment"]
    assert (f["file"], f["line"], f["fragment"]) == ("inference.md", 5, "gone")
    assert code == 0  # a warning: the link itself is fine
