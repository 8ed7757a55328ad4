"""Typed details: each kind of finding's facts is a frozen dataclass, read by field everywhere in
the package, and written to JSON in exactly the shape the untyped dicts had.

`golden/findings-details.json` was written by the code before the types (main at 521837d) from
the same producers as `_findings` calls: a link's answers, a lookup's truths, an issue's state,
`add`'s conflicts, Save Page Now's captures and a same-work pair.
"""

from __future__ import annotations

import dataclasses
import json
import re
from datetime import date
from pathlib import Path

from anchors.archive.captures import _captured
from anchors.archive.savepagenow import Capture, CaptureState
from anchors.check import issues, truth, verdicts
from anchors.details import Answer, Details, Extra, FigureCheck, Line, TitleMismatch, details_of
from anchors.extract.claims import Claims
from anchors.findings import Code, Finding, Outcome
from anchors.history import samework
from anchors.history.facts import ArxivFacts, DoiFacts, IssueFacts, RepoFacts
from anchors.history.samework import SameWork
from anchors.history.snapshots import Snapshot
from anchors.ids import parse_anchor
from anchors.merging import findings as merging
from anchors.net.linkresult import LinkResult
from anchors.registry.claims import StateClaim, Venue
from anchors.registry.model import Anchor, Registry
from anchors.render.places import cited_lines, identity, primary
from anchors.report.model import ReportRow
from anchors.resolve.base import FollowUp, Resolution

GOLDEN = Path(__file__).parent / "golden" / "findings-details.json"
PACKAGE = Path(__file__).parent.parent / "anchors"


def _anchor(raw: str, title: str | None = None, line: int = 3) -> Anchor:
    return Anchor(line=line, id_field="x", raw_id=raw, key=parse_anchor(raw), title=title)


def _links(reg: Registry, page: Anchor) -> list[Finding]:
    links = {
        "dead": LinkResult(page.raw_id, Outcome.DEAD, 404, error="HTTP 404", requests=1),
        "moved": LinkResult(
            page.raw_id, Outcome.REDIRECT, 301, "https://new.example/p", requests=2
        ),
        "soft": LinkResult(
            page.raw_id, Outcome.REDIRECT, 301, "https://new.example/login", requests=1
        ),
        "slow": LinkResult(page.raw_id, Outcome.RATE_LIMITED, 429, error="HTTP 429", tries=3),
    }
    out: list[Finding] = []
    for name, link in links.items():
        out += verdicts.compare(reg, {name: page}, {}, {name: link}, {}, {})
    return out


def _lookups(reg: Registry, paper: Anchor, facts: ArxivFacts) -> list[Finding]:
    said = Claims(date=date(2023, 6, 1), venue=Venue("ICML", 2023))
    found = Resolution(Outcome.OK, facts, 200)
    suggested = FollowUp(suggested=("2401.00002", "A Wrong Title"))
    out = verdicts.compare(reg, {"p": paper}, {"p": found}, {}, {"p": said}, {"p": suggested})
    dead = Resolution(Outcome.DEAD, None, 404)
    out += verdicts.compare(reg, {"g": paper}, {"g": dead}, {}, {}, {})
    silent = Resolution(Outcome.UNREACHABLE, None, None, "timed out")
    out += verdicts.compare(reg, {"u": paper}, {"u": silent}, {}, {}, {})
    retitled = FollowUp(cited_title="A Wrong Title", cited_version=1)
    return out + truth.findings(
        "registry.yaml", paper, facts, Claims(title="A Wrong Title"), retitled
    )


def _issue_findings() -> list[Finding]:
    issue = _anchor("https://github.com/o/r/issues/5", "Open file leak")
    closed = IssueFacts(
        "Something else entirely here",
        "closed",
        "completed",
        False,
        False,
        "https://github.com/o/s/issues/9",
        "2024-03-01T00:00:00Z",
        None,
    )
    stale = Claims(
        title="Memory leak in the parser",
        state=StateClaim.OPEN,
        state_text="still open",
        said_on=date(2024, 4, 1),
        path="b.md",
        line=7,
    )
    news = Claims(state=StateClaim.OPEN, state_text="open", said_on=date(2024, 2, 1), path="b.md")
    out = issues.state_findings("registry.yaml", issue, closed, stale)
    out += issues.state_findings("registry.yaml", issue, closed, news)
    return out + issues.target_findings("registry.yaml", issue, closed, stale)


def _findings() -> list[Finding]:
    reg = Registry(path="registry.yaml", text="", anchors=[], problems=[])
    page = _anchor("https://old.example/page")
    paper = _anchor("arXiv:2401.00001v3", "A Wrong Title")
    paper.version = 3
    facts = ArxivFacts(
        title="The Real Title",
        version=2,
        withdrawn="duplicate",
        published="2024-01-01",
        journal_ref="J. Things 1 (2024)",
        doi="10.1/x",
        comment="NeurIPS 2023",
    )
    out = _links(reg, page) + _lookups(reg, paper, facts)
    repo = _anchor("https://github.com/o/r")
    moved = RepoFacts("o2/r", "https://github.com/o2/r", True)
    out += truth.findings("registry.yaml", repo, moved, Claims())
    doi = _anchor("doi:10.1234/abc")
    notices = DoiFacts(title="T", updates=(("retraction", "10.1/r"), ("erratum", "10.1/e")))
    out += truth.findings("registry.yaml", doi, notices, Claims())
    out += _issue_findings()
    out += [
        merging.conflict("2401.00001", "b.md", 4, "title", "Kept", "Other", None),
        merging.conflict("2401.00001", "b.md", 4, "section", "§1", "§2", Anchor(line=9)),
    ]
    done = Capture(CaptureState.DONE, job="job-1")
    refused = Capture(CaptureState.REFUSED, reason="error:not-found")
    snapshot = Snapshot("https://web.archive.org/web/2024/x", "2024-05-01")
    out += [
        _captured(page, done, snapshot, "r.yaml"),
        _captured(page, refused, None, "r.yaml"),
        _captured(page, done, None, "r.yaml"),
    ]
    entries = {
        str(paper.key.key if paper.key else ""): paper,
        str(doi.key.key if doi.key else ""): doi,
    }
    pair = SameWork(*entries, "arXiv")
    return out + samework.findings("r.yaml", [pair], entries)


def test_the_json_of_each_kind_of_details_is_the_untyped_one_byte_for_byte() -> None:
    found = _findings()
    text = json.dumps([f.as_dict() for f in found], ensure_ascii=False, indent=1)
    assert text + "\n" == GOLDEN.read_text(encoding="utf-8")
    assert len({f.code for f in found}) >= 18  # the kinds the golden file covers


def test_every_finding_carries_typed_details_read_by_field() -> None:
    found = _findings()
    assert all(isinstance(f.details, Details) for f in found)
    [mismatch] = [f.details for f in found if f.code is Code.TITLE_MISMATCH]
    assert isinstance(mismatch, TitleMismatch) and mismatch.suggested is not None
    assert (mismatch.suggested.anchor, mismatch.resolved_title) == ("2401.00002", "The Real Title")
    # what library callers indexed by key before still reads the same
    assert mismatch["suggested"] == {"anchor": "2401.00002", "title": "A Wrong Title"}


def test_no_module_reads_details_by_key() -> None:
    """Renderers, the report and `fix` read fields: a key read is a typo mypy cannot see."""
    key_read = re.compile(r"\.details(\[|\.get\(|\.items\(\))|details=\{\*\*")
    readers = [
        f"{p.relative_to(PACKAGE)}:{n}"
        for p in sorted(PACKAGE.rglob("*.py"))
        for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if key_read.search(line)
    ]
    assert readers == []


def test_a_plain_mapping_is_read_into_its_kind_once() -> None:
    """A library caller of the untyped `details` (a dict) still works, and renderers see fields."""
    at = {"file": "briefings/a.md", "line": 7}
    dead = Finding(
        Code.DEAD_LINK, "https://x.example/", "r.yaml", 3, "HTTP 404", {"cited_at": [at]}
    )
    assert dead.details == Answer(cited_at=(Line("briefings/a.md", 7),))
    assert cited_lines(dead) == (Line("briefings/a.md", 7),)
    assert dead.as_dict()["cited_at"] == [at]
    figure = {"claim": "70%", "what": "figure", "verdict": "not-found", "at": "b.md:4"}
    placed = details_of({**figure, "briefing_at": {"file": "b.md", "line": 4}})
    found = Finding(Code.FIGURE_NOT_FOUND, "2401.00001", "r.yaml", 3, "m", placed)
    assert isinstance(found.details, FigureCheck)
    assert (primary(found), identity(found)) == (("b.md", 4, True), "70%\0b.md:4")
    odd = details_of({"zeta": 1, "alpha": [2]})
    assert isinstance(odd, Extra) and list(odd) == ["zeta", "alpha"]  # kept as given, in order
    assert Finding(Code.SCHEMA, "", "r.yaml", 1, "m").details == {}


def test_a_report_row_holds_its_observations_not_copies() -> None:
    held = {f.name for f in dataclasses.fields(ReportRow)}
    assert {"last", "shown", "entry"} <= held
    copied = {"target", "anchor", "kind", "last_status", "last_error", "final_url", "title", "line"}
    assert not held & copied
