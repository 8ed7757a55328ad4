"""Settings precedence: flag > environment > config file > default."""

from __future__ import annotations

from pathlib import Path

import pytest

from anchors.config import Settings, load_settings
from anchors.defaults import DEFAULT_CONCURRENCY
from anchors.errors import UsageError


def test_precedence(tmp_path: Path) -> None:
    reg = tmp_path / "registry.yaml"
    assert load_settings(reg, {}, env={}).concurrency == DEFAULT_CONCURRENCY
    (tmp_path / "pyproject.toml").write_text(
        "[project]\nname='x'\n[tool.anchors]\nconcurrency = 8\nper-host = 2\n"
        "exclude = ['^https://x\\.com/']\naccept = [403]\n",
        encoding="utf-8",
    )
    s = load_settings(reg, {}, env={})
    assert (s.concurrency, s.per_host, s.exclude, s.accept) == (
        8,
        2,
        ("^https://x\\.com/",),
        frozenset({403}),
    )
    s = load_settings(reg, {}, env={"ANCHORS_CONCURRENCY": "12"})
    assert s.concurrency == 12 and s.per_host == 2
    s = load_settings(reg, {"concurrency": 64, "per_host": None}, env={"ANCHORS_CONCURRENCY": "12"})
    assert s.concurrency == 64 and s.per_host == 2


def test_anchors_toml_wins_over_pyproject(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.anchors]\ntimeout = 3\n", encoding="utf-8")
    (tmp_path / "anchors.toml").write_text("timeout = 4.5\n", encoding="utf-8")
    assert load_settings(tmp_path / "registry.yaml", {}, env={}).timeout == 4.5


@pytest.mark.parametrize(
    ("toml", "needle"),
    [
        ("concurency = 3\n", "unknown setting 'concurency'; did you mean 'concurrency'?"),
        ("per-hots = 3\n", "unknown setting 'per-hots'; did you mean 'per_host'?"),
        ("concurrency = 0\n", "concurrency = 0: expected a whole number, 1 or more"),
        ("timeout = 'soon'\n", "timeout = 'soon': expected a number of seconds, 0 or more"),
        ("archive = 'maybe'\n", "archive = 'maybe': expected true or false"),
        ("accept = [700]\n", "accept = [700]: expected a list of HTTP status codes (100 to 599)"),
        ("exclude = ['(']\n", "exclude = ['('] (missing ): (): expected a list of regular exp"),
        # RE2 runs every pattern in time linear in the URL: no look-around, no back-reference
        ("exclude = ['(?<=a)b']\n", "exclude = ['(?<=a)b'] (invalid perl operator: (?<=)"),
        ("timeout = [\n", "not valid TOML"),
        ("x = " + "[" * 5000 + "]" * 5000 + "\n", "not valid TOML (nested too deeply)"),
    ],
)
def test_bad_config_is_a_usage_error(tmp_path: Path, toml: str, needle: str) -> None:
    (tmp_path / "anchors.toml").write_text(toml, encoding="utf-8")
    with pytest.raises(UsageError) as err:
        load_settings(tmp_path / "registry.yaml", {}, env={})
    assert needle in str(err.value)


def test_defaults_are_the_documented_ones() -> None:
    s = Settings()
    assert (s.concurrency, s.per_host, s.timeout, s.retry_after_cap, s.arxiv_delay) == (
        16,
        4,
        10.0,
        30.0,
        3.0,
    )


def _git_root(path: Path) -> Path:
    (path / ".git").mkdir(parents=True, exist_ok=True)
    return path


def test_discovered_upward_to_the_repository_root_and_merged(tmp_path: Path) -> None:
    root = _git_root(tmp_path / "repo")
    data = root / "data"
    data.mkdir()
    (root / "pyproject.toml").write_text(
        "[tool.anchors]\ntimeout = 3\nexclude = ['^https://a\\.example/']\naccept = [403]\n",
        encoding="utf-8",
    )
    (data / "anchors.toml").write_text(
        "timeout = 4\nexclude = ['^https://b\\.example/']\n", encoding="utf-8"
    )
    (tmp_path / "pyproject.toml").write_text("[tool.anchors]\nper_host = 1\n", encoding="utf-8")
    s = load_settings(data / "registry.yaml", {}, env={})
    assert s.timeout == 4  # the nearer file wins a single value
    assert s.exclude == ("^https://a\\.example/", "^https://b\\.example/")  # lists are joined
    assert s.accept == frozenset({403}) and s.per_host == 4  # above the repository: not read
    assert s.sources == (str(data / "anchors.toml"), str(root / "pyproject.toml"))


def test_anchors_toml_and_tool_anchors_in_one_folder_are_merged(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        "[tool.anchors]\nexclude = ['x']\nconcurrency = 2\n", encoding="utf-8"
    )
    (tmp_path / "anchors.toml").write_text("exclude = ['y']\n", encoding="utf-8")
    s = load_settings(tmp_path / "registry.yaml", {}, env={})
    assert s.exclude == ("x", "y") and s.concurrency == 2


def test_config_flag_reads_one_file_and_nothing_else(tmp_path: Path) -> None:
    (tmp_path / "anchors.toml").write_text("timeout = 4\n", encoding="utf-8")
    other = tmp_path / "ci.toml"
    other.write_text("concurrency = 3\n", encoding="utf-8")
    s = load_settings(tmp_path / "registry.yaml", {}, env={}, config=other)
    assert (s.concurrency, s.timeout) == (3, 10.0)
    s = load_settings(tmp_path / "registry.yaml", {}, env={"ANCHORS_CONFIG": str(other)})
    assert s.concurrency == 3
    with pytest.raises(UsageError, match="no such file"):
        load_settings(tmp_path / "registry.yaml", {}, env={}, config=tmp_path / "nope.toml")


def test_config_applies_to_every_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seed: Path
) -> None:
    from typer.testing import CliRunner

    from anchors.cli.app import app

    root = _git_root(tmp_path / "repo")
    (root / "data").mkdir()
    (root / "anchors.toml").write_text('registry = "data/registry.yaml"\n', encoding="utf-8")
    monkeypatch.chdir(root)
    runner = CliRunner()
    r = runner.invoke(app, ["add", str(seed), "--today", "2026-12-02"])
    assert r.exit_code == 0 and (root / "data" / "registry.yaml").exists(), r.output
    r = runner.invoke(app, ["check", "--offline", "-f", "concise", "--today", "2026-12-02"])
    assert "43 anchors (offline)" in r.stderr, r.output
    r = runner.invoke(app, ["report"])
    assert r.exit_code == 2 and "data/.anchors/history.sqlite" in r.stderr
    (root / "anchors.toml").write_text("concurency = 3\n", encoding="utf-8")
    for argv in (["add", str(seed)], ["check", "--offline"], ["report"], ["export"], ["fix"]):
        r = runner.invoke(app, argv)
        assert r.exit_code == 2 and "unknown setting 'concurency'" in r.stderr, (argv, r.output)


def test_every_setting_has_an_environment_variable_and_a_test_of_it(tmp_path: Path) -> None:
    from anchors.config import ENV

    env = {"ANCHORS_ALLOW_PRIVATE": "1", "ANCHORS_RETRY_AFTER_CAP": "5", "ANCHORS_ARXIV_DELAY": "0"}
    s = load_settings(tmp_path / "registry.yaml", {}, env=env)
    assert (s.allow_private, s.retry_after_cap, s.arxiv_delay) == (True, 5.0, 0.0)
    assert {"allow_private", "retry_after_cap", "arxiv_delay", "timeout", "concurrency"} <= set(ENV)


def test_every_setting_has_one_rule_for_config_files() -> None:
    """A new setting must say whether a file may set it (the trust table is complete)."""
    import dataclasses

    from anchors.config.trust import FILE_RULES, FileRule

    fields = {f.name for f in dataclasses.fields(Settings)}
    assert set(FILE_RULES) == fields - {"sources", "chosen", "github_token", "ia_keys"}
    endpoints = {n for n, rule in FILE_RULES.items() if rule is FileRule.ENDPOINT}
    assert endpoints == {n for n in fields if n.endswith("_api")} | {"arxiv_html"}
    assert {n for n, rule in FILE_RULES.items() if rule is FileRule.PATH} == {
        "registry",
        "cache_dir",
        "history",
        "document",
    }
