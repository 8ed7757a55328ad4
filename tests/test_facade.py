"""One façade: the CLI builds each command's options from its flags and calls `commands`, so
a flag cannot reach one of them and not the other; the CLI reaches nothing under `check/`."""

from __future__ import annotations

import ast
import dataclasses
from datetime import date
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from anchors import options
from anchors.cli import app as cli_app
from anchors.cli import flags
from anchors.errors import UsageError

ROOT = Path(__file__).resolve().parent.parent
CLI = ROOT / "anchors" / "cli"

#: the flags that only choose how a result is shown (format, files, stderr) or the exit code
SHOWN = {
    "add": {"fmt", "strict", "quiet"},
    "check": {"fmt", "strict", "summary_file", "output_junit", "output_gitlab", "verbose", "quiet"},
    "report": {"fmt", "output", "summary_file", "output_junit", "full_report", "quiet"},
    "export": {"fmt", "bib_style", "output", "quiet"},
    "fix": {"quiet"},
}
SETTINGS = {
    "add": flags.ADD_SETTINGS,
    "check": flags.CHECK_SETTINGS,
    "report": flags.REPORT_SETTINGS,
    "export": flags.EXPORT_SETTINGS,
    "fix": flags.FIX_SETTINGS,
}
OPTIONS = {
    "add": options.AddOptions,
    "check": options.CheckOptions,
    "report": options.ReportOptions,
    "export": options.ExportOptions,
    "fix": options.FixOptions,
}


def _flags(command: str) -> set[str]:
    group: Any = typer.main.get_command(cli_app.app)
    return {p.name for p in group.commands[command].params}


def _fields(command: str) -> set[str]:
    return {f.name for f in dataclasses.fields(OPTIONS[command])}


def _expected_fields(command: str, given: set[str]) -> set[str]:
    """The options' fields the CLI's flags fill: `check`'s registries, config and settings are
    its own fields; the others' are their `OneRegistry`."""
    where = {"registries", "registry", "config", *SETTINGS[command]}
    rest = given - SHOWN[command] - where
    if command == "check":
        return rest | {"registries", "config", "flags"}
    return rest | {"registry"}


@pytest.mark.parametrize("command", sorted(OPTIONS))
def test_every_flag_is_a_field_of_the_options_and_every_field_a_flag(command: str) -> None:
    given = _flags(command)
    assert set(SETTINGS[command]) <= given and set(SETTINGS[command]) <= options.SETTING_NAMES
    # `only_keys` is `export --refresh`'s narrowing of the check, never a flag
    fields = _fields(command) - {"only_keys"}
    assert _expected_fields(command, given) == fields


def test_the_comparison_sees_a_flag_without_a_field() -> None:
    given = _flags("check")
    assert _expected_fields("check", given | {"retries"}) != _fields("check") - {"only_keys"}
    assert _expected_fields("check", given - {"offline"}) != _fields("check") - {"only_keys"}


def test_every_setting_flag_reaches_the_options(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The CLI hands each setting flag given on to `CheckOptions.flags`, as the settings merge
    it (flag > environment > file), and calls `commands.run_check` with those options."""
    seen: list[options.CheckOptions] = []

    def run_check(given: options.CheckOptions, hooks: object = None) -> object:
        seen.append(given)
        raise typer.Exit(0)

    monkeypatch.setattr(cli_app, "run_check", run_check)
    args = ["check", str(tmp_path / "r.yaml"), "--offline", "--timeout", "3", "--per-host", "2"]
    result = CliRunner().invoke(cli_app.app, [*args, "--exclude", "x", "--only", "dead-link"])
    assert result.exit_code == 0, result.output
    (got,) = seen
    given = {name: value for name, value in got.flags if value not in (None, [], ())}
    assert given == {"timeout": 3.0, "per_host": 2, "exclude": ["x"]}
    assert {name for name, _ in got.flags} == set(flags.CHECK_SETTINGS)
    assert got.offline and got.registries == (tmp_path / "r.yaml",)
    assert options.CheckOptions(got.today).settings(tmp_path / "r.yaml").timeout != 3.0
    assert got.settings(tmp_path / "r.yaml").timeout == 3.0


def test_a_misspelt_setting_is_refused_wherever_options_are_built() -> None:
    with pytest.raises(UsageError, match="unknown setting 'timout'"):
        options.CheckOptions(date.today(), flags=(("timout", 5),))
    with pytest.raises(UsageError, match="unknown setting 'histroy'"):
        options.OneRegistry.find(flags={"histroy": "h.sqlite"})


#: what the CLI may import of the library: the façade, the options, the renderers, and the
#: vocabulary every layer shares; `fix.parse_kinds` is the `--only` vocabulary of `fix`
ALLOWED = (
    "anchors.commands",
    "anchors.options",
    "anchors.render",
    "anchors.cli",
    "anchors.findings",
    "anchors.errors",
    "anchors.defaults",
    "anchors.config",
    "anchors.sections",
)
ALLOWED_NAMES = {"anchors.fix": {"parse_kinds"}, "anchors": {"__version__"}}


def _imports(path: Path) -> list[tuple[str, str]]:
    """(module, name) for every `from anchors… import name` in `path`, at run time."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
        for stmt in node.body
        for inner in ast.walk(stmt)
    }
    found = []
    here = ["anchors", "cli"]
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and id(node) not in typing_only:
            base = here[: len(here) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            found += [(module, alias.name) for alias in node.names]
        elif isinstance(node, ast.Import):
            found += [(alias.name, "") for alias in node.names]
    return [(m, n) for m, n in found if m.split(".")[0] == "anchors"]


def _refused(path: Path) -> list[str]:
    return [
        f"{path.name}: {module}.{name}"
        for module, name in _imports(path)
        if not any(module == a or module.startswith(a + ".") for a in ALLOWED)
        and name not in ALLOWED_NAMES.get(module, ())
    ]


@pytest.mark.parametrize("path", sorted(CLI.glob("*.py")), ids=lambda p: p.name)
def test_the_cli_imports_only_the_facade_options_and_renderers(path: Path) -> None:
    refused = _refused(path)
    if path.name == "runner.py":  # the executor an online run's threads use, nothing of a check
        refused.remove("runner.py: anchors.net.workers.DaemonExecutor")
    assert refused == []


def test_the_import_rule_sees_a_check_internal(tmp_path: Path) -> None:
    module = tmp_path / "app.py"
    module.write_text(
        "from ..check.session import CheckOptions\nfrom ..commands import run_check\n",
        encoding="utf-8",
    )
    assert _refused(module) == ["app.py: anchors.check.session.CheckOptions"]
