"""Files a pull request writes cannot hang anchors, through the CLI.

A briefing, the living document, the registry and `anchors.toml` are the pull request's own
text. Each case here was a hang on the code before it (`# a` + 80,000 spaces + `b` in a
document: 108 s in `check --document`; the same shape in a briefing through `add`: 67 s; an
`exclude` pattern that backtracks: hours). Each command runs in a child process bounded by a
timeout, so the old code fails instead of hanging the suite, and its CPU time is compared
with the same command on a file as long that is not hostile: a ratio, never a wall-clock time.
"""

from __future__ import annotations

import json
import os
import resource
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.consumers.tools import missing
from tests.histories import record_urls

ROOT = Path(__file__).resolve().parent.parent
#: the old code took minutes on each case; the new one well under this on a busy machine
TIMEOUT = 60
#: CPU time of the hostile file over that of an ordinary file of the same size
RATIO = 4.0

EMPTY_REGISTRY = "version: 1\nanchors: []\n"
#: the timing comparisons run two commands on files of ~100 KB each: the slow tier (CI runs it)
SLOW = pytest.mark.slow


def anchors(cwd: Path, *args: str) -> tuple[subprocess.CompletedProcess[str], float]:
    """The command's result and the CPU seconds its process took (children are waited for, so
    RUSAGE_CHILDREN grows by exactly this one)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run(
        [sys.executable, "-m", "anchors", *args],
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1"},
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return proc, cpu


def repo(tmp_path: Path, registry: str = EMPTY_REGISTRY) -> Path:
    root = tmp_path / "repo"
    root.mkdir()
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    (root / "registry.yaml").write_text(registry, encoding="utf-8")
    return root


def compare(root: Path, name: str, hostile: str, ordinary: str, *args: str) -> None:
    """`anchors ARGS` on `name` holding `hostile`, then `ordinary` (as long): both succeed,
    and the hostile one takes at most RATIO times the CPU."""
    assert abs(len(hostile) - len(ordinary)) < len(hostile) // 10
    (root / name).write_text(hostile, encoding="utf-8")
    slow, slow_cpu = anchors(root, *args)
    (root / name).write_text(ordinary, encoding="utf-8")
    fast, fast_cpu = anchors(root, *args)
    assert slow.returncode == fast.returncode, slow.stderr + fast.stderr
    assert slow_cpu < RATIO * fast_cpu, (slow_cpu, fast_cpu)


@SLOW
def test_a_heading_with_a_long_run_of_spaces_in_the_document(tmp_path: Path) -> None:
    """The living document's ATX heading pattern split the run of spaces every way."""
    root = repo(tmp_path)
    hostile = "# a" + " " * 80_000 + "b\n"
    ordinary = "# a" + "b" * 80_000 + "\n"
    compare(root, "doc.md", hostile, ordinary, "check", "--offline", "--document", "doc.md")


@SLOW
def test_a_title_with_a_long_run_of_spaces_in_a_briefing(tmp_path: Path) -> None:
    """The title gloss pattern (`Title · gloss`) did the same on the text beside an ID."""
    root = repo(tmp_path)
    hostile = "# Briefing\n\n- 2401.00001 a" + " " * 80_000 + "b\n"
    ordinary = "# Briefing\n\n- 2401.00001 a" + "b" * 80_000 + "\n"
    args = ("add", "brief.md", "--dry-run", "--date", "2026-09-24", "--today", "2026-09-24")
    compare(root, "brief.md", hostile, ordinary, *args)


@SLOW
@pytest.mark.parametrize(
    "line",
    [
        "- PR" + " " * 40_000 + "x #12 https://github.com/o/r/pull/12",  # claims' mention
        "- a (" + "⭐ " * 20_000 + "x 2401.00001",  # a rating gloss with no end
        "<!-- anchors: ignore x" * 4_000 + " 2401.00001",  # ignore markers with no `-->`
        "- 2401.00001 arXiv" + "\t" * 40_000 + "出",  # a submission date's spaces
        "- [" + " " * 40_000 + "x](https://github.com/o/r/pull/12) (#12)",  # a link by number
    ],
    ids=["mention", "rating", "ignore-markers", "date-claim", "link-by-number"],
)
def test_other_lines_a_briefing_may_hold(tmp_path: Path, line: str) -> None:
    root = repo(tmp_path)
    ordinary = "- 2401.00001 " + "word " * ((len(line) - 13) // 5)
    args = ("add", "brief.md", "--dry-run", "--date", "2026-09-24", "--today", "2026-09-24")
    compare(root, "brief.md", f"# B\n\n{line}\n", f"# B\n\n{ordinary}\n", *args)


@SLOW
def test_an_exclude_pattern_from_the_repository_cannot_backtrack(tmp_path: Path) -> None:
    """`exclude` may come from the repository's anchors.toml; Python's `re` tried every split of
    forty `a`s (hours). RE2 runs it in one pass. The second pattern excludes everything, so
    nothing is asked of the network."""
    url = "https://e.org/" + "a" * 40 + "!"
    registry = (
        f'version: 1\nanchors:\n  - url: "{url}"\n    first_anchored: 2026-09-24\n    status: new\n'
    )
    root = repo(tmp_path, registry)
    (root / "anchors.toml").write_text(
        'exclude = ["^https://e\\\\.org/(a|aa)*$", "."]\n', encoding="utf-8"
    )
    proc, _ = anchors(root, "check", "-f", "json")
    assert proc.returncode == 0, proc.stderr
    assert '"excluded": 1' in proc.stdout


def test_a_pattern_re2_cannot_run_is_one_error_line(tmp_path: Path) -> None:
    root = repo(tmp_path)
    (root / "anchors.toml").write_text('exclude = ["(?<=x)y"]\n', encoding="utf-8")
    proc, _ = anchors(root, "check", "--offline")
    assert proc.returncode == 2
    assert proc.stderr.startswith("anchors: error: ") and proc.stderr.count("\n") == 1
    assert "look-around" in proc.stderr and "Traceback" not in proc.stderr


# -- numbers: a section number of 5,000 digits is text, never `int()`'s ValueError ------------

LONG = "1" + "0" * 5_000  # int() refuses more than 4,300 digits
URL = "https://example.org/kv"


def sections_repo(tmp_path: Path, section: str, heading: str) -> Path:
    registry = (
        f'version: 1\nanchors:\n  - url: "{URL}"\n    first_anchored: 2026-09-24\n'
        f'    status: new\n    section: "{section}"\n    cited_in: ["2026-09-24"]\n'
    )
    root = repo(tmp_path, registry)
    (root / "doc.md").write_text(f"# Doc\n\n## {heading}\n\n- {URL}\n", encoding="utf-8")
    return root


def no_crash(proc: subprocess.CompletedProcess[str], code: int) -> None:
    assert "Traceback" not in proc.stderr and "ValueError" not in proc.stderr, proc.stderr[-600:]
    assert proc.returncode == code, proc.stderr[-600:]


@pytest.mark.slow
def test_a_heading_numbered_past_any_section_is_a_name(tmp_path: Path) -> None:
    """`## §1` + 5,000 digits is no section number: what is cited under it stands in no
    numbered section, so the registry's §1.1 entry is still waiting for its section."""
    root = sections_repo(tmp_path, "§1.1 KV", f"§{LONG} KV")
    proc, _ = anchors(root, "check", "--offline", "--document", "doc.md", "-f", "json")
    no_crash(proc, 0)
    assert '"code": "section-mismatch"' not in proc.stdout
    assert '"code": "new-section"' in proc.stdout  # §1.1 is not written in the document yet


@pytest.mark.slow
def test_a_registry_section_numbered_past_any_section(tmp_path: Path) -> None:
    """The registry's `section:` with a number of 5,000 digits is a section name nobody wrote:
    every command reads it as text."""
    root = sections_repo(tmp_path, f"§{LONG} KV", "§1.1 KV")
    proc, _ = anchors(root, "check", "--offline", "--document", "doc.md", "-f", "json")
    no_crash(proc, 0)
    assert '"code": "new-section"' in proc.stdout  # a section the document has not written
    no_crash(anchors(root, "check", "--offline")[0], 0)
    # §1 + 5,000 digits is a name, so `--section §1` asks for a chapter no entry is in: exit 2
    # naming the sections there are (export's did-you-mean), never a traceback
    for args, code in ((("--section", "§1"), 2), (("-f", "bibtex"), 0), ((), 0)):
        no_crash(anchors(root, "export", *args)[0], code)
    history = tmp_path / "history.sqlite"
    record_urls(history, root / "registry.yaml", time.time() - 3600, [(URL, "ok", 200, None)])
    report, _ = anchors(root, "report", "--history", str(history), "--document", "doc.md")
    no_crash(report, 0)
    fix, _ = anchors(root, "fix", "--dry-run", "--history", str(history), "--document", "doc.md")
    no_crash(fix, 0)


@pytest.mark.slow
def test_a_briefing_section_numbered_past_any_section(tmp_path: Path) -> None:
    """A briefing's suggested section and its reference to the document (`doc.md §1…`)."""
    root = sections_repo(tmp_path, "§1.1 KV", "§1.1 KV")
    (root / "brief.md").write_text(
        f"# B\n\n## 增量 1：x\n建议归入章节：§{LONG} KV\n- {URL}/two Two\n\ndoc.md §{LONG} 已有\n",
        encoding="utf-8",
    )
    args = ("add", "brief.md", "--date", "2026-09-24", "--today", "2026-09-24")
    no_crash(anchors(root, *args, "--document", "doc.md")[0], 0)
    no_crash(anchors(root, "check", "--offline", "--briefing", "brief.md")[0], 0)


@pytest.mark.parametrize(
    ("entry", "why"),
    [
        (f'url: "{URL}"\n    accept: [{LONG}]', "HTTP status codes"),
        (f'url: "{URL}"\n    version: {LONG}', "not a version number"),
        (f'arxiv: "2401.00001v{LONG}"', "does not exist"),
        (f'url: "https://github.com/o/r/issues/{LONG}"', "5001 digits"),
    ],
    ids=["accept", "version", "arxiv-version", "github-number"],
)
def test_a_registry_number_too_long_is_a_finding(tmp_path: Path, entry: str, why: str) -> None:
    root = repo(tmp_path, f"version: 1\nanchors:\n  - {entry}\n    first_anchored: 2026-09-24\n")
    proc, _ = anchors(root, "check", "--offline", "-f", "concise")
    no_crash(proc, 1)
    assert why in proc.stdout


def test_a_config_number_too_long_is_one_error_line(tmp_path: Path) -> None:
    root = repo(tmp_path)
    (root / "anchors.toml").write_text(f"concurrency = {LONG}\n", encoding="utf-8")
    proc, _ = anchors(root, "check", "--offline")
    no_crash(proc, 2)
    assert (
        proc.stderr
        == f"anchors: error: {root / 'anchors.toml'}: not valid TOML (a number too long to read)\n"
    )


# -- the document against the registry: one index, bounded output ----------------------------


def renamed_everywhere(tmp_path: Path, headings: int, entries: int) -> Path:
    """`headings` headings that share one name under as many numbers, and `entries` registry
    entries filed under that name with numbers the document does not have: every entry's
    section stands renumbered under every heading (`unknown-section`, the worst case)."""
    lines = "".join(f"## §{i + 1} KV Cache\n\n" for i in range(headings))
    registry = "version: 1\nanchors:\n" + "".join(
        f'  - url: "https://example.org/{i}"\n    first_anchored: 2026-09-24\n'
        f'    status: new\n    section: "§0.{i + 1} KV Cache"\n'
        for i in range(entries)
    )
    root = tmp_path / f"{headings}x{entries}"
    root.mkdir()
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    (root / "registry.yaml").write_text(registry, encoding="utf-8")
    (root / "doc.md").write_text(f"# Doc\n\n{lines}", encoding="utf-8")
    return root


@SLOW
def test_the_document_is_compared_in_time_linear_in_its_size(tmp_path: Path) -> None:
    """4× the headings and 4× the entries take about 4× the time (the old scan of every heading
    for every entry took 16×), and the text output stays small: each entry's finding names 5
    headings and counts the rest, and past 50 findings of a code a line counts the rest."""
    args = ("check", "--offline", "--document", "doc.md", "-f", "text")
    small, small_cpu = anchors(renamed_everywhere(tmp_path, 1_000, 250), *args)
    root = renamed_everywhere(tmp_path, 4_000, 1_000)
    big, big_cpu = anchors(root, *args)
    assert small.returncode == big.returncode == 0, big.stderr[-500:]
    assert big_cpu < 8 * small_cpu, (big_cpu, small_cpu)
    assert len(big.stdout) < 64_000, len(big.stdout)
    assert "and 3995 more headings" in big.stdout
    assert "… and 950 more unknown-section findings" in big.stdout
    every = json.loads(anchors(root, *args[:-1], "json")[0].stdout)["findings"]
    assert len(every) == 1_000  # the JSON holds every finding, each with its first 20 headings
    assert {(len(f["candidates"]), f["candidates_total"]) for f in every} == {(20, 4_000)}


# -- a history damaged, edited or hostile (what fuzz/fuzz_history.py found) -------------------


def damaged_history(tmp_path: Path, *statements: str) -> tuple[Path, Path]:
    """A repository and a history of one OK run of URL, then `statements` run on the file."""
    root = repo(
        tmp_path, f'version: 1\nanchors:\n  - url: "{URL}"\n    first_anchored: 2026-09-24\n'
    )
    history = tmp_path / "history.sqlite"
    record_urls(history, root / "registry.yaml", time.time() - 3600, [(URL, "ok", 200, None)])
    db = sqlite3.connect(history)
    for statement in ("PRAGMA writable_schema=ON", *statements):
        db.execute(statement)
    db.commit()
    db.close()
    return root, history


@pytest.mark.parametrize(
    "statements",
    [
        # an observation of a target the file does not hold (KeyError)
        (
            (
                "INSERT INTO observations SELECT -1, checked_at + 1, run_id, outcome, status, "
                "elapsed_ms, detail_id FROM observations"
            ),
        ),
        # a registry name holding NUL (realpath's ValueError) and one that is a number
        ("INSERT INTO runs (started_at, registry) VALUES (1, 'a' || char(0) || 'b'), (2, 7)",),
        # TEXT that is not UTF-8 (sqlite3's UnicodeDecodeError, no sqlite3.Error)
        ("UPDATE details SET error = CAST(x'ff41' AS TEXT)",),
        # an observation whose values have the wrong types
        (
            (
                "INSERT INTO observations SELECT target_id, 'soon', run_id, outcome, x'00', "
                "elapsed_ms, detail_id FROM observations"
            ),
        ),
    ],
    ids=["missing-target", "odd-registry-names", "not-utf8", "wrong-types"],
)
@pytest.mark.slow
def test_a_damaged_history_is_read_for_what_it_still_holds(
    tmp_path: Path, statements: tuple[str, ...]
) -> None:
    root, history = damaged_history(tmp_path, *statements)
    for command in ("report", "fix"):
        args = [command, "--history", str(history)] + (["--dry-run"] if command == "fix" else [])
        no_crash(anchors(root, *args)[0], 0)
    # export reads every observation to mark what the last check found gone
    no_crash(anchors(root, "export", "--cache-dir", str(history.parent))[0], 0)


@pytest.mark.parametrize(
    ("statement", "why"),
    [
        # SQLite's own message quotes the damaged schema's bytes, which are not UTF-8
        (
            (
                "UPDATE sqlite_master SET sql = CAST(CAST('CREATE TABLE snapshots (a DEFAULT "
                "''x' AS BLOB) || x'ff' AS TEXT) WHERE name = 'snapshots'"
            ),
            "damaged: not UTF-8 text",
        ),
        # anchors makes no triggers or views: one runs the file's own SQL on every write
        (
            (
                "CREATE TRIGGER t AFTER INSERT ON runs BEGIN "
                "SELECT count(*) FROM observations a, observations b; END"
            ),
            "views or triggers",
        ),
    ],
    ids=["schema-not-utf8", "trigger"],
)
def test_a_history_anchors_cannot_use_is_one_error_line(
    tmp_path: Path, statement: str, why: str
) -> None:
    root, history = damaged_history(tmp_path, statement)
    proc, _ = anchors(root, "report", "--history", str(history))
    no_crash(proc, 2)
    assert proc.stderr.startswith("anchors: error: ") and why in proc.stderr


# -- what `add` writes into an odd registry (what fuzz/fuzz_registry_write.py found) ----------

HEAD = 'version: 1\nanchors:\n  - arxiv: "2609.18063"\n    first_anchored: 2026-09-01\n'


def test_add_never_writes_a_registry_it_broke(tmp_path: Path) -> None:
    """The registry loads; with the new entry spliced in before its last line (spaces and a
    tab), it would not (a tab on a blank line after a flow list). `add` says so in one line and
    leaves the file as it was, where it wrote a registry the next command refused."""
    root = repo(tmp_path, HEAD + " " * 67 + "\t")
    before = (root / "registry.yaml").read_bytes()
    (root / "brief.md").write_text("# B\n\n- 2401.00001 A paper\n", encoding="utf-8")
    proc, _ = anchors(root, "add", "brief.md", "--date", "2026-09-24", "--today", "2026-09-24")
    no_crash(proc, 2)
    assert "not written: with this edit it would not load" in proc.stderr
    assert (root / "registry.yaml").read_bytes() == before


# -- every input a fuzz target once crashed on, replayed -----------------------------------

FOUND = sorted((ROOT / "tests" / "data" / "fuzz").iterdir())
#: the inputs each target once crashed on, replayed by one run of the target (libFuzzer runs
#: every file it is given, one after another, and names the one that fails)
FOUND_BY_TARGET = {
    target: [found for found in FOUND if found.name.rsplit("-", 1)[0] == target]
    for target in sorted({found.name.rsplit("-", 1)[0] for found in FOUND})
}


@pytest.mark.parametrize("target", sorted(FOUND_BY_TARGET))
@pytest.mark.slow
def test_what_the_fuzz_targets_found_stays_fixed(target: str, tmp_path: Path) -> None:
    """`tests/data/fuzz/TARGET-HASH` is an input `fuzz/fuzz_TARGET.py` crashed on (a history
    whose index loses a row just written, SQLite's message quoting bytes that are not UTF-8, a
    registry `add` broke...): run alone, the target now takes it."""
    try:
        import atheris  # noqa: F401
    except ImportError:
        missing("atheris", "pip install '.[fuzz]' (.ci/prepare does)")
    program = ROOT / "fuzz" / f"fuzz_{target}.py"
    proc = subprocess.run(
        [sys.executable, str(program), *map(str, FOUND_BY_TARGET[target])],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-2000:]
