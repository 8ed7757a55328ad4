"""Every fuzz target under fuzz/ runs for a short budget: no crash, no input slower than 2 s.

Each `fuzz/fuzz_*.py` is an atheris program (`one_input(data: bytes)`, atheris.Setup/Fuzz under
`__main__`) for one reader of untrusted bytes; docs/development.md says how to run one for long.
Here each runs `FUZZ_SECONDS` (default 2: a smoke run in CI, after the ~2 s a target takes to
instrument its imports) with inputs up to 1 MiB, so the readers' 1 MiB bounds are reachable.
atheris comes from `.ci/prepare`; without it these skip, and fail under CI=true.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.consumers.tools import missing

ROOT = Path(__file__).resolve().parents[1]
TARGETS = sorted((ROOT / "fuzz").glob("fuzz_*.py"))
SECONDS = int(os.environ.get("FUZZ_SECONDS", "2"))

pytestmark = pytest.mark.slow


def test_every_reader_of_untrusted_bytes_has_a_target() -> None:
    assert len(TARGETS) >= 1


@pytest.mark.parametrize("target", TARGETS, ids=[t.stem for t in TARGETS])
def test_a_fuzz_target_finds_no_crash_and_no_slow_input(target: Path, tmp_path: Path) -> None:
    try:
        import atheris  # noqa: F401
    except ImportError:
        missing("atheris", "pip install '.[fuzz]' (.ci/prepare does)")
    out = subprocess.run(
        [
            sys.executable,
            str(target),
            f"-max_total_time={SECONDS}",
            "-max_len=1048576",
            "-timeout=2",
            "-rss_limit_mb=1024",
            f"-artifact_prefix={tmp_path}/",
        ],
        check=False,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=SECONDS + 60,
    )
    tail = (out.stdout + out.stderr)[-3000:]
    assert out.returncode == 0, f"{target.name} exited {out.returncode}:\n{tail}"
    assert "Done" in tail, tail
