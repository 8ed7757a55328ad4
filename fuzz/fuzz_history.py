"""atheris fuzz target for the check history: a SQLite file that is damaged, foreign or hostile,
and the JSON facts stored in it. Opening and every read `report` and `fix` do may refuse the
file with the history's own error (HistoryError, StorageError); nothing else may escape.

Inputs are a whole file, or a real history (built once here: runs, observations with each
kind's facts, a snapshot) with bytes overwritten where the input says, which reaches the
pages and records a random file never would.

    pip install '.[fuzz]' && python fuzz/fuzz_history.py -max_total_time=60 -max_len=1048576
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import atheris

with atheris.instrument_imports():
    from anchors.errors import AnchorsError
    from anchors.findings import Outcome
    from anchors.history import (
        ArxivFacts,
        DoiFacts,
        History,
        IssueFacts,
        Observation,
        RepoFacts,
        Snapshot,
    )
    from anchors.history.facts import facts_from_json
    from anchors.ids import parse_anchor
    from anchors.ids.model import AnchorKind
    from anchors.jsonread import loads

FOLDER = Path(
    tempfile.mkdtemp(prefix="fuzz-history-", dir="/dev/shm" if Path("/dev/shm").is_dir() else None)
)
REGISTRY = str(FOLDER / "registry.yaml")
PATH = FOLDER / "history.sqlite"
FACTS = {
    "2609.18063": ArxivFacts("A title", 2, None, ("A. Author",), "2026-09-01", "ICML", None),
    "https://github.com/o/r/issues/1": IssueFacts(
        "Bug", "closed", "completed", closed_at="2026-09-02"
    ),
    "https://github.com/o/r": RepoFacts("o/r", "https://github.com/o/s"),
    "10.1000/xyz": DoiFacts("T", ("B. Author",), "2025", "J", (("retraction", "10.1000/r"),)),
    "https://example.org/page": None,
}


def _template() -> bytes:
    """A history as a check leaves it: two runs over one target of each kind."""
    h = History(PATH, chosen=True)
    for at in (1_790_000_000.0, 1_790_086_400.0):
        run = h.start_run(REGISTRY, at)
        h.record(
            run,
            [
                Observation(parse_anchor(k), k, Outcome.OK, 200, None, None, 12, at, facts=f)
                for k, f in FACTS.items()
            ],
        )
        h.finish_run(run, True, at + 5)
    h.keep_snapshots(
        REGISTRY,
        [
            (
                parse_anchor("https://example.org/page"),
                Snapshot("https://web.archive.org/x", "2026-09-01"),
            )
        ],
    )
    h.close()
    data = PATH.read_bytes()
    _clear()
    return data


def _clear() -> None:
    for suffix in ("", "-wal", "-shm", "-journal"):
        Path(f"{PATH}{suffix}").unlink(missing_ok=True)


TEMPLATE = _template()
KEYS = [parse_anchor(k) for k in FACTS]


def _reads(h: History) -> None:
    """Everything `report` and `fix` ask of a history."""
    h.runs(0, 4e9)
    h.rows(4e9, REGISTRY)
    h.window(1_790_000_000.0, 4e9, REGISTRY)
    h.latest(4e9)
    h.snapshots(REGISTRY)
    h.facts_before(KEYS, 4e9, REGISTRY)


def one_input(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    choice = fdp.ConsumeIntInRange(0, 3)
    if choice == 3:  # the facts column: JSON a file holds
        kind = list(AnchorKind)[fdp.ConsumeIntInRange(0, len(AnchorKind) - 1)]
        try:
            got = loads(fdp.ConsumeBytes(len(data)))
        except ValueError:
            return
        if isinstance(got, dict):
            facts_from_json(kind, got)
        return
    if choice == 0:
        body = fdp.ConsumeBytes(len(data))
    else:
        body = bytearray(TEMPLATE)
        for _ in range(fdp.ConsumeIntInRange(1, 64)):
            at = fdp.ConsumeIntInRange(0, len(body) - 1)
            body[at] = fdp.ConsumeInt(1) & 0xFF
        body = bytes(body)
    _clear()
    PATH.write_bytes(body)
    try:
        if choice == 2:  # a check writing to it
            w = History(PATH, chosen=True)
            run = w.start_run(REGISTRY, 1_790_200_000.0)
            w.record(run, [Observation(KEYS[0], "2609.18063", Outcome.OK, 200, checked_at=1.8e9)])
            w.finish_run(run, True)
            w.close()
        r = History.read_only(PATH, chosen=True)
        try:
            _reads(r)
        finally:
            r.close()
    except AnchorsError:
        return


if __name__ == "__main__":
    atheris.Setup(sys.argv, one_input)
    atheris.Fuzz()
