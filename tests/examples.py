"""How many examples a property test tries: all of them under CI, a quarter on a laptop.

CI (`CI=true`, as GitHub's runners set it and `.ci/run` is run) tries every property the number
of times its test names; a developer's run of the same command tries a quarter of that (at least
25), so the suite stays quick to rerun while each property is still exercised on every run.
`ANCHORS_TEST_EXAMPLES=all` asks for CI's counts anywhere.
"""

from __future__ import annotations

import os

__all__ = ["examples"]


def _all() -> bool:
    return (
        os.environ.get("CI", "").lower() == "true"
        or os.environ.get("ANCHORS_TEST_EXAMPLES", "") == "all"
    )


def examples(n: int) -> int:
    """`n` under CI (or `ANCHORS_TEST_EXAMPLES=all`), else a quarter of it, at least 25."""
    return n if _all() else max(25, n // 4)
