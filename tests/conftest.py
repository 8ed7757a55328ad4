"""Shared fixtures: a fixed `today`, the seed briefing, and registry helpers.

Network fixtures (loopback servers, cassettes) live in tests/netfixtures.py and are imported here.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"
SEED = ROOT / "briefings" / "2026-09-24-inference-e1.md"
TODAY = date(2026, 12, 2)

pytest_plugins = ["tests.netfixtures", "tests.summary"]


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
