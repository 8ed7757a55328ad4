"""Shared fixtures: a fixed `today`, the seed briefing, and registry helpers.

Network fixtures (loopback servers, cassettes) live in tests/netfixtures.py and are imported here.
"""

from __future__ import annotations

import os
import sys
import tempfile
from datetime import date
from pathlib import Path

import pytest

from .checkout import as_checkout


def _cache_bytecode_outside_the_checkout() -> None:
    """With PYTHONDONTWRITEBYTECODE set (as in some containers), every pytest-xdist worker
    would rewrite every test module's asserts again, and each of the suite's ~200
    `python -m anchors` processes would compile the package from source again (~5 s of CPU per
    worker, ~0.1 s per process). The tests cache bytecode under the temporary folder instead:
    still nothing written next to the sources, and the run's children inherit the setting."""
    if not sys.dont_write_bytecode:
        return  # Python caches bytecode as usual (GitHub's runners)
    prefix = sys.pycache_prefix or str(Path(tempfile.gettempdir()) / "anchors-tests-bytecode")
    sys.pycache_prefix = prefix
    sys.dont_write_bytecode = False
    os.environ["PYTHONPYCACHEPREFIX"] = prefix
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)


_cache_bytecode_outside_the_checkout()

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"
SEED = ROOT / "briefings" / "2026-09-24-inference-e1.md"
TODAY = date(2026, 12, 2)

pytest_plugins = ["tests.netfixtures", "tests.summary"]


@pytest.hookimpl(tryfirst=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """`-n auto` starts one worker more than the machine has cores: a third of the suite's
    time is spent waiting on the programs and loopback servers it starts, which a worker
    alone per core leaves idle (on 2 cores: the fast tier 48 s against 55 s; the whole suite
    188-220 s against 208-217 s, within the shared machine's noise)
    `PYTEST_XDIST_AUTO_NUM_WORKERS` still decides where it is set."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None  # pytest-xdist reads it
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return (cores or 1) + 1


@pytest.fixture
def today() -> date:
    return TODAY


@pytest.fixture
def seed() -> Path:
    return SEED


@pytest.fixture(autouse=True)
def _clean_environ(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests never see a real token or a real API endpoint from the developer's shell."""
    for name in (
        "GITHUB_TOKEN",
        "ANCHORS_ARXIV_API",
        "ANCHORS_GITHUB_API",
        "ANCHORS_DOI_API",
        "ANCHORS_HISTORY",
        "ANCHORS_TEST_KILL_AT",
        "NO_COLOR",
    ):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture(autouse=True)
def _tmp_path_is_a_git_checkout(request: pytest.FixtureRequest) -> None:
    """A test's folder is a git checkout, as a user's registry folder is (tests/checkout.py)."""
    if "tmp_path" in request.fixturenames:
        as_checkout(request.getfixturevalue("tmp_path"))
