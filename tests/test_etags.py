"""GitHub answers that cost nothing when nothing changed, through the CLI against a loopback
GitHub that honours `If-None-Match`: ETags kept with what was read, 304s under `--no-cache`,
state the repository committed never trusted, and a spent rate limit leaving the rest not
checked, stalest first."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from typer.testing import CliRunner

from anchors.cli.app import app

from .githubfake import FakeGithub, Issue


def _entry(url: str, notes: str | None) -> str:
    said = f'    notes: "{notes}"\n' if notes else ""
    return (
        f'  - url: "{url}"\n    first_anchored: 2026-09-24\n'
        f'    status: new\n    cited_in: ["2026-09-24"]\n{said}'
    )


def _registry(folder: Path, *numbers: int, notes: str | None = None) -> Path:
    """`notes: "仍 open"` is an undated claim a closed issue contradicts on every run (a close
    alone is noted once), so each run's findings show the facts it had."""
    reg = folder / "registry.yaml"
    reg.write_text(
        "version: 1\nanchors:\n"
        + "".join(_entry(f"https://github.com/acme/engine/issues/{n}", notes) for n in numbers),
        encoding="utf-8",
    )
    return reg


def _check(reg: Path, api: str, *more: str) -> tuple[int, dict, str]:
    r = CliRunner().invoke(
        app,
        ["check", str(reg), "--github-api", api, "-f", "json", "--today", "2026-12-02", *more],
    )
    assert r.exit_code in (0, 1), r.stdout + r.stderr
    return r.exit_code, json.loads(r.stdout), r.stderr


def _issues(n: int, state: str = "closed") -> dict[str, Issue]:
    if state == "open":
        return {f"acme/engine#{i}": Issue(f"Issue {i}") for i in range(1, n + 1)}
    return {
        f"acme/engine#{i}": Issue(f"Issue {i}", "closed", "completed", "2026-10-01")
        for i in range(1, n + 1)
    }


def _states(doc: dict) -> dict[str, str]:
    return {f["anchor"].rsplit("/", 1)[1]: f["message"] for f in doc["findings"]}


def test_an_unchanged_registry_costs_only_304s_even_without_the_cache(tmp_path: Path) -> None:
    gh = FakeGithub(_issues(3))
    reg = _registry(tmp_path, 1, 2, 3, notes="仍 open")
    with gh.server() as srv:
        _, first, _ = _check(reg, srv.url(""), "--no-cache")
        assert gh.statuses == {200: 3}
        _, again, _ = _check(reg, srv.url(""), "--no-cache")
    assert gh.statuses == {200: 3, 304: 3}  # every second answer a 304
    assert _states(again) == _states(first) and len(_states(first)) == 3
    assert all("closed" in m for m in _states(again).values())  # the facts renewed, not lost
    assert again["stats"]["checked"] == 3


def test_a_changed_issue_is_read_again(tmp_path: Path) -> None:
    gh = FakeGithub(_issues(2))
    reg = _registry(tmp_path, 1, 2, notes="仍 open")
    with gh.server() as srv:
        _check(reg, srv.url(""), "--no-cache")
        gh.issues["acme/engine#2"] = Issue("Issue 2, reopened")
        _, doc, _ = _check(reg, srv.url(""), "--no-cache")
    assert gh.statuses == {200: 3, 304: 1}
    assert "2" not in _states(doc)  # open again: no closed-issue note
    assert "closed" in _states(doc)["1"]


def test_etags_the_repository_committed_are_not_used(tmp_path: Path) -> None:
    """A pull request could pair a real ETag with forged facts: a tracked etags.json is
    ignored with a warning, so GitHub's real answer is read."""
    gh = FakeGithub(_issues(1))
    reg = _registry(tmp_path, 1, notes="仍 open")
    with gh.server() as srv:
        _check(reg, srv.url(""), "--no-cache")
        store = tmp_path / ".anchors" / "etags.json"
        forged = json.loads(store.read_text(encoding="utf-8"))
        for e in forged["entries"].values():
            e["data"]["kept"]["state"] = "open"  # the real ETag, with facts the PR wants
        store.write_text(json.dumps(forged), encoding="utf-8")
        (tmp_path / ".anchors" / ".gitignore").unlink()
        subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
        subprocess.run(["git", "-C", str(tmp_path), "add", "-A"], check=True)
        _, doc, err = _check(reg, srv.url(""), "--no-cache")
    assert gh.statuses == {200: 2}  # no conditional request on the committed ETag
    assert not gh.conditional
    assert "closed" in _states(doc)["1"]
    (warning,) = [ln for ln in err.splitlines() if ln.startswith("anchors: warning:")]
    assert "etags.json" in warning and "tracked by git" in warning  # with the history


def test_a_spent_rate_limit_leaves_the_freshest_not_checked(tmp_path: Path) -> None:
    gh = FakeGithub(_issues(5, "open"))  # each close below is news to the run that sees it
    with gh.server() as srv:
        api = srv.url("")
        for n in (1, 2, 3):  # answered in this order: 1 is the stalest
            _check(_registry(tmp_path, n), api)
        for k, i in gh.issues.items():  # everything changed: no answer is free
            gh.issues[k] = Issue(i.title + " (edited)", "closed", "completed", "2026-10-02")
        gh.budget = 3
        code, doc, err = _check(_registry(tmp_path, 3, 5, 2, 4, 1), api, "--no-cache")
    # never asked (5, 4) first, then the stalest: 5, 4, 1 spend the budget; 2 and 3 wait
    assert {a for a in _states(doc)} == {"4", "5", "1"}
    assert doc["not_checked"]["rate-limit"] == 2 and doc["states"]["not-checked"] == 2
    assert code == 0 and doc["summary"]["error"] == 0  # never failing
    assert "rate limit is spent until 2100-01-01 00:00 UTC: 2 GitHub anchors not checked" in err
    assert gh.statuses[403] == 0  # the limit was read from the headers, not run into


def test_unchanged_answers_are_free_so_a_run_goes_on_until_changed_ones_spend_the_limit(
    tmp_path: Path,
) -> None:
    """What the README's hourly figure rests on: a run asks stalest first and stops only once
    the answers that changed have spent the limit; the unchanged ones before that cost nothing
    (here a limit of 2 checks 4 of 6, and the 2 left wait, not checked, never failing)."""
    gh = FakeGithub(_issues(6, "open"))
    reg = _registry(tmp_path, 1, 2, 3, 4, 5, 6)
    with gh.server() as srv:
        _check(reg, srv.url(""))  # every answer kept with its ETag, 1 the stalest
        for n in (2, 4):
            gh.issues[f"acme/engine#{n}"] = Issue(f"Issue {n}, retitled")
        gh.budget = 2
        gh.statuses.clear()
        code, doc, err = _check(reg, srv.url(""), "--no-cache")
    assert gh.statuses == {304: 2, 200: 2}  # 1 and 3 free, 2 and 4 spend the limit
    assert sorted(gh.conditional) == [f"/repos/acme/engine/issues/{n}" for n in (1, 2, 3, 4)]
    assert doc["states"]["not-checked"] == 2 and doc["not_checked"]["rate-limit"] == 2
    assert doc["stats"]["checked"] == 4 and code == 0
    assert "2 GitHub anchors not checked" in err
