"""Transitions and trend in the weekly report, from real checks against loopback GitHub/arXiv/web
fakes whose answers change between runs (real recorded bodies, with the earlier state modelled)."""

from __future__ import annotations

import asyncio
import json
import os
import re
import sqlite3
from datetime import UTC, date, datetime
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner

from anchors.check.run import Services, check_online
from anchors.cli.app import app
from anchors.findings import Outcome
from anchors.history import (
    APPLICATION_ID,
    SCHEMA_VERSION,
    ArxivFacts,
    History,
    IssueFacts,
    Move,
    MoveKind,
    Observation,
    RepoFacts,
    Snapshot,
    move_of,
)
from anchors.ids.model import WebUrl, key_from_text
from anchors.net.netguard import StaticResolver
from anchors.registry.loader import parse_text
from anchors.report.transitions import Change, fact_changes, section_order, transitions, trend
from anchors.resolve.arxiv import ArxivResolver
from anchors.resolve.github import GithubResolver

from .checkout import as_checkout
from .loopback import LoopbackServer, respond
from .stack import links

FIX = Path("/work/shared/reference/fixtures")
LOCAL_FIX = Path(__file__).parent / "data" / "fixtures"
GOLDEN = Path(__file__).parent / "golden" / "report-transitions.md"
DAY = 86400.0
START = datetime(2026, 9, 24, 6, 0, tzinfo=UTC).timestamp()
NOW = "2026-09-27T00:00Z"


def fixture(name: str) -> bytes:
    return (LOCAL_FIX / name).read_bytes()


def github_body(name: str, run: int) -> bytes:
    """Runs 0: the issue/PR still open (modelled: state open, no reason, not merged); then REAL."""
    doc = json.loads(fixture(name))
    if run == 0:
        doc.update(state="open", state_reason=None, closed_at=None)
        if doc.get("pull_request"):
            doc["pull_request"]["merged_at"] = None
    return json.dumps(doc).encode()


def arxiv_body(run: int) -> bytes:
    """Run 0: 2312.07104 still at v1, 2309.06180 under an older title, astro-ph/0601001 not yet
    published (no journal_ref); then the recorded entries, in one feed."""
    xml = fixture("arxiv-api-found.xml")
    old = fixture("arxiv-api-oldid-journalref.xml")
    entry = old[old.index(b"  <entry>") : old.index(b"</feed>")]
    if run == 0:
        xml = xml.replace(b"2312.07104v2", b"2312.07104v1").replace(
            b"Efficient Memory Management for Large Language Model Serving with PagedAttention",
            b"vLLM: Easy, Fast, and Cheap LLM Serving",
        )
        entry = entry.replace(
            b"    <arxiv:journal_ref>ActaAstron.56:1-50,2006</arxiv:journal_ref>\n", b""
        )
    first = xml.index(b"  <entry>")  # the client reads at most max_results entries
    return xml[:first] + entry + xml[first:]


WEB = {"/dies": [200, 404, 404], "/fine": [200, 200, 200], "/moves": [200, 301, 301]}


def registry_text(port: int) -> str:
    def e(field: str, value: str, section: str) -> str:
        return (
            f'  - {field}: "{value}"\n    first_anchored: 2026-09-20\n    status: continued\n'
            f'    section: "{section}"\n    cited_in: ["2026-09-20", "2026-09-22"]\n'
        )

    return "version: 1\nanchors:\n" + "".join(
        [
            e("url", "https://github.com/PyGithub/PyGithub/issues/28", "§2.1 Tooling"),
            e("url", "https://github.com/ZcashFoundation/zebra/pull/8868", "§2.1 Tooling"),
            e("arxiv", "2312.07104", "§1.10 Serving"),
            e("arxiv", "2309.06180", "§1.3 KV Cache"),
            e("arxiv", "astro-ph/0601001", "§1.3 KV Cache"),
            e("url", f"http://127.0.0.1:{port}/dies", "§1.3 KV Cache"),
            e("url", f"http://127.0.0.1:{port}/moves", "§1.3 KV Cache"),
            e("url", f"http://127.0.0.1:{port}/fine", "§1.3 KV Cache"),
        ]
    )


class Fakes:
    """One loopback server playing GitHub's API, arXiv's API and a web site, run by run."""

    def __init__(self) -> None:
        self.run = 0

    def route(self, req):
        async def handler(req, w):
            path = req.path.split("?")[0]
            if path == "/repos/PyGithub/PyGithub/issues/28":
                return await respond(
                    w,
                    200,
                    github_body("github-issue.json", self.run),
                    {"Content-Type": "application/json"},
                    req=req,
                )
            if path == "/repos/ZcashFoundation/zebra/issues/8868":
                return await respond(
                    w,
                    200,
                    github_body("github-pull-as-issue.json", self.run),
                    {"Content-Type": "application/json"},
                    req=req,
                )
            if path == "/api/query":
                return await respond(
                    w, 200, arxiv_body(self.run), {"Content-Type": "application/atom+xml"}, req=req
                )
            if path in WEB:
                code = WEB[path][self.run]
                return await respond(
                    w, code, b"", {"Location": "/fine"} if code == 301 else {}, req=req
                )
            return await respond(w, 404, b"", req=req)

        return handler


@pytest.fixture(scope="module")
def scenario(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    tmp = as_checkout(tmp_path_factory.mktemp("transitions"))
    db = tmp / "history.sqlite"
    fakes = Fakes()
    with LoopbackServer(fakes.route) as srv:
        text = registry_text(srv.port)
        path = tmp / "registry.yaml"  # the registry its runs are of: `report -r` names this one
        path.write_text(text, encoding="utf-8")
        reg = parse_text(text.encode(), str(path))

        async def one_run(at: float) -> None:
            async with (
                links(resolver=StaticResolver({}), allow_private=True, attempts=1) as lc,
                httpx.AsyncClient() as api,
            ):
                services = Services(
                    lc,
                    ArxivResolver(srv.url("/api/query"), delay=0.0),
                    GithubResolver(api, srv.url("")),
                )
                h = History(db, clock=lambda: at)
                try:
                    await check_online(reg, date(2026, 9, 27), services, history=h)
                finally:
                    h.close()

        for n in range(3):
            fakes.run = n
            asyncio.run(one_run(START + n * DAY))
    return db, text


def test_transitions_from_real_checks(scenario: tuple[Path, str]) -> None:
    db, _ = scenario
    h = History(db)
    rows = list(h.rows(until=START + 3 * DAY))
    h.close()
    got = {
        (t.change, short(t.anchor), t.after and short(t.after))
        for t in transitions(rows, START + DAY - 1, START + 3 * DAY)
    }
    assert got == {
        (Change.ISSUE_CLOSED, "github.com/PyGithub/PyGithub/issues/28", "closed (completed)"),
        (Change.PR_MERGED, "github.com/ZcashFoundation/zebra/pull/8868", "merged"),
        (Change.NEW_VERSION, "2312.07104", "v2"),
        (
            Change.RETITLED,
            "2309.06180",
            "Efficient Memory Management for Large Language Model Serving with PagedAttention",
        ),
        (Change.PUBLISHED, "astro-ph/0601001", "ActaAstron.56:1-50,2006"),
        (Change.DIED, "/dies", "HTTP 404"),
        (Change.REDIRECTED, "/moves", "/fine"),
    }
    # nothing changed at the first run (no earlier observation) or in the last one
    assert transitions(rows, START + 2 * DAY - 1, START + 3 * DAY) == []


def short(s: str) -> str:
    return re.sub(r"^https?://(127\.0\.0\.1:\d+)?", "", s)


def test_trend_counts_every_run(scenario: tuple[Path, str]) -> None:
    db, _ = scenario
    h = History(db)
    pts = trend(list(h.rows(until=START + 3 * DAY)), START + 3 * DAY)
    h.close()
    assert [(p.ok, p.flaky, p.dead) for p in pts] == [(8, 0, 0), (7, 0, 1), (7, 0, 1)]


def test_golden_report_with_transitions_and_trend(
    scenario: tuple[Path, str], tmp_path: Path
) -> None:
    db, _ = scenario
    reg = db.parent / "registry.yaml"
    r = CliRunner().invoke(
        app, ["report", "-r", str(reg), "--history", str(db), "--since", "3d", "--now", NOW]
    )
    out = re.sub(r"127\.0\.0\.1:\d+", "127.0.0.1:PORT", r.stdout.replace(str(reg), "registry.yaml"))
    if os.environ.get("ANCHORS_UPDATE_GOLDEN"):
        GOLDEN.write_text(out, encoding="utf-8")
    assert out == GOLDEN.read_text(encoding="utf-8")
    assert "#### §1.3 KV Cache" in out and out.index("§1.3 KV Cache") < out.index("§1.10 Serving")
    assert "```mermaid\n%%{init: " in out and "}%%\nxychart-beta\n" in out

    assert r.exit_code == 1, r.stderr  # /dies is newly dead
    j = CliRunner().invoke(
        app,
        [
            "report",
            "-r",
            str(reg),
            "--history",
            str(db),
            "--since",
            "3d",
            "--now",
            NOW,
            "--format",
            "json",
        ],
    )
    doc = json.loads(j.stdout)
    changes = [(t["change"], t["registry_section"]) for t in doc["transitions"]]
    assert ("issue-closed", "§2.1 Tooling") in changes and (
        "new-version",
        "§1.10 Serving",
    ) in changes
    assert [t["registry_section"] for t in doc["transitions"]] == sorted(
        (t["registry_section"] for t in doc["transitions"]), key=section_order
    )
    assert [(p["ok"], p["dead"]) for p in doc["trend"]] == [(8, 0), (7, 1), (7, 1)]


def test_fact_changes_cover_every_kind() -> None:
    assert fact_changes(IssueFacts(state="closed"), IssueFacts(state="open")) == [
        (Change.ISSUE_REOPENED, "closed", "open")
    ]
    published = ArxivFacts(title="A", journal_ref="Nature 1 (2026)")
    assert fact_changes(ArxivFacts(title="A"), published) == [
        (Change.PUBLISHED, None, "Nature 1 (2026)")
    ]
    assert fact_changes(RepoFacts(), RepoFacts(archived=True)) == [
        (Change.ARCHIVED_REPO, None, "archived")
    ]
    # a repository's name is not a title: its change is the page's move (one rule with fix)
    assert fact_changes(RepoFacts(title="a/b"), RepoFacts(title="c/d")) == []
    renamed = Observation(
        WebUrl("https://github.com/a/b"), "", Outcome.REDIRECT, final_url="https://github.com/c/d"
    )
    assert move_of(renamed) == Move(MoveKind.RENAMED_REPO, "https://github.com/c/d")
    # the same facts, or a title that only changed case, are no change
    assert (
        fact_changes(
            IssueFacts(state="open", title="Edge0: X"), IssueFacts(state="open", title="EDGE0 x")
        )
        == []
    )
    assert (
        fact_changes(
            ArxivFacts(title="Edge0: X", version=2), ArxivFacts(title="EDGE0 x", version=2)
        )
        == []
    )


def test_old_history_file_is_migrated_and_still_reported(tmp_path: Path) -> None:
    """A schema-1 file (no facts column) opens, keeps its rows, and records facts from then on."""
    db = tmp_path / "history.sqlite"
    con = sqlite3.connect(db)
    con.executescript(
        "CREATE TABLE runs (id INTEGER PRIMARY KEY, started_at REAL NOT NULL, finished_at REAL, "
        "registry TEXT NOT NULL, complete INTEGER NOT NULL DEFAULT 0);"
        "CREATE TABLE results (run_id INTEGER NOT NULL REFERENCES runs(id), checked_at REAL NOT "
        "NULL, target TEXT NOT NULL, anchor TEXT NOT NULL, kind TEXT NOT NULL, outcome TEXT NOT "
        "NULL, status INTEGER, final_url TEXT, error TEXT, elapsed_ms INTEGER);"
        "CREATE INDEX results_by_target ON results (target, checked_at);"
        "CREATE INDEX runs_by_time ON runs (started_at);"
        f"INSERT INTO runs VALUES (1, {START}, {START}, 'r.yaml', 1);"
        f"INSERT INTO results VALUES (1, {START}, 'github:a/b#1', 'x', 'github', 'ok', 200, "
        "NULL, NULL, NULL);"
        f"PRAGMA application_id={APPLICATION_ID}; PRAGMA user_version=1;"
    )
    con.close()
    h = History(db)
    run = h.start_run("r.yaml", START + DAY)
    h.record(
        run,
        [
            Observation(
                key_from_text("github:a/b#1"),
                "x",
                Outcome.OK,
                200,
                checked_at=START + DAY,
                facts=IssueFacts(state="closed"),
            )
        ],
    )
    rows = list(h.rows(until=START + 2 * DAY))
    h.close()
    assert [r.facts for r in rows] == [None, IssueFacts(state="closed")]
    assert sqlite3.connect(db).execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)


def test_the_weekly_workflows_check_sees_a_new_version_the_cache_would_hide(tmp_path: Path) -> None:
    """The weekly check step, run as the workflow writes it, twice: arXiv moves from v1 to v2 in
    between. A cached answer (arXiv entries are cached for 14 days) would hide the change from
    that week's report, so the weekly check must ask afresh."""
    import shlex

    import yaml

    flow = yaml.safe_load(
        (
            Path(__file__).resolve().parent.parent / ".github" / "workflows" / "anchors-weekly.yml"
        ).read_text(encoding="utf-8")
    )
    [step] = [s for s in flow["jobs"]["report"]["steps"] if s.get("name") == "Online check"]
    args = shlex.split(step["with"]["args"])
    fakes = Fakes()
    with LoopbackServer(fakes.route) as srv:
        (tmp_path / "registry.yaml").write_text(registry_text(srv.port), encoding="utf-8")
        env = {
            "ANCHORS_ARXIV_API": srv.url("/api/query"),
            "ANCHORS_GITHUB_API": srv.url(""),
            "ANCHORS_ARXIV_DELAY": "0",
            "ANCHORS_ALLOW_PRIVATE": "1",
        }
        cwd = os.getcwd()
        os.chdir(tmp_path)
        try:
            for n in range(2):
                fakes.run = n
                r = CliRunner().invoke(app, ["check", *args, "--today", "2026-09-27"], env=env)
                assert r.exit_code in (0, 1), r.stderr
            rep = CliRunner().invoke(
                app, ["report", "registry.yaml", "--since", "7d", "-f", "json"]
            )
        finally:
            os.chdir(cwd)
    changes = {(t["change"], t["anchor"]) for t in json.loads(rep.stdout)["transitions"]}
    assert ("new-version", "2312.07104") in changes, changes


def test_a_renamed_repository_is_one_change(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A repository cited by URL is asked of the API and recorded as its link: a rename is a
    redirect, a `moved_to` fact and a new full name at once, and the report says so once, as
    `renamed`; a repository's full name is no title, so nothing is `retitled`."""
    state = {"renamed": False}

    def repo(full: str) -> bytes:
        return json.dumps(
            {"full_name": full, "html_url": f"https://github.com/{full}", "archived": False}
        ).encode()

    async def handler(req, w):
        path, js = req.path.split("?")[0], {"Content-Type": "application/json"}
        if path == "/repos/old-owner/tool" and state["renamed"]:
            return await respond(w, 301, b"", {"Location": "/repositories/42"}, req=req)
        if path == "/repos/old-owner/tool":
            return await respond(w, 200, repo("old-owner/tool"), js, req=req)
        if path == "/repositories/42":
            return await respond(w, 200, repo("new-owner/tool"), js, req=req)
        return await respond(w, 404, b"", req=req)

    (tmp_path / "registry.yaml").write_text(
        'version: 1\nanchors:\n  - url: "https://github.com/old-owner/tool"\n'
        '    first_anchored: 2026-09-20\n    status: new\n    section: "§2.1 Tooling"\n',
        encoding="utf-8",
    )
    monkeypatch.chdir(tmp_path)
    with LoopbackServer(lambda req: handler) as srv:
        for renamed in (False, True):
            state["renamed"] = renamed
            r = CliRunner().invoke(
                app,
                ["check", "registry.yaml", "--no-cache"],
                env={"ANCHORS_GITHUB_API": srv.url("")},
            )
            assert r.exit_code in (0, 1), r.output
    rep = CliRunner().invoke(app, ["report", "registry.yaml", "-f", "json"])
    got = [(t["change"], t["before"], t["after"]) for t in json.loads(rep.stdout)["transitions"]]
    assert got == [("renamed", None, "https://github.com/new-owner/tool")]
    md = CliRunner().invoke(app, ["report", "registry.yaml"]).stdout
    assert "### What changed (1)" in md and "retitled" not in md


def test_trend_chart_gives_each_run_its_own_label_and_says_which_line_is_which(
    tmp_path: Path,
) -> None:
    """Mermaid's band axis merges equal labels, so two runs on one day (or in one minute) must
    not share one; xychart-beta draws no legend on GitHub, so the text above the chart names
    each line's colour, the palette sets those colours, and the lines carry their names."""
    reg = tmp_path / "registry.yaml"
    reg.write_text(
        "version: 1\nanchors:\n  - url: https://x.example/a\n"
        "    first_anchored: 2026-09-20\n    status: new\n",
        encoding="utf-8",
    )
    db = tmp_path / "h.sqlite"
    h = History(db)
    outcomes = ["ok", "dead", "unreachable", "ok"]
    for at, outcome in zip((START, START + 6 * 3600, START + DAY, START + DAY + 10), outcomes):
        run = h.start_run(str(reg), at)
        h.record(
            run,
            [
                Observation(
                    WebUrl("https://x.example/a"),
                    "https://x.example/a",
                    Outcome(outcome),
                    checked_at=at,
                )
            ],
        )
        h.finish_run(run, True, at)
    h.close()
    out = (
        CliRunner()
        .invoke(app, ["report", "-r", str(reg), "--history", str(db), "--now", NOW])
        .stdout
    )
    said = out[out.index("### Trend") : out.index("```mermaid")]
    assert "green OK, amber failing (failed, but not found dead), red dead" in said
    chart = out[out.index("```mermaid\n") + 11 :]
    chart = chart[: chart.index("```")].splitlines()
    init = re.fullmatch(r"%%\{init: (.*)\}%%", chart[0])
    assert (
        init is not None
        and len(json.loads(init[1])["themeVariables"]["xyChart"]["plotColorPalette"].split(","))
        == 3
    )
    assert chart[1] == "xychart-beta" and re.fullmatch(r'    title "[^"]*"', chart[2])
    x = re.fullmatch(r'    x-axis \[("[^"]*"(?:, "[^"]*")*)\]', chart[3])
    assert x is not None
    labels = re.findall(r'"([^"]*)"', x[1])
    # two runs in one minute: told apart by their seconds, in the chart and in the table
    assert labels == ["09-24 06:00", "09-24 12:00", "09-25 06:00:00", "09-25 06:00:10"]
    assert "| 2026-09-25 06:00:00 | 0 | 1 | 0 |\n| 2026-09-25 06:00:10 | 1 | 0 | 0 |" in out
    assert re.fullmatch(r'    y-axis "anchors" 0 --> 1', chart[4])
    lines = [re.fullmatch(r'    line "(\w+)" \[(\d+(?:, \d+)*)\]', ln) for ln in chart[5:]]
    assert all(lines) and [m[1] for m in lines if m] == ["OK", "failing", "dead"]
    assert [m[2] for m in lines if m] == ["1, 0, 0, 1", "0, 0, 1, 0", "0, 1, 0, 0"]


def test_the_report_and_fix_read_one_move_rule() -> None:
    """A redirect, a renamed repository and a transferred issue: the report's "what changed"
    and `fix` name the same moves, from the same observations (`history.move_of`)."""
    from anchors.fix import FixKind, plan
    from anchors.registry.loader import parse_text as load_text
    from anchors.report.weekly import build

    page, repo = "https://docs.example/a", "https://github.com/o/old"
    issue = key_from_text("github:o/r#1")
    moved_issue = "https://github.com/o/s/issues/1"
    reg = load_text(
        (
            "version: 1\nanchors:\n"
            + "".join(
                f"  - url: {u}\n    first_anchored: 2026-09-20\n    status: new\n"
                for u in (page, repo, issue.url)
            )
        ).encode(),
        "r.yaml",
    )
    before = [
        Observation(WebUrl(page), page, Outcome.OK, 200, checked_at=1.0),
        Observation(WebUrl(repo), repo, Outcome.OK, 200, facts=RepoFacts("o/old"), checked_at=1.0),
        Observation(issue, issue.url, Outcome.OK, 200, facts=IssueFacts("t"), checked_at=1.0),
    ]
    after = [
        Observation(WebUrl(page), page, Outcome.REDIRECT, 301, page + "/b", checked_at=2.0),
        Observation(
            WebUrl(repo),
            repo,
            Outcome.REDIRECT,
            200,
            "https://github.com/p/new",
            facts=RepoFacts("p/new", "https://github.com/p/new"),
            checked_at=2.0,
        ),
        Observation(
            issue,
            issue.url,
            Outcome.OK,
            200,
            moved_issue,
            facts=IssueFacts("t", moved_to=moved_issue),
            checked_at=2.0,
        ),
    ]
    rep = build(before + after, 3.0, 2.0, reg)
    said = sorted((t.change, t.after) for t in rep.transitions)
    fixed = sorted(((f.kind, f.new) for f in plan(reg, before + after).fixes), key=str)
    assert said == [
        (Change.REDIRECTED, page + "/b"),
        (Change.RENAMED, moved_issue),
        (Change.RENAMED, "https://github.com/p/new"),
    ]
    assert fixed == sorted(
        [
            (FixKind.REDIRECT, page + "/b"),
            (FixKind.RENAMED_REPO, "https://github.com/p/new"),
            (FixKind.MOVED_ISSUE, moved_issue),
        ],
        key=str,
    )


def test_every_outcome_reads_one_way() -> None:
    """Each outcome is a success, a failure or says nothing, never two: the report's rule
    (`classify`) and the trend read a new outcome only once `reading` names it."""
    from anchors.history import Reading, reading
    from anchors.history.observation import DEFINITE, NEUTRAL, SUCCESS

    readings = {o: reading(o) for o in Outcome}
    assert SUCCESS == {o for o, r in readings.items() if r is Reading.WORKS}
    assert (
        NEUTRAL == {o for o, r in readings.items() if r is Reading.NOT_LOOKED} == {Outcome.BLOCKED}
    )
    assert DEFINITE == SUCCESS | {Outcome.DEAD}
    assert {r for r in readings.values()} == set(Reading)


def test_a_schema_2_history_keeps_its_facts_through_the_migration(tmp_path: Path) -> None:
    """A check opening a schema-2 file rewrites it as schema 3; what it held reads the same."""
    db = tmp_path / "h.sqlite"
    con = sqlite3.connect(db)
    con.executescript(
        "CREATE TABLE runs (id INTEGER PRIMARY KEY, started_at REAL NOT NULL, finished_at REAL,"
        " registry TEXT NOT NULL, complete INTEGER NOT NULL DEFAULT 0);"
        "CREATE TABLE results (run_id INTEGER NOT NULL, checked_at REAL NOT NULL, target TEXT NOT"
        " NULL, anchor TEXT NOT NULL, kind TEXT NOT NULL, outcome TEXT NOT NULL, status INTEGER,"
        " final_url TEXT, error TEXT, elapsed_ms INTEGER, facts TEXT);"
        f"PRAGMA application_id={APPLICATION_ID}; PRAGMA user_version=2;"
    )
    con.execute("INSERT INTO runs VALUES (1, 1.0, 2.0, 'r.yaml', 1)")
    for at, state in ((1.0, "open"), (2.0, "closed")):
        con.execute(
            "INSERT INTO results VALUES (1, ?, 'github:a/b#1', 'a/b#1', 'github', 'ok', 200,"
            " NULL, NULL, 3, ?)",
            (at, json.dumps({"state": state, "title": "T"})),
        )
    con.commit()
    con.close()
    h = History(db)
    rows = list(h.rows(until=10.0))
    h.close()
    assert [(r.target, r.outcome, r.facts) for r in rows] == [
        ("github:a/b#1", Outcome.OK, IssueFacts(title="T", state=s)) for s in ("open", "closed")
    ]
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
    assert "results" not in {n for (n,) in con.execute("SELECT name FROM sqlite_master")}


def test_a_schema_3_history_reads_without_snapshots_then_keeps_them_once_migrated(
    tmp_path: Path,
) -> None:
    """A history from before snapshots were kept (schema 3) is read as it is, read-only: its
    observations as before, no snapshots, and `fix` has nothing to add; a check opening it for
    writing migrates it to the current schema, keeping what it held."""
    db, reg = tmp_path / ".anchors" / "history.sqlite", tmp_path / "registry.yaml"
    reg.write_text(
        "version: 1\nanchors:\n  - url: http://docs.example/a\n"
        "    first_anchored: 2026-09-20\n    status: new\n",
        encoding="utf-8",
    )
    h = History(db)
    seen = Observation(WebUrl("http://docs.example/a"), "a", Outcome.OK, 200, checked_at=START)
    h.record(h.start_run(str(reg), START), [seen])
    h.close()
    con = sqlite3.connect(db)  # as schema 3 left it: no `snapshots` table
    con.executescript("DROP TABLE snapshots; PRAGMA user_version=3;")
    con.close()
    before = db.read_bytes()

    old = History.read_only(db)
    assert [(o.target, o.outcome) for o in old.rows(until=START + DAY)] == [
        ("http://docs.example/a", Outcome.OK)
    ]
    assert old.snapshots(reg) == {}
    old.close()
    r = CliRunner().invoke(app, ["fix", "-r", str(reg), "--only", "archive"])
    assert r.exit_code == 0, r.output
    assert db.read_bytes() == before  # read, never written

    h = History(db)
    snap = Snapshot(
        "https://web.archive.org/web/20260919000000/http://docs.example/a", "2026-09-19"
    )
    h.keep_snapshots(str(reg), [(seen.key, snap)])
    assert len(list(h.rows(until=START + DAY))) == 1
    h.close()
    assert sqlite3.connect(db).execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
    assert History.read_only(db).snapshots(reg) == {"url:http://docs.example/a": snap}
