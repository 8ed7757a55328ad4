"""`check --archive`, `fix --only archive` and the report's snapshot links, against a loopback
Wayback fake replaying the availability API's answer shapes (cassettes/wayback)."""

from __future__ import annotations

import asyncio
import json
from datetime import date
from pathlib import Path

import httpx
import jsonschema
import pytest
import yaml
from typer.testing import CliRunner, Result

from anchors.archive.archiver import Archiver
from anchors.archive.wayback import WaybackClient, WaybackError
from anchors.cli.app import app
from anchors.findings import Code
from anchors.history.hook import Begun
from anchors.net.cache import Cache
from anchors.registry.loader import parse_text

from .cassettes import load
from .loopback import LoopbackServer, respond
from .test_export import CSL_SCHEMA
from .vtime import VirtualTime

PAGES = {"/post": 200, "/gone": 404, "/never": 200}


async def page(req, w):
    return await respond(w, PAGES[req.path], b"", req=req)


def registry(site: str) -> str:
    return "version: 1\nanchors:\n" + "".join(
        f"  - url: {site}{p}\n    first_anchored: 2026-09-20\n    status: new\n"
        f'    section: "§1.3 KV Cache"\n    cited_in: ["2026-09-20"]\n'
        for p in PAGES
    )


def wayback_for(site: str):
    """The cassette, with the recorded page origin replaced by the test site's."""
    c = load("wayback/availability")
    for i in c.interactions:
        i["request"]["url"] = i["request"]["url"].replace("http://docs.example", site)
        if "body" in i["response"]:
            i["response"]["body"] = i["response"]["body"].replace("http://docs.example", site)
    return c


def test_check_archive_then_fix_then_report(tmp_path: Path) -> None:
    reg = tmp_path / "registry.yaml"
    with LoopbackServer(lambda req: page if req.path in PAGES else None) as web:
        site = web.url("")
        reg.write_text(registry(site), encoding="utf-8")
        (tmp_path / "anchors.toml").write_text("wayback_delay = 0\n", encoding="utf-8")
        cassette = wayback_for(site)
        with cassette.serve() as wb:
            args = [
                "check",
                str(reg),
                "--allow-private",
                "--archive",
                "--wayback-api",
                wb.url("/wayback/available"),
                "--today",
                "2026-09-30",
                "-f",
                "json",
            ]
            first = CliRunner().invoke(app, args)
            asked = sum(wb.counts.values())
            second = CliRunner().invoke(app, args)  # snapshots come from the history now
            # only /never is asked again: "no capture" is never cached (the API says so
            # at times for archived pages)
            assert sum(wb.counts.values()) == asked + 1
    assert first.exit_code == 1, first.stderr  # /gone is dead
    assert asked == 6  # 4 availability answers (one retry with closest=before), 2 verifications
    codes = [f["code"] for f in json.loads(first.stdout)["findings"]]
    assert codes == ["dead-link"] and second.exit_code == 1
    assert reg.read_text("utf-8") == registry(site)  # check never writes the registry

    dry = CliRunner().invoke(app, ["fix", "-r", str(reg), "--dry-run", "--only", "archive"])
    assert dry.exit_code == 1 and "would fix" in dry.stderr
    assert (
        f'+    archived: {{url: "https://web.archive.org/web/20260918103000/{site}/post", '
        "date: 2026-09-18}" in dry.stdout
    )
    fixed = CliRunner().invoke(app, ["fix", "-r", str(reg), "--only", "archive"])
    assert fixed.exit_code == 0, fixed.stderr
    entries = yaml.safe_load(reg.read_text("utf-8"))["anchors"]
    assert entries[0]["archived"] == {
        "url": f"https://web.archive.org/web/20260918103000/{site}/post",
        "date": date(2026, 9, 18),
    }
    # the closest capture was after the first-anchored date; the one before it is kept
    assert entries[1]["archived"]["url"].startswith("https://web.archive.org/web/20260901080000/")
    assert "archived" not in entries[2]  # no capture exists

    # exports carry Robust Links: the original URL, the snapshot's date and its address
    md = CliRunner().invoke(app, ["export", "-r", str(reg)]).stdout
    assert (
        f"<{site}/post>. [archived 2026-09-18](<https://web.archive.org/web/20260918103000/"
        f"{site}/post>)." in md
    )
    csl = json.loads(CliRunner().invoke(app, ["export", "-r", str(reg), "-f", "csl-json"]).stdout)
    jsonschema.Draft7Validator(CSL_SCHEMA).validate(csl)
    assert csl[0]["archive"] == "Internet Archive" and csl[0]["archive_location"].startswith(
        "https://web.archive.org/web/20260918103000/"
    )

    rep = CliRunner().invoke(app, ["report", "-r", str(reg), "--since", "7d"])
    assert rep.exit_code == 1
    dead = next(ln for ln in rep.stdout.splitlines() if "/gone" in ln and ln.startswith("| ["))
    assert "([archived 2026-09-01](<https://web.archive.org/web/20260901080000/" in dead
    assert "web/*/" not in dead  # the snapshot, not the search page


class Stalled:
    """A Wayback that never answers: the check must not wait for it."""

    def __init__(self) -> None:
        self.asked = 0

    async def closest(self, url: str, before: date):
        self.asked += 1
        await asyncio.Event().wait()


def test_a_slow_archive_is_a_warning_and_holds_nothing_up(tmp_path: Path) -> None:
    reg = parse_text(registry("http://docs.example").encode(), "registry.yaml")
    targets = {a.key.key: a for a in reg.anchors if a.key}
    run = Begun("registry.yaml", targets, date(2026, 9, 30), Cache(None), None)

    async def go():
        arch = Archiver(Stalled(), grace=0.01)  # type: ignore[arg-type]
        arch.start(run)
        await asyncio.sleep(0)
        return arch, await arch.finish(frozenset())

    arch, found = asyncio.run(go())
    assert [f.code for f in found] == [Code.ARCHIVE_UNAVAILABLE]
    assert "too slow" in found[0].message and found[0].details["not_looked_up"] == 3
    assert arch.task is not None and arch.task.cancelled()


def mock(handler) -> WaybackClient:
    return WaybackClient(httpx.AsyncClient(transport=httpx.MockTransport(handler)), interval=0)


def test_an_archive_error_is_retried_then_stops_the_lookups_once() -> None:
    asked: list[str] = []

    def handler(req: httpx.Request) -> httpx.Response:
        asked.append(str(req.url))
        return httpx.Response(503)

    reg = parse_text(registry("http://docs.example").encode(), "registry.yaml")
    targets = {a.key.key: a for a in reg.anchors if a.key}
    vt = VirtualTime()

    async def go():
        wb = WaybackClient(
            httpx.AsyncClient(transport=httpx.MockTransport(handler)),
            interval=0,
            policy=vt.policy(),
        )
        arch = Archiver(wb, grace=5)
        arch.start(Begun("registry.yaml", targets, date(2026, 9, 30), Cache(None), None))
        return await arch.finish(frozenset())

    found = asyncio.run(go())
    # the first URL is tried three times (the run's policy, backing off), then nothing more
    assert len(asked) == 3 and len(set(asked)) == 1 and len(vt.waits) == 2
    assert "HTTP 503" in found[0].message and found[0].details["not_looked_up"] == 3


def test_a_passing_503_or_429_from_the_archive_costs_nothing() -> None:
    answers = iter([httpx.Response(503), httpx.Response(429, headers={"retry-after": "2"})])

    def handler(req: httpx.Request) -> httpx.Response:
        return next(answers, None) or httpx.Response(
            200, json={"url": "x", "archived_snapshots": {}}
        )

    vt = VirtualTime()
    wb = WaybackClient(
        httpx.AsyncClient(transport=httpx.MockTransport(handler)), interval=0, policy=vt.policy()
    )
    assert asyncio.run(wb.closest("https://docs.example/a", date(2026, 9, 20))) is None
    assert wb.requests == 3 and vt.waits[1] == 2.0  # Retry-After honoured


def test_snapshots_on_foreign_hosts_or_unverified_are_never_kept() -> None:
    seen: list[str] = []

    def handler(req: httpx.Request) -> httpx.Response:
        seen.append(req.url.host)
        if req.url.path == "/wayback/available":
            u = req.url.params["url"]
            snap = {
                "/evil": f"https://evil.example/web/20260918103000/{u}",
                "/bad": f"http://web.archive.org/web/20260918103000/{u}",
                "/gone": f"http://web.archive.org/web/20260918103000/{u}",
            }[httpx.URL(u).path]
            return httpx.Response(
                200,
                json={
                    "url": u,
                    "archived_snapshots": {
                        "closest": {
                            "status": "200",
                            "available": True,
                            "url": snap,
                            "timestamp": "20260918103000",
                        }
                    },
                },
            )
        return httpx.Response(404)  # the snapshot page itself is gone

    wb = mock(handler)

    async def go(path: str):
        return await wb.closest(f"http://docs.example{path}", date(2026, 9, 20))

    assert asyncio.run(go("/evil")) is None and "evil.example" not in seen
    assert asyncio.run(go("/gone")) is None  # HEAD of the snapshot: 404
    assert set(seen) == {"archive.org", "web.archive.org"}


def test_requests_are_spaced_like_any_host() -> None:
    waits: list[float] = []
    now = {"t": 100.0}

    async def sleep(s: float) -> None:
        waits.append(s)
        now["t"] += s

    def handler(req: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json={"url": "x", "archived_snapshots": {}})

    wb = WaybackClient(
        httpx.AsyncClient(transport=httpx.MockTransport(handler)),
        interval=1.5,
        sleep=sleep,
        clock=lambda: now["t"],
    )

    async def go() -> None:
        for p in ("/a", "/b", "/c"):
            assert await wb.closest(f"https://docs.example{p}", date(2026, 9, 20)) is None

    asyncio.run(go())
    assert waits == [1.5, 1.5] and wb.requests == 3


def test_bad_json_is_an_archive_error() -> None:
    wb = mock(lambda req: httpx.Response(200, content=b"<html>maintenance</html>"))
    with pytest.raises(WaybackError, match="not the expected JSON"):
        asyncio.run(wb.closest("https://docs.example/a", date(2026, 9, 20)))


def test_real_recorded_availability_answers_give_the_snapshots_they_name() -> None:
    """Answers the live API gave (cassettes/wayback/recorded.yaml), replayed to the client."""
    cassette = load("wayback/recorded")
    wb = WaybackClient(httpx.AsyncClient(transport=cassette.transport()), interval=0)

    async def go():
        return [
            await wb.closest(u, d)
            for u, d in (
                (
                    "https://jayconrod.com/posts/133/integration-tests-are-best-tests",
                    date(2026, 3, 1),
                ),
                ("https://github.com/DrKain/tidy-url", date(2026, 3, 20)),
                ("https://www.youtube.com/watch?v=_sOjKkBIlys", date(2026, 3, 20)),
            )
        ]

    post, repo, video = asyncio.run(go())
    assert not cassette.misses
    assert post is not None and repo is not None and video is None
    # the API's http:// snapshot address is stored as https, with the capture's own date
    assert post.as_dict() == {
        "url": "https://web.archive.org/web/20260212061822/"
        "https://jayconrod.com/posts/133/integration-tests-are-best-tests",
        "date": "2026-02-12",
    }
    assert repo.as_dict() == {
        "url": "https://web.archive.org/web/20260311082645/https://github.com/DrKain/tidy-url",
        "date": "2026-03-11",
    }
    assert [r[0] for r in cassette.seen] == ["GET", "HEAD", "GET", "HEAD", "GET"]


def test_check_archive_and_fix_through_the_cli_on_the_recorded_answers(tmp_path: Path) -> None:
    """The same real answers, end to end: the three recorded origins are replaced by the test
    site's at replay (as the modelled cassette's are), the bodies are otherwise as recorded."""
    paths = {
        "/posts/133/integration-tests-are-best-tests": "2026-03-01",
        "/DrKain/tidy-url": "2026-03-20",
        "/watch?v=_sOjKkBIlys": "2026-03-20",
    }

    async def ok(req, w):
        return await respond(w, 200, b"", req=req)

    with LoopbackServer(lambda req: ok) as web:
        site = web.url("")
        cassette = load("wayback/recorded")
        for i in cassette.interactions:
            for part in (i["request"], i["response"]):
                for k in ("url", "body"):
                    for origin in (
                        "https://jayconrod.com",
                        "https://github.com",
                        "https://www.youtube.com",
                    ):
                        if k in part:
                            part[k] = part[k].replace(origin, site)
        reg = tmp_path / "registry.yaml"
        reg.write_text(
            "version: 1\nanchors:\n"
            + "".join(
                f"  - url: {site}{p}\n    first_anchored: {d}\n    status: new\n"
                for p, d in paths.items()
            ),
            encoding="utf-8",
        )
        (tmp_path / "anchors.toml").write_text("wayback_delay = 0\n", encoding="utf-8")
        with cassette.serve() as wb:
            r = CliRunner().invoke(
                app,
                [
                    "check",
                    str(reg),
                    "--allow-private",
                    "--archive",
                    "--wayback-api",
                    wb.url("/wayback/available"),
                    "--today",
                    "2026-04-01",
                ],
            )
    assert r.exit_code == 0, r.output
    dry = CliRunner().invoke(app, ["fix", "-r", str(reg), "--dry-run", "--only", "archive"])
    added = [ln for ln in dry.stdout.splitlines() if ln.startswith("+    archived:")]
    assert added == [
        (
            f'+    archived: {{url: "https://web.archive.org/web/20260212061822/{site}'
            '/posts/133/integration-tests-are-best-tests", date: 2026-02-12}'
        ),
        (
            f'+    archived: {{url: "https://web.archive.org/web/20260311082645/{site}'
            '/DrKain/tidy-url", date: 2026-03-11}'
        ),
    ]


def archive_runs(tmp_path: Path, *flags: str, runs: int = 1) -> tuple[str, list[Result], list[int]]:
    """`check --archive FLAGS` of the three pages, `runs` times, against the Wayback fake: the
    site, each run's result, and the requests the fake had by the end of each."""
    reg = tmp_path / "registry.yaml"
    done, counts = [], []
    with LoopbackServer(lambda req: page if req.path in PAGES else None) as web:
        site = web.url("")
        reg.write_text(registry(site), encoding="utf-8")
        (tmp_path / "anchors.toml").write_text("wayback_delay = 0\n", encoding="utf-8")
        with wayback_for(site).serve() as wb:
            args = ["check", str(reg), "--allow-private", "--archive", *flags]
            args += ["--wayback-api", wb.url("/wayback/available"), "--today", "2026-09-30"]
            for _ in range(runs):
                done.append(CliRunner().invoke(app, args))
                counts.append(sum(wb.counts.values()))
    return site, done, counts


def test_check_archive_no_cache_keeps_snapshots_in_the_history_for_fix(tmp_path: Path) -> None:
    """The cache is disposable: `check --archive --no-cache` writes none, and `fix --only
    archive` finds the snapshots in the history; a second run does not look them up again."""
    reg = tmp_path / "registry.yaml"
    site, (first, second), (asked, total) = archive_runs(tmp_path, "--no-cache", runs=2)
    assert first.exit_code == 1, first.output  # /gone is dead; no usage error
    assert "--no-cache" not in first.stderr and second.exit_code == 1
    assert not (tmp_path / ".anchors" / "cache.json").exists()
    assert asked == 6 and total - asked == 1  # only /never, which has no capture, is asked again
    dry = CliRunner().invoke(app, ["fix", "-r", str(reg), "--dry-run", "--only", "archive"])
    assert dry.exit_code == 1, dry.output
    added = [ln for ln in dry.stdout.splitlines() if ln.startswith("+    archived:")]
    assert added == [
        f'+    archived: {{url: "https://web.archive.org/web/{stamp}/{site}/{p}", date: {day}}}'
        for stamp, p, day in (
            ("20260918103000", "post", "2026-09-18"),
            ("20260901080000", "gone", "2026-09-01"),
        )
    ]


def test_fix_reads_snapshots_with_the_cache_deleted(tmp_path: Path) -> None:
    reg = tmp_path / "registry.yaml"
    _, (r,), _ = archive_runs(tmp_path)
    assert r.exit_code == 1, r.output
    (tmp_path / ".anchors" / "cache.json").unlink()
    fixed = CliRunner().invoke(app, ["fix", "-r", str(reg), "--only", "archive"])
    assert fixed.exit_code == 0, fixed.output
    entries = yaml.safe_load(reg.read_text("utf-8"))["anchors"]
    assert [e.get("archived", {}).get("date") for e in entries] == [
        date(2026, 9, 18),
        date(2026, 9, 1),
        None,
    ]
