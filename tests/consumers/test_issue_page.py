"""The weekly report laid out as an issue page lays it out: cmark-gfm's HTML (GitHub's own
Markdown parser) in headless Chromium, with the table rules of GitHub's stylesheet (a table is a
block as wide as its content, at most the page, scrolling beyond), in an issue body's width.

Every table fits without a horizontal scroll bar; the old eight-column tables did not.
"""

from __future__ import annotations

import json
from pathlib import Path

import cmarkgfm
import pytest
from cmarkgfm.cmark import Options
from typer.testing import CliRunner

from anchors.cli.app import app

from ..test_weekly_issue import DAY, NOW, T0, entry, row, write_history
from .browser import run_page

#: runs a consumer program (the slow tier: .ci/run, not a plain `pytest`)
pytestmark = pytest.mark.slow

#: an issue comment's body on a desktop page: about 760 px wide, 14 px text
_STYLE = """
body { width: 760px; margin: 0; font: 14px/1.5 -apple-system, "Segoe UI", "Noto Sans",
       Helvetica, Arial, sans-serif; overflow-wrap: break-word; }
table { display: block; width: max-content; max-width: 100%; overflow: auto;
        border-spacing: 0; border-collapse: collapse; }
td, th { padding: 6px 13px; border: 1px solid #d1d9e0; }
code { font: 12px monospace; white-space: break-spaces; padding: .2em .4em; }
"""
_SCRIPT = """
const tables = [...document.querySelectorAll('table')].map(t =>
  [t.scrollWidth, t.clientWidth, t.querySelector('tr').textContent.trim().slice(0, 60)]);
document.getElementById('result').textContent = JSON.stringify(tables);
"""


def widths(md: str, tmp: Path) -> list[list[object]]:
    body = cmarkgfm.github_flavored_markdown_to_html(md, options=Options.CMARK_OPT_UNSAFE)
    page = (
        f"<!doctype html><html><head><meta charset='utf-8'><style>{_STYLE}</style></head>"
        f"<body>{body}<pre id='result'>pending</pre><script>{_SCRIPT}</script></body></html>"
    )
    got: list[list[object]] = run_page(page, tmp)
    return got


def test_every_table_of_a_bad_week_fits_an_issue_without_scrolling(tmp_path: Path) -> None:
    pages = [f"https://docs.example/文档/{'框架格局' * 8}/{i}" for i in range(30)]
    encoded = [
        f"https://wiki.example/{'%E6%A1%86%E6%9E%B6%E6%A0%BC%E5%B1%80' * 3}-{i}" for i in range(5)
    ]
    long_word = "https://example.org/" + "a" * 150
    issue = "https://github.com/some-organisation/some-repository-name/issues/12345"
    title = (
        "Serving large language models: a survey of paged attention and speculative decoding " * 2
    )
    urls = [*pages, *encoded, long_word, issue]
    moved = "https://blog.example/2024/a-post-with-a-rather-long-name-about-kv-cache-offload"
    entries = "".join(entry(u, title, "§1.4 推理可靠性与可观测性") for u in urls) + entry(
        moved, title
    )
    runs = [
        (
            T0 + n * DAY,
            [
                row(
                    u,
                    "ok" if n < 6 else ["dead", "unreachable"][i % 2],
                    T0 + n * DAY,
                    status=404,
                    error="HTTP 404 Not Found: the server says the page does not exist",
                )
                for i, u in enumerate(urls)
            ]
            + [row(moved, "redirect", T0 + n * DAY, status=301, final_url="https://blog.example/")],
        )
        for n in range(9)
    ]
    reg = write_history(tmp_path, entries, runs)
    md = CliRunner().invoke(app, ["report", "-r", str(reg), "--now", NOW]).stdout
    got = widths(md, tmp_path)
    assert len(got) >= 5  # newly dead, not dead, redirected, what changed, trend
    wide = [
        (head, scroll, client)
        for scroll, client, head in got
        if int(str(scroll)) > int(str(client))
    ]
    assert not wide, json.dumps(wide, ensure_ascii=False)


def test_the_width_check_sees_a_table_that_scrolls(tmp_path: Path) -> None:
    """The old layout: eight columns and a percent-encoded link that cannot wrap."""
    cells = [
        "`https://wiki.example/%E6%A1%86%E6%9E%B6%E6%A0%BC%E5%B1%80`",
        "2026-09-21",
        "2026-09-20",
        "3 of 3",
        "HTTP 404",
        "§1.4",
        "A title",
        "2026-09-20, 2026-09-24",
    ]
    md = (
        "| "
        + " | ".join(f"h{i}" for i in range(8))
        + " |\n|"
        + "---|" * 8
        + "\n| "
        + " | ".join(cells)
        + " |\n"
    )
    (table,) = widths(md, tmp_path)
    assert int(str(table[0])) > int(str(table[1]))
