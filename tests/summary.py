"""What the run prints at its end: figures tests measured, and the reliability tally.

Both travel in the tests' reports (`user_properties`), so they reach the process that prints
the summary whether a test ran there or in a pytest-xdist worker. A test hands its lines to
the `summary` fixture; a reliability test is one fault, bad input or data-safety case, and the
tally says how many of each kind were tried and how many the tool survived. Run the
reliability suite alone with `python -m pytest -m reliability`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import pytest

_KINDS = {
    "fault": "faults survived",
    "input": "bad inputs handled",
    "data": "data-safety cases kept everything",
    "hostile": "hostile-content cases rendered inert or refused",
    "env": "environment errors reported in one line, nothing lost",
    "security": "untrusted-repository and hostile-service cases held the trust boundary",
}
_tried: Counter[str] = Counter()
_ok: Counter[str] = Counter()
_lines: list[str] = []


@pytest.fixture
def summary(request: pytest.FixtureRequest) -> Callable[[str], None]:
    """Print a line at the end of the run (figures a test measured)."""
    return lambda line: request.node.user_properties.append(("summary", line))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        m = item.get_closest_marker("reliability")
        if m is not None:
            item.user_properties.append(("reliability", m.kwargs.get("kind", "fault")))


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.when != "call":
        return
    props = [tuple(p) for p in report.user_properties]
    _lines.extend(v for k, v in props if k == "summary")
    kind = dict(props).get("reliability")
    if kind is not None:
        _tried[kind] += 1
        if report.passed:
            _ok[kind] += 1


def pytest_terminal_summary(terminalreporter) -> None:  # type: ignore[no-untyped-def]
    for line in _lines:
        terminalreporter.write_line(line)
    if _tried:
        parts = [f"{_ok[k]}/{_tried[k]} {label}" for k, label in _KINDS.items() if _tried[k]]
        terminalreporter.write_line("reliability tally: " + "; ".join(parts))
