"""The weekly report, from a history built by real checks against a server that changes per run."""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import subprocess
import sys
from datetime import UTC, date, datetime
from pathlib import Path

import pytest
from typer.testing import CliRunner

from anchors.check.run import Services, check_online
from anchors.cli.app import app
from anchors.errors import HistoryError
from anchors.findings import Outcome
from anchors.history import History, Observation
from anchors.ids.model import WebUrl
from anchors.net.netguard import StaticResolver
from anchors.registry.loader import parse_text
from anchors.report.weekly import Section, build

from .checkout import as_checkout
from .loopback import LoopbackServer, respond
from .stack import links

GOLDEN = Path(__file__).parent / "golden" / "report.md"
DAY = 86400.0
START = datetime(2026, 9, 24, 6, 0, tzinfo=UTC).timestamp()
NOW = "2026-09-30T00:00Z"
OK, DEAD = 200, 404
# what each path answers in runs 0..5 (one run a day from 2026-09-24)
PLAN = {
    "/always-dead": [DEAD] * 6,
    "/dies": [OK, OK, OK, DEAD, DEAD, DEAD],
    "/flaps": [OK, DEAD, OK, DEAD, OK, DEAD],
    "/recovers": [OK, OK, OK, DEAD, DEAD, OK],
    "/limited": [429] * 6,
    "/moved": [301] * 6,
    "/fine": [OK] * 6,
}


def registry_text() -> str:
    out = "version: 1\nanchors:\n"
    for i, path in enumerate(PLAN):
        title = "Edge0 | `rm -rf` <script>@everyone</script>" if path == "/dies" else f"Post {i}"
        out += (
            f'  - url: http://docs.example/{path.strip("/")}\n    title: "{title}"\n'
            "    first_anchored: 2026-09-20\n    status: continued\n"
            '    section: "§1.3 KV Cache"\n    cited_in: ["2026-09-20", "2026-09-24"]\n'
        )
    return out


PORT: dict[str, int] = {}


@pytest.fixture(scope="module")
def history(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = as_checkout(tmp_path_factory.mktemp("hist"))
    run = {"n": 0}

    async def handler(req, w):
        code = PLAN[req.path][run["n"]]
        headers = (
            {"Location": "/fine"} if code == 301 else {"Retry-After": "3600"} if code == 429 else {}
        )
        return await respond(w, code, b"", headers, req=req)

    clock = {"t": START}
    db = tmp / "history.sqlite"
    path = tmp / "registry.yaml"  # the registry its runs are of: `report -r` names this one
    path.write_text(registry_text(), encoding="utf-8")
    reg = parse_text(registry_text().encode(), str(path))
    with LoopbackServer(lambda req: handler if req.path in PLAN else None, port=0) as srv:
        PORT["port"] = srv.port
        resolver = StaticResolver({"docs.example": ["127.0.0.1"]})

        async def one_run() -> None:
            # docs.example:80 is served by the test server, whatever port it has
            async with links(
                resolver=resolver, allow_private=True, attempts=1, port=srv.port
            ) as lc:
                h = History(db, clock=lambda: clock["t"])
                try:
                    await check_online(reg, date(2026, 9, 30), Services(lc), history=h)
                finally:
                    h.close()

        for n in range(6):
            run["n"] = n
            clock["t"] = START + n * DAY
            asyncio.run(one_run())
    return db


@pytest.mark.slow
def test_sections(history: Path) -> None:
    h = History(history)
    now = datetime.fromisoformat(NOW).timestamp()
    rep = build(
        h.rows(until=now), now, 3 * DAY, parse_text(registry_text().encode(), "registry.yaml")
    )
    h.close()
    got = {r.target.rsplit("/", 1)[1]: r.section for r in rep.rows}
    assert got == {
        "always-dead": Section.DEAD,
        "dies": Section.NEWLY_DEAD,
        "flaps": Section.FLAKY,
        "recovers": Section.RECOVERED,
        "limited": Section.NOT_DEAD,
        "moved": Section.REDIRECTED,
    }
    assert rep.runs == 3 and rep.anything_dead
    dies = next(r for r in rep.rows if r.target.endswith("/dies"))
    assert dies.failing_runs == 3 and dies.last_status == 404
    assert dies.first_failure == START + 3 * DAY and dies.last_success == START + 2 * DAY
    assert dies.registry_section == "§1.3 KV Cache" and dies.cited_in == (
        "2026-09-20",
        "2026-09-24",
    )


def test_golden_markdown_via_cli(history: Path, tmp_path: Path) -> None:
    reg = history.parent / "registry.yaml"
    out = tmp_path / "report.md"
    r = CliRunner().invoke(
        app,
        [
            "report",
            "-r",
            str(reg),
            "--history",
            str(history),
            "--since",
            "3d",
            "--now",
            NOW,
            "--output",
            str(out),
        ],
    )
    assert r.exit_code == 1, r.stderr
    text = out.read_text(encoding="utf-8").replace(str(reg), "registry.yaml")
    text = text.replace(f":{PORT['port']}", "")
    if os.environ.get("ANCHORS_UPDATE_GOLDEN"):  # regenerate on purpose, then review the diff
        GOLDEN.write_text(text, encoding="utf-8")
    assert text == GOLDEN.read_text(encoding="utf-8")
    assert "<script>" not in text and "@everyone" not in text
    assert "https://web.archive.org/web/*/http://docs.example/dies" in text


def test_json_report_and_exit_codes(history: Path, tmp_path: Path) -> None:
    runner = CliRunner()
    reg = history.parent / "registry.yaml"
    r = runner.invoke(
        app,
        [
            "report",
            "-r",
            str(reg),
            "--history",
            str(history),
            "--since",
            "3d",
            "--now",
            NOW,
            "--format",
            "json",
        ],
    )
    doc = json.loads(r.stdout)
    assert r.exit_code == 1
    assert doc["summary"] == {
        "newly-dead": 1,
        "dead": 1,
        "flaky": 1,
        "not-dead": 1,
        "recovered": 1,
        "redirected": 1,
    }
    assert doc["window"] == {
        "start": "2026-09-27T00:00:00Z",
        "end": "2026-09-30T00:00:00Z",
        "runs": 3,
        "partial_runs": 0,
    }
    # a history where nothing failed
    calm = tmp_path / "calm.sqlite"
    h = History(calm, clock=lambda: START)
    h.record(
        h.start_run(str(tmp_path / "calm.yaml")),
        [Observation(WebUrl("https://x.example/"), "https://x.example/", Outcome.OK, 200)],
    )
    h.close()
    r = runner.invoke(
        app, ["report", "-r", str(tmp_path / "calm.yaml"), "--history", str(calm), "--now", NOW]
    )
    assert r.exit_code == 0 and "Nothing failed in this window." in r.stdout
    for bad in (["--since", "7x"], ["--now", "yesterday"]):
        r = runner.invoke(app, ["report", "--history", str(history), *bad])
        assert r.exit_code == 2 and "Traceback" not in r.stderr


def test_corrupt_and_foreign_databases(tmp_path: Path) -> None:
    bad = tmp_path / "corrupt.sqlite"
    bad.write_bytes(b"SQLite format 3\x00" + b"\xff" * 4000)
    with pytest.raises(HistoryError, match="not an anchors history"):
        History(bad)
    foreign = tmp_path / "foreign.sqlite"
    con = sqlite3.connect(foreign)
    con.execute("CREATE TABLE users (id INTEGER)")
    con.commit()
    con.close()
    with pytest.raises(HistoryError, match="another program"):
        History(foreign)
    newer = tmp_path / "newer.sqlite"
    History(newer).close()
    con = sqlite3.connect(newer)
    con.execute("PRAGMA user_version=99")
    con.close()
    with pytest.raises(HistoryError, match="newer anchors"):
        History(newer)
    assert bad.read_bytes().startswith(b"SQLite format 3")  # never reset
    r = CliRunner().invoke(app, ["report", "--history", str(bad)])
    assert r.exit_code == 2 and "not an anchors history" in r.stderr


_WRITER = """
import sys
from anchors.findings import Outcome
from anchors.history import History, Observation
from anchors.ids.model import WebUrl
h = History(__import__("pathlib").Path(sys.argv[1]))
run = h.start_run("r")
for i in range(200):
    h.record(run, [Observation(WebUrl(f"https://x/{sys.argv[2]}/{i}"), "a", Outcome.OK)])
h.finish_run(run, True)
h.close()
"""


@pytest.mark.slow
def test_concurrent_writers_do_not_corrupt(tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite"
    procs = [subprocess.Popen([sys.executable, "-c", _WRITER, str(db), str(i)]) for i in range(4)]
    assert [p.wait(timeout=120) for p in procs] == [0, 0, 0, 0]
    h = History(db)
    rows = list(h.rows(until=1e12))
    assert len(rows) == 800 and len(h.runs(0, 1e12)) == 4
    assert h.db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    h.close()


def test_interrupted_run_keeps_recorded_rows(tmp_path: Path) -> None:
    h = History(tmp_path / "h.sqlite")
    run = h.start_run("r")
    h.record(run, [Observation(WebUrl("https://x/1"), "a", Outcome.DEAD, 404)])
    h.close()  # killed before finish_run
    h = History(tmp_path / "h.sqlite")
    (r,) = h.runs(0, 1e12)
    assert not r.complete and [x.outcome for x in h.rows(1e12)] == ["dead"]
    h.close()


def test_report_finds_the_history_where_check_writes_it(tmp_path: Path, monkeypatch) -> None:
    db = tmp_path / "elsewhere" / "h.sqlite"
    h = History(db, clock=lambda: START)
    h.record(
        h.start_run(str(tmp_path / "registry.yaml")),
        [Observation(WebUrl("https://x.example/"), "https://x.example/", Outcome.OK, 200)],
    )
    h.close()
    # a config file names a path relative to itself, inside its repository
    (tmp_path / "anchors.toml").write_text('history = "elsewhere/h.sqlite"\n', encoding="utf-8")
    r = CliRunner().invoke(app, ["report", "-r", str(tmp_path / "registry.yaml"), "--now", NOW])
    assert r.exit_code == 0, r.stderr  # the config file's history, as `check` would use
    monkeypatch.setenv("ANCHORS_HISTORY", str(tmp_path / "missing.sqlite"))
    r = CliRunner().invoke(app, ["report", "-r", str(tmp_path / "registry.yaml"), "--now", NOW])
    assert r.exit_code == 2 and "missing.sqlite: nothing to report from" in r.stderr


def _entry(url: str) -> str:
    return f'  - url: "{url}"\n    first_anchored: 2026-09-20\n    status: new\n'


def test_two_registries_in_one_folder_each_report_only_their_own_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """a.yaml and b.yaml share the folder's `.anchors/history.sqlite`; b's dead link is not in
    a's report, its count, its runs or its exit code, however the registry path is written."""

    async def handler(req, w):
        return await respond(w, 404 if req.path == "/b-dead" else 200, b"", req=req)

    with LoopbackServer(lambda req: handler) as srv:
        a, b = tmp_path / "a.yaml", tmp_path / "b.yaml"
        a.write_text("version: 1\nanchors:\n" + _entry(srv.url("/a-fine")), encoding="utf-8")
        b.write_text(
            "version: 1\nanchors:\n" + _entry(srv.url("/b-dead")) + _entry(srv.url("/b-fine")),
            encoding="utf-8",
        )
        monkeypatch.chdir(tmp_path)
        for args in (["a.yaml"], [str(b)], ["./b.yaml"]):  # relative and absolute paths
            r = CliRunner().invoke(app, ["check", *args, "--allow-private", "-f", "json"])
            assert r.exit_code in (0, 1), r.output
    (tmp_path / "link.yaml").symlink_to(a)
    for name in ("a.yaml", str(a), "link.yaml"):
        r = CliRunner().invoke(app, ["report", "-r", name, "-f", "json"])
        doc = json.loads(r.stdout)
        assert r.exit_code == 0, (name, r.output)
        assert (doc["window"]["runs"], doc["targets"], doc["rows"]) == (1, 1, []), name
        assert "b-dead" not in r.stdout and [p["ok"] for p in doc["trend"]] == [1]
    r = CliRunner().invoke(app, ["report", "-r", "b.yaml"])
    assert r.exit_code == 1 and "/b-dead" in r.stdout and "/a-fine" not in r.stdout
    assert "2 runs between" in r.stdout
    assert "2 anchors in the registry as last checked: 1 OK, 1 failing" in r.stdout


def test_fix_reads_only_its_own_registrys_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A later check of b.yaml sees a shared URL redirect; a.yaml's latest check saw it fine,
    so `fix a.yaml` has nothing to apply until a.yaml itself is checked again."""
    moved = {"now": False}

    async def handler(req, w):
        if req.path == "/shared" and moved["now"]:
            return await respond(w, 301, b"", {"Location": "/new-home"}, req=req)
        return await respond(w, 200, b"", req=req)

    with LoopbackServer(lambda req: handler) as srv:
        text = "version: 1\nanchors:\n" + _entry(srv.url("/shared"))
        for name in ("a.yaml", "b.yaml"):
            (tmp_path / name).write_text(text, encoding="utf-8")
        monkeypatch.chdir(tmp_path)
        for name, now in (("a.yaml", False), ("b.yaml", True)):
            moved["now"] = now
            r = CliRunner().invoke(app, ["check", name, "--allow-private", "--no-cache"])
            assert r.exit_code in (0, 1), r.output
        r = CliRunner().invoke(app, ["fix", "a.yaml", "--dry-run"])
        assert r.exit_code == 0 and "new-home" not in r.output, r.output
        r = CliRunner().invoke(app, ["fix", "b.yaml", "--dry-run"])
        assert "new-home" in r.output, r.output


def test_report_counts_the_registrys_entries_through_fix_removals_and_blocked_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After `fix` moved /old to /new (keeping /old as cited_url) and /gone was deleted from the
    registry, the report tracks the two entries left: /old's rows are the moved entry's (not a
    'Redirected' link of their own), /gone counts nowhere, and a run without --allow-private
    (every link blocked) changes no entry's state in the trend."""

    async def handler(req, w):
        if req.path == "/old":
            return await respond(w, 301, b"", {"Location": "/new"}, req=req)
        return await respond(w, 404 if req.path == "/gone" else 200, b"", req=req)

    with LoopbackServer(lambda req: handler) as srv:
        reg = tmp_path / "registry.yaml"
        reg.write_text(
            "version: 1\nanchors:\n"
            + "".join(_entry(srv.url(p)) for p in ("/old", "/gone", "/fine")),
            encoding="utf-8",
        )
        monkeypatch.chdir(tmp_path)

        def check(*flags: str) -> None:
            r = CliRunner().invoke(app, ["check", "registry.yaml", "--no-cache", *flags])
            assert r.exit_code in (0, 1), r.output

        check("--allow-private")
        assert CliRunner().invoke(app, ["fix", "registry.yaml"]).exit_code == 0
        text = reg.read_text(encoding="utf-8")
        assert f'cited_url: "{srv.url("/old")}"' in text
        reg.write_text(text.replace(_entry(srv.url("/gone")), ""), encoding="utf-8")
        check("--allow-private")
        check()  # blocked: loopback addresses need --allow-private
    r = CliRunner().invoke(app, ["report", "registry.yaml", "-f", "json"])
    doc = json.loads(r.stdout)
    assert r.exit_code == 0, r.output
    assert (doc["targets"], doc["rows"]) == (2, [])
    assert [(p["ok"], p["failing"], p["dead"]) for p in doc["trend"]] == [(2, 0, 0)] * 3
    # as the last check counted them: its links were blocked, so it could not tell
    assert {k: n for k, n in doc["states"].items() if n} == {"unverified": 2}
    md = CliRunner().invoke(app, ["report", "registry.yaml"]).stdout
    assert "2 anchors in the registry as last checked: 0 OK, 2 unverified" in md
    assert "Redirected" not in md and "/gone" not in md
