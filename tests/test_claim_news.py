"""News is told once: a change after a briefing's day, and a preprint's publication.

Through the CLI as a user meets it: `anchors add B.md`, then a plain `anchors check` run after
run (each asking the services afresh), then `anchors report`. A close after the briefing's day
is noted by the check that first sees it and then only in the report's "What changed" ("the
2026-09-24 briefing said open; closed 2026-09-28"); a close before it is `stale-claim` on every
run. `published` is noted by the first check that sees the venue, then only in the report.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from anchors.history import ArxivFacts, History, IssueFacts, Observation
from anchors.ids.model import key_from_text

from .claimfakes import Issue, Paper, check_findings, cli, fake_services
from .loopback import LoopbackServer

B = """inference · E1 预消化简报(2026-09-24)
增量 1：一个简报之前就关闭的 issue
URL：https://github.com/acme/engine/issues/1
- Issue #1 仍 open
增量 2：一个简报之后才关闭的 issue
URL：https://github.com/acme/engine/issues/7
- Issue #7 仍 open，后续追踪
增量 3：同一天关闭的 issue
URL：https://github.com/acme/engine/issues/9
- Issue #9 仍 open
四、可引用 arXiv 号列表
| arXiv 号 | 标题 | 可信度 |
|---|---|---|
| 2609.18063 | Edge0: Serving MoEs from SSD | 高 |
"""


def _check(reg: Path, srv: LoopbackServer) -> list[dict]:
    # every run asks the services afresh, as the weekly workflow does
    return check_findings(reg, srv, "--no-cache")


def _of(found: list[dict], tail: str) -> list[tuple[str, str]]:
    return [(f["code"], f["message"]) for f in found if f["anchor"].endswith(tail)]


@pytest.fixture
def added(tmp_path: Path) -> Path:
    b = tmp_path / "briefings" / "2026-09-24-e1.md"
    b.parent.mkdir()
    b.write_text(B, encoding="utf-8")
    reg = tmp_path / "registry.yaml"
    code, out, err = cli("add", str(b), "-r", str(reg))
    assert code == 0, out + err
    return reg


def _issues(seven: str) -> dict[str, Issue]:
    return {
        "acme/engine#1": Issue("Engine leaks", "closed", "completed", "2026-09-20"),
        "acme/engine#7": Issue("Engine hangs")
        if seven == "open"
        else Issue("Engine hangs", "closed", "completed", "2026-09-28"),
        "acme/engine#9": Issue("Engine crashes", "closed", "completed", "2026-09-24"),
    }


def test_a_close_after_the_briefing_is_noted_once_then_told_in_what_changed(added: Path) -> None:
    issues = _issues("open")
    papers = {"2609.18063": Paper("Edge0: Serving MoEs from SSD", "2026-09-02")}
    with fake_services(issues, papers) as srv:
        first = _check(added, srv)
        issues.update(_issues("closed"))  # #7 closes on 09-28, after the 09-24 briefing
        second = _check(added, srv)
        third = _check(added, srv)
    # open while the briefing said open: nothing to say
    assert _of(first, "/issues/7") == []
    [(code, message)] = _of(second, "/issues/7")
    assert code == "issue-state" and "after the 2026-09-24 briefing" in message
    assert _of(third, "/issues/7") == []  # seen before: news is not repeated every week
    # closed before the briefing's day: the briefing was wrong, and says so on every run
    for run in (first, second, third):
        [(code, message)] = _of(run, "/issues/1")
        assert code == "stale-claim" and "2026-09-24" in message and "2026-09-20" in message
    # closed on the briefing's own day: the benefit of the doubt, not a warning
    assert "stale-claim" not in [c for run in (first, second) for c, _ in _of(run, "/issues/9")]

    code, out, err = cli("report", "-r", str(added), "-f", "json")
    assert code == 0, out + err
    changes = json.loads(out)["transitions"]
    [news] = [t for t in changes if t["anchor"].endswith("/issues/7")]
    assert news["change"] == "issue-closed" and news["claim"] == {
        "said_on": "2026-09-24",
        "claimed": "open",
        "words": "仍 open",
        "written_at": "briefings/2026-09-24-e1.md:7",
        "change": "closed (completed)",
        "changed_on": "2026-09-28",
        "text": "the 2026-09-24 briefing said open; closed 2026-09-28 (completed)",
    }
    # #1 was closed before the briefing: no news (it is a stale claim); #9 closed on its day,
    # seen by the first run: news at that run
    told = {t["anchor"].rsplit("/", 1)[-1]: t["claim"]["text"] for t in changes if t["claim"]}
    assert told == {
        "7": news["claim"]["text"],
        "9": "the 2026-09-24 briefing said open; closed 2026-09-24 (completed)",
    }
    code, md, err = cli("report", "-r", str(added))
    assert code == 0, md + err
    changed = md.split("### What changed", 1)[1].split("\n### ", 1)[0]
    assert "the 2026-09-24 briefing said open; closed 2026-09-28 (completed)" in changed, md
    assert "engine/issues/1`" not in changed  # closed before the briefing: a stale claim, not news


def test_a_close_first_seen_already_done_is_news_in_the_report(added: Path) -> None:
    """No run saw #7 open: the first observation is already closed, after the briefing."""
    papers = {"2609.18063": Paper("Edge0: Serving MoEs from SSD", "2026-09-02")}
    with fake_services(_issues("closed"), papers) as srv:
        found = _check(added, srv)
    assert [c for c, _ in _of(found, "/issues/7")] == ["issue-state"]
    code, out, err = cli("report", "-r", str(added), "-f", "json")
    assert code == 0, out + err
    changes = json.loads(out)["transitions"]
    texts = {t["anchor"].rsplit("/", 1)[-1]: t["claim"]["text"] for t in changes if t["claim"]}
    assert texts["7"] == "the 2026-09-24 briefing said open; closed 2026-09-28 (completed)"
    assert "1" not in texts  # closed before the briefing: a stale claim, never news


def test_published_is_noted_once_then_only_in_what_changed(added: Path) -> None:
    issues = _issues("open")
    papers = {"2609.18063": Paper("Edge0: Serving MoEs from SSD", "2026-09-02")}
    with fake_services(issues, papers) as srv:
        first = _check(added, srv)
        papers["2609.18063"] = Paper(
            "Edge0: Serving MoEs from SSD", "2026-09-02", journal_ref="Proc. EuroSys 2027"
        )
        second = _check(added, srv)
        third = _check(added, srv)
    assert _of(first, "2609.18063") == []
    [(code, message)] = _of(second, "2609.18063")
    assert code == "published" and "Proc. EuroSys 2027" in message
    assert _of(third, "2609.18063") == []
    code, out, err = cli("report", "-r", str(added), "-f", "json")
    assert code == 0, out + err
    published = [t for t in json.loads(out)["transitions"] if t["change"] == "published"]
    assert [(t["anchor"], t["after"]) for t in published] == [("2609.18063", "Proc. EuroSys 2027")]


def test_each_registry_is_told_its_own_news(added: Path) -> None:
    """Registries of one folder share its history; one's notice does not silence another's."""
    other = added.parent / "other.yaml"
    other.write_text(added.read_text(encoding="utf-8"), encoding="utf-8")
    papers = {"2609.18063": Paper("Edge0: Serving MoEs from SSD", "2026-09-02")}
    with fake_services(_issues("closed"), papers) as srv:
        for reg in (added, other):
            assert _of(_check(reg, srv), "2609.18063") == []
        papers["2609.18063"] = Paper("Edge0: Serving MoEs from SSD", "2026-09-02", journal_ref="J")
        for reg in (added, other):
            assert [c for c, _ in _of(_check(reg, srv), "2609.18063")] == ["published"]
        for reg in (added, other):
            assert _of(_check(reg, srv), "2609.18063") == []


def test_the_facts_seen_before_are_read_by_index_not_from_the_whole_past(tmp_path: Path) -> None:
    """However many runs the history holds, each anchor costs one row: its latest facts."""
    db = tmp_path / "history.sqlite"
    issue, paper = key_from_text("github:acme/engine#7"), key_from_text("arxiv:2609.18063")
    clock = [1000.0]
    h = History(db, clock=lambda: clock[0])
    for n in range(200):
        clock[0] = 1000.0 + n * 86400
        run = h.start_run(str(tmp_path / "registry.yaml"))
        h.record(
            run,
            [
                Observation(issue, "acme/engine#7", _ok(), facts=IssueFacts(state="open")),
                Observation(paper, "2609.18063", _ok(), facts=ArxivFacts(version=n + 1)),
            ],
        )
        h.finish_run(run, True)
    rows, queries = h.reader.stats.rows, h.reader.stats.queries
    got = h.facts_before([issue, paper], 1000.0 + 150 * 86400, str(tmp_path / "registry.yaml"))
    assert got[paper.key] == ArxivFacts(version=150) and got[issue.key].state == "open"
    assert h.reader.stats.rows - rows == 2  # one observation per anchor, not 400
    assert h.reader.stats.queries - queries <= 2  # the targets, then one statement for all
    h.close()


def _ok():  # type: ignore[no-untyped-def]
    from anchors.findings import Outcome

    return Outcome.OK
