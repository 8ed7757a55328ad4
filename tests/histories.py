"""Histories as a check would have left them, for the tests of what reads one (report, fix)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from anchors.findings import Outcome
from anchors.history import History, Observation
from anchors.ids.model import WebUrl

#: two URL entries of the bundled registry
LMSYS = "https://www.lmsys.org/blog/2026-08-17-advanced-cuda-graph"
TENSORMESH = "https://www.tensormesh.ai/learn/vllm-vs-sglang"


def record_urls(
    db: Path, registry: Path, at: float, answers: Iterable[tuple[str, str, int | None, str | None]]
) -> None:
    """One run of `registry` at `at`: each URL's (url, outcome, HTTP status, final URL)."""
    h = History(db)
    run = h.start_run(str(registry), at)
    h.record(
        run,
        [Observation(WebUrl(u), "", Outcome(o), s, f, checked_at=at) for u, o, s, f in answers],
    )
    h.close()
