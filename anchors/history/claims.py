"""What checks learnt of the figures and quotes briefings attribute to anchors (schema 5).

Two tables. `supports` holds, per claim (`figures.drift.claim_key`) of a target, where a check
last found it (`figures.drift.Support`: the passage's place and hash, the snippet, the day):
what tells `source-changed` from a figure never there. `claim_verdicts` logs a claim's verdict
each time it changes (the first verdict included), so the weekly report tells a new
`not-found` or `source-changed` once, in "What changed", and the log grows with changes, not
with runs. Both are read back as untrusted data (a history is a file): a record that is not
one says nothing.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from ..figures.drift import Support
from ..figures.verdict import ClaimKind, VerdictKind
from ..ids.model import AnchorKey
from ..jsonread import loads

__all__ = [
    "CLAIM_TABLES",
    "ClaimSeen",
    "claim_log",
    "keep_claims",
    "prune_claims",
    "read_record",
    "read_support",
    "supports",
]

#: schema 5's additions (`{s}`: "main." or "temp.")
CLAIM_TABLES = (
    (
        "CREATE TABLE IF NOT EXISTS {s}supports (target_id INTEGER NOT NULL, "
        "claim TEXT NOT NULL, record TEXT NOT NULL, PRIMARY KEY (target_id, claim)) WITHOUT ROWID"
    ),
    (
        "CREATE TABLE IF NOT EXISTS {s}claim_verdicts (target_id INTEGER NOT NULL, "
        "claim TEXT NOT NULL, checked_at REAL NOT NULL, verdict TEXT NOT NULL, "
        "record TEXT NOT NULL, PRIMARY KEY (target_id, claim, checked_at)) WITHOUT ROWID"
    ),
    "CREATE INDEX IF NOT EXISTS {s}claim_verdicts_by_time ON claim_verdicts (checked_at)",
)
#: the longest text kept of a claim's words and of its message
_MAX_WORDS = 1000
_MAX_MESSAGE = 2000


@dataclass(frozen=True, slots=True)
class ClaimSeen:
    """One claim's verdict as the history keeps it: what the report tells of it."""

    key: AnchorKey
    #: `figures.drift.claim_key`: the anchor, how it is attributed, the claim folded
    claim: str
    verdict: VerdictKind
    what: ClaimKind
    #: the figure or quote as written, where the briefing wrote it, and the verdict's words
    words: str
    at: str = ""
    message: str = ""
    checked_at: float = 0.0
    #: where it was found, for a supported or derived verdict (kept in `supports`)
    support: Support | None = None

    def record(self) -> str:
        data = {
            "what": self.what.value,
            "words": self.words[:_MAX_WORDS],
            "at": self.at[:_MAX_WORDS],
            "message": self.message[:_MAX_MESSAGE],
        }
        return json.dumps(data, ensure_ascii=False, sort_keys=True)


def keep_claims(db: sqlite3.Connection, rows: Iterable[tuple[int, ClaimSeen]], now: float) -> None:
    """Each claim's (by target id) support, replacing the one before, and its verdict when it
    differs from the last one logged (inside the caller's transaction)."""
    for tid, seen in rows:
        if seen.support is not None:
            db.execute(
                "INSERT OR REPLACE INTO supports (target_id, claim, record) VALUES (?, ?, ?)",
                (tid, seen.claim, json.dumps(seen.support.to_json(), ensure_ascii=False)),
            )
        last = db.execute(
            "SELECT verdict FROM claim_verdicts WHERE target_id = ? AND claim = ? "
            "ORDER BY checked_at DESC LIMIT 1",
            (tid, seen.claim),
        ).fetchone()
        if last is None or last[0] != seen.verdict.value:
            db.execute(
                "INSERT OR IGNORE INTO claim_verdicts (target_id, claim, checked_at, verdict, "
                "record) VALUES (?, ?, ?, ?, ?)",
                (tid, seen.claim, seen.checked_at or now, seen.verdict.value, seen.record()),
            )


def supports(db: sqlite3.Connection, targets: Iterable[int]) -> dict[str, Support]:
    """The supports kept for these targets (by id), by claim key; a damaged record is left out."""
    out: dict[str, Support] = {}
    for tid in targets:
        for claim, record in db.execute(
            "SELECT claim, record FROM supports WHERE target_id = ?", (tid,)
        ):
            kept = read_support(record)
            if isinstance(claim, str) and kept is not None:
                out[claim] = kept
    return out


def read_support(record: object) -> Support | None:
    """A kept support read back, or None when it is not one (a history is untrusted)."""
    if not isinstance(record, str):
        return None
    try:
        return Support.from_json(loads(record))
    except ValueError:
        return None


def claim_log(
    db: sqlite3.Connection, targets: Mapping[int, AnchorKey], since: float, until: float
) -> list[tuple[ClaimSeen, VerdictKind | None]]:
    """The verdict changes of these targets' claims in [since, until], oldest first, each with
    the verdict logged before it (None: its first)."""
    out: list[tuple[ClaimSeen, VerdictKind | None]] = []
    for tid, key in targets.items():
        rows = db.execute(
            "SELECT claim, checked_at, verdict, record FROM claim_verdicts WHERE target_id = ? "
            "AND checked_at <= ? ORDER BY claim, checked_at",
            (tid, until),
        ).fetchall()
        before: dict[str, VerdictKind | None] = {}
        for claim, at, verdict, record in rows:
            seen = read_record(key, claim, at, verdict, record)
            if seen is None:
                continue
            if at >= since:
                out.append((seen, before.get(claim)))
            before[claim] = seen.verdict
    out.sort(key=lambda pair: (pair[0].checked_at, pair[0].claim))
    return out


def read_record(
    key: AnchorKey, claim: object, at: object, verdict: object, record: object
) -> ClaimSeen | None:
    """A logged row read back, or None when it is not one (a history is untrusted)."""
    try:
        data = loads(record) if isinstance(record, str) else None
        kind = VerdictKind(verdict)
        what = ClaimKind(data.get("what") if isinstance(data, dict) else None)
    except ValueError:
        return None
    if not isinstance(data, dict) or not isinstance(claim, str):
        return None
    words, where, message = (data.get(k) for k in ("words", "at", "message"))
    if not isinstance(at, (int, float)) or not isinstance(words, str):
        return None
    return ClaimSeen(
        key, claim, kind, what, words,
        where if isinstance(where, str) else "",
        message if isinstance(message, str) else "",
        float(at),
    )  # fmt: skip


def prune_claims(db: sqlite3.Connection, cutoff: float) -> None:
    """Drop logged verdicts before `cutoff` but each claim's latest (what the next change is
    told against); supports stay: they are the claims' state, not their past."""
    db.execute(
        "DELETE FROM claim_verdicts WHERE checked_at < ? AND checked_at < "
        "(SELECT MAX(c.checked_at) FROM claim_verdicts c "
        "WHERE c.target_id = claim_verdicts.target_id AND c.claim = claim_verdicts.claim)",
        (cutoff,),
    )
