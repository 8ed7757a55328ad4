"""The GitLab template's jobs, run by gitlab-ci-local (npm, pinned in .ci/prepare) with the
shell executor in a throwaway repository: loopback servers stand in for the cited pages and for
GitLab's API, and `anchors` on PATH is this checkout (so the install step is skipped, as the
template promises). A merge request that adds a dead link under a poisoned configuration, one
whose registry is behind its briefings, and two weeks of the weekly job (the second with the
first's state restored, as GitLab's cache restores it). gitlab-ci-local missing: skipped here,
failed under CI=true.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml

from anchors import __version__

from .actions_runner import shim
from .consumers.tools import missing, tools_dir
from .gitlabfake import DESCRIPTION_LIMIT, FakeGitlab
from .gitlabfake import Issue as GitlabIssue
from .loopback import LoopbackServer, respond

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = ROOT / "ci" / "gitlab" / "anchors.gitlab-ci.yml"
INCLUDE = "include:\n  - local: ci/gitlab/anchors.gitlab-ci.yml\n"

pytestmark = pytest.mark.slow


def gitlab_ci_local() -> str:
    """The pinned gitlab-ci-local; it copies the checkout with rsync (from Debian)."""
    exe = tools_dir() / "node_modules" / ".bin" / "gitlab-ci-local"
    if not exe.exists():
        missing("gitlab-ci-local", "run `bash .ci/prepare`")
    if shutil.which("rsync") is None:
        missing("rsync", "run `bash .ci/consumers`")
    return str(exe)


@dataclass
class Pipeline:
    code: int
    output: str
    #: each job's log, as gitlab-ci-local keeps it
    logs: dict[str, str]
    ws: Path

    def artifact(self, job: str, name: str) -> Path:
        return self.ws / ".gitlab-ci-local" / "artifacts" / job / name


def run_pipeline(ws: Path, tmp_path: Path, variables: dict[str, str]) -> Pipeline:
    """The whole pipeline (its rules decide which jobs run), as GitLab would start it."""
    args = [gitlab_ci_local(), "--no-color", "--force-shell-executor"]
    args += ["--home", str(tmp_path / "gcl-home"), "--max-job-name-padding", "0"]
    for name, value in variables.items():
        args += ["--variable", f"{name}={value}"]
    env = {**shim(tmp_path / "bin", ROOT, sys.executable), "ANCHORS_ALLOW_PRIVATE": "true"}
    p = subprocess.run(
        args, cwd=ws, env=env, capture_output=True, text=True, check=False, timeout=300
    )
    out = ws / ".gitlab-ci-local" / "output"
    logs = (
        {f.stem: f.read_text(encoding="utf-8") for f in out.glob("*.log")} if out.exists() else {}
    )
    return Pipeline(p.returncode, p.stdout + p.stderr, logs, ws)


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(cwd), *args], capture_output=True, text=True, check=True
    ).stdout.strip()


def anchors(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "anchors", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env={**shim(cwd.parent / "bin-a", ROOT, sys.executable)},
        check=False,
        timeout=60,
    )


async def _ok(req: Any, w: Any) -> bool:
    return await respond(w, 200, b"<title>fine</title>", req=req)


async def _gone(req: Any, w: Any) -> bool:
    return await respond(w, 404, b"", req=req)


def repository(ws: Path, srv: LoopbackServer) -> str:
    """A repository on `main` that cites one live page, includes the template, and configures
    a timeout; returns its commit (the merge request's base)."""
    (ws / "briefings").mkdir(parents=True)
    (ws / "ci" / "gitlab").mkdir(parents=True)
    shutil.copy(TEMPLATE, ws / "ci" / "gitlab" / TEMPLATE.name)
    (ws / ".gitlab-ci.yml").write_text(INCLUDE, encoding="utf-8")
    git(ws, "init", "-q", "-b", "main")
    git(ws, "config", "user.email", "t@example.invalid")
    git(ws, "config", "user.name", "t")
    brief = ws / "briefings" / "2026-09-24.md"
    brief.write_text(f"# Briefing (2026-09-24)\n\n- fine: {srv.url('/ok')}\n", encoding="utf-8")
    assert anchors(ws, "add", str(brief)).returncode == 0
    (ws / "anchors.toml").write_text("timeout = 5\n", encoding="utf-8")
    git(ws, "add", "-A")
    git(ws, "commit", "-qm", "base")
    # the project's remote, as a runner's clone has it (rules:changes compare with origin/main)
    origin = ws.parent / f"{ws.name}-origin.git"
    subprocess.run(["git", "init", "-q", "--bare", str(origin)], check=True)
    git(ws, "remote", "add", "origin", str(origin))
    git(ws, "push", "-q", "origin", "main")
    git(ws, "remote", "set-head", "origin", "main")
    return git(ws, "rev-parse", "HEAD")


def merge_request(ws: Path, srv: LoopbackServer, pr_config: str, *, add: bool = True) -> None:
    """The merge request's commit: a dead link cited (and, with `add`, added to the registry)
    and its own anchors.toml."""
    git(ws, "checkout", "-q", "-b", "feature")
    brief = ws / "briefings" / "2026-09-24.md"
    with brief.open("a", encoding="utf-8") as f:
        f.write(f"- cited: {srv.url('/gone')}\n")
    if add:
        assert anchors(ws, "add", str(brief)).returncode == 0
    (ws / "anchors.toml").write_text(pr_config, encoding="utf-8")
    git(ws, "add", "-A")
    git(ws, "commit", "-qm", "merge request")


def mr_variables(base: str) -> dict[str, str]:
    return {
        "CI_PIPELINE_SOURCE": "merge_request_event",
        "CI_MERGE_REQUEST_DIFF_BASE_SHA": base,
        "CI_MERGE_REQUEST_TARGET_BRANCH_NAME": "main",
    }


# -- what the file says ------------------------------------------------------------------------


def test_template_pins_the_release_and_keys_its_state_as_gitlab_documents() -> None:
    doc = yaml.safe_load(TEMPLATE.read_text(encoding="utf-8"))
    from packaging.version import Version

    assert doc["variables"]["ANCHORS_INSTALL"] == (
        f"citation-anchors=={Version(__version__).base_version}"
    )
    weekly = doc["anchors-weekly"]
    script = "".join(weekly["script"])
    # the cache's path (in the project, as GitLab requires) is the state anchors is told of
    assert weekly["cache"]["paths"] == [".anchors-state/"]
    assert 'export ANCHORS_CACHE_DIR="$PWD/.anchors-state"' in script
    assert 'export ANCHORS_HISTORY="$ANCHORS_CACHE_DIR/history.sqlite"' in script
    assert "$CI_COMMIT_REF_SLUG" in weekly["cache"]["key"] and weekly["cache"]["when"] == "always"
    mr = doc["anchors-mr"]
    assert "cache" not in mr  # a merge request starts from no state at all
    assert mr["artifacts"]["reports"] == {
        "junit": "anchors-junit.xml",
        "codequality": "gl-code-quality-report.json",
    }


# -- the merge-request job ---------------------------------------------------------------------


def test_mr_job_checks_what_the_merge_request_adds_under_the_target_branchs_config(
    tmp_path: Path,
) -> None:
    import xmlschema

    ws = tmp_path / "ws"
    with LoopbackServer({"/ok": _ok, "/gone": _gone}) as srv:
        base = repository(ws, srv)
        merge_request(ws, srv, 'exclude = [".*"]\n')  # would hide every link
        run = run_pipeline(ws, tmp_path, mr_variables(base))
    log = run.logs["anchors-mr"]
    assert run.code != 0, run.output  # the dead link fails the job
    assert "anchors-weekly" not in run.logs
    # the merge request's anchors.toml was not read: the base's took its place
    assert (ws / "anchors.toml").read_text(encoding="utf-8") == "timeout = 5\n"
    quality = json.loads(run.artifact("anchors-mr", "gl-code-quality-report.json").read_text())
    where = {(i["check_name"], i["location"]["path"]) for i in quality}
    assert where == {("dead-link", "registry.yaml"), ("dead-link", "briefings/2026-09-24.md")}
    junit = run.artifact("anchors-mr", "anchors-junit.xml")
    xmlschema.XMLSchema(ROOT / "tests" / "data" / "junit-10.xsd").validate(str(junit))
    text = junit.read_text(encoding="utf-8")
    assert 'failures="1"' in text and "unchanged since the --changed-since ref" in text
    assert "registry.yaml:" in log and "dead-link" in log and "/gone" in log


def test_mr_job_fails_when_the_registry_is_behind_its_briefings_and_still_reports(
    tmp_path: Path,
) -> None:
    ws = tmp_path / "ws"
    with LoopbackServer({"/ok": _ok, "/gone": _gone}) as srv:
        base = repository(ws, srv)
        merge_request(ws, srv, "timeout = 5\n", add=False)  # cited, never `anchors add`ed
        run = run_pipeline(ws, tmp_path, mr_variables(base))
    assert run.code != 0
    assert "is not up to date with the briefings" in run.logs["anchors-mr"]
    quality = json.loads(run.artifact("anchors-mr", "gl-code-quality-report.json").read_text())
    assert quality == []  # the check itself found nothing: the gate failed the job


def test_no_job_runs_in_a_plain_push_pipeline(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    with LoopbackServer({"/ok": _ok}) as srv:
        repository(ws, srv)
    run = run_pipeline(ws, tmp_path, {"CI_PIPELINE_SOURCE": "push"})
    assert run.code == 0, run.output
    assert run.logs == {}


# -- the weekly job ----------------------------------------------------------------------------


def weekly_variables(api: str) -> dict[str, str]:
    return {
        "CI_PIPELINE_SOURCE": "schedule",
        "ANCHORS_WEEKLY": "true",
        "CI_API_V4_URL": api,
        "CI_PROJECT_ID": "7",
        "CI_JOB_URL": "https://gitlab.example/o/r/-/jobs/4201",
        "ANCHORS_GITLAB_TOKEN": "glpat-test-token",
    }


def week(tmp_path: Path, n: int, repo: Path, api: str) -> Pipeline:
    """A fresh checkout of `repo` at the same place every week (as a runner's builds folder
    is: the history knows a registry by its path), with the state the cache kept from last
    week restored, and kept again after the job (`cache: when: always`)."""
    ws, kept = tmp_path / "ws", tmp_path / "cache" / ".anchors-state"
    shutil.rmtree(ws, ignore_errors=True)
    shutil.copytree(repo, ws)
    if kept.exists():
        shutil.copytree(kept, ws / ".anchors-state")
    run = run_pipeline(ws, tmp_path, weekly_variables(api))
    if (ws / ".anchors-state").exists():
        shutil.rmtree(kept, ignore_errors=True)
        shutil.copytree(ws / ".anchors-state", kept)
    run.ws = tmp_path / f"week{n}"  # what this week left, kept for the test to read
    shutil.copytree(ws, run.ws)
    return run


def test_weekly_job_keeps_its_history_and_rolls_one_issue(tmp_path: Path) -> None:
    gitlab = FakeGitlab()
    repo = tmp_path / "repo"
    with LoopbackServer({"/ok": _ok, "/gone": _gone}) as srv, gitlab.server() as api_srv:
        repository(repo, srv)
        with (repo / "briefings" / "2026-09-24.md").open("a", encoding="utf-8") as f:
            f.write(f"- b: {srv.url('/gone')}\n")
        assert anchors(repo, "add", "briefings/2026-09-24.md").returncode == 0
        git(repo, "commit", "-qam", "a dead link")
        first = week(tmp_path, 1, repo, gitlab.url(api_srv))
        assert first.code == 0, first.output
        assert "this run starts the history" in first.logs["anchors-weekly"]
        (issue,) = gitlab.issues
        report = (first.ws / "report.md").read_text(encoding="utf-8")
        assert issue.labels == ["anchors-report"] and issue.description == report
        assert "/gone" in report and "### Hosts" in report
        second = week(tmp_path, 2, repo, gitlab.url(api_srv))
    assert second.code == 0, second.output
    assert "starts the history" not in second.logs["anchors-weekly"]
    assert len(gitlab.issues) == 1  # one rolling issue
    assert ("PUT", "/api/v4/projects/7/issues/1") in gitlab.calls
    full = json.loads((second.ws / "report.json").read_text(encoding="utf-8"))
    assert full["window"]["runs"] == 2  # last week's run is in this week's report
    assert gitlab.issues[0].description == (second.ws / "report.md").read_text(encoding="utf-8")
    assert "anchors-junit.xml" in {
        p.name for p in (second.ws / ".gitlab-ci-local" / "artifacts" / "anchors-weekly").iterdir()
    }


def test_weekly_report_fits_a_gitlab_issue_and_points_at_the_full_report(
    tmp_path: Path,
) -> None:
    """A bad week: 400 dead links with long titles. The description is cut to the report's
    cap, far inside GitLab's limit, and says where every row is: the job's artifacts."""
    from anchors.render.budget import ISSUE_LIMIT, size

    gitlab = FakeGitlab(issues=[GitlabIssue(3, "Registry", ["anchors-report"], "last week")])
    title = "A long title about serving large language models on many machines " * 2
    repo = tmp_path / "repo"
    repo.mkdir()
    with LoopbackServer(lambda req: _gone) as srv, gitlab.server() as api_srv:
        (repo / "registry.yaml").write_text(
            "version: 1\nanchors:\n"
            + "".join(
                f'  - url: "{srv.url(f"/gone/{i}")}"\n    title: "{title}"\n'
                "    first_anchored: 2026-09-24\n    status: new\n"
                for i in range(400)
            ),
            encoding="utf-8",
        )
        (repo / "ci" / "gitlab").mkdir(parents=True)
        shutil.copy(TEMPLATE, repo / "ci" / "gitlab" / TEMPLATE.name)
        (repo / ".gitlab-ci.yml").write_text(INCLUDE, encoding="utf-8")
        git(repo, "init", "-q", "-b", "main")
        git(repo, "add", "-A")
        git(repo, "-c", "user.email=t@x.invalid", "-c", "user.name=t", "commit", "-qm", "r")
        run = week(tmp_path, 1, repo, gitlab.url(api_srv))
    assert run.code == 0, run.output
    body = gitlab.issues[0].description
    assert size(body) <= ISSUE_LIMIT < DESCRIPTION_LIMIT
    pointer = "[the full report](<https://gitlab.example/o/r/-/jobs/4201/artifacts/browse>)"
    assert pointer in body
    assert len(json.loads((run.ws / "report.json").read_text())["rows"]) == 400


def test_weekly_job_without_a_token_fails_and_says_why(tmp_path: Path) -> None:
    gitlab = FakeGitlab()
    repo = tmp_path / "repo"
    with LoopbackServer({"/ok": _ok}) as srv, gitlab.server() as api_srv:
        repository(repo, srv)
        variables = weekly_variables(gitlab.url(api_srv))
        variables["ANCHORS_GITLAB_TOKEN"] = ""
        shutil.copytree(repo, tmp_path / "ws")
        run = run_pipeline(tmp_path / "ws", tmp_path, variables)
    assert run.code != 0
    assert "set ANCHORS_GITLAB_TOKEN" in run.logs["anchors-weekly"]
    assert gitlab.calls == [] and (tmp_path / "ws" / "report.json").exists()


def test_weekly_job_refuses_a_committed_state(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    gitlab = FakeGitlab()
    with LoopbackServer({"/ok": _ok}) as srv, gitlab.server() as api_srv:
        repository(repo, srv)
        (repo / ".anchors-state").mkdir()
        (repo / ".anchors-state" / "history.sqlite").write_text("poison", encoding="utf-8")
        git(repo, "add", "-A")
        git(repo, "commit", "-qm", "a state a merge request wrote")
        run = week(tmp_path, 1, repo, gitlab.url(api_srv))
    assert run.code != 0
    assert ".anchors-state/ is tracked by git" in run.logs["anchors-weekly"]
    assert gitlab.calls == []


def test_every_script_of_the_template_passes_shellcheck(tmp_path: Path) -> None:
    from .test_workflows import tool

    doc = yaml.safe_load(TEMPLATE.read_text(encoding="utf-8"))
    scripts = [
        (f"{name}: {key}", text)
        for name, job in doc.items()
        if isinstance(job, dict)
        for key in ("before_script", "script")
        for text in job.get(key, ())
    ]
    assert len(scripts) == 3
    for i, (name, script) in enumerate(scripts):
        f = tmp_path / f"{i}.sh"
        f.write_text(f"#!/usr/bin/env bash\nset -eo pipefail\n{script}", encoding="utf-8")
        r = subprocess.run(
            [tool("shellcheck"), "--shell=bash", "--severity=style", str(f)],
            capture_output=True,
            text=True,
            check=False,
            timeout=60,
        )
        assert r.returncode == 0, f"{name}\n{r.stdout}{r.stderr}"
