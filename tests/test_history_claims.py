"""Schema 5 of the history: where checks found the figures and quotes (`supports`), and their
verdicts as they change (`claim_verdicts`). An older file is read as it is (no claims), and
migrated by the first check that writes it, keeping what it held; a record a hand or a forger
damaged says nothing; retention keeps each claim's latest verdict."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from anchors.figures.drift import Support
from anchors.figures.verdict import ClaimKind, VerdictKind
from anchors.findings import Outcome
from anchors.history import SCHEMA_VERSION, History, Observation
from anchors.history.claimread import claim_changes, supports_of
from anchors.history.claims import ClaimSeen
from anchors.ids.model import key_from_text

DAY = 86400.0
T0 = 1_790_000_000.0
KEY = key_from_text("github:acme/engine#7")


def _seen(verdict: VerdictKind, at: float, support: Support | None = None) -> ClaimSeen:
    return ClaimSeen(KEY, "c1", verdict, ClaimKind.FIGURE, "~70%", "b.md:3", "msg", at, support)


def _history(tmp_path: Path, at: float = T0) -> tuple[History, str]:
    reg = tmp_path / "registry.yaml"
    reg.write_text("version: 1\nanchors: []\n", encoding="utf-8")
    h = History(tmp_path / ".anchors" / "history.sqlite", clock=lambda: at)
    h.record(h.start_run(str(reg), at), [Observation(KEY, "7", Outcome.OK, 200, checked_at=at)])
    return h, str(reg)


def test_a_schema_4_history_reads_without_claims_then_keeps_them_once_migrated(
    tmp_path: Path,
) -> None:
    h, reg = _history(tmp_path)
    h.close()
    db = tmp_path / ".anchors" / "history.sqlite"
    con = sqlite3.connect(db)  # as schema 4 left it: no claim tables
    con.executescript("DROP TABLE supports; DROP TABLE claim_verdicts; PRAGMA user_version=4;")
    con.close()
    before = db.read_bytes()

    old = History.read_only(db)
    assert claim_changes(old, T0 - DAY, T0 + DAY, reg) == [] and supports_of(old, reg) == {}
    assert len(list(old.rows(until=T0 + DAY))) == 1
    old.close()
    assert db.read_bytes() == before  # read, never written

    h = History(db, clock=lambda: T0 + DAY)
    kept = Support("comment 5001", "ab" * 8, "…70%…", "2026-09-24")
    h.keep_claims(reg, [_seen(VerdictKind.SUPPORTED, T0 + DAY, kept)])
    assert len(list(h.rows(until=T0 + DAY))) == 1  # what it held, kept
    assert supports_of(h, reg) == {"c1": kept}
    h.close()
    assert sqlite3.connect(db).execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)


def test_verdicts_are_logged_when_they_change_and_read_with_the_one_before(
    tmp_path: Path,
) -> None:
    h, reg = _history(tmp_path)
    for i, verdict in enumerate(
        [VerdictKind.SUPPORTED, VerdictKind.SUPPORTED, VerdictKind.SOURCE_CHANGED]
    ):
        h.keep_claims(reg, [_seen(verdict, T0 + i * DAY)])
    got = claim_changes(h, T0 - DAY, T0 + 3 * DAY, reg)
    assert [(s.verdict, before) for s, before in got] == [
        (VerdictKind.SUPPORTED, None),
        (VerdictKind.SOURCE_CHANGED, VerdictKind.SUPPORTED),
    ]
    # retention keeps each claim's latest verdict (what the next change is told against)
    h.prune(1, now=T0 + 30 * DAY)
    assert [s.verdict for s, _ in claim_changes(h, 0, T0 + 30 * DAY, reg)] == [
        VerdictKind.SOURCE_CHANGED
    ]


def test_a_damaged_record_says_nothing(tmp_path: Path) -> None:
    h, reg = _history(tmp_path)
    kept = Support("body", "cd" * 8, "…", "2026-09-24")
    h.keep_claims(reg, [_seen(VerdictKind.SUPPORTED, T0, kept)])
    h.db.execute("UPDATE supports SET record = '{\"where\": 7}'")
    h.db.execute("UPDATE claim_verdicts SET verdict = 'fine', record = '[['")
    assert supports_of(h, reg) == {}
    assert claim_changes(h, 0, T0 + DAY, reg) == []
