"""The README documents what the tool does: every code, every command, the set-up commands."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from anchors.cli.app import app
from anchors.findings import Code, Severity
from anchors.render import OutputFormat, github, text

README = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
CI = (Path(__file__).resolve().parent.parent / ".ci" / "run").read_text(encoding="utf-8")


@pytest.mark.parametrize("code", list(Code))
def test_every_code_is_in_the_readme_table_with_its_severity(code: Code) -> None:
    assert re.search(rf"^\| `{code.value}` \| {code.severity.value} \|", README, re.MULTILINE), code


@pytest.mark.parametrize("command", ["add", "check", "report", "export", "fix"])
def test_every_command_has_help_with_an_example(command: str) -> None:
    r = CliRunner().invoke(app, [command, "--help"])
    assert r.exit_code == 0 and "Example:" in r.stdout
    assert f"anchors {command}" in README


def test_ci_runs_the_readme_test_command() -> None:
    m = re.search(r"```sh\n(pip install '\.\[test\]' && [^\n]+)\n```", README)
    assert m and m.group(1) in CI


@pytest.mark.parametrize("fmt", list(OutputFormat))
def test_every_format_renders_a_finding_of_every_severity(
    tmp_path: Path, fmt: OutputFormat
) -> None:
    reg = tmp_path / "registry.yaml"
    reg.write_text(
        "version: 1\nanchors:\n"
        '  - arxiv: "2709.00001"\n    first_anchored: 2026-09-24\n    status: new\n'
        '  - arxiv: "2611.00001"\n    first_anchored: 2026-09-24\n    status: new\n',
        encoding="utf-8",
    )
    r = CliRunner().invoke(
        app, ["check", str(reg), "--offline", "-f", fmt.value, "--today", "2026-12-02"]
    )
    assert r.exit_code == 1
    for code in (Code.FUTURE_ID, Code.LATER_THAN_BRIEFING):  # an error and a warning
        assert code.value in r.stdout, (fmt, code)
    assert set(github._COMMAND) == set(Severity) == set(text._STYLE)  # no severity unstyled


def test_every_guarantee_names_a_test_that_exists() -> None:
    section = README.split("## Guarantees", 1)[1].split("\n## ", 1)[0]
    tests = Path(__file__).resolve().parent
    current: Path | None = None
    refs = re.findall(r"`((?:tests/[\w/]+|test_\w+)\.py)?::(test_\w+)", section)
    for path, name in refs:
        if path:  # a bare `::name` refers to the file named before it
            current = next(tests.glob(f"**/{Path(path).name}"))
        assert current is not None
        assert f"def {name}(" in current.read_text(encoding="utf-8"), (current, name)
    assert len(refs) >= 13
