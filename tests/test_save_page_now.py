"""`check --archive-save`: new captures from Save Page Now 2 with the user's keys, against a
loopback fake replaying the SPN2 documentation's answer shapes (cassettes/wayback/save.yaml) and
mocked transports for the refusals."""

from __future__ import annotations

import asyncio
import itertools
import json
from datetime import date
from pathlib import Path
from urllib.parse import parse_qsl

import httpx
import pytest
import yaml
from typer.testing import CliRunner

from anchors.archive.archiver import Archiver
from anchors.archive.captures import SAVE_PREFIX
from anchors.archive.savepagenow import SavePageNow
from anchors.archive.wayback import WaybackClient
from anchors.cli.app import app
from anchors.config import load_settings
from anchors.errors import UsageError
from anchors.findings import Code, Finding
from anchors.history import History, Snapshot
from anchors.history.hook import Begun
from anchors.net.cache import Cache
from anchors.registry.loader import parse_text

from .cassettes import Cassette, load
from .loopback import LoopbackServer, respond
from .test_archive import PAGES, page, registry

ACCESS, SECRET = "acc3ss-K3Y", "s3cr3t-DO-NOT-LEAK"
KEYS = {"ANCHORS_IA_ACCESS_KEY": ACCESS, "ANCHORS_IA_SECRET_KEY": SECRET}


def archive_for(site: str) -> Cassette:
    """The availability and Save Page Now cassettes on one server, with the test site's origin."""
    avail, save = load("wayback/availability"), load("wayback/save")
    c = Cassette(save.path, avail.interactions + save.interactions)
    for i in c.interactions:
        for part in (i["request"], i["response"]):
            for k in ("url", "body"):
                if k in part:
                    part[k] = part[k].replace("http://docs.example", site)
    return c


@pytest.mark.slow
def test_archive_save_captures_a_live_page_with_no_snapshot_and_fix_stores_it(
    tmp_path: Path,
) -> None:
    reg = tmp_path / "registry.yaml"
    with LoopbackServer(lambda req: page if req.path in PAGES else None) as web:
        site = web.url("")
        reg.write_text(registry(site), encoding="utf-8")
        (tmp_path / "anchors.toml").write_text("wayback_delay = 0\nsave_delay = 0\n", "utf-8")
        cassette = archive_for(site)
        with cassette.serve() as wb:
            env = {**KEYS, "ANCHORS_SAVE_API": wb.url("/save")}
            args = [
                "check",
                str(reg),
                "--allow-private",
                "--archive-save",
                "--wayback-api",
                wb.url("/wayback/available"),
                "--today",
                "2026-09-30",
                "-f",
                "json",
            ]
            first = CliRunner().invoke(app, args, env=env)
            posts = [s for s in cassette.seen if s[0] == "POST"]
            polls = [p for _, p, _ in cassette.seen if p.startswith("/save/status/")]
            second = CliRunner().invoke(app, args, env=env)  # the capture is in the history now
            posts_after = [s for s in cassette.seen if s[0] == "POST"]
    assert first.exit_code == 1, first.stderr  # /gone is dead
    findings = json.loads(first.stdout)["findings"]
    assert sorted(f["code"] for f in findings) == ["archive-capture", "dead-link"]
    [cap] = [f for f in findings if f["code"] == "archive-capture"]
    snapshot = f"https://web.archive.org/web/20260930101500/{site}/never"
    assert cap["anchor"] == f"{site}/never" and cap["line"] == 13
    assert cap["snapshot"] == snapshot and cap["date"] == "2026-09-30"
    # one capture asked for: /post has a snapshot and /gone is dead; the keys in one header
    assert len(posts) == 1 and posts[0][1] == "/save"
    assert len(polls) == 2  # pending, then success
    assert posts[0][2]["authorization"] == f"LOW {ACCESS}:{SECRET}"
    assert all("authorization" not in h for m, p, h in cassette.seen if not p.startswith("/save"))
    assert len(posts_after) == 1 and second.exit_code == 1
    assert "archive-capture" not in second.stdout
    # the secret is in no output, cache or history
    state = b"".join(p.read_bytes() for p in (tmp_path / ".anchors").iterdir() if p.is_file())
    for text in (first.stdout, first.stderr, second.stdout, second.stderr):
        assert SECRET not in text
    assert SECRET.encode() not in state and b"never" in state

    dry = CliRunner().invoke(app, ["fix", "-r", str(reg), "--dry-run", "--only", "archive"])
    assert dry.exit_code == 1
    assert f'+    archived: {{url: "{snapshot}", date: 2026-09-30}}' in dry.stdout
    assert CliRunner().invoke(app, ["fix", "-r", str(reg), "--only", "archive"]).exit_code == 0
    entries = yaml.safe_load(reg.read_text("utf-8"))["anchors"]
    assert entries[2]["archived"] == {"url": snapshot, "date": date(2026, 9, 30)}


def test_archive_save_without_keys_is_exit_2_before_anything_is_asked_or_written(
    tmp_path: Path,
) -> None:
    reg = tmp_path / "registry.yaml"
    with LoopbackServer(lambda req: page) as srv:
        reg.write_text(registry(srv.url("")), encoding="utf-8")
        r = CliRunner().invoke(
            app,
            [
                "check",
                str(reg),
                "--allow-private",
                "--archive-save",
                "--wayback-api",
                srv.url("/wayback/available"),
            ],
            env={"ANCHORS_IA_ACCESS_KEY": ACCESS, "ANCHORS_IA_SECRET_KEY": ""},
        )
        asked = sum(srv.counts.values())
    assert r.exit_code == 2 and asked == 0
    assert r.stderr.strip().splitlines() == [
        (
            "anchors: error: --archive-save: Save Page Now needs your archive.org keys in "
            "ANCHORS_IA_ACCESS_KEY and ANCHORS_IA_SECRET_KEY (from https://archive.org/account/s3.php)"
        )
    ]
    assert not (tmp_path / ".anchors").exists()
    # offline, the switch in a config file needs no keys
    (tmp_path / "anchors.toml").write_text("archive_save = true\n", "utf-8")
    assert CliRunner().invoke(app, ["check", str(reg), "--offline"]).exit_code == 0


def test_the_keys_go_only_over_https_and_never_from_a_file(tmp_path: Path) -> None:
    reg = tmp_path / "registry.yaml"
    reg.write_text(registry("https://docs.example"), encoding="utf-8")
    r = CliRunner().invoke(
        app,
        ["check", str(reg), "--archive-save", "--save-api", "http://archive.example/save"],
        env=KEYS,
    )
    assert r.exit_code == 2 and "only sent over https" in r.stderr
    assert SECRET not in r.stderr and SECRET not in r.stdout
    s = load_settings(reg, {}, env={**KEYS, "ANCHORS_SAVE_API": "https://mirror.example/save"})
    assert s.save_keys() == (ACCESS, SECRET) and SECRET not in repr(s)
    for key in ("ia_keys", "ANCHORS_IA_SECRET_KEY"):
        (tmp_path / "anchors.toml").write_text(f'{key} = "{SECRET}"\n', "utf-8")
        with pytest.raises(UsageError, match="unknown setting"):
            load_settings(reg, {}, env={})


# --- the capture loop, on mocked transports in virtual time --------------------------------

AVAILABLE, SAVE = "https://archive.org/wayback/available", "https://web.archive.org/save"


class Fake:
    """An archive: no capture known, SPN2 answering by `on_post` / `on_status`; virtual time."""

    def __init__(
        self,
        on_post=None,
        on_status=None,
        snapshot_status: int = 200,
        stall_after: int | None = None,
    ) -> None:
        self.now = 0.0
        #: after this many capture requests, every wait of the capture loop lasts forever
        self.stall_after = stall_after
        self.posts: list[tuple[float, str]] = []
        self.seen: list[httpx.Request] = []
        self.on_post = on_post or (
            lambda url, n: httpx.Response(200, json={"url": url, "job_id": f"job-{n}"})
        )
        self.on_status = on_status or (
            lambda job: httpx.Response(
                200, json={"status": "success", "job_id": job, "timestamp": "20260930101500"}
            )
        )
        self.snapshot_status = snapshot_status

    async def sleep(self, s: float) -> None:
        if self.stall_after is not None and len(self.posts) >= self.stall_after:
            await asyncio.Event().wait()
        self.now += s
        await asyncio.sleep(0)

    def handler(self, req: httpx.Request) -> httpx.Response:
        self.seen.append(req)
        if req.url.path == "/wayback/available":
            return httpx.Response(
                200, json={"url": req.url.params["url"], "archived_snapshots": {}}
            )
        if req.method == "POST" and req.url.path == "/save":
            url = dict(parse_qsl(req.content.decode()))["url"]
            self.posts.append((self.now, url))
            return self.on_post(url, len(self.posts))
        if req.url.path.startswith("/save/status/"):
            return self.on_status(req.url.path.rsplit("/", 1)[1])
        if req.method == "HEAD" and req.url.path.startswith("/web/"):
            return httpx.Response(self.snapshot_status)
        return httpx.Response(404)

    def run(
        self,
        text: str,
        *,
        limit: int = 5,
        failed: set[str] = frozenset(),  # type: ignore[assignment]
        cache: Cache | None = None,
        history: History | None = None,
        patience: float = 150.0,
        save_grace: float = 5.0,
    ) -> tuple[list[Finding], Cache]:
        reg = parse_text(text.encode(), "registry.yaml")
        targets = {a.key.key: a for a in reg.anchors if a.key}
        cache = cache or Cache(None)

        async def go() -> list[Finding]:
            client = httpx.AsyncClient(transport=httpx.MockTransport(self.handler))
            wb = WaybackClient(client, interval=0)
            saver = SavePageNow(
                client,
                keys=(ACCESS, SECRET),
                limit=limit,
                patience=patience,
                sleep=self.sleep,
                clock=lambda: self.now,
            )
            arch = Archiver(wb, saver, grace=save_grace, save_grace=save_grace)
            arch.start(Begun("registry.yaml", targets, date(2026, 9, 30), cache, history))
            answered = set(targets) - {f"url:https://docs.example{p}" for p in failed}
            try:
                return await arch.finish(frozenset(answered))
            finally:
                await client.aclose()

        return asyncio.run(go()), cache


def dated(*days: str) -> str:
    return "version: 1\nanchors:\n" + "".join(
        f"  - url: https://docs.example/{d}\n    first_anchored: 2026-{d}\n    status: new\n"
        for d in days
    )


def test_captures_are_spaced_limited_newest_first_and_kept(tmp_path: Path) -> None:
    fake = Fake()
    history = History(tmp_path / "history.sqlite")
    found, cache = fake.run(dated("09-01", "09-25", "09-10", "09-20"), limit=3, history=history)
    assert [u for _, u in fake.posts] == [
        "https://docs.example/09-25",
        "https://docs.example/09-20",
        "https://docs.example/09-10",
    ]
    times = [t for t, _ in fake.posts]
    assert [b - a for a, b in itertools.pairwise(times)] == [10.0, 10.0]  # 7 a minute at most
    *captured, left = found
    assert [f.code for f in found] == [Code.ARCHIVE_CAPTURE] * 4
    assert all("captured by Save Page Now on 2026-09-30" in f.message for f in captured)
    assert left.anchor == "" and left.details == {"over_quota": 1}  # 09-01 waits for a later run
    assert history.snapshots("registry.yaml")["url:https://docs.example/09-25"] == Snapshot(
        "https://web.archive.org/web/20260930101500/https://docs.example/09-25", "2026-09-30"
    )
    assert len(history.snapshots()) == 3
    assert cache.get(SAVE_PREFIX + "url:https://docs.example/09-01") is None  # over the limit


def test_a_dead_page_is_not_captured_and_a_page_asked_for_today_is_not_asked_again() -> None:
    fake = Fake(on_status=lambda job: httpx.Response(200, json={"status": "pending"}))
    found, cache = fake.run(dated("09-01", "09-02"), failed={"/09-02"}, patience=12)
    assert [u for _, u in fake.posts] == ["https://docs.example/09-01"]
    assert "not finished yet" in found[0].message and found[0].details["job"] == "job-1"
    again = Fake()
    again.run(dated("09-01", "09-02"), cache=cache)
    assert again.posts == [(0.0, "https://docs.example/09-02")]  # 09-01 was asked for today


def test_refused_keys_stop_the_captures_with_one_warning_that_leaks_nothing() -> None:
    fake = Fake(on_post=lambda url, n: httpx.Response(401, text="Unauthorized"))
    found, cache = fake.run(dated("09-01", "09-02", "09-03"))
    # no capture began, so the page is not marked: with the keys fixed, the next run asks
    assert cache.get(SAVE_PREFIX + "url:https://docs.example/09-03") is None
    assert len(fake.posts) == 1
    [w] = found
    assert w.code is Code.ARCHIVE_UNAVAILABLE and "refused the keys (HTTP 401)" in w.message
    assert w.details == {"not_asked": 2} and "2 more pages were not asked for" in w.message
    assert SECRET not in json.dumps(w.as_dict())
    hosts = {r.url.host for r in fake.seen if "authorization" in r.headers}
    assert hosts == {"web.archive.org"}  # the availability API never sees the keys


@pytest.mark.parametrize(
    "answer",
    [
        httpx.Response(
            429,
            json={
                "status": "error",
                "status_ext": "error:user-session-limit",
                "message": "You have already reached the limit of active sessions",
            },
        ),
        httpx.Response(200, json={"status": "error", "status_ext": "error:user-session-limit"}),
        httpx.Response(503, text="<html>down</html>"),
        httpx.Response(302, headers={"location": "https://evil.example/collect"}),
    ],
)
def test_account_and_service_refusals_stop_the_run(answer: httpx.Response) -> None:
    fake = Fake(on_post=lambda url, n: answer)
    found, _ = fake.run(dated("09-01", "09-02"))
    assert len(fake.posts) == 1 and [f.code for f in found] == [Code.ARCHIVE_UNAVAILABLE]
    assert "evil.example" not in {r.url.host for r in fake.seen}  # no redirect followed


def test_a_page_spn_will_not_capture_is_info_and_the_others_go_on() -> None:
    def post(url: str, n: int) -> httpx.Response:
        if n == 1:
            return httpx.Response(
                200,
                json={
                    "status": "error",
                    "status_ext": "error:too-many-daily-captures",
                    "message": "\x1b]8;;https://evil.example\x07click\x1b]8;;\x07",
                },
            )
        return httpx.Response(200, json={"url": url, "job_id": f"job-{n}"})

    def status(job: str) -> httpx.Response:
        if job == "job-2":
            return httpx.Response(
                200,
                json={
                    "status": "error",
                    "status_ext": "error:not-found",
                    "message": "Target URL not found",
                },
            )
        return httpx.Response(200, json={"status": "success", "timestamp": "20260930101500"})

    fake = Fake(post, status)
    found, _ = fake.run(dated("09-03", "09-02", "09-01"))
    by = {f.anchor.rsplit("/", 1)[1]: f for f in found}
    assert len(fake.posts) == 3 and all(f.code is Code.ARCHIVE_CAPTURE for f in found)
    assert by["09-03"].message == "Save Page Now did not capture it (error:too-many-daily-captures)"
    assert by["09-02"].details == {"reason": "error:not-found"}
    assert "captured by Save Page Now" in by["09-01"].message
    assert not any("\x1b" in f.message or "evil" in f.message for f in found)


def test_a_capture_whose_snapshot_does_not_answer_is_not_kept(tmp_path: Path) -> None:
    history = History(tmp_path / "history.sqlite")
    found, _ = Fake(snapshot_status=404).run(dated("09-01"), history=history)
    assert "does not answer yet" in found[0].message
    assert history.snapshots() == {}
    found, _ = Fake().run(dated("09-01"), history=history)  # the same, answering: kept
    assert list(history.snapshots()) == ["url:https://docs.example/09-01"]


def test_job_ids_and_timestamps_from_the_network_are_checked_before_use() -> None:
    for job in ("../../admin", "job-1\n", "job-1\r\nX-Injected: 1"):
        fake = Fake(on_post=lambda url, n, job=job: httpx.Response(200, json={"job_id": job}))
        found, _ = fake.run(dated("09-01"))
        assert "without a job" in found[0].message, job
        assert not any("/status/" in r.url.path for r in fake.seen)
    odd = Fake(
        on_status=lambda job: httpx.Response(
            200, json={"status": "success", "timestamp": "2026/../../x"}
        )
    )
    found, _ = odd.run(dated("09-01"), patience=12)
    assert "not finished yet" in found[0].message
    assert not any(r.method == "HEAD" for r in odd.seen)


def test_captures_cut_off_by_the_grace_are_said_and_never_asked_for_twice() -> None:
    fake = Fake(
        on_status=lambda job: httpx.Response(200, json={"status": "pending"}), stall_after=1
    )
    found, cache = fake.run(dated("09-04", "09-03", "09-02", "09-01"), save_grace=0.2)
    asked, warning = found
    assert len(fake.posts) == 1 and "not finished yet" in asked.message
    assert warning.code is Code.ARCHIVE_UNAVAILABLE and warning.details == {"not_asked": 3}
    assert "out of time (over 0.2 s after the check finished)" in warning.message
    assert cache.get(SAVE_PREFIX + "url:https://docs.example/09-04") is not None
    assert cache.get(SAVE_PREFIX + "url:https://docs.example/09-03") is None


def test_a_status_poll_that_fails_leaves_the_job_running() -> None:
    answers = iter([httpx.ReadTimeout("slow"), httpx.Response(503)])

    def status(job: str) -> httpx.Response:
        nxt = next(answers, None)
        if isinstance(nxt, Exception):
            raise nxt
        return nxt or httpx.Response(200, json={"status": "success", "timestamp": "20260930101500"})

    fake = Fake(on_status=status)
    found, _ = fake.run(dated("09-02", "09-01"))
    assert len(fake.posts) == 2
    assert [f.code for f in found] == [Code.ARCHIVE_CAPTURE] * 2
    assert all("captured by Save Page Now" in f.message for f in found)


def test_a_refused_page_is_not_asked_for_again_the_same_day() -> None:
    refuse = lambda url, n: httpx.Response(
        200, json={"status": "error", "status_ext": "error:too-many-daily-captures"}
    )
    fake = Fake(on_post=refuse)
    _, cache = fake.run(dated("09-01"))
    again = Fake(on_post=refuse)
    again.run(dated("09-01"), cache=cache)
    assert len(fake.posts) == 1 and again.posts == []


def test_a_repository_page_that_did_not_answer_is_not_captured() -> None:
    """GitHub repository URLs are checked through the API, not the link checker: only one that
    answered there is captured."""
    from anchors.check.run import Services, check_online
    from anchors.findings import Outcome
    from anchors.resolve.base import Resolution

    class Repos:
        async def resolve(self, keys):
            return {
                k.key: Resolution(
                    Outcome.DEAD if k.key.endswith("gone") else Outcome.OK,
                    status=404 if k.key.endswith("gone") else 200,
                )
                for k in keys
            }

    text = "version: 1\nanchors:\n" + "".join(
        f"  - url: https://github.com/octo/{r}\n    first_anchored: 2026-09-20\n    status: new\n"
        for r in ("gone", "live")
    )
    fake = Fake()

    async def go():
        client = httpx.AsyncClient(transport=httpx.MockTransport(fake.handler))
        services = Services(
            github=Repos(),
            after=Archiver(
                WaybackClient(client, interval=0),
                SavePageNow(
                    client, keys=(ACCESS, SECRET), sleep=fake.sleep, clock=lambda: fake.now
                ),
            ),
        )
        try:
            return await check_online(
                parse_text(text.encode(), "registry.yaml"), date(2026, 9, 30), services
            )
        finally:
            await client.aclose()

    result = asyncio.run(go())
    assert [u for _, u in fake.posts] == ["https://github.com/octo/live"]
    assert {f.code for f in result.findings} >= {Code.ARCHIVE_CAPTURE, Code.NOT_FOUND}


def test_several_registries_share_one_quota(tmp_path: Path) -> None:
    """`archive_saves = 1` is one capture for the run, not one per registry checked."""
    posts: list[str] = []

    async def archive(req, w):
        if req.path.startswith("/wayback/available"):
            return await respond(
                w, 200, b'{"archived_snapshots": {}}', {"Content-Type": "application/json"}, req=req
            )
        if req.method == "POST":
            posts.append(req.body.decode())
            return await respond(
                w, 200, b'{"job_id": "j1"}', {"Content-Type": "application/json"}, req=req
            )
        if req.path.startswith("/save/status/"):
            return await respond(
                w,
                200,
                b'{"status": "success", "timestamp": "20260930101500"}',
                {"Content-Type": "application/json"},
                req=req,
            )
        return await respond(w, 200, b"", req=req)

    with LoopbackServer(lambda req: archive) as srv:
        for name in ("a", "b"):
            (tmp_path / f"{name}.yaml").write_text(
                f"version: 1\nanchors:\n  - url: {srv.url('/' + name)}\n"
                "    first_anchored: 2026-09-20\n    status: new\n",
                encoding="utf-8",
            )
        (tmp_path / "anchors.toml").write_text(
            "wayback_delay = 0\nsave_delay = 0\narchive_saves = 1\n", "utf-8"
        )
        r = CliRunner().invoke(
            app,
            [
                "check",
                str(tmp_path / "a.yaml"),
                str(tmp_path / "b.yaml"),
                "--allow-private",
                "--archive-save",
                "--wayback-api",
                srv.url("/wayback/available"),
                "--save-api",
                srv.url("/save"),
                "--today",
                "2026-09-30",
                "-f",
                "json",
            ],
            env=KEYS,
        )
    assert r.exit_code == 0, r.output
    assert len(posts) == 1
    codes = [(f["code"], f.get("over_quota")) for f in json.loads(r.stdout)["findings"]]
    assert sorted(codes, key=str) == [("archive-capture", 1), ("archive-capture", None)]


@pytest.mark.parametrize(
    ("setting", "env", "message"),
    [
        (
            'save_api = "https://collector.example/save"\n',
            {},
            "save_api may not be set in a config file",
        ),
        (
            "save_delay = 1\n",
            {"ANCHORS_SAVE_API": "https://web.archive.org/save"},
            "save_delay = 1: Save Page Now allows 7 captures a minute",
        ),
        ("", {"ANCHORS_IA_ACCESS_KEY": "acc:ess"}, "ANCHORS_IA_ACCESS_KEY: not an archive.org key"),
        (
            "",
            {"ANCHORS_IA_SECRET_KEY": "s3cr3t with blanks"},
            "ANCHORS_IA_SECRET_KEY: not an archive.org key",
        ),
    ],
)
def test_unusable_archive_settings_are_exit_2_naming_no_key(
    tmp_path: Path, setting: str, env: dict[str, str], message: str
) -> None:
    reg = tmp_path / "registry.yaml"
    reg.write_text(registry("https://docs.example"), encoding="utf-8")
    (tmp_path / "anchors.toml").write_text(setting, "utf-8")
    args = ["check", str(reg), "--archive-save"]
    r = CliRunner().invoke(app, args, env={**KEYS, **env})
    assert r.exit_code == 2, r.output
    [line] = r.stderr.splitlines()
    assert line.startswith("anchors: error: ") and message in line, line
    assert SECRET not in line and "acc:ess" not in line and "blanks" not in line
    assert not (tmp_path / ".anchors").exists()
