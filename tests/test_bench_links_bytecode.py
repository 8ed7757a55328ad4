"""bench/links.py times `anchors check`, not Python compiling anchors from source: under
PYTHONDONTWRITEBYTECODE (or in a checkout nothing has imported from) every timed run compiled
~100 modules again, ~0.06 ms of CPU per URL at 2,000 URLs that an installed package never pays.
Counted by the interpreter's `compile` audit events, never timed."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# A fresh interpreter in the tree, as the timed command is: how many anchors modules it compiles
# from source while importing the check path.
_PROBE = (
    "import sys\n"
    "seen = []\n"
    "def hook(event, args):\n"
    "    if event == 'compile' and str(args[1]).endswith('.py'):\n"
    "        seen.append(str(args[1]))\n"
    "sys.addaudithook(hook)\n"
    "import anchors.net.links, anchors.net.batch, anchors.check.recorder\n"
    "print(sum('anchors' in f for f in seen))\n"
)

# The bench's own preparation, then the probe as the bench would start it (same environment).
_BENCH = (
    "import subprocess, sys\n"
    "sys.path.insert(0, 'bench')\n"
    "import links\n"
    "links.bytecode_ready([sys.argv[1]])\n"
    "subprocess.run([sys.executable, '-c', sys.argv[2]], cwd=sys.argv[1], check=True)\n"
)


def _tree(tmp_path: Path) -> Path:
    """A checkout nothing has imported from: the package's sources, no bytecode."""
    tree = tmp_path / "tree"
    shutil.copytree(ROOT / "anchors", tree / "anchors", ignore=shutil.ignore_patterns("*.pyc"))
    return tree


def _compiled(cmd: list[str]) -> int:
    env = dict(os.environ)
    env["PYTHONDONTWRITEBYTECODE"] = "1"  # the sandbox's shell sets it; so may a user's
    env.pop("PYTHONPYCACHEPREFIX", None)
    out = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    return int(out.stdout.strip().splitlines()[-1])


@pytest.mark.slow
def test_without_the_bench_a_fresh_run_compiles_anchors_from_source(tmp_path: Path) -> None:
    # the probe counts what it should: in a fresh tree, the check path is compiled
    tree = _tree(tmp_path)
    probe = f"import sys; sys.path.insert(0, {str(tree)!r})\n" + _PROBE
    assert _compiled([sys.executable, "-c", probe]) >= 10


@pytest.mark.slow
def test_the_timed_command_compiles_no_anchors_module(tmp_path: Path) -> None:
    tree = _tree(tmp_path)
    assert _compiled([sys.executable, "-c", _BENCH, str(tree), _PROBE]) == 0
