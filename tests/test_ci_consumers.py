"""`.ci/consumers` as GitHub's runner meets it: a user with sudo, not root, and Google Chrome
installed where Debian would have `chromium`; and as root on a Debian machine. Every program
it would run is a fake on PATH that writes down how it was called."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: the real programs the script needs besides those it installs
_REAL = ("bash", "dirname", "env", "mkdir")


def _consumers(tmp_path: Path, uid: int, present: tuple[str, ...]) -> list[str]:
    """The calls `.ci/consumers` makes, as `name args…` lines, with `present` installed."""
    bin_dir, log = tmp_path / "bin", tmp_path / "calls"
    bin_dir.mkdir()
    for name in _REAL:
        real = subprocess.run(["which", name], capture_output=True, text=True, check=True)
        (bin_dir / name).symlink_to(real.stdout.strip())
    fakes = {
        "id": f'echo "{uid}"',
        "sudo": f'echo "sudo $*" >> "{log}"; exec "$@"',
        "apt-get": f'echo "apt-get $*" >> "{log}"',
        "npm": f'echo "npm $*" >> "{log}"',
        "kpsewhich": "exit 1",
        **{name: "exit 0" for name in present},
    }
    for name, body in fakes.items():
        f = bin_dir / name
        f.write_text(f"#!{bin_dir / 'bash'}\n{body}\n", encoding="utf-8")
        f.chmod(0o755)
    done = subprocess.run(
        [str(bin_dir / "bash"), str(ROOT / ".ci" / "consumers")],
        env={"PATH": str(bin_dir), "ANCHORS_TOOLS": str(tmp_path / "tools"), "HOME": os.devnull},
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return log.read_text(encoding="utf-8").splitlines()


def test_a_runner_user_installs_through_sudo_and_keeps_its_chrome(tmp_path: Path) -> None:
    """apt-get as a user fails ("could not open lock file"), and Ubuntu has no `chromium`
    package: GitHub's runner has Google Chrome, which the browser tests take."""
    calls = _consumers(tmp_path, 1001, ("google-chrome",))
    assert [c for c in calls if c.startswith("apt-get")] == [
        "apt-get update -qq",
        (
            "apt-get install -y -qq --no-install-recommends texlive-latex-base "
            "texlive-latex-recommended texlive-latex-extra biber texlive-bibtex-extra "
            "texlive-xetex fonts-wqy-microhei poppler-utils patch git rsync"
        ),
    ]
    assert sum(c.startswith("sudo env ") for c in calls) == 2
    assert any(c.startswith("npm install ") and "@microsoft/sarif-multitool@" in c for c in calls)


def test_root_installs_without_sudo_and_what_is_there_is_not_installed(tmp_path: Path) -> None:
    present = ("chromium", "pdflatex", "biber", "xelatex", "git", "rsync")
    calls = _consumers(tmp_path, 0, present)
    assert not [c for c in calls if c.startswith("sudo")]
    assert [c for c in calls if c.startswith("apt-get install")] == [
        "apt-get install -y -qq --no-install-recommends texlive-latex-extra poppler-utils patch"
    ]


@pytest.mark.slow
def test_the_fix_diff_test_fails_under_ci_without_patch(tmp_path: Path) -> None:
    """tests/test_fix.py applies `fix --dry-run`'s diff with patch and git apply: without the
    program it skipped even under CI=true, a check that could not fail. It skips only on a
    developer's machine now, and `.ci/consumers` installs patch where it is missing."""
    bin_dir = tmp_path / "bin"  # a PATH with no patch (nor anything else)
    bin_dir.mkdir()
    test = "tests/test_fix.py::test_the_dry_run_diff_applies_and_gives_the_file_fix_writes[patch]"
    outcomes = {}
    for ci in ("true", ""):
        done = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rs", test],
            cwd=ROOT,
            env={**os.environ, "PATH": str(bin_dir), "CI": ci},
            capture_output=True,
            text=True,
            check=False,
            timeout=120,
        )
        outcomes[ci] = (done.returncode, done.stdout)
    assert outcomes["true"][0] == 1 and "patch is not installed" in outcomes["true"][1]
    assert outcomes[""][0] == 0 and "1 skipped" in outcomes[""][1], outcomes[""][1]


def test_every_job_that_runs_the_suite_installs_the_consumers_first() -> None:
    """GitHub sets CI=true, under which a consumer test whose program is missing fails: the
    release workflow ran the suite without them."""
    import yaml

    run = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert run.index("bash .ci/consumers") < run.index("python -m pytest")
    ci = yaml.safe_load((ROOT / ".github" / "workflows" / "ci.yml").read_text(encoding="utf-8"))
    assert ci["jobs"]["test"]["steps"][-1]["run"] == "bash .ci/run"
    release = ROOT / ".github" / "workflows" / "release.yml"
    steps = yaml.safe_load(release.read_text(encoding="utf-8"))["jobs"]["test"]["steps"]
    runs = [str(s.get("run", "")) for s in steps]
    suite = next(i for i, r in enumerate(runs) if "pytest" in r)
    assert "bash .ci/consumers" in runs[:suite]
