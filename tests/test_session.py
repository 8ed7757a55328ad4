"""`check.session`: the check's options, its setup and teardown, and the counts results carry."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import signal
import sqlite3
import time
from collections.abc import AsyncIterator, Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from anchors.check.run import Services
from anchors.check.session import Hooks, check, check_one, open_session
from anchors.cli.runner import Terminated
from anchors.config import Settings, all_registries, load_settings, one_registry
from anchors.errors import UsageError
from anchors.findings import Code, ExitCode, Finding, Outcome, Unchecked, exit_code
from anchors.history import History
from anchors.options import CheckOptions
from anchors.registry.loader import load
from anchors.render.json import check_result
from anchors.render.summary import check_line
from anchors.resolve.base import Resolution
from anchors.result import CheckResult

TODAY = date(2026, 12, 2)


def write_registry(folder: Path, *ids: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "registry.yaml"
    path.write_text(
        "version: 1\nanchors:\n"
        + "".join(
            f'  - arxiv: "{i}"\n    first_anchored: 2026-09-24\n    status: new\n'
            f'    cited_in: ["2026-09-24"]\n'
            for i in ids
        ),
        encoding="utf-8",
    )
    return path


class FakeServices:
    """A services factory with no clients that records how it was opened and closed."""

    def __init__(self, services: Services | None = None) -> None:
        self.tokens: list[str | None] = []
        self.closed = 0
        self.services = services or Services()

    @contextlib.asynccontextmanager
    async def __call__(
        self, settings: Settings, *, token: str | None = None, **_: object
    ) -> AsyncIterator[Services]:
        self.tokens.append(token)
        try:
            yield self.services
        finally:
            self.closed += 1


class Answers:
    """An arXiv resolver whose every ID is there."""

    async def resolve(self, keys: list[Any]) -> dict[str, Resolution]:
        return {k.key: Resolution(Outcome.OK, status=200) for k in keys}


def test_options_are_frozen_and_each_registry_gets_its_own_settings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ANCHORS_CONCURRENCY", "7")
    monkeypatch.delenv("ANCHORS_CONFIG", raising=False)
    a, b = write_registry(tmp_path / "a"), write_registry(tmp_path / "b")
    (tmp_path / "b" / "anchors.toml").write_text("per_host = 2\n", encoding="utf-8")
    options = CheckOptions(TODAY, flags=(("timeout", 3.0), ("per_host", None)))
    with pytest.raises(dataclasses.FrozenInstanceError):
        options.offline = True  # type: ignore[misc]
    sa, sb = options.settings(a), options.settings(b)
    assert (sa.timeout, sa.concurrency, sb.concurrency) == (3.0, 7, 7)  # flag > env > default
    assert (sa.per_host, sb.per_host) == (Settings().per_host, 2)  # b's own config file


def test_the_github_token_comes_from_the_environment_only(tmp_path: Path) -> None:
    s = load_settings(None, {}, env={"GITHUB_TOKEN": "ghp_secret"}, config=None)
    assert s.github_token == "ghp_secret" and "ghp_secret" not in repr(s)
    assert load_settings(None, {}, env={}).github_token is None
    cfg = tmp_path / "anchors.toml"
    cfg.write_text('github_token = "ghp_committed"\n', encoding="utf-8")
    with pytest.raises(UsageError, match="github_token"):
        load_settings(None, {}, env={}, config=cfg)


def test_state_paths_come_from_the_settings(tmp_path: Path) -> None:
    reg = tmp_path / "registry.yaml"
    assert Settings().cache_path(reg) == tmp_path / ".anchors" / "cache.json"
    assert Settings().history_path(reg) == tmp_path / ".anchors" / "history.sqlite"
    moved = Settings(cache_dir=str(tmp_path / "state"))
    assert moved.cache_path(reg) == tmp_path / "state" / "cache.json"


def test_a_session_closes_everything_when_the_run_fails(tmp_path: Path) -> None:
    reg = write_registry(tmp_path, "1706.03762")
    settings = Settings(github_token="tok")
    services = FakeServices()
    seen: dict[str, Any] = {}

    async def run() -> None:
        async with open_session(reg, settings, services=services) as s:
            seen["history"] = s.history
            assert s.history is not None and s.cache.path == settings.cache_path(reg)
            raise RuntimeError("the run failed")

    with pytest.raises(RuntimeError, match="the run failed"):
        asyncio.run(run())
    assert services.tokens == ["tok"] and services.closed == 1
    with pytest.raises(sqlite3.ProgrammingError):  # closed, not left open
        seen["history"].db.execute("SELECT 1")


def test_a_history_that_cannot_be_kept_is_a_warning_not_a_failure(tmp_path: Path) -> None:
    reg = write_registry(tmp_path, "1706.03762")
    (tmp_path / "blocker").write_text("a file, not a folder", encoding="utf-8")
    settings = Settings(history=str(tmp_path / "blocker" / "history.sqlite"))
    warnings: list[str] = []
    result = asyncio.run(
        check_one(
            load(reg),
            reg,
            settings,
            CheckOptions(TODAY),
            Hooks(warn=warnings.append),
            services=FakeServices(),
        )
    )
    assert result.online and warnings and "this check is not recorded" in warnings[0]


def test_an_online_run_is_recorded_and_shows_progress(tmp_path: Path) -> None:
    reg = write_registry(tmp_path, "1706.03762")
    opened: list[str] = []

    @contextlib.contextmanager
    def progress() -> Iterator[None]:
        opened.append("open")
        yield None
        opened.append("closed")

    services = FakeServices(Services(arxiv=Answers()))
    result = asyncio.run(
        check_one(
            load(reg),
            reg,
            Settings(),
            CheckOptions(TODAY),
            Hooks(progress=progress),
            services=services,
        )
    )
    assert result.online and opened == ["open", "closed"] and services.closed == 1
    history = History.read_only(Settings().history_path(reg))
    try:
        assert len(history.runs(0, time.time() + 60)) == 1
        assert [r.outcome for r in history.rows(time.time() + 60)] == ["ok"]
    finally:
        history.close()


def test_check_loads_every_registry_first_and_filters_codes(tmp_path: Path) -> None:
    good = write_registry(tmp_path / "a", "2709.00001", "1706.03762", "1706.03762")
    with pytest.raises(Exception, match="missing.yaml"):  # nothing is checked before it fails
        check([good, tmp_path / "missing.yaml"], CheckOptions(TODAY, offline=True))
    both = check([good], CheckOptions(TODAY, offline=True))
    assert {f.code for f in both.findings} == {Code.FUTURE_ID, Code.DUPLICATE}
    only = check([good], CheckOptions(TODAY, offline=True, codes=frozenset({Code.DUPLICATE})))
    assert [f.code for f in only.findings] == [Code.DUPLICATE]
    assert exit_code(only.findings) is ExitCode.FINDINGS


def test_online_check_runs_through_the_callers_runner(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    reg = write_registry(tmp_path, "1706.03762")
    ran: list[str] = []

    def runner(coro: Any) -> CheckResult:
        ran.append("run")
        coro.close()  # not awaited: the test only shows who runs it
        return CheckResult(str(reg), TODAY, 0)

    result = check([reg], CheckOptions(TODAY), Hooks(run=runner))
    assert ran == ["run"] and result.anchors == 0


def _finding(code: Code, line: int) -> Finding:
    return Finding(code, "x", "r.yaml", line, "m")


def test_the_counts_are_the_results_and_every_output_shows_the_same() -> None:
    """Each anchor in one state (the worst of its findings), findings by severity apart."""
    r = CheckResult(
        "r.yaml",
        TODAY,
        7,
        [
            _finding(Code.DEAD_LINK, 3),
            _finding(Code.REDIRECT, 4),
            _finding(Code.REDIRECT, 5),
            _finding(Code.RETITLED, 6),
            _finding(Code.UNREACHABLE, 3),
            _finding(Code.RATE_LIMITED, 7),
        ],
        online=True,
        entries=[("r.yaml", n) for n in range(2, 9)],
        unchecked={("r.yaml", 8): Unchecked.SKIPPED},
    )
    assert r.counts() == {"error": 1, "warning": 2, "info": 3}
    states = {s.value: n for s, n in r.states().items() if n}
    assert states == {"ok": 2, "redirected": 2, "unverified": 1, "failing": 1, "not-checked": 1}
    assert sum(r.states().values()) == r.anchors
    doc = json.loads(check_result(r))
    assert doc["summary"] == r.counts() and {k: n for k, n in doc["states"].items() if n} == states
    assert check_line(r).startswith(
        "7 anchors: 2 OK, 2 redirected, 1 unverified, 1 failing, 1 not checked (1 skipped); "
        "findings: 1 error, 2 warnings, 3 notes;"
    )


def test_exit_codes_are_one_enum() -> None:
    assert [int(c) for c in (ExitCode.OK, ExitCode.FINDINGS, ExitCode.USAGE)] == [0, 1, 2]
    assert exit_code([]) is ExitCode.OK
    warning = _finding(Code.UNREACHABLE, 1)
    assert exit_code([warning]) is ExitCode.OK
    assert exit_code([warning], strict=True) is ExitCode.FINDINGS  # add --strict
    assert exit_code([], stale=True) is ExitCode.FINDINGS  # add --check, registry behind
    assert Terminated(signal.SIGTERM).code is ExitCode.TERMINATED
    assert Terminated(signal.SIGHUP).code is ExitCode.HUNG_UP


def test_which_registry_a_command_works_on(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("ANCHORS_REGISTRY", raising=False)
    monkeypatch.delenv("ANCHORS_CONFIG", raising=False)
    assert one_registry([], {})[1] == Path("registry.yaml")
    assert all_registries([]) == [Path("registry.yaml")]
    cfg = tmp_path / "anchors.toml"
    cfg.write_text('registry = "data/reg.yaml"\n', encoding="utf-8")
    assert one_registry([], {}, cfg)[1] == tmp_path / "data" / "reg.yaml"
    assert all_registries([], cfg) == [tmp_path / "data" / "reg.yaml"]
    assert all_registries([Path("a.yaml"), Path("b.yaml")]) == [Path("a.yaml"), Path("b.yaml")]
    with pytest.raises(UsageError, match="one registry at a time: a.yaml, b.yaml"):
        one_registry([Path("a.yaml"), Path("b.yaml")], {})


def test_a_cancelled_run_closes_its_session_too(tmp_path: Path) -> None:
    """Ctrl-C and SIGTERM reach an online run as a cancellation: the same teardown runs."""
    reg = write_registry(tmp_path, "1706.03762")
    services = FakeServices()
    seen: dict[str, Any] = {}

    async def run() -> None:
        async with open_session(reg, Settings(), services=services) as s:
            seen["history"] = s.history
            asyncio.current_task().cancel()  # type: ignore[union-attr]
            await asyncio.sleep(0)

    with pytest.raises(asyncio.CancelledError):
        asyncio.run(run())
    assert services.closed == 1
    with pytest.raises(sqlite3.ProgrammingError):
        seen["history"].db.execute("SELECT 1")


def test_every_check_setting_flag_is_an_option_and_a_setting() -> None:
    import typer

    from anchors.cli.app import app
    from anchors.cli.flags import CHECK_SETTINGS

    group: Any = typer.main.get_command(app)
    params = {p.name for p in group.commands["check"].params}
    assert set(CHECK_SETTINGS) <= params
    assert set(CHECK_SETTINGS) <= {f.name for f in dataclasses.fields(Settings)}
