"""No dead code in the package: vulture, as pyproject's [tool.vulture] sets it up (what a plain
`vulture` runs), finds nothing in anchors/ but what tests/dead_code_allow.py says is used from
outside it; every name there is still needed, and the check fails on a function or a field that
nothing reads (the two the house issue found: render/text.py's `_t`, github_api's
`Reply.renewed`)."""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import vulture  # noqa: F401  (the test extra has it; without it this suite cannot run)

ROOT = Path(__file__).resolve().parent.parent
ALLOW = ROOT / "tests" / "dead_code_allow.py"
#: vulture's exit status when it found dead code
FOUND = 3


def run_vulture(cwd: Path, *paths: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "vulture", *paths],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def reported(out: str) -> set[str]:
    return set(re.findall(r"unused \w+ '([^']+)'", out))


def test_nothing_in_the_package_is_dead() -> None:
    result = run_vulture(ROOT)
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")


@pytest.mark.slow
def test_every_name_on_the_allow_list_is_still_needed() -> None:
    tree = ast.parse(ALLOW.read_text(encoding="utf-8"))
    (listing,) = (n for n in tree.body if isinstance(n, ast.FunctionDef))
    body = [node for statement in listing.body for node in ast.walk(statement)]
    allowed = {node.attr for node in body if isinstance(node, ast.Attribute)}
    allowed |= {node.id for node in body if isinstance(node, ast.Name) and node.id[0] == "_"}
    allowed |= {
        arg.arg for node in body if isinstance(node, ast.FunctionDef) for arg in node.args.args
    }
    without = run_vulture(ROOT, "anchors", "--min-confidence", "60")
    assert without.returncode == FOUND
    # each name the list holds is one vulture would report without it (no stale entry)
    assert reported(without.stdout) == allowed


@pytest.mark.slow
def test_the_check_fails_on_a_dead_function_and_a_field_nothing_reads(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "anchors", tmp_path / "anchors")
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    (tmp_path / "tests").mkdir()
    shutil.copy(ALLOW, tmp_path / "tests")
    text = tmp_path / "anchors" / "render" / "text.py"
    text.write_text(
        text.read_text(encoding="utf-8") + "\n\ndef _t(s: object) -> Text:\n"
        "    return Text(plain(str(s)))\n",
        encoding="utf-8",
    )
    api = tmp_path / "anchors" / "resolve" / "github_api.py"
    source = api.read_text(encoding="utf-8")
    field = "    data: dict[str, object]\n"
    assert field in source
    api.write_text(source.replace(field, field + "    renewed: bool = False\n", 1), "utf-8")
    result = run_vulture(tmp_path)
    assert result.returncode == FOUND
    assert reported(result.stdout) == {"_t", "renewed"}
    assert (
        "anchors/render/text.py" in result.stdout
        and "anchors/resolve/github_api.py" in result.stdout
    )
