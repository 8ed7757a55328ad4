"""The report never hides a failing link: the rule in `anchors.report.classify`, as a property
over random outcome sequences and through the CLI on histories made by real checks against a
loopback server."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, date, datetime
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from anchors.check.run import Services, check_online
from anchors.cli.app import app
from anchors.findings import Outcome
from anchors.history import History, Observation
from anchors.ids.model import WebUrl
from anchors.net.netguard import StaticResolver
from anchors.registry.loader import parse_text
from anchors.report.classify import FAILING, NEUTRAL, SUCCESS, Section, classify
from anchors.report.weekly import build

from .examples import examples
from .loopback import LoopbackServer, respond
from .stack import links

DAY = 86400.0
START = datetime(2026, 9, 1, 6, 0, tzinfo=UTC).timestamp()
BLOCKED = "blocked"  # a run without --allow-private
OUTCOMES = list(Outcome)  # every outcome a check records, a new one included


# --- the rule as a property ---------------------------------------------------------------

histories = st.lists(  # per target: (day offset, outcome), any order, any mix
    st.lists(st.tuples(st.integers(0, 20), st.sampled_from(OUTCOMES)), max_size=12),
    min_size=1,
    max_size=6,
)


def _rows(hist: list[list[tuple[int, Outcome]]]) -> list[Observation]:
    out = []
    for t, seq in enumerate(hist):
        for i, (day, outcome) in enumerate(seq):
            # one run per (day, position): distinct times, so "latest" is well defined
            at = START + day * DAY + i
            out.append(
                Observation(
                    WebUrl(f"https://t{t}.example/"),
                    f"t{t}",
                    outcome,
                    checked_at=at,
                    run_id=day * 100 + i,
                )
            )
    return out


@settings(max_examples=examples(300), deadline=None)
@given(histories, st.integers(1, 20))
def test_every_target_failing_now_is_in_exactly_one_failing_section(hist, window_days) -> None:
    rows = _rows(hist)
    now = START + 21 * DAY
    start = now - window_days * DAY
    rep = build(rows, now, window_days * DAY)
    targets = [r.target for r in rep.rows]
    assert len(targets) == len(set(targets))  # at most one section each
    by = {r.target: r.section for r in rep.rows}
    for t in {r.target for r in rows}:
        mine = sorted((r for r in rows if r.target == t), key=lambda r: r.checked_at)
        looked = [r for r in mine if r.outcome not in NEUTRAL and r.checked_at >= start]
        if not looked:
            assert t not in by  # never checked in the window: nothing to say
            continue
        latest = looked[-1].outcome
        if latest not in SUCCESS:
            assert by.get(t) in FAILING, (t, [r.outcome for r in mine], by.get(t))
        else:
            assert by.get(t) not in (Section.DEAD, Section.NEWLY_DEAD, Section.NOT_DEAD)
        # neutral runs count neither way: dropping them changes nothing
        assert classify([r for r in mine if r.outcome not in NEUTRAL], start) == by.get(t)
        stretch = []
        for r in reversed([r for r in mine if r.outcome not in NEUTRAL]):
            if r.outcome in SUCCESS:
                break
            stretch.append(r)
        if latest not in SUCCESS and by[t] is not Section.FLAKY:
            assert (by[t] in (Section.DEAD, Section.NEWLY_DEAD)) == any(
                r.outcome is Outcome.DEAD for r in stretch
            )  # a 404 is not washed out by 5xx
        if by.get(t) is Section.FLAKY:  # flaky only for links that also succeeded
            assert any(r.outcome in SUCCESS for r in looked)
    assert rep.anything_dead == any(s in (Section.DEAD, Section.NEWLY_DEAD) for s in by.values())


def test_dead_in_its_only_run_is_newly_dead_and_mixed_failures_stay_dead() -> None:
    def one(*outcomes: str, before: tuple[str, ...] = ()) -> Section | None:
        def seen(o: str, at: float) -> Observation:
            return Observation(WebUrl("u"), "u", Outcome(o), checked_at=at)

        hist = [seen(o, float(i)) for i, o in enumerate(before)]
        hist += [seen(o, 100.0 + i) for i, o in enumerate(outcomes)]
        return classify(hist, 100.0)

    assert one("dead") is Section.NEWLY_DEAD
    assert one("dead", "unreachable", "dead", "dead") is Section.NEWLY_DEAD
    assert one("dead", "dead", "unreachable") is Section.NEWLY_DEAD  # a 5xx now, a 404 before
    assert one("dead", before=("dead", "dead")) is Section.DEAD
    assert one("dead", before=("dead", "ok")) is Section.NEWLY_DEAD
    assert one("dead", before=("ok", "dead")) is Section.DEAD  # its stretch began earlier
    assert one("unreachable", "unreachable", before=("dead",)) is Section.DEAD
    assert one("rate-limited", "unreachable") is Section.NOT_DEAD
    assert one("dead", "blocked", "dead", "blocked") is Section.NEWLY_DEAD
    assert one("ok", "dead", "ok", "dead") is Section.FLAKY
    assert one("dead", "ok") is Section.RECOVERED
    assert one("blocked", "blocked") is None


# --- through the CLI, on histories written by real checks ----------------------------------

MOVED_TO = "/moved-here"  # where a 301/308 in a plan points (it answers 200)


def _checks(plan: dict[str, list[int | str]], db: Path) -> None:
    """Run one online check per column of `plan` against a loopback server, a day apart.

    Each path answers its status in that run; BLOCKED means the run had no --allow-private.
    """
    n_runs = len(next(iter(plan.values())))
    text = "version: 1\nanchors:\n" + "".join(
        f"  - url: http://docs.example{p}\n    first_anchored: 2026-08-20\n    status: new\n"
        for p in plan
    )
    path = db.parent / "registry.yaml"  # the registry its runs are of, reported by `_report`
    path.write_text(text, encoding="utf-8")
    reg = parse_text(text.encode(), str(path))
    state = {"n": 0, "t": START}

    async def handler(req, w):
        code = plan[req.path][state["n"]] if req.path in plan else 200
        moved = {"Location": MOVED_TO} if code in (301, 308) else {}
        return await respond(w, code if isinstance(code, int) else 200, b"", moved, req=req)

    with LoopbackServer(lambda req: handler if req.path in (*plan, MOVED_TO) else None) as srv:

        async def one_run(allow_private: bool) -> None:
            async with links(
                resolver=StaticResolver({"docs.example": ["127.0.0.1"]}),
                allow_private=allow_private,
                attempts=1,
                port=srv.port,
            ) as lc:
                h = History(db, clock=lambda: state["t"])
                try:
                    await check_online(reg, date(2026, 9, 30), Services(lc), history=h)
                finally:
                    h.close()

        for n in range(n_runs):
            state["n"], state["t"] = n, START + n * DAY
            blocked = any(col[n] == BLOCKED for col in plan.values())
            asyncio.run(one_run(allow_private=not blocked))


def _report(db: Path, days: int, since: str = "14d") -> tuple[int, dict, str]:
    now = datetime.fromtimestamp(START + days * DAY, UTC).isoformat()
    r = CliRunner().invoke(
        app,
        [
            "report",
            "-r",
            str(db.parent / "registry.yaml"),
            "--history",
            str(db),
            "--since",
            since,
            "--now",
            now,
            "--format",
            "json",
        ],
    )
    return r.exit_code, json.loads(r.stdout or "{}"), r.stderr


def test_six_links_dead_in_the_only_run_are_newly_dead(tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite"
    _checks({f"/gone{i}": [404] for i in range(6)}, db)
    code, doc, err = _report(db, 1)
    assert code == 1
    assert doc["summary"]["newly-dead"] == 6 and "6 newly dead" in err
    md = CliRunner().invoke(
        app,
        [
            "report",
            "-r",
            str(tmp_path / "registry.yaml"),
            "--history",
            str(db),
            "--now",
            datetime.fromtimestamp(START + DAY, UTC).isoformat(),
        ],
    )
    assert md.exit_code == 1 and "Nothing failed" not in md.stdout and "### Newly dead" in md.stdout


def test_404_500_404_404_is_newly_dead_not_nothing_failed(tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite"
    _checks({"/mixed": [404, 500, 404, 404], "/fine": [200] * 4}, db)
    code, doc, _ = _report(db, 4)
    assert code == 1
    (row,) = doc["rows"]
    assert (row["section"], row["failing_runs"], row["runs"]) == ("newly-dead", 4, 4)


@pytest.mark.slow
def test_dead_in_11_of_12_runs_with_one_blocked_run_is_reported(tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite"
    col: list[int | str] = [404] * 12
    col[7] = BLOCKED
    _checks({"/mostly-dead": col}, db)
    assert [r.outcome for r in History(db).rows(1e12)].count(Outcome.BLOCKED) == 1
    code, doc, _ = _report(db, 12)
    assert code == 1
    (row,) = doc["rows"]
    assert (row["section"], row["failing_runs"], row["runs"]) == ("newly-dead", 11, 11)
    # the same link, with its stretch begun before a shorter window, is dead
    code, doc, _ = _report(db, 12, since="3d")
    assert code == 1 and [r["section"] for r in doc["rows"]] == ["dead"]


def test_link_transitions_look_past_failed_and_blocked_checks(tmp_path: Path) -> None:
    """A link changes between its definite outcomes (worked, moved, dead), as the rule counts
    only checked ones: a 5xx, a 429 or a blocked run in between neither hides a death or a
    recovery nor makes the same redirect new again."""
    db = tmp_path / "h.sqlite"
    _checks(
        {
            "/dies": [200, 503, 404, BLOCKED, 404],
            "/recovers": [404, 429, 200, BLOCKED, 200],
            "/moved": [301, 503, 301, BLOCKED, 301],
        },
        db,
    )
    code, doc, err = _report(db, 5)
    assert code == 1, err
    got = [
        (t["change"], t["target"].rsplit("/", 1)[1], t["at"][:10], t["before"], t["after"])
        for t in doc["transitions"]
    ]
    assert sorted(got) == [
        ("died", "dies", "2026-09-03", "ok", "HTTP 404"),
        ("recovered", "recovers", "2026-09-03", "HTTP 404", "ok"),
    ]
