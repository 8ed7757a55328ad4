"""Every fuzz target under fuzz/ runs for a short budget: no crash, no input slower than 2 s.

Each `fuzz/fuzz_*.py` is an atheris program (`one_input(data: bytes)`, atheris.Setup/Fuzz under
`__main__`) for one reader of untrusted bytes; docs/development.md says how to run one for long.
Here each runs `FUZZ_SECONDS` (default 2: a smoke run in CI, after the ~2 s a target takes to
instrument its imports) with inputs up to 1 MiB, so the readers' 1 MiB bounds are reachable.
atheris comes from `.ci/prepare`; without it these skip, and fail under CI=true.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.consumers.tools import missing

ROOT = Path(__file__).resolve().parents[1]
TARGETS = sorted((ROOT / "fuzz").glob("fuzz_*.py"))
SECONDS = int(os.environ.get("FUZZ_SECONDS", "2"))

pytestmark = pytest.mark.slow


#: each reader of untrusted bytes (a page, a header, a service's JSON, a document, a state or
#: config file, a briefing, a source's text) and the target that feeds it
READERS = {
    "anchors.net.pageread": "fuzz_pages",
    "anchors.net.fragments": "fuzz_pages",
    "anchors.net.bounded": "fuzz_headers",
    "anchors.resolve.github": "fuzz_services",
    "anchors.resolve.doi": "fuzz_services",
    "anchors.resolve.crossref": "fuzz_services",
    "anchors.resolve.arxiv": "fuzz_services",
    "anchors.archive.wayback": "fuzz_services",
    "anchors.archive.savepagenow": "fuzz_services",
    "anchors.document": "fuzz_documents",
    "anchors.config": "fuzz_config",
    "anchors.history": "fuzz_history",
    "anchors.jsonread": "fuzz_history",
    "anchors.registry.loader": "fuzz_parsers",
    "anchors.extract": "fuzz_parsers",
    "anchors.registry.store": "fuzz_registry_write",
    "anchors.figures.parse": "fuzz_figures",
    "anchors.figures.latexml": "fuzz_sources",
    "anchors.figures.threads": "fuzz_sources",
    "anchors.figures.markdown": "fuzz_sources",
    "anchors.figures.abstract": "fuzz_sources",
}


def test_every_reader_of_untrusted_bytes_has_a_target() -> None:
    """Each reader's target exists and imports it: a target removed, or one that no longer
    reaches its reader, fails here rather than fuzzing nothing."""
    names = {target.stem: target for target in TARGETS}
    unfed = {
        module: target
        for module, target in READERS.items()
        if target not in names
        or not re.search(
            rf"^\s*from {re.escape(module)}(\.\w+)* import ",
            names[target].read_text(encoding="utf-8"),
            re.MULTILINE,
        )
    }
    assert not unfed, unfed


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
