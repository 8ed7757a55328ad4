"""The state a checkout carries (`.anchors/`: cache, ETags, history) decides nothing unless
anchors can prove it is the machine's own, and state of anchors' own that is damaged is
disposable.

- A checkout with no `.git` (a tarball, `git archive`, a Docker build context) cannot prove a
  state file untracked: it is taken for committed, ignored with one warning, unless a flag or
  the environment names its place.
- A path is handed to git as a path: a history named `:(top)h.sqlite`, `:/h`, `*` or `[ab]`
  that git tracks is seen as tracked, whatever git's pathspec magic would make of the name.
- A cache or history that begins as anchors' own but cannot be read whole (cut short) is
  warned about once and rebuilt; a file that does not begin as one stays an error (exit 2).

Each case runs through the CLI, with traffic only to loopback servers the test owns.
"""

from __future__ import annotations

import json
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from anchors.cli.app import app
from anchors.files.repo import repository_root

from ..githubfake import FakeGithub, Issue
from ..histories import record_urls
from ..loopback import LoopbackServer, Request, respond
from ..registries import url_registry

pytestmark = [pytest.mark.reliability(kind="security"), pytest.mark.timeout(120)]
TODAY = "2026-12-02"
EVIL = "https://evil.example/phish"


def _cli(*args: str, env: dict[str, str] | None = None) -> Result:
    return CliRunner().invoke(app, list(args), env={"NO_COLOR": "1", **(env or {})})


def _warnings(r: Result) -> list[str]:
    return [ln for ln in r.stderr.splitlines() if ln.startswith("anchors: warning:")]


def _one_error(r: Result, *needles: str) -> str:
    lines = r.stderr.splitlines()
    assert r.exit_code == 2 and len(lines) == 1, (r.exit_code, r.output)
    assert lines[0].startswith("anchors: error: ") and "Traceback" not in r.output
    for n in needles:
        assert n in lines[0], (n, lines[0])
    return lines[0]


def _codes(r: Result) -> list[str]:
    return [f["code"] for f in json.loads(r.stdout)["findings"]]


@pytest.fixture
def tarball(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A checkout unpacked from an archive: no `.git` in it or above it."""
    folder = tmp_path_factory.mktemp("tarball")
    assert not (repository_root(folder) / ".git").exists()
    return folder


@pytest.fixture
def dead_site() -> Iterator[LoopbackServer]:
    async def gone(req: Request, w):  # type: ignore[no-untyped-def]
        return await respond(w, 404, b"gone", req=req)

    with LoopbackServer(lambda req: gone) as srv:
        yield srv


def _forged_cache(folder: Path, url: str) -> Path:
    """`.anchors/cache.json` saying the dead `url` is fine, in anchors' own format."""
    (folder / ".anchors").mkdir(exist_ok=True)
    fresh = {"at": time.time(), "data": {"outcome": "ok", "status": 200, "final_url": url}}
    doc = {"anchors": "cache", "format": 1, "entries": {f"url:{url}": fresh}}
    cache = folder / ".anchors" / "cache.json"
    cache.write_text(json.dumps(doc), encoding="utf-8")
    return cache


# --- a checkout without .git ---------------------------------------------------------------


def test_a_checkout_without_git_does_not_trust_its_committed_cache(
    tarball: Path, dead_site: LoopbackServer
) -> None:
    """A forged "OK from cache" in a tarball: the dead link is asked and found dead, with one
    warning; the same cache named by a flag or the environment is the user's and is used."""
    url = dead_site.url("/dead")
    reg = url_registry(tarball, [url])
    _forged_cache(tarball, url)
    args = ["check", str(reg), "--today", TODAY, "--allow-private", "-f", "json"]
    r = _cli(*args)
    asked = dead_site.counts["/dead"]
    named = _cli(*args, "--cache-dir", str(tarball / ".anchors"))
    by_env = _cli(*args, env={"ANCHORS_CACHE_DIR": str(tarball / ".anchors")})
    assert r.exit_code == 1 and _codes(r) == ["dead-link"] and asked >= 1, r.output
    (warning,) = _warnings(r)
    assert "cache.json" in warning and "not a git checkout" in warning, warning
    for chosen in (named, by_env):
        assert chosen.exit_code == 0 and _codes(chosen) == [] and not _warnings(chosen)
    assert dead_site.counts["/dead"] == asked  # the user's own cache answered both


def test_a_checkout_without_git_sends_no_committed_etag(tarball: Path) -> None:
    """A real ETag paired with forged facts ("open") in a tarball: no conditional request is
    sent, so no 304 can renew the forgery and drop the closed-issue finding; the history
    beside them is not written either; one warning names them all."""
    gh = FakeGithub({"acme/engine#1": Issue("Issue 1", "closed", "completed", "2026-10-01")})
    reg = tarball / "registry.yaml"
    reg.write_text(
        'version: 1\nanchors:\n  - url: "https://github.com/acme/engine/issues/1"\n'
        '    first_anchored: 2026-09-24\n    status: new\n    cited_in: ["2026-09-24"]\n'
        '    notes: "仍 open"\n',
        encoding="utf-8",
    )
    state = tarball / ".anchors"
    with gh.server() as srv:
        args = ["check", str(reg), "--github-api", srv.url(""), "-f", "json", "--today", TODAY]
        first = _cli(*args, "--no-cache", "--cache-dir", str(state))  # this machine's own
        assert first.exit_code in (0, 1) and gh.statuses == {200: 1}, first.output
        store = state / "etags.json"
        forged = json.loads(store.read_text(encoding="utf-8"))
        for e in forged["entries"].values():
            e["data"]["kept"]["state"] = "open"  # the real ETag, with facts a PR wants
        store.write_text(json.dumps(forged), encoding="utf-8")
        history = state / "history.sqlite"
        before = history.read_bytes()
        r = _cli(*args, "--no-cache")
    assert not gh.conditional and gh.statuses == {200: 2}, gh.statuses
    messages = [f["message"] for f in json.loads(r.stdout)["findings"]]
    assert any("closed" in m for m in messages), messages
    (warning,) = _warnings(r)
    assert "etags.json" in warning and "history.sqlite" in warning, warning
    assert "not a git checkout" in warning and "not recorded" in warning, warning
    assert history.read_bytes() == before


def _forged_history(db: Path, reg: Path, dead: str, moved: str) -> None:
    """A history saying `dead` is dead and `moved` moved for good to an attacker's page."""
    record_urls(
        db,
        reg.resolve(),
        time.time() - 3600,
        [(dead, "dead", 404, None), (moved, "redirect", 301, EVIL)],
    )


def test_a_checkout_without_git_publishes_no_committed_history(
    tarball: Path, tmp_path: Path
) -> None:
    """A forged history in a tarball: `report` publishes no forged "newly dead" and `fix`
    writes no attacker's URL (one error line each, the registry untouched); the same file
    named with --history is the user's and is read."""
    dead, moved = "https://docs.example/a", "https://docs.example/b"
    reg = url_registry(tarball, [dead, moved])
    made = tmp_path / "history.sqlite"  # written where it can be written, then carried in
    _forged_history(made, reg, dead, moved)
    db = tarball / ".anchors" / "history.sqlite"
    db.parent.mkdir()
    db.write_bytes(made.read_bytes())
    before = reg.read_bytes()
    _one_error(_cli("report", "-r", str(reg)), "history.sqlite", "not a git checkout")
    _one_error(_cli("fix", "-r", str(reg)), "history.sqlite", "not a git checkout")
    assert reg.read_bytes() == before
    named = _cli("report", "-r", str(reg), "--history", str(db), "-f", "json")
    assert named.exit_code == 1 and dead in named.stdout, named.output
    by_env = _cli("report", "-r", str(reg), "-f", "json", env={"ANCHORS_HISTORY": str(db)})
    assert by_env.exit_code == 1 and dead in by_env.stdout, by_env.output
    assert _cli("fix", "-r", str(reg), "--history", str(db)).exit_code == 0
    assert EVIL in reg.read_text(encoding="utf-8")  # the user's own history, applied


# --- paths handed to git literally -----------------------------------------------------------

#: each spelling git would read as pathspec magic, a glob or an option, and plain odd names
SPELLINGS = [
    ":(top)history.sqlite",
    ":/history.sqlite",
    ":!history.sqlite",
    ":(exclude)history.sqlite",
    ":(icase)HISTORY.sqlite",
    ":(glob)*",
    "*",
    "?",
    "h[ab].sqlite",
    "\\history.sqlite",
    "-history.sqlite",
    "--history.sqlite",
    "my history.sqlite",
    "历史.sqlite",
]


def _git(repo: Path, *args: str) -> str:
    out = subprocess.run(
        ["git", "--literal-pathspecs", "-C", str(repo), *args],
        capture_output=True,
        text=True,
        check=True,
    )
    return out.stdout


@pytest.mark.parametrize("name", SPELLINGS)
def test_a_tracked_history_is_tracked_whatever_its_name(tmp_path: Path, name: str) -> None:
    """A pull request commits a forged history under a name git reads as magic, and a config
    naming it: `report` must not publish its "newly dead", `fix` must not write its URL."""
    repo = tmp_path / "repo"
    repo.mkdir()
    _git(repo, "init", "-q")
    dead, moved = "https://docs.example/a", "https://docs.example/b"
    reg = url_registry(repo, [dead, moved])
    db = repo / "sub" / name
    db.parent.mkdir(parents=True)  # `:/history.sqlite` is a file in a folder named `:`
    _forged_history(db, reg, dead, moved)
    _git(repo, "add", "-f", "--", f"sub/{name}")
    assert _git(repo, "ls-files", "-z", "--", f"sub/{name}") == f"sub/{name}\0"
    (repo / "anchors.toml").write_text(f"history = 'sub/{name}'\n", encoding="utf-8")
    before = reg.read_bytes()
    _one_error(_cli("report", "-r", str(reg)), "tracked by git")
    _one_error(_cli("fix", "-r", str(reg)), "tracked by git")
    assert reg.read_bytes() == before


def test_an_untracked_history_with_a_magic_name_is_read(tmp_path: Path) -> None:
    """The other side of the boundary: the same name, untracked, is this machine's own."""
    repo = tmp_path / "repo"
    repo.mkdir()
    _git(repo, "init", "-q")
    (repo / "history.sqlite").write_bytes(b"")  # what `:(top)` would find: tracked, empty
    _git(repo, "add", "-f", "--", "history.sqlite")
    dead, moved = "https://docs.example/a", "https://docs.example/b"
    reg = url_registry(repo, [dead, moved])
    (repo / "sub").mkdir()
    _forged_history(repo / "sub" / ":(top)history.sqlite", reg, dead, moved)
    (repo / "anchors.toml").write_text("history = 'sub/:(top)history.sqlite'\n", encoding="utf-8")
    r = _cli("report", "-r", str(reg), "-f", "json")
    assert r.exit_code == 1 and dead in r.stdout, r.output


def test_changed_since_reads_a_registry_whose_name_git_would_take_for_magic(
    tmp_path: Path,
) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    _git(repo, "init", "-q")
    _git(
        repo,
        "-c",
        "user.email=t@example.com",
        "-c",
        "user.name=t",
        "commit",
        "-q",
        "--allow-empty",
        "-m",
        "start",
    )
    reg = repo / ":(top)registry.yaml"
    url_registry(repo, ["https://docs.example/a"]).rename(reg)
    _git(repo, "add", "--", reg.name)
    _git(repo, "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-q", "-m", "r")
    r = _cli("check", str(reg), "--offline", "--changed-since", "HEAD", "-f", "json")
    assert r.exit_code == 0, r.output


# --- damaged state of anchors' own -------------------------------------------------------------


@pytest.fixture
def ok_site() -> Iterator[LoopbackServer]:
    async def fine(req: Request, w):  # type: ignore[no-untyped-def]
        return await respond(w, 200, b"<html><title>ok</title></html>", req=req)

    with LoopbackServer(lambda req: fine) as srv:
        yield srv


def _online(reg: Path) -> Result:
    return _cli("check", str(reg), "--today", TODAY, "--allow-private", "-f", "json")


@pytest.mark.parametrize(
    "damage",
    [
        '{\n "anchors": "cache",\n "entries": {\n  "url:https://a.example/": {\n   "at": 17',
        '{"anchors": "cache", "entries": ' + "[" * 100_000,
        '{"anchors":"cache","format":1,"entries":{}',
    ],
    ids=["cut-short", "nested-100000-deep", "unclosed"],
)
def test_a_damaged_cache_of_anchors_own_is_rebuilt_with_one_warning(
    tmp_path: Path, ok_site: LoopbackServer, damage: str
) -> None:
    """A full disk or a partial copy cut `cache.json` short: its first bytes still carry
    anchors' mark, so it is anchors' own and disposable: one warning, the run goes on, and
    the cache is written whole again."""
    reg = url_registry(tmp_path, [ok_site.url("/page")])
    (tmp_path / ".anchors").mkdir()
    cache = tmp_path / ".anchors" / "cache.json"
    cache.write_text(damage, encoding="utf-8")
    r = _online(reg)
    assert r.exit_code == 0 and _codes(r) == [], r.output
    (warning,) = _warnings(r)
    assert "cache.json" in warning and "damaged cache" in warning and "rebuilt" in warning
    doc = json.loads(cache.read_text(encoding="utf-8"))
    assert doc["anchors"] == "cache" and list(doc["entries"]) == [f"url:{ok_site.url('/page')}"]
    again = _online(reg)
    assert again.exit_code == 0 and not _warnings(again), again.output


@pytest.mark.parametrize(
    "foreign", ['{"format": 1, "entr', '{"version": 3, "items": [1, 2]', "\x00\x01binary"]
)
def test_a_cache_that_does_not_begin_as_anchors_own_stays_an_error(
    tmp_path: Path, ok_site: LoopbackServer, foreign: str
) -> None:
    reg = url_registry(tmp_path, [ok_site.url("/page")])
    (tmp_path / ".anchors").mkdir()
    cache = tmp_path / ".anchors" / "cache.json"
    cache.write_text(foreign, encoding="utf-8")
    _one_error(_online(reg), "cache.json", "is not an anchors cache")
    assert cache.read_text(encoding="utf-8") == foreign  # never taken over


def _cut_history(folder: Path, reg: Path, keep: float) -> tuple[Path, bytes]:
    """A real history of `reg` (200 runs' worth of rows), then cut to `keep` of its bytes."""
    db = folder / ".anchors" / "history.sqlite"
    urls = [a for a in reg.read_text(encoding="utf-8").split('"') if a.startswith("http")]
    for k in range(3):
        record_urls(
            db, reg.resolve(), time.time() - 3600 * (k + 1), [(u, "ok", 200, None) for u in urls]
        )
    whole = db.read_bytes()
    cut = whole[: int(len(whole) * keep)]
    db.write_bytes(cut)
    return db, cut


@pytest.mark.parametrize("keep", [0.1, 0.5, 0.9])
@pytest.mark.slow
def test_a_damaged_history_of_anchors_own_is_set_aside_and_a_new_one_started(
    tmp_path: Path, ok_site: LoopbackServer, keep: float
) -> None:
    reg = url_registry(tmp_path, [ok_site.url(f"/p{i}") for i in range(300)])
    db, cut = _cut_history(tmp_path, reg, keep)
    report = _cli("report", "-r", str(reg))
    _one_error(report, "history.sqlite", "damaged", "the next online check sets it aside")
    r = _online(reg)
    assert r.exit_code == 0 and _codes(r) == [], r.output
    (warning,) = _warnings(r)
    assert "damaged" in warning and "set aside as history.sqlite.damaged" in warning, warning
    assert (db.parent / "history.sqlite.damaged").read_bytes() == cut  # kept for its owner
    after = _cli("report", "-r", str(reg), "-f", "json")
    assert after.exit_code == 0, after.output  # the new history, this run in it
    assert not _warnings(_online(reg))


def test_a_history_that_does_not_begin_as_anchors_own_stays_an_error(
    tmp_path: Path, ok_site: LoopbackServer
) -> None:
    import sqlite3

    reg = url_registry(tmp_path, [ok_site.url("/page")])
    (tmp_path / ".anchors").mkdir()
    db = tmp_path / ".anchors" / "history.sqlite"
    con = sqlite3.connect(db)
    con.execute("CREATE TABLE theirs (x)")
    con.executemany("INSERT INTO theirs VALUES (?)", [("y" * 500,)] * 200)
    con.commit()
    con.close()
    db.write_bytes(db.read_bytes()[:5000])  # another program's file, cut short
    before = db.read_bytes()
    _one_error(_online(reg), "history.sqlite", "not an anchors history")
    assert db.read_bytes() == before
