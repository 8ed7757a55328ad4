"""Every compiled pattern of the figure and quote readers runs in linear time: each is run over
the whole of each pathological input (more than its callers ever give it: they match at a
position or search a bounded window) at two sizes, and four times the input costs about four
times the CPU time (this process's, so neighbours on a shared machine count less)."""

from __future__ import annotations

import importlib
import re
import time

import pytest

MODULES = [
    "anchors.figures.normal",
    "anchors.figures.units",
    "anchors.figures.tokens",
    "anchors.figures.chinese",
    "anchors.figures.parse",
    "anchors.figures.quotes",
    "anchors.figures.reading",
    "anchors.extract.attributed",
]
PATTERNS = {
    f"{name}.{attr}": value
    for name in MODULES
    for attr, value in vars(importlib.import_module(name)).items()
    if isinstance(value, re.Pattern)
}
#: what each pattern's quantifiers could get stuck on: runs of its own characters
UNITS = [
    "1", "1,", ",111", "1.1", "1 ", " ", "\t", "x", "a", "-", "~", "七", "倍", "百分之", "“", '"',
    "`", "$", "\\", "{", "\\textbf{", "10^", "±1", "http://", "约", "tokens/", "#1", "§1.", "A100",
    "1x", "。", "来源", "issue ", "- ", "|",
]  # fmt: skip


def _cost(pattern: re.Pattern[str], text: str) -> float:
    start = time.process_time()
    for _ in pattern.finditer(text):
        pass
    pattern.search(text[::-1])
    return time.process_time() - start


@pytest.mark.slow  # ~10 s of timing: run by `-m "slow or not slow"` (.ci/run), not the fast tier
@pytest.mark.parametrize("name", sorted(PATTERNS))
def test_each_pattern_is_linear(name: str) -> None:
    pattern = PATTERNS[name]
    for unit in UNITS:
        small = unit * (2000 // len(unit))
        large = small * 4
        t_small = min(_cost(pattern, small) for _ in range(3))
        t_large = min(_cost(pattern, large) for _ in range(3))
        # four times the input: about four times the time (a quadratic pattern takes sixteen)
        assert t_large < 8 * t_small + 0.005, (name, unit, t_small, t_large)


def test_the_patterns_are_all_found() -> None:
    assert len(PATTERNS) >= 35
