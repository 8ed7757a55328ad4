"""The reliability suite: every test is one fault, bad input or data-safety case, tallied.

Run alone with `python -m pytest -m reliability`; the tally is printed at the end of any run
that includes it: how many cases of each kind were tried and how many the tool survived.
"""

from __future__ import annotations

from collections import Counter

import pytest

_KINDS = {"fault": "faults survived", "input": "bad inputs handled", "data": "data-safety cases kept everything",
          "hostile": "hostile-content cases rendered inert or refused",
          "env": "environment errors reported in one line, nothing lost"}
_tried: Counter[str] = Counter()
_ok: Counter[str] = Counter()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        m = item.get_closest_marker("reliability")
        if m is not None:
            item.user_properties.append(("reliability", m.kwargs.get("kind", "fault")))


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    kind = dict(report.user_properties).get("reliability")
    if kind is None or report.when != "call":
        return
    _tried[kind] += 1
    if report.passed:
        _ok[kind] += 1


def pytest_terminal_summary(terminalreporter) -> None:  # type: ignore[no-untyped-def]
    if not _tried:
        return
    parts = [f"{_ok[k]}/{_tried[k]} {label}" for k, label in _KINDS.items() if _tried[k]]
    terminalreporter.write_line("reliability tally: " + "; ".join(parts))
