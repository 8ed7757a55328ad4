"""Sections as the report shows them: one heading per section however its entries spell it."""

from __future__ import annotations

import re
from datetime import date

from anchors.history import Row
from anchors.registry.model import Anchor
from anchors.render import Target, render
from anchors.report.transitions import transitions
from anchors.report.weekly import Report

SPELLINGS = ("§1.3 KV Cache", "§ 1.3 KV Cache", "§1.3\u3000KV Cache", "§\uff11.\uff13 KV")


def test_the_report_groups_a_section_however_spelt_under_one_heading() -> None:
    sections = {f"http://docs.example/{i}": s
                for i, s in enumerate(("§1.10 Serving", *SPELLINGS))}
    rows = [Row(url, url, "url", outcome, 200 if outcome == "ok" else 404, checked_at=at)
            for at, outcome in ((1.0, "ok"), (5.0, "dead")) for url in sections]
    anchors = {url: Anchor(line=i + 3, raw_id=url, section=s, cited_in=[date(2026, 9, 20)])
               for i, (url, s) in enumerate(sections.items())}
    found = transitions(rows, 2.0, 10.0, anchor_of=lambda r: anchors[r.target])
    report = Report(now=10.0, since=8.0, runs=2, targets=len(sections), transitions=found)
    md = render("report", "markdown", report, Target(None, registry="registry.yaml"))
    assert re.findall(r"^#### (.+)$", md, re.MULTILINE) == ["§1.3 KV Cache", "§1.10 Serving"]
