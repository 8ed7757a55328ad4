"""`anchors check` end to end: injected services, cassettes, a loopback web server, the CLI."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner

from anchors.check.run import Services, check_online
from anchors.cli.app import app
from anchors.findings import Code
from anchors.history import History
from anchors.net.cache import Cache
from anchors.net.netguard import StaticResolver
from anchors.registry.loader import parse_text
from anchors.resolve.arxiv import ArxivResolver
from anchors.resolve.doi import DoiResolver
from anchors.resolve.github import GithubResolver

from .cassettes import load
from .loopback import LoopbackServer, respond
from .publicnames import PUBLIC, loopback_only
from .stack import links

TODAY = date(2026, 12, 2)


def entry(field: str, value: str, line_extra: str = "") -> str:
    return (
        f'  - {field}: "{value}"\n{line_extra}    first_anchored: 2026-09-24\n'
        '    status: new\n    cited_in: ["2026-09-24"]\n'
    )


async def web(req, w):
    codes = {"/ok": 200, "/gone": 404, "/moved": 301, "/limited": 429, "/login": 401}
    code = codes.get(req.path.split("?")[0], 404)
    headers = {"Location": "/ok"} if code == 301 else {"Retry-After": "1"} if code == 429 else {}
    return await respond(w, code, b"", headers, req=req)


@pytest.fixture
def site() -> Iterator[LoopbackServer]:
    with LoopbackServer(lambda req: web) as srv:
        yield srv


def registry_text(port: int) -> str:
    return "version: 1\nanchors:\n" + "".join(
        [
            entry("arxiv", "1706.03762", '    title: "Attention Is Not What You Need"\n'),
            entry(
                "arxiv",
                "2309.06180",
                '    title: "efficient memory management for large language model serving '
                'with pagedattention 分页注意力"\n',
            ),
            entry("arxiv", "2312.07104", "    version: 5\n"),
            entry("url", "https://github.com/PyGithub/PyGithub/issues/28"),
            entry("doi", "10.1145/3600006.3613165", '    title: "A Different Paper Entirely"\n'),
            entry("url", f"http://blog.example:{port}/ok"),
            entry("url", f"http://blog.example:{port}/gone"),
            entry("url", f"http://blog.example:{port}/moved"),
            entry("url", f"http://blog.example:{port}/limited"),
            entry("url", f"http://blog.example:{port}/login"),
            entry("url", f"http://nowhere.example:{port}/x"),
            entry("url", f"http://blog.example:{port}/skipped", "    check: skip\n"),
            entry("arxiv", "2709.00001"),
        ]
    )


def run_check(
    reg_text: str, tmp: Path, arxiv_srv: LoopbackServer, cache: Cache | None = None, progress=None
):
    reg = parse_text(reg_text.encode(), str(tmp / "registry.yaml"))
    gh, doi = load("github/issue-closed"), load("doi/found-csl")
    history = History(tmp / "history.sqlite")

    async def go():
        # /limited asks for 1 s: waited, in virtual time, then rate-limited again
        async with (
            links(
                resolver=StaticResolver({"blog.example": ["127.0.0.1", PUBLIC]}),
                allow_private=True,
                attempts=2,
                retry_after_cap=1.0,
            ) as lc,
            httpx.AsyncClient(transport=gh.transport()) as gh_c,
            httpx.AsyncClient(transport=doi.transport()) as doi_c,
        ):
            arxiv = ArxivResolver(arxiv_srv.url("/api/query"), delay=0.0)
            services = Services(lc, arxiv, GithubResolver(gh_c), DoiResolver(doi_c))
            res = await check_online(
                reg, TODAY, services, cache=cache, history=history, progress=progress
            )
            return res, arxiv.requests

    try:
        with pytest.MonkeyPatch.context() as mp:  # a public name, and loopback only
            loopback_only(mp)
            return asyncio.run(go())
    finally:
        history.close()


def test_every_online_finding(tmp_path: Path, site: LoopbackServer) -> None:
    with load("arxiv/batch-three-ids").serve() as arxiv_srv:
        result, arxiv_requests = run_check(registry_text(site.port), tmp_path, arxiv_srv)
    text = registry_text(site.port)
    got = {(f.code, f.anchor) for f in result.findings}
    blog = f"http://blog.example:{site.port}"
    assert got == {
        (Code.TITLE_MISMATCH, "1706.03762"),  # "Attention Is Not What You Need"
        (Code.NOT_FOUND, "2312.07104"),  # version v5 does not exist
        (Code.ISSUE_STATE, "https://github.com/PyGithub/PyGithub/issues/28"),
        (Code.TITLE_MISMATCH, "10.1145/3600006.3613165"),
        (Code.DEAD_LINK, f"{blog}/gone"),
        (Code.REDIRECT, f"{blog}/moved"),
        (Code.RATE_LIMITED, f"{blog}/limited"),
        (Code.UNVERIFIABLE, f"{blog}/login"),
        (Code.DEAD_LINK, f"http://nowhere.example:{site.port}/x"),  # NXDOMAIN
        (Code.FUTURE_ID, "2709.00001"),
    }
    lines = text.splitlines()
    for f in result.findings:  # every finding points at its entry's first line
        assert f.anchor in lines[f.line - 1], f
    by = {f.anchor: f for f in result.findings}
    assert by["1706.03762"].details["resolved_title"] == "Attention Is All You Need"
    assert "closed (completed)" in by["https://github.com/PyGithub/PyGithub/issues/28"].message
    assert by[f"{blog}/moved"].details["final_url"].endswith("/ok")
    assert "not a dead link" in by[f"{blog}/limited"].message
    # one batch (the future ID is never sent), then for the one title mismatch its v1 and a
    # title search: ceil(N/100) plus the follow-ups of mismatches only
    assert arxiv_requests == 3
    assert site.counts["/skipped"] == 0


def test_progress_counts_failures_and_names_the_host(tmp_path: Path, site: LoopbackServer) -> None:
    calls: list[tuple[int, int, int, str]] = []
    with load("arxiv/batch-three-ids").serve() as arxiv_srv:
        result, _ = run_check(
            registry_text(site.port), tmp_path, arxiv_srv, progress=lambda *a: calls.append(a)
        )
    done = [c[0] for c in calls]
    assert done == sorted(done) and calls[-1][0] == calls[-1][1] == 11
    assert calls[-1][2] == 4  # /gone, /limited, /login, nowhere.example: failed, not /moved
    assert {c[3] for c in calls} >= {"blog.example", "nowhere.example", "arxiv API"}
    assert (result.skipped, result.excluded, result.checked) == (1, 0, 11)


def test_history_and_cache_on_rerun(tmp_path: Path, site: LoopbackServer) -> None:
    cache_path = tmp_path / "cache.json"
    with load("arxiv/batch-three-ids").serve() as arxiv_srv:
        first, _ = run_check(registry_text(site.port), tmp_path, arxiv_srv, Cache(cache_path))
        ok_hits = site.counts["/ok"]
        gone_hits = site.counts["/gone"]
        second, arxiv_requests = run_check(
            registry_text(site.port), tmp_path, arxiv_srv, Cache(cache_path)
        )
    assert arxiv_requests == 0 and second.cached >= 5
    assert site.counts["/ok"] == ok_hits  # success cached
    assert site.counts["/gone"] > gone_hits  # failures always rechecked
    # the same findings, but a closed issue is news: noted by the run that first saw it only
    assert Code.ISSUE_STATE in {f.code for f in first.findings}
    assert {f.code for f in second.findings} == {f.code for f in first.findings} - {
        Code.ISSUE_STATE
    }
    h = History(tmp_path / "history.sqlite")
    rows = list(h.rows(until=1e12))
    runs = h.runs(0, 1e12)
    h.close()
    assert len(runs) == 2 and all(r.complete for r in runs)
    assert len([r for r in rows if r.run_id == runs[0].id]) == 11
    assert {r.outcome for r in rows} >= {"ok", "dead", "redirect", "rate-limited", "unverifiable"}


def test_cli_online_against_loopback_apis(tmp_path: Path, site: LoopbackServer) -> None:
    reg = tmp_path / "registry.yaml"
    reg.write_text(
        "version: 1\nanchors:\n"
        + "".join(
            [
                entry("arxiv", "astro-ph/0601001"),
                entry("url", "https://github.com/PyGithub/PyGithub/issues/28"),
                entry("url", site.url("/gone")),
            ]
        ),
        encoding="utf-8",
    )
    with load("arxiv/old-style-id").serve() as ax, load("github/issue-closed").serve() as gh:
        r = CliRunner().invoke(
            app,
            [
                "check",
                str(reg),
                "--allow-private",
                "--arxiv-api",
                ax.url("/api/query"),
                "--arxiv-delay",
                "0",
                "--github-api",
                gh.url(""),
                "--format",
                "json",
                "--today",
                "2026-12-02",
                "--timeout",
                "2",
            ],
        )
    doc = json.loads(r.stdout)
    assert r.exit_code == 1, r.stderr
    assert [(f["code"], f["line"]) for f in doc["findings"]] == [
        ("published", 3),
        ("issue-state", 7),
        ("dead-link", 11),
    ]  # published: its journal_ref
    # no progress in a pipe: the one summary line is all of stderr
    assert r.stderr.count("\n") == 1 and r.stderr.startswith(
        "3 anchors: 2 OK, 1 failing; findings: 1 error, 0 warnings, 2 notes; 3 checked online, "
    ), r.stderr
    assert doc["summary"] == {"error": 1, "warning": 0, "info": 2}
    assert (tmp_path / ".anchors" / "history.sqlite").exists()


def test_network_down_exits_2_once(tmp_path: Path) -> None:
    reg = tmp_path / "registry.yaml"
    reg.write_text(
        "version: 1\nanchors:\n"
        + "".join(entry("url", f"https://site{i}.example/x") for i in range(5)),
        encoding="utf-8",
    )
    resolver = StaticResolver({}, failing=[f"site{i}.example" for i in range(5)])

    async def go():
        async with links(resolver=resolver, attempts=1) as lc:
            return await check_online(parse_text(reg.read_bytes(), str(reg)), TODAY, Services(lc))

    from anchors.errors import NetworkDown

    with pytest.raises(NetworkDown):
        asyncio.run(go())


def test_offline_only_codes_and_formats(tmp_path: Path) -> None:
    reg = tmp_path / "registry.yaml"
    reg.write_text(
        "version: 1\nanchors:\n"
        + entry("arxiv", "2709.00001")
        + entry("arxiv", "2709.00001v2")
        + "  - arxiv: 2609.10000\n    first_anchored: 2026-09-24\n    status: new\n",
        encoding="utf-8",
    )
    runner = CliRunner()
    r = runner.invoke(app, ["check", str(reg), "--offline", "--today", "2026-12-02", "-f", "json"])
    codes = [(f["code"], f["line"]) for f in json.loads(r.stdout)["findings"]]
    assert r.exit_code == 1
    assert codes == [("future-id", 3), ("duplicate", 7), ("schema", 11)]  # one order: by line
    r = runner.invoke(
        app,
        [
            "check",
            str(reg),
            "--offline",
            "--only",
            "duplicate",
            "-f",
            "github",
            "--today",
            "2026-12-02",
        ],
    )
    assert r.stdout.startswith(
        f"::error file={reg},line=7,title=duplicate::2709.00001v2: same anchor"
    )
    r = runner.invoke(app, ["check", str(reg), "--offline", "--only", "nope"])
    assert r.exit_code == 2 and "unknown code 'nope'" in r.stderr


def test_unreadable_registry_is_exit_2(tmp_path: Path) -> None:
    reg = tmp_path / "registry.yaml"
    reg.write_text("version: 1\nanchors: !!python/object:os.system\n", encoding="utf-8")
    r = CliRunner().invoke(app, ["check", str(reg), "--offline"])
    assert r.exit_code == 2 and f"{reg}:2: tag !!python/object:os.system is refused" in r.stderr


def test_exclude_accept_and_per_anchor_accept(tmp_path: Path, site: LoopbackServer) -> None:
    text = "version: 1\nanchors:\n" + "".join(
        [
            entry("url", site.url("/login")),
            entry("url", site.url("/gone"), "    accept: [404]\n"),
            entry("url", site.url("/limited")),
        ]
    )
    reg = parse_text(text.encode(), "registry.yaml")

    async def go():
        async with links(allow_private=True, attempts=1) as lc:
            return await check_online(
                reg, TODAY, Services(lc), exclude=["/limited$"], accept=frozenset({401})
            )

    before = site.counts["/limited"]
    result = asyncio.run(go())
    assert result.findings == [] and site.counts["/limited"] == before


def test_withdrawn_blocked_and_unreachable_findings(tmp_path: Path) -> None:
    async def fail(req, w):
        return await respond(w, 503, b"", req=req)

    with LoopbackServer(lambda req: fail) as srv, load("arxiv/withdrawn").serve() as ax:
        text = "version: 1\nanchors:\n" + "".join(
            [
                entry("arxiv", "1706.03762"),
                entry("url", srv.url("/down")),
                entry("url", "http://intranet.example/wiki"),
            ]
        )
        reg = parse_text(text.encode(), "registry.yaml")

        async def go():
            resolver = StaticResolver({"intranet.example": ["10.1.2.3"]})
            async with (
                links(allow_private=True, attempts=2) as loop_ok,
                links(resolver=resolver, attempts=2) as guarded,
            ):
                down = await loop_ok.check(srv.url("/down"))
                blocked = await guarded.check("http://intranet.example/wiki")

                class Canned:
                    async def check_many(self, urls, on_result):
                        out = [down, blocked]
                        for r in out:
                            on_result(r)
                        return out

                arxiv = ArxivResolver(ax.url("/api/query"), delay=0.0)
                return await check_online(reg, TODAY, Services(Canned(), arxiv))  # type: ignore[arg-type]

        result = asyncio.run(go())
    assert {(f.code, f.anchor) for f in result.findings} == {
        (Code.WITHDRAWN, "1706.03762"),
        (Code.UNREACHABLE, srv.url("/down")),
        (Code.BLOCKED_URL, "http://intranet.example/wiki"),
    }


def test_the_bundled_registry_passes_offline() -> None:
    root = Path(__file__).resolve().parent.parent
    r = CliRunner().invoke(app, ["check", str(root / "registry.yaml"), "--offline", "-f", "json"])
    doc = json.loads(r.stdout)
    assert r.exit_code == 0 and doc["anchors"] == 43 and doc["findings"] == []


def test_later_than_briefing_warning(tmp_path: Path) -> None:
    reg = tmp_path / "registry.yaml"
    reg.write_text(
        'version: 1\nanchors:\n  - arxiv: "2611.00001"\n    first_anchored: 2026-09-24\n'
        "    status: new\n",
        encoding="utf-8",
    )
    r = CliRunner().invoke(
        app, ["check", str(reg), "--offline", "-f", "json", "--today", "2026-12-02"]
    )
    (f,) = json.loads(r.stdout)["findings"]
    assert r.exit_code == 0 and (f["code"], f["severity"]) == ("later-than-briefing", "warning")


@pytest.mark.parametrize("mode", ["nxdomain", "refused"])
def test_offline_machine_is_network_down_not_dead_links(tmp_path: Path, mode: str) -> None:
    from anchors.errors import NetworkDown

    if mode == "nxdomain":  # a machine whose resolver knows no names at all
        urls, resolver = [f"https://site{i}.example/x" for i in range(4)], StaticResolver({})
    else:  # every connection refused (nothing listens on port 9 of these loopback addresses)
        urls, resolver = [f"http://127.0.0.{i}:9/x" for i in range(2, 6)], None
    text = "version: 1\nanchors:\n" + "".join(entry("url", u) for u in urls)

    async def go():
        async with links(resolver=resolver, allow_private=True, attempts=1) as lc:
            return await check_online(parse_text(text.encode(), "r.yaml"), TODAY, Services(lc))

    with pytest.raises(NetworkDown):
        asyncio.run(go())


@pytest.mark.parametrize("beside", ["nothing", "an address answers", "a name resolves"])
def test_unknown_names_are_dead_only_where_other_names_resolve(
    site: LoopbackServer, tmp_path: Path, beside: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two unknown names are two dead links when a public name resolved (to a public address) in
    the same run; with a resolver that knows no name at all they prove nothing: `unreachable`,
    recorded so where a host answered (a host reached by its address shows the network works,
    not the resolver) and not at all where nothing answered."""
    loopback_only(monkeypatch)
    urls = ["https://gone1.example/", "https://gone2.example/"]
    if beside == "an address answers":
        urls.append(f"http://127.0.0.1:{site.port}/ok")
    elif beside == "a name resolves":
        urls.append(f"http://docs.example:{site.port}/ok")
    text = "version: 1\nanchors:\n" + "".join(entry("url", u) for u in urls)
    table = {"docs.example": ["127.0.0.1", PUBLIC]}
    db = tmp_path / "h.sqlite"

    async def go():
        h = History(db)
        try:
            async with links(resolver=StaticResolver(table), allow_private=True, attempts=1) as lc:
                reg = parse_text(text.encode(), str(tmp_path / "r.yaml"))
                return await check_online(reg, TODAY, Services(lc), history=h)
        finally:
            h.close()

    result = asyncio.run(go())
    codes = [f.code for f in result.findings]
    recorded = sorted(r.outcome for r in History.read_only(db).rows(until=1e12))
    if beside == "a name resolves":
        assert codes == [Code.DEAD_LINK, Code.DEAD_LINK]
        assert recorded == ["dead", "dead", "ok"]
        return
    assert codes == [Code.UNREACHABLE, Code.UNREACHABLE]
    why = "no host answered" if beside == "nothing" else "no public name resolved"
    assert result.findings[0].message.startswith(f"no such host (NXDOMAIN), but {why}")
    assert recorded == ([] if beside == "nothing" else ["ok", "unreachable", "unreachable"])


def test_a_redirect_to_the_home_page_is_called_a_soft_404_not_a_new_url(tmp_path: Path) -> None:
    """`fix` never applies such a redirect; `check` must not tell the user to cite it either."""

    async def moved(req, w):
        where = {"/post": "/", "/old": "/2026/new-place", "/part": "/2026/part"}.get(req.path)
        return await respond(
            w, 301 if where else 200, b"", {"Location": where} if where else {}, req=req
        )

    with LoopbackServer(lambda req: moved) as srv:
        reg = tmp_path / "registry.yaml"
        reg.write_text(
            "version: 1\nanchors:\n"
            + entry("url", srv.url("/post"))
            + entry("url", srv.url("/old"))
            + entry("url", srv.url("/part#sec-2")),
            encoding="utf-8",
        )
        r = CliRunner().invoke(
            app,
            [
                "check",
                str(reg),
                "--allow-private",
                "-f",
                "json",
                "--no-cache",
                "--today",
                "2026-12-02",
            ],
        )
    by = {f["anchor"].rsplit("/", 1)[1]: f for f in json.loads(r.stdout)["findings"]}
    assert r.exit_code == 0, r.output
    assert "site's home page" in by["post"]["message"] and "soft 404" in by["post"]["message"]
    assert "cite the new URL" not in by["post"]["message"] and by["post"]["soft_404"] is True
    assert by["old"]["message"].endswith("cite the new URL") and "soft_404" not in by["old"]
    # the new URL to cite keeps the part of the page the citation pointed at, as browsers do
    assert (
        by["part#sec-2"]["message"]
        == f"moved permanently to {srv.url('/2026/part')}#sec-2; cite the new URL"
    )
