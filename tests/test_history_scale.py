"""A history that lasts years: what `report` and `fix` read does not grow with the past.

Operations are counted, never timed: the SQLite virtual-machine steps every connection the
command opens executes (`set_progress_handler`), and the observations the report is built
from. Three months (13 weekly runs) and three years (156) of the same registry must cost the
same within 1.5x, and the report must come out the same from either reading.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

import pytest

from anchors.findings import Outcome
from anchors.fix import fix
from anchors.history import History, IssueFacts, Observation
from anchors.ids.model import WebUrl, key_from_text
from anchors.registry.loader import load
from anchors.report import weekly

WEEK = 7 * 86400.0
NOW = datetime(2029, 9, 1, tzinfo=UTC).timestamp()
PAGES = 30


def _registry(tmp: Path) -> Path:
    reg = tmp / "registry.yaml"
    lines = ["version: 1", "anchors:"]
    for i in range(PAGES):
        lines += [f"  - url: https://docs.example/p{i}", "    first_anchored: 2026-09-01"]
        lines += ["    status: new"]
    lines += ["  - url: https://github.com/o/r/issues/1", "    first_anchored: 2026-09-01"]
    lines += ["    status: new"]
    reg.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return reg


def _outcome(i: int, n: int, runs: int) -> Outcome:
    """Page i in run n of `runs`: most work; some died years ago, some flap, one just died."""
    if i % 10 == 1:
        return Outcome.DEAD if n > 2 else Outcome.OK  # dead since the third run
    if i % 10 == 2:
        return [Outcome.OK, Outcome.UNREACHABLE, Outcome.DEAD][(runs - n) % 3]
    if i == 3:
        return Outcome.DEAD if n == runs - 1 else Outcome.OK
    if i == 4:
        return Outcome.REDIRECT if n == runs - 1 else Outcome.OK
    return Outcome.OK


def _history(tmp: Path, reg: Path, runs: int) -> Path:
    db = tmp / f"h{runs}.sqlite"
    h = History(db)
    issue = key_from_text("github:o/r#1")
    for n in range(runs):
        at = NOW - (runs - n) * WEEK + 3600
        run = h.start_run(str(reg), at)
        rows = []
        for i in range(PAGES):
            o = _outcome(i, n, runs)
            url = f"https://docs.example/p{i}"
            final = url + "/moved" if o is Outcome.REDIRECT else None
            status = {Outcome.OK: 200, Outcome.DEAD: 404, Outcome.REDIRECT: 301}.get(o)
            rows.append(Observation(WebUrl(url), url, o, status, final, checked_at=at + i))
        state = "closed" if n == runs - 1 else "open"
        rows.append(
            Observation(
                issue, issue.url, Outcome.OK, 200, facts=IssueFacts("t", state), checked_at=at
            )
        )
        h.record(run, rows)
        h.finish_run(run, True, at + PAGES)
    h.close()
    return db


@contextmanager
def _steps(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Counts the SQLite VM steps of every connection opened inside (every 100 steps)."""
    count = [0]
    connect = sqlite3.connect

    def counting(*args: object, **kw: object) -> sqlite3.Connection:
        con = connect(*args, **kw)  # type: ignore[arg-type]

        def step() -> int:
            count[0] += 100
            return 0

        con.set_progress_handler(step, 100)
        return con

    with monkeypatch.context() as m:
        m.setattr(sqlite3, "connect", counting)
        yield count


def _report(db: Path, reg: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[int, int, object]:
    seen = [0]
    build = weekly.build

    def counting_build(rows, *args, **kw):  # type: ignore[no-untyped-def]
        rows = list(rows)
        seen[0] = len(rows)
        return build(rows, *args, **kw)

    monkeypatch.setattr(weekly, "build", counting_build)
    with _steps(monkeypatch) as steps:
        rep = weekly.from_history(db, NOW, registry=load(reg), runs_of=reg)
    monkeypatch.setattr(weekly, "build", build)
    return steps[0], seen[0], rep


def test_a_weekly_report_reads_the_window_not_the_past(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    reg = _registry(tmp_path)
    short, long = _history(tmp_path, reg, 13), _history(tmp_path, reg, 156)
    steps13, rows13, rep13 = _report(short, reg, monkeypatch)
    steps156, rows156, rep156 = _report(long, reg, monkeypatch)
    assert steps156 <= 1.5 * steps13, (steps13, steps156)
    # the trend's four weeks (5 runs here) and at most 7 observations per target before them
    assert rows156 <= (5 + 7) * (PAGES + 1), rows156
    assert rows156 <= 1.5 * rows13
    # and the same report: sections, counts, transitions and trend
    assert [(r.section, r.target, r.failing_runs, r.runs) for r in rep156.rows] == [  # type: ignore[attr-defined]
        (r.section, r.target, r.failing_runs, r.runs)
        for r in rep13.rows  # type: ignore[attr-defined]
    ]
    sections = {r.target.rsplit("/", 1)[-1]: r.section.value for r in rep156.rows}  # type: ignore[attr-defined]
    assert sections["p1"] == "dead" and sections["p3"] == "newly-dead"
    assert sections["p4"] == "redirected"
    assert [t.change.value for t in rep156.transitions] == [  # type: ignore[attr-defined]
        t.change.value
        for t in rep13.transitions  # type: ignore[attr-defined]
    ]
    assert {t.change.value for t in rep156.transitions} >= {"died", "issue-closed", "redirected"}  # type: ignore[attr-defined]
    assert [(p.ok, p.flaky, p.dead) for p in rep156.trend][-1] == [  # type: ignore[attr-defined]
        (p.ok, p.flaky, p.dead)
        for p in rep13.trend  # type: ignore[attr-defined]
    ][-1]


def test_a_dead_links_first_failure_is_found_without_reading_its_years(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """p1 died in the fourth run: three years later the report still says since when."""
    reg = _registry(tmp_path)
    db = _history(tmp_path, reg, 156)
    _, _, rep = _report(db, reg, monkeypatch)
    (row,) = [r for r in rep.rows if r.target.endswith("/p1")]  # type: ignore[attr-defined]
    third = NOW - (156 - 3) * WEEK + 3600 + 1  # run n=3 of 156
    assert row.first_failure == third and row.dead_since == third


def test_fix_reads_each_targets_latest_observation_not_the_past(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    reg = _registry(tmp_path)
    costs = []
    for runs in (13, 156):
        db = _history(tmp_path, reg, runs)
        with _steps(monkeypatch) as steps:
            res = fix(reg, db, dry_run=True, now=NOW)
        assert [f.new for f in res.fixes] == ["https://docs.example/p4/moved"]
        costs.append(steps[0])
    assert costs[1] <= 1.5 * costs[0], costs


def test_retention_keeps_what_the_report_and_fix_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Three years pruned to 90 days: a smaller file, the same report and the same fixes, and
    the link dead since its fourth run is still dead since then."""
    reg = _registry(tmp_path)
    db = _history(tmp_path, reg, 156)
    _, _, before = _report(db, reg, monkeypatch)
    size = db.stat().st_size
    h = History(db)
    pruned = h.prune(90, NOW)
    h.close()
    assert pruned.observations > 100 * PAGES and db.stat().st_size < size / 3
    _, _, after = _report(db, reg, monkeypatch)
    assert after.rows == before.rows  # type: ignore[attr-defined]
    assert after.transitions == before.transitions  # type: ignore[attr-defined]
    assert after.trend == before.trend  # type: ignore[attr-defined]
    assert [f.new for f in fix(reg, db, dry_run=True, now=NOW).fixes] == [
        "https://docs.example/p4/moved"
    ]
    h = History(db)
    assert h.prune(90, NOW).observations == 0  # nothing more to drop
    h.close()


def test_a_weekly_run_stores_a_few_numbers_per_target_not_its_facts_again(
    tmp_path: Path,
) -> None:
    """Three years cost ~111 KB a run of 2,000 anchors, not 340 (bench/scale.py): what a run
    repeats (label, final URL, error, facts) is kept once, an observation is a few numbers. The
    code before stored ~120 bytes per observation of this history; the bound is 64."""
    reg = _registry(tmp_path)
    dbs = {runs: _history(tmp_path, reg, runs) for runs in (13, 156)}
    grown = dbs[156].stat().st_size - dbs[13].stat().st_size
    per_observation = grown / ((156 - 13) * (PAGES + 1))
    assert per_observation <= 64, per_observation
    details = []
    for db in dbs.values():
        con = sqlite3.connect(db)
        try:
            details.append(con.execute("SELECT count(*) FROM details").fetchone()[0])
        finally:
            con.close()
    assert details[0] == details[1]  # the same distinct details, however many runs
