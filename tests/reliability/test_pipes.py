"""A reader that went away is an unusable output: exit 2, on every run, in every command and
format; never 1 (findings, or for `report` dead links), never 0 by luck of timing.

Each case runs the real process with its stdout on a pipe shrunk to one page, so an output of
more than a few pages cannot all be written before the reader leaves: the reader closes after
nothing, one byte, one line, or mid-stream, with stderr on its own pipe (one `anchors: error:`
line) or on the same one (`2>&1`: nothing can be said, exit 2 all the same). A run whose
output fits the pipe and whose reader leaves only after anchors has exited cannot be told
from a complete one; `tests/test_streams.py` holds what is knowable at exit.
"""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from ..checkout import as_checkout
from ..histories import record_urls
from ..registries import url_registry

pytestmark = [
    pytest.mark.reliability(kind="env"),
    pytest.mark.timeout(300),
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="F_SETPIPE_SZ is Linux's"),
]

ROOT = Path(__file__).resolve().parent.parent.parent
GONE = "anchors: error: standard output: cannot write: the reader has gone away"
#: the pipe's size while a case runs: one page, the least Linux allows
PIPE_BYTES = 4096
#: how far a mid-stream reader reads before it leaves; every output is bigger than this plus
#: the pipe, so anchors is still writing when the reader leaves
MID = 6000
N = 160
#: the history's one run: an hour ago (`fix` reads the latest run up to now)
AT = time.time() - 3600


@dataclass(frozen=True)
class Work:
    root: Path
    registry: Path
    history: Path
    invalid: Path
    briefing: Path


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Work:
    """A registry of N URLs with a history (half dead, half moved for good), a registry of N
    invalid IDs (N findings) and a briefing citing N URLs: each output is tens of KB."""
    root = as_checkout(tmp_path_factory.mktemp("pipes"))
    urls = [f"https://site{i}.example/a/long/path/to/the/page-{i}.html" for i in range(N)]
    registry = url_registry(root, urls)
    history = root / "state" / "history.sqlite"
    history.parent.mkdir()
    answers = [
        (u, "dead", 404, None) if i % 2 else (u, "redirect", 301, u.replace("page", "moved"))
        for i, u in enumerate(urls)
    ]
    record_urls(history, registry.resolve(), AT, answers)
    invalid = root / "invalid.yaml"
    invalid.write_text(
        "version: 1\nanchors:\n"
        + "".join(
            # two codes, half each: the text format shows 50 findings of a code and counts
            # the rest, so one code alone would not outgrow the pipe
            (
                f'  - arxiv: "26{i % 12:02d}.{i:05d}x"\n'
                if i % 2
                else f'  - arxiv: "29{i % 12 + 1:02d}.{i:05d}"\n'
            )
            + "    first_anchored: 2026-09-24\n    status: new\n"
            for i in range(N)
        ),
        encoding="utf-8",
    )
    briefing = root / "briefing.md"
    briefing.write_text(
        "inference · E1 预消化简报(2026-09-25)\n"
        + "".join(
            f"- 新增 https://news{i}.example/posts/{i}/a-long-title 一篇\n" for i in range(N)
        ),
        encoding="utf-8",
    )
    return Work(root, registry, history, invalid, briefing)


#: every (command, format): the arguments, and the exit code of the same run read whole
CASES: dict[str, tuple[list[str], int]] = {
    **{
        f"add-{f}": (["add", "--dry-run", "-f", f, "{briefing}", "-r", "{root}/new.yaml"], 0)
        for f in ("text", "concise", "json")
    },
    **{
        f"check-{f}": (["check", "--offline", "-f", f, "{invalid}"], 1)
        for f in ("text", "concise", "json", "github", "markdown", "sarif")
    },
    **{
        f"report-{f}": (
            ["report", "-r", "{registry}", "--history", "{history}", "-f", f],
            1,
        )
        for f in ("markdown", "json")
    },
    **{
        f"export-{f}": (["export", "-r", "{registry}", "-f", f], 0)
        for f in ("markdown", "bibtex", "csl-json")
    },
    "export-biblatex": (
        ["export", "-r", "{registry}", "-f", "bibtex", "--bib-style", "biblatex"],
        0,
    ),
    "fix-diff": (["fix", "-r", "{registry}", "--history", "{history}", "--dry-run"], 1),
}
READERS = ("gone", "byte", "line", "mid")


def _argv(work: Work, case: str) -> list[str]:
    args, _ = CASES[case]
    names = {k: str(v) for k, v in vars(work).items()}
    return [sys.executable, "-m", "anchors", *(a.format(**names) for a in args)]


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1", "COLUMNS": "100"}


def _read(fd: int, reader: str) -> int:
    """Read from the pipe as `reader` does, then close it; the bytes read."""
    got = b""
    with os.fdopen(fd, "rb", buffering=0) as src:
        if reader == "byte":
            got = src.read(1)
        elif reader == "line":
            while not got.endswith(b"\n") and (one := src.read(1)):
                got += one
        elif reader == "mid":
            while len(got) < MID and (more := src.read(MID - len(got))):
                got += more
    return len(got)


def piped(work: Work, case: str, reader: str, merged: bool) -> tuple[int, str, int]:
    """Run `case` with stdout (and with `merged`, stderr: `2>&1`) on a one-page pipe read by
    `reader`: the exit code, stderr, and the bytes the reader took."""
    read_end, write_end = os.pipe()
    fcntl.fcntl(write_end, fcntl.F_SETPIPE_SZ, PIPE_BYTES)
    with subprocess.Popen(
        _argv(work, case),
        stdout=write_end,
        stderr=write_end if merged else subprocess.PIPE,
        cwd=work.root,
        env=_env(),
    ) as proc:
        os.close(write_end)
        taken = _read(read_end, reader)
        err = proc.stderr.read().decode("utf-8", "replace") if proc.stderr else ""
        code = proc.wait(timeout=120)
    return code, err, taken


def whole(work: Work, case: str) -> tuple[int, int]:
    """The same run read to the end: its exit code and the size of its output."""
    p = subprocess.run(
        _argv(work, case), capture_output=True, cwd=work.root, env=_env(), timeout=120, check=False
    )
    return p.returncode, len(p.stdout)


def assert_gone(code: int, err: str, merged: bool, what: str) -> None:
    assert code == 2, (what, code, err)
    if not merged:
        lines = [ln for ln in err.splitlines() if ln.strip()]
        assert "Traceback" not in err and lines and lines[-1] == GONE, (what, err)
        assert sum(ln.startswith("anchors: error:") for ln in lines) == 1, (what, err)


@pytest.mark.slow
@pytest.mark.parametrize("case", sorted(CASES))
def test_each_output_read_whole_is_big_enough_and_its_code_is_the_results(
    work: Work, case: str
) -> None:
    """The baseline: read to the end, each run exits with its result's code, and its output
    cannot fit the pipe with what a mid-stream reader takes."""
    code, size = whole(work, case)
    assert code == CASES[case][1], (case, code)
    assert size > MID + PIPE_BYTES, (case, size)


@pytest.mark.parametrize(
    "case", ["report-markdown", "export-bibtex", "export-csl-json", "check-json"]
)
@pytest.mark.slow
def test_the_issues_readers_exit_2_every_run(work: Work, case: str) -> None:
    """`report | head -1` (exit 1, "dead links", before), `export -f bibtex | head -1` (2, 2,
    then 0), `export -f csl-json | head -1`, `check -f json 2>&1 | head -c 10` (1): 2 each time."""
    merged = case == "check-json"
    reader = "byte" if merged else "line"
    for run in range(3):
        code, err, _ = piped(work, case, reader, merged)
        assert_gone(code, err, merged, f"{case} run {run}")


@pytest.mark.parametrize(
    "command", ["add-json", "check-text", "report-json", "export-markdown", "fix-diff"]
)
@pytest.mark.slow
def test_a_reader_gone_before_the_run_is_exit_2_in_each_command(work: Work, command: str) -> None:
    code, err, _ = piped(work, command, "gone", merged=False)
    assert_gone(code, err, False, command)


@pytest.mark.slow
@pytest.mark.parametrize("merged", [False, True], ids=["stderr-apart", "2>&1"])
@pytest.mark.parametrize("reader", READERS)
@pytest.mark.parametrize("case", sorted(CASES))
def test_every_command_and_format_with_every_reader(
    work: Work, case: str, reader: str, merged: bool
) -> None:
    # once per combination: the issue's own cases run three times each (above)
    code, err, taken = piped(work, case, reader, merged)
    assert_gone(code, err, merged, f"{case} {reader} (read {taken} bytes)")


def _stderr_gone(work: Work, case: str, out: Path) -> tuple[int, bytes]:
    """`case` with stdout to a file and stderr on a pipe whose reader has gone."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    with out.open("wb") as sink:
        p = subprocess.run(
            _argv(work, case),
            stdout=sink,
            stderr=write_end,
            cwd=work.root,
            env=_env(),
            timeout=120,
            check=False,
        )
    os.close(write_end)
    return p.returncode, out.read_bytes()


@pytest.mark.parametrize(
    "case", ["add-text", "check-concise", "report-markdown", "export-bibtex", "fix-diff"]
)
@pytest.mark.slow
def test_stderr_whose_reader_has_gone_is_exit_2_and_the_output_is_whole(
    work: Work, case: str, tmp_path: Path
) -> None:
    """EPIPE on stderr alone: the output got through, but the summary (or an error) could not
    be said, so the run is not taken for a clean one (nor for findings)."""
    runs = [_stderr_gone(work, case, tmp_path / f"out-{run}") for run in range(2)]
    assert [code for code, _ in runs] == [2, 2], (case, runs[0][0], runs[1][0])
    assert runs[0][1] == runs[1][1] and len(runs[0][1]) > MID + PIPE_BYTES, case


@pytest.mark.slow
def test_a_reader_gone_with_nothing_written_is_still_exit_2(work: Work, tmp_path: Path) -> None:
    """Nothing to write (a clean registry, --quiet) and the reader gone: known at exit (the
    pipe reports it), exit 2 — not 0 because no write happened to fail."""
    clean = url_registry(tmp_path, ["https://ok.example/"])
    argv = [sys.executable, "-m", "anchors", "check", "--offline", "-q", "-f", "text", str(clean)]
    for run in range(3):
        read_end, write_end = os.pipe()
        os.close(read_end)
        p = subprocess.run(
            argv, stdout=write_end, stderr=subprocess.PIPE, env=_env(), timeout=60, check=False
        )
        os.close(write_end)
        assert p.returncode == 2, (run, p.stderr)
        assert p.stderr.decode().splitlines() == [GONE], p.stderr
    alive = subprocess.run(argv, capture_output=True, env=_env(), timeout=60, check=False)
    assert alive.returncode == 0 and alive.stdout == b"", alive.stderr


def test_version_whose_reader_is_gone_is_exit_2() -> None:
    """`anchors --version` answers before the CLI is imported, and keeps the same promise."""
    argv = [sys.executable, "-m", "anchors", "--version"]
    read_end, write_end = os.pipe()
    os.close(read_end)
    p = subprocess.run(
        argv, stdout=write_end, stderr=subprocess.PIPE, env=_env(), timeout=60, check=False
    )
    os.close(write_end)
    assert p.returncode == 2 and p.stderr.decode().splitlines() == [GONE], p.stderr
