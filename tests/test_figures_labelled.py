"""The labelled set (tests/data/figures): the issue's goals, measured on real sources.

Each case's lines go through extraction (attribution by line or by block) and one verdict per
figure or quote; the rates are the ones bench/figures.py prints. The set's size is part of the
goal (at least 200 figures, 60 of them written in Chinese, and 30 quotes).
"""

from __future__ import annotations

import pytest

from anchors.figures.verdict import VerdictKind
from tests.figureset import Outcome, load, rates, run


@pytest.fixture(scope="module")
def outcomes() -> list[Outcome]:
    sources, cases = load()
    return run(cases, sources)


def test_the_set_is_as_large_as_the_issue_asks(outcomes: list[Outcome]) -> None:
    figures = [o for o in outcomes if o.expect.tag != "quote"]
    quotes = [o for o in outcomes if o.expect.tag == "quote"]
    assert len(figures) >= 200
    assert sum(1 for o in figures if o.case.lang == "zh") >= 60
    assert len(quotes) >= 30
    labels = {o.expect.label for o in outcomes}
    assert labels == {"supported", "derived", "not-found", "unverifiable", "none", "unattributed"}
    reasons = {o.expect.reason for o in outcomes if o.expect.label == "unverifiable"}
    assert reasons >= {"vague", "translated", "incomplete", "not-in-abstract", "near-miss"}
    assert reasons >= {"block", "source-not-read"}


def test_every_labelled_claim_is_read_off_its_line(outcomes: list[Outcome]) -> None:
    """A figure the parser does not see can never be checked: each labelled claim (not a
    non-figure) must come out of extraction as written."""
    missed = [
        (o.case.id, o.expect.claim, o.found)
        for o in outcomes
        if o.expect.label not in ("none", "unattributed") and o.verdict is None
    ]
    assert missed == []


def test_the_goals_hold(outcomes: list[Outcome]) -> None:
    r = rates(outcomes)
    assert r.goals == dict.fromkeys(r.goals, True), r


def test_every_unverifiable_case_keeps_its_reason(outcomes: list[Outcome]) -> None:
    wrong = [
        (o.case.id, o.expect.reason, o.verdict.reason if o.verdict else None)
        for o in outcomes
        if o.expect.label == "unverifiable"
        and (
            o.verdict is None
            or o.verdict.reason is None
            or o.verdict.reason.value != o.expect.reason
        )
    ]
    assert wrong == []


def test_real_misattributions_are_told(outcomes: list[Outcome]) -> None:
    """The public documents that attribute to a paper a figure or a quote it does not hold
    (tag `real`, not-found) are found not-found, with the scope read."""
    real = [o for o in outcomes if o.expect.tag == "real" and o.expect.label == "not-found"]
    assert len(real) >= 2
    for o in real:
        assert o.verdict is not None and o.verdict.kind is VerdictKind.NOT_FOUND, o.case.id
        assert o.verdict.scope
