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
        "exclude = ['^https://x\\.com/']\naccept = [403]\n", encoding="utf-8")
    s = load_settings(reg, {}, env={})
    assert (s.concurrency, s.per_host, s.exclude, s.accept) == (8, 2, ("^https://x\\.com/",), frozenset({403}))
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
    [("concurency = 3\n", "unknown setting 'concurency'"), ("concurrency = 0\n", "not a valid value"),
     ("exclude = ['(']\n", "not a valid value"), ("timeout = [\n", "not valid TOML")],
)
def test_bad_config_is_a_usage_error(tmp_path: Path, toml: str, needle: str) -> None:
    (tmp_path / "anchors.toml").write_text(toml, encoding="utf-8")
    with pytest.raises(UsageError, match=needle.replace("(", r"\(")):
        load_settings(tmp_path / "registry.yaml", {}, env={})


def test_defaults_are_the_documented_ones() -> None:
    s = Settings()
    assert (s.concurrency, s.per_host, s.timeout, s.retry_after_cap, s.arxiv_delay) == (16, 4, 10.0, 30.0, 3.0)
