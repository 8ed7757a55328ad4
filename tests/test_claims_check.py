"""Citation truth through `check_online`: claims compared with live facts, both sides in JSON."""

from __future__ import annotations

import asyncio
import json
from datetime import date
from pathlib import Path

from anchors.check.run import Services, check_online
from anchors.findings import Code
from anchors.registry.loader import parse_text
from anchors.render import json as rjson
from anchors.resolve.arxiv import ArxivResolver

from .cassettes import load

TODAY = date(2026, 12, 2)


def entry(field: str, value: str, *extra: str) -> str:
    more = "".join(f"    {e}\n" for e in extra)
    return (
        f'  - {field}: "{value}"\n{more}    first_anchored: 2026-09-24\n'
        '    status: new\n    cited_in: ["2026-09-24"]\n'
    )


def check(text: str, tmp: Path, services: Services):
    reg = parse_text(text.encode(), str(tmp / "registry.yaml"))
    return asyncio.run(check_online(reg, TODAY, services))


def test_near_miss_title_is_a_mismatch_and_tolerated_forms_are_not(tmp_path: Path) -> None:
    text = "version: 1\nanchors:\n" + "".join(
        [
            entry("arxiv", "1706.03762", 'title: "ATTENTION IS ALL YOU NEED."'),
            entry(
                "arxiv",
                "2309.06180",
                'title: "Efficient Memory Management for Large Language '
                'Model Training with PagedAttention"',
            ),
            entry("arxiv", "2312.07104", 'title: "SGLang · 结构化生成 RadixAttention"'),
        ]
    )
    with load("arxiv/batch-three-ids").serve() as srv:  # no title search: max_searches=0
        ax = ArxivResolver(srv.url("/api/query"), delay=0, max_searches=0)
        result = check(text, tmp_path, Services(arxiv=ax))
    got = [(f.code, f.anchor) for f in result.findings]
    assert got == [(Code.TITLE_MISMATCH, "2309.06180")]
    out = json.loads(rjson.check_result(result))["findings"][0]
    assert out["claimed"].endswith("Model Training with PagedAttention")
    assert out["actual"] == (
        "Efficient Memory Management for Large Language Model Serving with PagedAttention"
    )


def test_chinese_only_title_is_said_to_be_unconfirmable(tmp_path: Path) -> None:
    text = "version: 1\nanchors:\n" + entry("arxiv", "1706.03762", 'title: "注意力机制论文"')
    with load("arxiv/withdrawn").serve() as srv:
        result = check(
            text, tmp_path, Services(arxiv=ArxivResolver(srv.url("/api/query"), delay=0))
        )
    f = next(f for f in result.findings if f.code is Code.TITLE_MISMATCH)
    assert "no English title to confirm" in f.message and f.details["claimed"] == "注意力机制论文"
