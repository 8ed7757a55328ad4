"""Claim recall and precision on real phrasings, measured the way a user meets them: every case
of tests/data/claims.yaml goes into one briefing, `add` keeps its claims in a registry, and a
check against a loopback GitHub and arXiv that contradict each claim (and each look-alike's
trap) must report exactly the claims."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import date, timedelta
from pathlib import Path

import httpx
import pytest
import yaml

from anchors.check.run import Services, check_online
from anchors.extract import extract
from anchors.findings import Code, Finding
from anchors.ids import parse_anchor
from anchors.merging.merge import add
from anchors.registry.loader import load
from anchors.resolve.arxiv import ArxivResolver
from anchors.resolve.github import GithubResolver

from .claimfakes import Issue, Paper, fake_services

DATA = Path(__file__).parent / "data" / "claims.yaml"
DAY = date(2026, 9, 24)
#: the live state that contradicts each claimed state (changed before the briefing's day)
_AGAINST = {
    "open": Issue("t", "closed", "completed", "2026-01-05"),
    "closed": Issue("t"),
    "merged": Issue("t", pull=True),
    "fixed": Issue("t"),
}


def _fakes(cases: list[dict]) -> tuple[dict[str, Issue], dict[str, Paper]]:
    issues, papers = {}, {}
    for c in cases:
        said = c.get("value") if c["claim"] else c.get("trap")
        key = c["cite"].split(":", 1)[1]
        if c["cite"].startswith("github:"):
            issues[key] = _AGAINST.get(str(said), Issue("t"))
        elif c["kind"] == "date" and c["claim"]:
            v1 = date.fromisoformat(str(said)) + timedelta(days=40)
            papers[key] = Paper("t", v1.isoformat())
        else:  # any venue or date a careless reader takes would be contradicted
            papers[key] = Paper("t", "2001-01-01", comment="Accepted at KDD 2019")
    return issues, papers


def _expected(c: dict, f: Finding) -> bool:
    match c["kind"]:
        case "state":
            return f.code is Code.STALE_CLAIM
        case "date" | "venue":
            return f.code is Code.CLAIM_MISMATCH and f.details.get("field") == c["kind"]
        case "continuity":
            return f.code is Code.UNBACKED_CLAIM
    return False


@pytest.mark.slow
def test_claim_phrases_through_add_then_check(tmp_path: Path, summary: Callable[[str], None]):
    cases = yaml.safe_load(DATA.read_text(encoding="utf-8"))
    claims = [c for c in cases if c["claim"]]
    assert len(claims) >= 150 and len(cases) - len(claims) >= 150
    assert all(c["source"]["url"] and c["source"]["line"] for c in cases)
    text = f"claims set ({DAY})\n" + "".join(
        f"增量 {n}：case {n}\n{c['line']}\n" for n, c in enumerate(cases, 1)
    )
    reg = tmp_path / "registry.yaml"
    # a registry with entries: a new or empty one takes continuity claims as its starting point
    reg.write_text(
        'version: 1\nanchors:\n  - arxiv: "2601.00001"\n    first_anchored: 2026-01-05\n'
        "    status: new\n    check: skip\n",
        encoding="utf-8",
    )
    added = add(reg, [extract(text, "claims.md", DAY)], date(2026, 12, 2))
    issues, papers = _fakes(cases)

    async def go():  # type: ignore[no-untyped-def]
        with fake_services(issues, papers) as srv:
            async with httpx.AsyncClient() as client:
                gh = GithubResolver(client, api_url=srv.url(""))
                ax = ArxivResolver(srv.url("/api/query"), delay=0, max_searches=0)
                return await check_online(
                    load(reg), date(2026, 12, 2), Services(arxiv=ax, github=gh)
                )

    checked = asyncio.run(go())
    by_key: dict[str, list[Finding]] = {}
    for f in [*added.findings, *checked.findings]:
        if f.anchor:  # a file-level finding is about no claim
            by_key.setdefault(parse_anchor(f.anchor).key, []).append(f)
    found = [c for c in claims if any(_expected(c, f) for f in by_key.get(c["cite"], []))]
    false = [
        c
        for c in cases
        if not c["claim"] and any(_expected(c, f) for f in by_key.get(c["cite"], []))
    ]
    recall = len(found) / len(claims)
    precision = len(found) / (len(found) + len(false)) if found else 0.0
    summary(
        f"claim phrases: {len(claims)} claims, {len(cases) - len(claims)} look-alikes, "
        f"through add then check: recall {recall:.1%}, precision {precision:.1%}"
    )
    missed = [c["line"] for c in claims if c not in found]
    assert recall >= 0.98, missed[:10]
    assert precision >= 0.99, [c["line"] for c in false][:10]
