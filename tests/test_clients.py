"""The clients a real check builds (open_services), against recorded answers on loopback."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest

from anchors.check.clients import open_services
from anchors.config import Settings
from anchors.ids import ArxivId, GithubRef
from anchors.net.links import Outcome

from .cassettes import load

ROOT = Path(__file__).resolve().parent.parent


def test_github_and_arxiv_lookups_through_the_services_a_check_builds() -> None:
    gh, ax = load("github/issue-closed"), load("arxiv/batch-three-ids")
    with gh.serve() as gh_srv, ax.serve() as ax_srv:
        settings = Settings(
            github_api=gh_srv.url(""), arxiv_api=ax_srv.url("/api/query"), arxiv_delay=0.0
        )

        async def go():
            async with open_services(settings) as s:
                assert s.github is not None and s.arxiv is not None
                issue = await s.github.resolve([GithubRef.parse("PyGithub/PyGithub#28")])
                papers = await s.arxiv.resolve(
                    [ArxivId.parse(x) for x in ("1706.03762", "2309.06180v1", "2312.07104")]
                )
                return issue, papers

        issue, papers = asyncio.run(go())
    (only,) = issue.values()
    assert only.outcome is Outcome.OK and only.facts.state == "closed"
    assert papers["arxiv:1706.03762"].facts.title == "Attention Is All You Need"


@pytest.mark.slow
def test_the_online_stack_imports_arxiv_only_when_asked() -> None:
    code = (
        "import sys, anchors.cli.app, anchors.check.run, anchors.check.clients\n"
        "print('arxiv' in sys.modules, 'requests' in sys.modules)"
    )
    p = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        check=False,
    )
    assert p.stdout.split() == ["False", "False"], p.stderr
