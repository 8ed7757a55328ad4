"""What a link check does per URL, counted (bench/links.py times it): each URL of the registry is
put in its canonical form once per run, however many rooms of the check ask for it."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from urllib import parse

import pytest
from typer.testing import CliRunner

from anchors.cli.app import app
from anchors.ids import web

from .loopback import LoopbackServer, Request, respond

N = 40


async def _page(req: Request, w: asyncio.StreamWriter) -> bool:
    return await respond(w, 404 if req.path.startswith("/gone") else 200, req=req)


def test_each_url_is_canonicalised_once_per_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The registry's load, the results and the reading of the briefings citing a dead link
    each canonicalised every URL again (~30 us each): 2-3 times a URL before."""
    with LoopbackServer(lambda req: _page) as site:
        urls = [site.url(f"/{'gone' if i % 2 else 'page'}/{i}") for i in range(N)]
        (tmp_path / ".git").mkdir(exist_ok=True)
        (tmp_path / "2026-09-24.md").write_text(
            "# 2026-09-24\n\n" + "".join(f"- [page {i}]({u})\n" for i, u in enumerate(urls)),
            encoding="utf-8",
        )
        reg = tmp_path / "registry.yaml"
        reg.write_text(
            "version: 1\nanchors:\n"
            + "".join(
                f'  - url: "{u}"\n    first_anchored: 2026-09-24\n    status: new\n'
                '    cited_in: ["2026-09-24"]\n'
                for u in urls
            ),
            encoding="utf-8",
        )
        splits = [0]

        def counting(url: str, *args: object, **kw: object) -> parse.SplitResult:
            splits[0] += 1
            return parse.urlsplit(url, *args, **kw)  # type: ignore[arg-type]

        clear = getattr(web.canonical_url, "cache_clear", lambda: None)
        clear()  # answers kept by an earlier test in this process do not count
        monkeypatch.setattr(web, "urlsplit", counting)
        r = CliRunner().invoke(
            app,
            ["check", str(reg), "--allow-private", "-f", "json", "--today", "2026-12-02"],
        )
        clear()  # nor do this test's answers (made with the counting split) outlive it
    assert r.exit_code == 1, r.stdout + r.stderr
    doc = json.loads(r.stdout)
    dead = [f for f in doc["findings"] if f["code"] == "dead-link"]
    assert len(dead) == N // 2
    assert all(f.get("cited_at") for f in dead), dead[0]  # the briefing was read for each
    assert splits[0] <= N + 5, splits[0]
    assert splits[0] >= N, splits[0]  # each was asked (the count sees them)
