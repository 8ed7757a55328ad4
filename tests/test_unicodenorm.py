"""Unicode normalization of untrusted text in linear time (anchors.unicodenorm)."""

from __future__ import annotations

import time
import unicodedata
from collections.abc import Callable

import pytest

from anchors.unicodenorm import MAX_MARKS, normalize

#: runs of marks whose canonical order must be restored: each pair of classes out of order
HOSTILE: dict[str, Callable[[int], str]] = {
    "alternating-marks": lambda n: "a" + "\u0301\u0316" * n,
    "tibetan-vowels": lambda n: "a" + "\u0f73\u0f80" * n,  # U+0F73 is two marks, decomposed
    "halfwidth-sound-marks": lambda n: "\uff76" + "\uff9e\u0316" * n,  # U+FF9E: U+3099 in NFKC
}


def _cpu(form: str, text: str, norm: Callable[[str, str], str]) -> float:
    """This thread's CPU seconds for `norm(form, text)`, the best of three."""
    best = float("inf")
    for _ in range(3):
        start = time.thread_time()
        norm(form, text)
        best = min(best, time.thread_time() - start)
    return best


def _growth(form: str, make: Callable[[int], str], n: int, norm: Callable[..., str]) -> float:
    """How much dearer four times the input is: 4 when linear, 16 when quadratic."""
    return _cpu(form, make(4 * n), norm) / max(_cpu(form, make(n), norm), 1e-6)


@pytest.mark.parametrize("form", ["NFC", "NFKC"])
@pytest.mark.parametrize("shape", sorted(HOSTILE))
def test_normalizing_long_runs_of_marks_is_linear(form: str, shape: str) -> None:
    assert _growth(form, HOSTILE[shape], 20_000, normalize) < 7


@pytest.mark.slow
def test_the_measure_catches_unicodedata_being_quadratic() -> None:
    """The runs above, through `unicodedata.normalize` itself: 80,000 marks took 5 s."""
    assert _growth("NFC", HOSTILE["alternating-marks"], 1_000, unicodedata.normalize) > 7


@pytest.mark.parametrize(
    "text",
    [
        "LoRA: Low-Rank Adaptation",
        "Ｆｕｌｌ－ｗｉｄｔｈ ³ ﬁ",
        "e\u0301 and \u00e9, \u1100\u1161\u11a8, 安装 指南",
        "a" + "\u0316\u0301" * (MAX_MARKS // 2),  # a run at the limit is left whole
        "\u0f73\u0f80 \uff76\uff9e",
    ],
)
def test_text_a_writing_system_uses_normalizes_as_unicodedata_does(text: str) -> None:
    for form in ("NFC", "NFKC", "NFD", "NFKD"):
        assert normalize(form, text) == unicodedata.normalize(form, text)  # type: ignore[arg-type]


def test_a_run_past_the_limit_keeps_its_first_marks() -> None:
    text = "a" + "\u0301" * 100 + "b"
    assert normalize("NFD", text) == "a" + "\u0301" * MAX_MARKS + "b"
