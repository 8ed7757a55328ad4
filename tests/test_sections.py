"""Sections as the report shows them: one heading per section however its entries spell it."""

from __future__ import annotations

import re
from datetime import date

from anchors.findings import Outcome
from anchors.history import Observation
from anchors.ids.model import WebUrl
from anchors.registry.model import Anchor
from anchors.render import REPORT, Target, render
from anchors.report.transitions import transitions
from anchors.report.weekly import Report

SPELLINGS = ("§1.3 KV Cache", "§ 1.3 KV Cache", "§1.3\u3000KV Cache", "§\uff11.\uff13 KV Cache")


def _headings(*names: str) -> list[str]:
    sections = {f"http://docs.example/{i}": s for i, s in enumerate(names)}
    rows = [
        Observation(
            WebUrl(url), url, Outcome(outcome), 200 if outcome == "ok" else 404, checked_at=at
        )
        for at, outcome in ((1.0, "ok"), (5.0, "dead"))
        for url in sections
    ]
    anchors = {
        url: Anchor(line=i + 3, raw_id=url, section=s, cited_in=[date(2026, 9, 20)])
        for i, (url, s) in enumerate(sections.items())
    }
    found = transitions(rows, 2.0, 10.0, anchor_of=lambda r: anchors[r.target])
    report = Report(now=10.0, since=8.0, runs=2, targets=len(sections), transitions=found)
    md = render(REPORT, "markdown", report, Target(None, registry="registry.yaml"))
    return re.findall(r"^#### (.+)$", md, re.MULTILINE)


def test_the_report_groups_a_section_however_spelt_under_one_heading() -> None:
    assert _headings("§1.10 Serving", *SPELLINGS) == ["§1.3 KV Cache", "§1.10 Serving"]


def test_the_report_keeps_two_sections_of_one_number_apart() -> None:
    """After a renumbering, §1.3's entries are not listed under another §1.3's heading."""
    assert _headings("§1.3 KV Cache", "§1.3 Speculative decoding", "§ 1.3 KV Cache") == [
        "§1.3 KV Cache",
        "§1.3 Speculative decoding",
    ]


def test_the_report_keeps_a_name_that_starts_with_a_number_as_written() -> None:
    assert _headings("2024 roadmap", "1. Introduction", "§2 Methods") == [
        "§2 Methods",
        "1. Introduction",
        "2024 roadmap",
    ]
