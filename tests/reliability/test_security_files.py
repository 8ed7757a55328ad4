"""A pull request cannot steer anchors through the repository's own files.

Everything in a checkout (`anchors.toml`, `pyproject.toml`, `registry.yaml`, a committed
`.anchors/`) can be written by whoever opens the pull request; only flags and the environment
speak for the user. Each case is a repository an attacker could push, run through the CLI, with
traffic only to loopback servers the test owns.
"""

from __future__ import annotations

import json
import os
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from anchors.cli.app import app
from anchors.net.cache import Cache

from ..loopback import LoopbackServer, Request, respond

pytestmark = [pytest.mark.reliability(kind="security"), pytest.mark.timeout(60)]
TODAY = "2026-12-02"


def _repo(where: Path) -> Path:
    """A git repository (a real one: whether git tracks a file matters here)."""
    where.mkdir(parents=True, exist_ok=True)
    subprocess.run(["git", "init", "-q", str(where)], check=True)
    return where


def _registry(folder: Path, *urls: str) -> Path:
    reg = folder / "registry.yaml"
    reg.write_text(
        "version: 1\nanchors:\n"
        + "".join(f"  - url: {u}\n    first_anchored: 2026-09-24\n    status: new\n" for u in urls),
        encoding="utf-8",
    )
    return reg


def _config(repo: Path, where: str, line: str) -> None:
    """`line` in the repository's anchors.toml, or in pyproject.toml's [tool.anchors]."""
    table = "" if where == "anchors.toml" else "[tool.anchors]\n"
    (repo / where).write_text(table + line, encoding="utf-8")


def _cli(*args: str, env: dict[str, str] | None = None):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(app, list(args), env=env)


def _one_error(r, *needles: str) -> str:  # type: ignore[no-untyped-def]
    lines = r.stderr.splitlines()
    assert r.exit_code == 2 and len(lines) == 1, r.output
    assert lines[0].startswith("anchors: error: ") and "Traceback" not in r.output
    for n in needles:
        assert n in lines[0], (n, lines[0])
    return str(lines[0])


@pytest.fixture
def server() -> Iterator[LoopbackServer]:
    """Counts every request (by path); answers 200 with an issue's JSON."""

    async def handler(req: Request, w):  # type: ignore[no-untyped-def]
        issue = {"state": "open", "title": "t", "html_url": "https://github.com/o/r/issues/1"}
        body = json.dumps(issue)
        return await respond(w, 200, body.encode(), {"Content-Type": "application/json"}, req=req)

    with LoopbackServer(lambda req: handler) as srv:
        yield srv


# --- secrets and endpoints -------------------------------------------------------------------


@pytest.mark.parametrize(
    "key",
    ["github_api", "arxiv_api", "arxiv_html", "doi_api", "crossref_api", "wayback_api", "save_api"],
)
@pytest.mark.parametrize("where", ["anchors.toml", "pyproject.toml"])
def test_a_config_file_cannot_name_an_endpoint(
    tmp_path: Path, server: LoopbackServer, key: str, where: str
) -> None:
    repo = _repo(tmp_path / "repo")
    reg = _registry(repo, "https://github.com/o/r/issues/1")
    _config(repo, where, f'{key} = "{server.url("/steal")}"\n')
    r = _cli("check", str(reg), "--today", TODAY, env={"GITHUB_TOKEN": "ghp_s3cret"})
    error = _one_error(r, f"{key} may not be set in a config file", f"--{key.replace('_', '-')}")
    assert "ghp_s3cret" not in error
    assert sum(server.counts.values()) == 0  # nothing was sent anywhere, the token least of all


def test_the_token_reaches_only_the_api_the_user_named(
    tmp_path: Path, server: LoopbackServer
) -> None:
    """The same endpoint from the environment is the user's choice: the token goes there."""
    repo = _repo(tmp_path / "repo")
    reg = _registry(repo, "https://github.com/o/r/issues/1")
    env = {"GITHUB_TOKEN": "ghp_s3cret", "ANCHORS_GITHUB_API": server.url("")}
    r = _cli("check", str(reg), "--today", TODAY, "--no-cache", "-f", "json", env=env)
    assert r.exit_code in (0, 1), r.output
    assert server.counts["/repos/o/r/issues/1"] == 1


@pytest.mark.parametrize("where", ["anchors.toml", "pyproject.toml"])
def test_a_config_file_cannot_switch_the_address_guard_off(
    tmp_path: Path, server: LoopbackServer, where: str
) -> None:
    repo = _repo(tmp_path / "repo")
    reg = _registry(repo, server.url("/latest/meta-data/"))
    key = "allow_private" if where == "anchors.toml" else "allow-private"  # both spellings
    _config(repo, where, f"{key} = true\n")
    r = _cli("check", str(reg), "--today", TODAY)
    _one_error(r, "allow_private may not be set in a config file", "--allow-private")
    assert sum(server.counts.values()) == 0
    # the flag (the user) still may
    (repo / where).unlink()
    r = _cli("check", str(reg), "--today", TODAY, "--allow-private", "--no-cache")
    assert r.exit_code == 0 and server.counts["/latest/meta-data/"] >= 1, r.output


# --- files outside the repository ----------------------------------------------------------


@pytest.mark.parametrize(
    "value", ["../home/.bash_aliases", "{home}/registry.yaml", "link/registry.yaml"]
)
def test_a_config_registry_stays_inside_the_repository(
    tmp_path: Path, seed: Path, monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    repo = _repo(tmp_path / "repo")
    (tmp_path / "home").mkdir()
    (repo / "link").symlink_to(tmp_path / "home")  # a symlink out counts as outside
    value = value.format(home=tmp_path / "home")  # an absolute path
    (repo / "anchors.toml").write_text(f'registry = "{value}"\n', encoding="utf-8")
    monkeypatch.chdir(repo)
    r = _cli("add", str(seed), "--today", TODAY)
    _one_error(r, "registry", "may only name paths inside it")
    assert list((tmp_path / "home").iterdir()) == []


@pytest.mark.parametrize("key", ["cache_dir", "history"])
def test_config_state_paths_stay_inside_the_repository(
    tmp_path: Path, server: LoopbackServer, key: str
) -> None:
    repo = _repo(tmp_path / "repo")
    reg = _registry(repo, server.url("/ok"))
    outside = tmp_path / "victim"
    (repo / "anchors.toml").write_text(f'{key} = "../victim"\n', encoding="utf-8")
    r = _cli("check", str(reg), "--today", TODAY, "--allow-private")
    _one_error(r, key, "leads outside the repository")
    assert not outside.exists() and sum(server.counts.values()) == 0
    # inside the repository, relative to the config file: used
    (repo / "anchors.toml").write_text(f'{key} = "state/x"\n', encoding="utf-8")
    r = _cli("check", str(reg), "--today", TODAY, "--allow-private")
    assert r.exit_code == 0, r.output
    assert (repo / "state" / "x").exists()


def test_a_registry_symlinked_out_of_the_repository_is_not_written_unless_named(
    tmp_path: Path, seed: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _repo(tmp_path / "repo")
    target = tmp_path / "home" / ".bash_aliases"
    target.parent.mkdir()
    (repo / "registry.yaml").symlink_to(target)  # committed by the pull request
    monkeypatch.chdir(repo)
    r = _cli("add", str(seed), "--today", TODAY)
    _one_error(r, "registry.yaml", "leads outside the repository")
    assert not target.exists()
    # named by the user, a symlinked registry is theirs to share
    r = _cli("add", str(seed), "--today", TODAY, "-r", "registry.yaml")
    assert r.exit_code == 0 and target.exists(), r.output


def test_a_state_folder_symlinked_out_of_the_repository_is_refused(
    tmp_path: Path, server: LoopbackServer, seed: Path
) -> None:
    repo = _repo(tmp_path / "repo")
    reg = _registry(repo, server.url("/ok"))
    victim = tmp_path / "victim"
    victim.mkdir()
    (repo / ".anchors").symlink_to(victim)
    r = _cli("check", str(reg), "--today", TODAY, "--allow-private")
    _one_error(r, ".anchors", "symlink out of the repository")
    r = _cli("add", str(seed), "--today", TODAY, "-r", str(reg))
    _one_error(r, ".anchors", "symlink out of the repository")
    assert list(victim.iterdir()) == []


def test_a_committed_cache_symlink_is_never_written_through(
    tmp_path: Path, server: LoopbackServer
) -> None:
    repo = _repo(tmp_path / "repo")
    reg = _registry(repo, server.url("/ok"))
    victim = tmp_path / "victim" / "file"
    victim.parent.mkdir()
    victim.write_text("precious\n", encoding="utf-8")
    (repo / ".anchors").mkdir()
    (repo / ".anchors" / "cache.json").symlink_to(victim)
    r = _cli("check", str(reg), "--today", TODAY, "--allow-private")
    assert r.exit_code == 0, r.output
    assert victim.read_text(encoding="utf-8") == "precious\n"
    assert "cache.json: is a symlink" in r.stderr
    cache = repo / ".anchors" / "cache.json"
    assert not cache.is_symlink() and json.loads(cache.read_text())["anchors"] == "cache"


def test_a_committed_history_symlink_is_never_written_through(
    tmp_path: Path, server: LoopbackServer
) -> None:
    repo = _repo(tmp_path / "repo")
    reg = _registry(repo, server.url("/ok"))
    victim = tmp_path / "victim"
    victim.write_bytes(b"")  # an empty file would become a database
    (repo / ".anchors").mkdir()
    (repo / ".anchors" / "history.sqlite").symlink_to(victim)
    r = _cli("check", str(reg), "--today", TODAY, "--allow-private")
    assert r.exit_code == 0 and "history.sqlite: is a symlink" in r.stderr, r.output
    assert victim.read_bytes() == b""


def test_another_programs_cache_is_an_error_and_is_not_overwritten(
    tmp_path: Path, server: LoopbackServer
) -> None:
    repo = _repo(tmp_path / "repo")
    reg = _registry(repo, server.url("/ok"))
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    (theirs / "cache.json").write_text('{"version": 3, "items": [1, 2]}', encoding="utf-8")
    r = _cli("check", str(reg), "--today", TODAY, "--allow-private", "--cache-dir", str(theirs))
    _one_error(r, "cache.json", "is not an anchors cache")
    assert (theirs / "cache.json").read_text() == '{"version": 3, "items": [1, 2]}'


def test_a_cache_of_another_anchors_version_is_rebuilt_with_one_warning(
    tmp_path: Path, server: LoopbackServer
) -> None:
    repo = _repo(tmp_path / "repo")
    reg = _registry(repo, server.url("/ok"))
    (repo / ".anchors").mkdir()
    cache = repo / ".anchors" / "cache.json"
    cache.write_text('{"anchors": "cache", "format": 9, "entries": []}', encoding="utf-8")
    r = _cli("check", str(reg), "--today", TODAY, "--allow-private")
    assert r.exit_code == 0, r.output
    warnings = [ln for ln in r.stderr.splitlines() if ln.startswith("anchors: warning:")]
    assert len(warnings) == 1 and "another anchors version" in warnings[0]
    assert json.loads(cache.read_text())["format"] == 1


def _dead_site() -> LoopbackServer:
    async def gone(req: Request, w):  # type: ignore[no-untyped-def]
        return await respond(w, 404, b"gone", req=req)

    return LoopbackServer(lambda req: gone)


def test_a_committed_cache_does_not_decide_a_verdict(tmp_path: Path) -> None:
    """A pull request commits `.anchors/cache.json` saying its dead link is fine."""
    repo = _repo(tmp_path / "repo")
    with _dead_site() as site:
        url = site.url("/dead")
        reg = _registry(repo, url)
        (repo / ".anchors").mkdir()
        cache = repo / ".anchors" / "cache.json"
        fresh = {"at": time.time(), "data": {"outcome": "ok", "status": 200, "final_url": url}}
        cache.write_text(json.dumps({"format": 1, "entries": {f"url:{url}": fresh}}))
        subprocess.run(["git", "-C", str(repo), "add", "-f", ".anchors/cache.json"], check=True)
        r = _cli("check", str(reg), "--today", TODAY, "--allow-private", "-f", "json")
        assert site.counts["/dead"] >= 1
    assert r.exit_code == 1, r.output
    assert [f["code"] for f in json.loads(r.stdout)["findings"]] == ["dead-link"]
    warnings = [ln for ln in r.stderr.splitlines() if ln.startswith("anchors: warning:")]
    assert len(warnings) == 1 and "tracked by git" in warnings[0]


def test_a_committed_history_is_neither_written_nor_reported(tmp_path: Path) -> None:
    repo = _repo(tmp_path / "repo")
    with _dead_site() as site:
        reg = _registry(repo, site.url("/dead"))
        r = _cli("check", str(reg), "--today", TODAY, "--allow-private")
        assert r.exit_code == 1, r.output
        history = repo / ".anchors" / "history.sqlite"
        before = history.read_bytes()
        subprocess.run(["git", "-C", str(repo), "add", "-f", str(history)], check=True)
        r = _cli("check", str(reg), "--today", TODAY, "--allow-private")
    assert r.exit_code == 1 and "tracked by git" in r.stderr and "not recorded" in r.stderr
    assert history.read_bytes() == before
    _one_error(_cli("report", "-r", str(reg)), "history.sqlite", "tracked by git")


def _no_git(tmp_path: Path, how: str) -> dict[str, str]:
    """A PATH on which git is missing, or a git that fails as a checkout owned by another user
    makes it fail: the environment to run with."""
    bin_dir = tmp_path / f"bin-{how}"
    bin_dir.mkdir()
    if how == "failing":
        git = bin_dir / "git"
        git.write_text(
            "#!/bin/sh\necho 'fatal: detected dubious ownership in repository' >&2\nexit 128\n",
            encoding="utf-8",
        )
        git.chmod(0o755)
    return {"PATH": str(bin_dir)}


def _forged_cache(repo: Path, url: str) -> None:
    """`.anchors/cache.json` saying the dead `url` is fine, as a pull request would commit it."""
    (repo / ".anchors").mkdir()
    fresh = {"at": time.time(), "data": {"outcome": "ok", "status": 200, "final_url": url}}
    doc = {"anchors": "cache", "format": 1, "entries": {f"url:{url}": fresh}}
    (repo / ".anchors" / "cache.json").write_text(json.dumps(doc), encoding="utf-8")


@pytest.mark.parametrize("how", ["missing", "failing"])
def test_state_git_cannot_vouch_for_is_taken_for_committed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    """With no git to ask, or a git that fails, a cache in the repository may be a committed
    one: it does not decide a verdict, and a history there feeds no report (one warning, one
    error line), unless the user named the place with a flag or the environment."""
    repo = _repo(tmp_path / "repo")
    with _dead_site() as site:
        url = site.url("/dead")
        reg = _registry(repo, url)
        _forged_cache(repo, url)
        monkeypatch.setenv("PATH", _no_git(tmp_path, how)["PATH"])
        args = ["check", str(reg), "--today", TODAY, "--allow-private", "-f", "json"]
        r = _cli(*args)
        asked = site.counts["/dead"]
        chosen = _cli(*args, "--cache-dir", str(repo / ".anchors"))
        assert site.counts["/dead"] == asked  # the user's own cache answered
    assert r.exit_code == 1, r.output
    assert [f["code"] for f in json.loads(r.stdout)["findings"]] == ["dead-link"] and asked >= 1
    warnings = [ln for ln in r.stderr.splitlines() if ln.startswith("anchors: warning:")]
    assert len(warnings) == 1 and "cache.json: may be committed" in warnings[0], warnings
    assert ("no git to ask" if how == "missing" else "dubious ownership") in warnings[0]
    assert chosen.exit_code == 0 and json.loads(chosen.stdout)["findings"] == [], chosen.output
    history = repo / ".anchors" / "history.sqlite"
    assert history.exists()  # written by the run whose place the user chose
    _one_error(_cli("report", "-r", str(reg)), "history.sqlite", "may be committed")
    env = {"ANCHORS_HISTORY": str(history)}
    assert _cli("report", "-r", str(reg), "-f", "json", env=env).exit_code in (0, 1)  # read


@pytest.mark.parametrize("how", ["missing", "failing"])
def test_export_reads_the_cache_the_user_named_where_git_cannot_vouch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    """`export` takes its metadata from the cache: with no git to ask, one in the repository
    may be committed and gives none, but a cache the user named with `--cache-dir` is theirs."""
    repo = _repo(tmp_path / "repo")
    reg = repo / "registry.yaml"
    reg.write_text(
        'version: 1\nanchors:\n  - arxiv: "2309.06180"\n    first_anchored: 2026-09-24\n'
        "    status: new\n",
        encoding="utf-8",
    )
    cache = Cache(repo / ".anchors" / "cache.json")
    cache.put("arxiv:2309.06180", {"outcome": "ok", "title": "Efficient Memory Management"})
    cache.save()
    monkeypatch.setenv("PATH", _no_git(tmp_path, how)["PATH"])
    args = ["export", "-r", str(reg), "-f", "csl-json"]
    found = _cli(*args)
    named = _cli(*args, "--cache-dir", str(repo / ".anchors"))
    assert found.exit_code == 0 and named.exit_code == 0, (found.output, named.output)
    assert [d.get("title") for d in json.loads(found.stdout)] == [None]
    assert [d.get("title") for d in json.loads(named.stdout)] == ["Efficient Memory Management"]


def test_a_symlinked_lock_is_refused(tmp_path: Path, seed: Path) -> None:
    repo = _repo(tmp_path / "repo")
    victim = tmp_path / "victim"
    victim.write_text("precious\n", encoding="utf-8")
    (repo / ".anchors").mkdir()
    (repo / ".anchors" / "registry.yaml.lock").symlink_to(victim)
    r = _cli("add", str(seed), "--today", TODAY, "-r", str(repo / "registry.yaml"))
    _one_error(r, "registry.yaml.lock")
    assert victim.read_text(encoding="utf-8") == "precious\n"


# --- files the repository may still set --------------------------------------------------------


def test_narrowing_keys_still_come_from_files_and_flags_add_to_them(tmp_path: Path) -> None:
    repo = _repo(tmp_path / "repo")
    with _dead_site() as site:
        reg = _registry(repo, site.url("/a"), site.url("/b"), site.url("/c"))
        (repo / "anchors.toml").write_text('exclude = ["/a$"]\n', encoding="utf-8")
        r = _cli(
            "check",
            str(reg),
            "--today",
            TODAY,
            "--allow-private",
            "--no-cache",
            "--exclude",
            "/b$",
            "--accept",
            "404",
            "-f",
            "json",
        )
        assert (site.counts["/a"], site.counts["/b"], site.counts["/c"]) == (0, 0, 1)
    assert r.exit_code == 0 and json.loads(r.stdout)["findings"] == [], r.output
    assert "2 excluded" in r.stderr
    r = _cli("check", str(reg), "--offline", "--accept", "700")
    _one_error(r, "--accept", "expected a list of HTTP status codes (100 to 599)")


def test_a_config_file_too_deeply_nested_is_one_line(tmp_path: Path) -> None:
    repo = _repo(tmp_path / "repo")
    reg = _registry(repo, "https://example.org/")
    (repo / "anchors.toml").write_text("x = " + "[" * 5000 + "]" * 5000 + "\n")
    _one_error(_cli("check", str(reg), "--offline"), "anchors.toml", "nested too deeply")


def test_a_config_file_that_is_a_device_is_refused(tmp_path: Path) -> None:
    repo = _repo(tmp_path / "repo")
    reg = _registry(repo, "https://example.org/")
    (repo / "anchors.toml").symlink_to("/dev/zero")
    _one_error(_cli("check", str(reg), "--offline"), "anchors.toml")


@pytest.mark.parametrize("style", ["flow", "block"])
def test_a_registry_nested_600_deep_is_one_line(tmp_path: Path, seed: Path, style: str) -> None:
    head = "version: 1\nanchors:\n  - url: https://a.example/\n    first_anchored: 2026-09-20\n"
    if style == "flow":
        notes = "    notes: " + "{a: " * 600 + "1" + "}" * 600 + "\n"
    else:
        notes = "    notes:\n" + "".join("  " * (i + 3) + f"k{i}:\n" for i in range(600))
    reg = tmp_path / "registry.yaml"
    reg.write_text(head + notes, encoding="utf-8")
    _one_error(_cli("check", str(reg), "--offline"), "nested more than 64 levels deep")
    _one_error(_cli("add", str(seed), "-r", str(reg)), "nested more than 64 levels deep")


# --- files the repository names are read boundedly ---------------------------------------------


def _limited_check(reg: Path) -> subprocess.CompletedProcess[str]:
    """`check` in a process that cannot take more than 1 GiB: reading /dev/zero whole fails."""
    import resource
    import sys

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    return subprocess.run(
        [sys.executable, "-m", "anchors", "check", str(reg), "--allow-private", "-f", "json"]
        + ["--today", TODAY],
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=cap,
        check=False,
    )


@pytest.mark.slow
def test_briefings_are_read_only_as_regular_files_inside_the_repository(tmp_path: Path) -> None:
    repo = _repo(tmp_path / "repo")
    outside = tmp_path / "elsewhere.md"
    with _dead_site() as site:
        url = site.url("/dead")
        outside.write_text(f"# Elsewhere\n\n- {url}\n", encoding="utf-8")
        reg = _registry(repo, url)
        (repo / "notes.md").symlink_to("/dev/zero")  # committed by the pull request
        (repo / "out.md").symlink_to(outside)  # a link out of the repository
        os.mkfifo(repo / "pipe.md")  # would block a plain read
        (repo / "cited.md").write_text(f"# Cited\n\n- {url}\n", encoding="utf-8")
        p = _limited_check(reg)
    assert p.returncode == 1 and "Traceback" not in p.stderr, p.stderr
    [finding] = json.loads(p.stdout)["findings"]
    assert [w["file"].rsplit("/", 1)[-1] for w in finding["cited_at"]] == ["cited.md"]


def test_a_history_of_a_newer_format_is_warned_about_and_left_alone(tmp_path: Path) -> None:
    import sqlite3

    from anchors.history import APPLICATION_ID

    repo = _repo(tmp_path / "repo")
    with _dead_site() as site:
        reg = _registry(repo, site.url("/dead"))
        (repo / ".anchors").mkdir()
        db = repo / ".anchors" / "history.sqlite"
        con = sqlite3.connect(db)
        con.execute(f"PRAGMA application_id={APPLICATION_ID}")
        con.execute("PRAGMA user_version=99")
        con.execute("CREATE TABLE future (x)")
        con.commit()
        con.close()
        before = db.read_bytes()
        r = _cli("check", str(reg), "--today", TODAY, "--allow-private")
    assert r.exit_code == 1, r.output  # the findings, not exit 2
    warnings = [ln for ln in r.stderr.splitlines() if ln.startswith("anchors: warning:")]
    assert len(warnings) == 1 and "newer anchors (schema 99)" in warnings[0]
    assert "not recorded" in warnings[0] and db.read_bytes() == before
