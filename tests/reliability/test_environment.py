"""The environment as it really is: closed or full stdout, odd encodings, bad option values,
broken caches and histories. Each is one line and exit 2, or a warning where nothing is lost."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .envtools import ANCHORS, IS_ROOT, TODAY, anchors, in_process, one_error_line, powerless

DATA = Path(__file__).resolve().parent.parent / "data"

pytestmark = [pytest.mark.reliability(kind="env"), pytest.mark.timeout(60)]


def _reg(tmp_path: Path) -> Path:
    reg = tmp_path / "registry.yaml"
    shutil.copy(DATA / "commented.yaml", reg)
    return reg


@pytest.mark.slow
def test_closed_stdout_is_one_line(tmp_path: Path) -> None:
    reg = _reg(tmp_path)
    code = (
        "import os, subprocess, sys; os.close(1); "
        "sys.exit(subprocess.call(sys.argv[1:], stdout=None))"
    )
    p = subprocess.run(
        [sys.executable, "-c", code, *ANCHORS, "check", "--offline", str(reg)],
        stderr=subprocess.PIPE,
        text=True,
        timeout=60,
        check=False,
    )
    p.stdout = ""
    one_error_line(p, "standard output", "closed")  # type: ignore[arg-type]


def test_full_stdout_is_one_line(tmp_path: Path) -> None:
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full here")
    reg = _reg(tmp_path)
    with open("/dev/full", "w") as full:
        p = subprocess.run(
            [*ANCHORS, "check", "--offline", str(reg)],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
            check=False,
        )
    p.stdout = ""
    one_error_line(p, "standard output", "no space left on device")  # type: ignore[arg-type]


def _narrow_registry(tmp_path: Path) -> Path:
    """A registry whose finding quotes a field name an ASCII or cp1252 stream cannot hold."""
    reg = tmp_path / "registry.yaml"
    reg.write_text(
        'version: 1\nanchors:\n  - arxiv: "2609.19969"\n    标题: x\n'
        '    first_anchored: 2026-09-21\n    status: new\n    section: "§1.3 KV Cache"\n',
        encoding="utf-8",
    )
    return reg


@pytest.mark.parametrize("encoding", ["ascii", "cp1252"])
@pytest.mark.parametrize("fmt", ["text", "concise", "markdown"])
@pytest.mark.slow
def test_a_narrow_encoding_gets_the_findings_through_escaped(
    tmp_path: Path, fmt: str, encoding: str
) -> None:
    """`PYTHONIOENCODING=ascii`, or a cp1252 redirect: the findings must reach the log, so what
    the stream cannot hold is written escaped (`\\u6807`), said once on stderr; the run is judged
    as usual (exit 1 for the error), not stopped with exit 2."""
    reg = _narrow_registry(tmp_path)
    out = tmp_path / "log.txt"
    with out.open("wb") as log:
        p = subprocess.run(
            [*ANCHORS, "check", "--offline", "-f", fmt, str(reg), "--today", TODAY],
            stdout=log,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
            check=False,
            env={**os.environ, "PYTHONIOENCODING": encoding},
        )
    written = out.read_bytes().decode(encoding)
    assert p.returncode == 1, p.stderr
    assert "schema" in written and "\\u6807\\u9898" in written  # 标题, escaped
    warned = [ln for ln in p.stderr.splitlines() if "escapes" in ln]
    said = (
        f"anchors: warning: standard output is {encoding}: characters it cannot show are "
        "written as \\u escapes; set PYTHONIOENCODING=utf-8 to see them"
    )
    assert warned == [said]
    assert "0 OK, 1 failing" in p.stderr and "Traceback" not in p.stderr


@pytest.mark.parametrize("encoding", ["ascii", "cp1252"])
def test_json_needs_no_escaping_warning_in_a_narrow_encoding(tmp_path: Path, encoding: str) -> None:
    """JSON escapes every non-ASCII character itself, so it always fits: no warning."""
    reg = _narrow_registry(tmp_path)
    ok = anchors(
        "check",
        "--offline",
        "-f",
        "json",
        str(reg),
        "--today",
        TODAY,
        env={"PYTHONIOENCODING": encoding},
    )
    assert ok.returncode == 1 and "\\u6807" in ok.stdout  # JSON escapes, so it always fits
    assert "escapes" not in ok.stderr


# --- option values ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["check", "--timeout", "nan"],
        ["check", "--timeout", "inf"],
        ["report", "--since", "99999999999w"],
        ["report", "--now", "0001-01-01T00:00Z"],
    ],
    ids=["timeout-nan", "timeout-inf", "since-huge", "now-year-1"],
)
def test_impossible_option_values_are_one_line(tmp_path: Path, args: list[str]) -> None:
    reg = _reg(tmp_path)
    cmd = [*args, str(reg)] if args[0] == "check" else [*args, "-r", str(reg)]
    line = one_error_line(in_process(*cmd), args[1])
    assert "100 years" in line or args[1] != "--since"


def test_changed_since_never_passes_an_option_to_git(tmp_path: Path) -> None:
    reg = _reg(tmp_path)
    git = ["git", "-C", str(tmp_path), "-c", "user.name=t", "-c", "user.email=t@example.com"]
    for step in (["init", "-q"], ["add", "registry.yaml"], ["commit", "-qm", "r"]):
        subprocess.run([*git, *step], check=True, capture_output=True)
    victim = tmp_path / "written-by-git"
    one_error_line(
        in_process("check", str(reg), f"--changed-since=--output={victim}"),
        "--changed-since",
        "not a git ref",
    )
    assert not victim.exists()
    from anchors.registry.gitdiff import changed_keys
    from anchors.registry.loader import load

    assert changed_keys(load(reg), "HEAD") == set()  # a real ref still works


# --- state: cache, history, report ----------------------------------------------------------


def _history(db: Path, at: float = 1790000000.0) -> None:
    """A history with one finished run, of the registry.yaml it sits beside (`_reg`), that found
    its blog post dead (a report reads only its registry's runs and entries)."""
    from anchors.findings import Outcome
    from anchors.history import History, Observation
    from anchors.ids.model import WebUrl

    h = History(db, clock=lambda: at)
    run = h.start_run(str(db.parent.parent / "registry.yaml"))
    post = "https://example.com/blog/post"
    h.record(run, [Observation(WebUrl(post), post, Outcome.DEAD, 404)])
    h.finish_run(run, True)
    h.close()


NOW = "2026-09-22T00:00Z"  # a day after the run above


@pytest.mark.parametrize("where", ["missing-folder", "a-folder", "device"])
def test_report_output_to_a_bad_path_is_one_line(tmp_path: Path, where: str) -> None:
    reg = _reg(tmp_path)
    _history(tmp_path / ".anchors" / "history.sqlite")
    target = {
        "missing-folder": tmp_path / "no" / "such" / "report.md",
        "a-folder": tmp_path,
        "device": tmp_path / "null",
    }[where]
    if where == "device":
        if not IS_ROOT:
            pytest.skip("only root can make a device node")
        os.mknod(target, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    one_error_line(
        in_process("report", "-r", str(reg), "--now", NOW, "-o", str(target)), str(target)
    )
    assert where != "device" or stat.S_ISCHR(target.stat().st_mode)


def test_report_output_dash_and_symlink(tmp_path: Path) -> None:
    reg = _reg(tmp_path)
    _history(tmp_path / ".anchors" / "history.sqlite")
    p = in_process("report", "-r", str(reg), "--now", NOW, "-o", "-")
    assert p.returncode == 1 and "https://example.com/blog/post" in p.stdout, p.stderr
    real, link = tmp_path / "real.md", tmp_path / "report.md"
    real.write_text("old\n", encoding="utf-8")
    link.symlink_to(real)
    assert in_process("report", "-r", str(reg), "--now", NOW, "-o", str(link)).returncode == 1
    assert link.is_symlink() and "example.com/blog/post" in real.read_text(encoding="utf-8")
    assert not (tmp_path / "-").exists()


def _schema_2_history(db: Path, at: float = 1790000000.0) -> None:
    """`_history` as an anchors of schema 2 wrote it: one wide `results` row per observation."""
    import sqlite3

    db.parent.mkdir(parents=True, exist_ok=True)
    con = sqlite3.connect(db)
    con.executescript(
        "CREATE TABLE runs (id INTEGER PRIMARY KEY, started_at REAL NOT NULL, finished_at REAL,"
        " registry TEXT NOT NULL, complete INTEGER NOT NULL DEFAULT 0);"
        "CREATE TABLE results (run_id INTEGER NOT NULL REFERENCES runs(id), checked_at REAL NOT"
        " NULL, target TEXT NOT NULL, anchor TEXT NOT NULL, kind TEXT NOT NULL, outcome TEXT NOT"
        " NULL, status INTEGER, final_url TEXT, error TEXT, elapsed_ms INTEGER, facts TEXT);"
        "CREATE INDEX results_by_target ON results (target, checked_at);"
        f"PRAGMA application_id={0x616E6368}; PRAGMA user_version=2;"
    )
    post = "https://example.com/blog/post"
    con.execute("INSERT INTO runs VALUES (1, ?, ?, 'registry.yaml', 1)", (at, at))
    con.execute(
        "INSERT INTO results VALUES (1, ?, ?, ?, 'url', 'dead', 404, NULL, NULL, 5, NULL)",
        (at, post, post),
    )
    con.commit()
    con.close()


@pytest.mark.parametrize("make", [_history, _schema_2_history], ids=["schema-3", "schema-2"])
@pytest.mark.slow
def test_report_only_reads_the_history(tmp_path: Path, make) -> None:
    """In a read-only folder, a current history and an older one (read as schema 3 through
    the connection's temporary tables) are reported and left byte-for-byte as they were."""
    reg = _reg(tmp_path)
    state = tmp_path / ".anchors"
    make(state / "history.sqlite")
    before = {p.name: p.read_bytes() for p in state.iterdir()}
    os.chmod(state, 0o555)
    try:
        p = powerless("report", "-r", str(reg), "--now", NOW, "-o", "-")
    finally:
        os.chmod(state, 0o755)
    assert p.returncode == 1 and "example.com/blog/post" in p.stdout, p.stderr
    assert {p.name: p.read_bytes() for p in state.iterdir()} == before


def test_an_empty_history_file_has_nothing_to_report(tmp_path: Path) -> None:
    """A history file with no tables yet (a first check is creating it) is read as empty:
    nothing to report, exit 2, one line."""
    reg = _reg(tmp_path)
    db = tmp_path / ".anchors" / "history.sqlite"
    db.parent.mkdir()
    db.touch()
    p = in_process("report", "-r", str(reg), "--now", NOW)
    one_error_line(p, str(db), "nothing to report from")
    assert db.read_bytes() == b""


def test_history_with_missing_tables_is_one_line(tmp_path: Path) -> None:
    import sqlite3

    reg = _reg(tmp_path)
    db = tmp_path / ".anchors" / "history.sqlite"
    _history(db)
    con = sqlite3.connect(db)
    con.execute("DROP TABLE observations")
    con.commit()
    con.close()
    one_error_line(
        in_process("report", "-r", str(reg), "--now", NOW), str(db), "observations", "missing"
    )


def test_cache_dir_that_is_a_file_is_one_line(tmp_path: Path) -> None:
    reg = _reg(tmp_path)
    (tmp_path / "afile").write_text("x", encoding="utf-8")
    one_error_line(
        in_process("check", str(reg), "--cache-dir", str(tmp_path / "afile")),
        "afile",
        "not a folder",
    )


# --- online checks whose state cannot be kept: findings still printed, exit code still right --


@pytest.fixture
def site():
    """A loopback site: /ok/* is fine, /dead/* is 404."""
    from ..loopback import LoopbackServer, respond

    async def handler(req, w):
        return await respond(w, 404 if req.path.startswith("/dead") else 200, b"", req=req)

    with LoopbackServer(lambda req: handler) as srv:
        yield srv


def _online_registry(folder: Path, srv) -> Path:  # type: ignore[no-untyped-def]
    reg = folder / "registry.yaml"
    reg.write_text(
        "version: 1\nanchors:\n"
        + "".join(
            f"  - url: {srv.url(p)}\n    first_anchored: 2026-09-24\n    status: new\n"
            for p in ("/ok/1", "/ok/2", "/dead/1")
        ),
        encoding="utf-8",
    )
    return reg


def _check(reg: Path, *more: str, run=anchors):  # type: ignore[no-untyped-def]
    return run("check", str(reg), "--allow-private", "-f", "json", "--today", TODAY, *more)


def _findings_printed(p) -> None:  # type: ignore[no-untyped-def]
    import json

    assert p.returncode == 1, p.stderr  # the dead link, whatever happened to the state
    assert [f["code"] for f in json.loads(p.stdout)["findings"]] == ["dead-link"]
    assert "Traceback" not in p.stderr


@pytest.mark.parametrize("damage", ["entries-list", "entry-without-outcome", "cache-is-a-folder"])
def test_damaged_cache_is_warned_about_once_and_ignored(tmp_path: Path, site, damage: str) -> None:
    reg = _online_registry(tmp_path, site)
    cache = tmp_path / ".anchors" / "cache.json"
    cache.parent.mkdir()
    if damage == "cache-is-a-folder":
        cache.mkdir()
    else:
        entries = (
            []
            if damage == "entries-list"
            else {f"url:{site.url('/ok/1')}": {"at": time.time(), "data": {"status": 200}}}
        )
        cache.write_text(json.dumps({"format": 1, "entries": entries}), encoding="utf-8")
    p = _check(reg, run=in_process)
    _findings_printed(p)
    warnings = [ln for ln in p.stderr.splitlines() if ln.startswith("anchors: warning:")]
    assert len(warnings) <= 1 and (damage == "entry-without-outcome" or warnings), p.stderr
    assert all("cache" in w for w in warnings)


@pytest.mark.slow
def test_online_check_in_a_read_only_folder_still_reports(tmp_path: Path, site) -> None:
    reg = _online_registry(tmp_path, site)
    os.chmod(tmp_path, 0o555)
    try:
        p = _check(reg, run=powerless)
    finally:
        os.chmod(tmp_path, 0o755)
    _findings_printed(p)
    assert "not recorded" in p.stderr and not (tmp_path / ".anchors").exists()


@pytest.mark.slow
def test_full_disk_during_an_online_check_still_reports(tmp_path: Path, site) -> None:
    from .envtools import fill, small_tmpfs

    with small_tmpfs(tmp_path / "disk", "512k") as disk:
        reg = _online_registry(disk, site)
        _findings_printed(_check(reg, "--no-cache"))  # the history exists, WAL and all
        fill(disk)
        p = _check(reg)
        _findings_printed(p)
        assert "history not written" in p.stderr or "not recorded" in p.stderr, p.stderr
        assert "no space left" in p.stderr or "full" in p.stderr, p.stderr


def test_locked_history_is_waited_for_bounded_and_announced(
    tmp_path: Path, site, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sqlite3

    from typer.testing import CliRunner

    from anchors.cli.app import app
    from anchors.history import store as history

    reg = _online_registry(tmp_path, site)
    _history(tmp_path / ".anchors" / "history.sqlite")
    holder = sqlite3.connect(tmp_path / ".anchors" / "history.sqlite", isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")  # another writer that never lets go
    monkeypatch.setattr(history, "LOCK_TIMEOUT", 0.2)
    try:
        r = CliRunner().invoke(
            app, ["check", str(reg), "--allow-private", "-f", "json", "--today", TODAY]
        )
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert r.exit_code == 1 and '"dead-link"' in r.stdout, r.output
    assert "waiting up to 0.2 s for" in r.stderr and "another anchors is writing it" in r.stderr
    assert "still locked by another writer after 0.2 s" in r.stderr


def test_history_wait_is_bounded_by_its_clock(tmp_path: Path) -> None:
    """The bound is the history's own clock: no real waiting in the test."""
    import sqlite3

    from anchors.history import History

    db = tmp_path / "h.sqlite"
    _history(db)
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    clock, said = [0.0], []
    try:
        h = History(
            db,
            lock_timeout=5,
            on_wait=said.append,
            sleep=lambda s: clock.__setitem__(0, clock[0] + s),
            monotonic=lambda: clock[0],
        )
        assert h.start_run("registry.yaml") == 0  # given up on, not raised: the run goes on
        h.record(1, [])
        h.close()
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert h.problem and "still locked by another writer after 5 s" in h.problem
    assert len(said) == 1 and str(db) in said[0] and 5.0 <= clock[0] < 5.1
