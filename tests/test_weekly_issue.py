"""The weekly report as the rolling GitHub issue shows it: within GitHub's size limit in a bad
week, one story across its tables (a soft 404 is gone, one meaning of "flaky", one spelling of a
target, one date a link died), links a reader can click, tables that fit the page."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from datetime import UTC, datetime
from html import unescape
from pathlib import Path

import cmarkgfm
import pytest
from cmarkgfm.cmark import Options
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from anchors.cli.app import app
from anchors.findings import Outcome
from anchors.history import History, Observation
from anchors.ids.model import WebUrl
from anchors.ids.urls import key_from_url
from anchors.render.budget import ISSUE_LIMIT, Part, fit, size

from .examples import examples

DAY = 86400.0
T0 = datetime(2026, 9, 20, 6, 0, tzinfo=UTC).timestamp()
NOW = "2026-09-30T00:00Z"
GITHUB_LIMIT = 65_536


def entry(url: str, title: str = "", section: str = "§1.3 KV Cache") -> str:
    return (
        f'  - url: "{url}"\n'
        + (f'    title: "{title}"\n' if title else "")
        + f'    first_anchored: 2026-09-20\n    status: new\n    section: "{section}"\n'
        '    cited_in: ["2026-09-20"]\n'
    )


def write_history(tmp: Path, entries: str, runs: Sequence[tuple[float, list[Observation]]]) -> Path:
    """A registry and a history of the given runs, each (time, rows)."""
    reg = tmp / "registry.yaml"
    reg.write_text("version: 1\nanchors:\n" + entries, encoding="utf-8")
    h = History(tmp / ".anchors" / "history.sqlite")
    for at, rows in runs:
        run = h.start_run(str(reg), at)
        h.record(run, rows)
        h.finish_run(run, True, at)
    h.close()
    return reg


def row(url: str, outcome: str, at: float, **kw: object) -> Observation:
    """A result as `check` records it: a page by its canonical URL, an issue or PR by its key
    (looked up through the API)."""
    return Observation(key_from_url(url), url, Outcome(outcome), checked_at=at, **kw)  # type: ignore[arg-type]


def report(reg: Path, *args: str) -> tuple[int, str]:
    r = CliRunner().invoke(app, ["report", "-r", str(reg), "--now", NOW, *args])
    return r.exit_code, r.stdout


def html(md: str) -> str:
    return cmarkgfm.github_flavored_markdown_to_html(md, options=Options.CMARK_OPT_UNSAFE)


@pytest.mark.slow
def test_a_bad_week_fits_a_github_issue_and_says_where_the_rest_is(tmp_path: Path) -> None:
    """400 dead links with long titles and 300 changes made a body GitHub refuses: now every
    section is there, short ones whole, long ones cut with a count and a pointer."""
    urls = [f"https://docs.example/文档/{'长' * 20}/{i}" for i in range(400)]
    title = "A long title about serving large language models on many machines " * 2
    moved = [f"https://blog.example/post/{i}" for i in range(3)]
    entries = "".join(entry(u, title) for u in urls) + "".join(entry(u) for u in moved)
    runs = [
        (
            T0 + n * DAY,
            [row(u, "ok" if n < 5 else "dead", T0 + n * DAY, status=404) for u in urls]
            + [row(u, "redirect", T0 + n * DAY, status=301, final_url=u + "/new") for u in moved],
        )
        for n in range(9)
    ]
    reg = write_history(tmp_path, entries, runs)
    code, md = report(reg)
    assert code == 1
    assert size(md) <= ISSUE_LIMIT < GITHUB_LIMIT
    for heading in ("### Newly dead", "### Redirected", "### What changed (400)", "### Trend"):
        assert heading in md
    # the three redirects are shown whole beside 400 dead links; the long tables say what is cut
    assert md.count("blog.example/post/") >= 3
    cut = re.findall(
        r"\*(\d+) more (link|change)s not shown here: see the full report, (.*)\.\*", md
    )
    assert {kind for _, kind, _ in cut} == {"link", "change"}
    shown = md.split("### Newly dead")[1].split("###")[0].count("| [docs.example")
    assert int(next(n for n, kind, _ in cut if kind == "link")) == 400 - shown
    assert "anchors report -r" in cut[0][2] and "--format json" in cut[0][2]
    # the JSON report keeps every row
    _, doc = report(reg, "-f", "json")
    assert len([r for r in json.loads(doc)["rows"] if r["section"] == "newly-dead"]) == 400


def test_the_cut_names_the_full_report_the_workflow_keeps(tmp_path: Path) -> None:
    from anchors.render import REPORT, Target, render
    from anchors.report.weekly import build

    urls = [f"https://docs.example/{i}" for i in range(2000)]
    rows = [row(u, "dead", T0 + 8 * DAY, status=404) for u in urls]
    rep = build(rows, datetime.fromisoformat(NOW).timestamp())
    link = "https://github.com/o/r/actions/runs/1#artifacts"
    md = render(REPORT, "markdown", rep, Target(None, registry="r.yaml", full_report=link))
    assert size(md) <= ISSUE_LIMIT
    assert f"not shown here: see [the full report](<{link}>)." in md


@settings(max_examples=examples(200), deadline=None)
@given(
    parts=st.lists(
        st.tuples(
            st.lists(st.text(min_size=0, max_size=40), max_size=3),
            st.lists(st.text(min_size=1, max_size=300), max_size=60),
        ),
        min_size=1,
        max_size=8,
    ),
    limit=st.integers(min_value=2000, max_value=20000),
)
def test_any_parts_fit_the_limit_and_keep_a_prefix_of_each(
    parts: list[tuple[list[str], list[str]]], limit: int
) -> None:
    """The cap holds for any section a later issue adds (the living document, claims news):
    whatever the parts, the text is within the limit, and each part shows its first rows."""
    ps = [
        Part(tuple(h), tuple(r.replace("\n", " ") for r in rows), name=f"P{i}")
        for i, (h, rows) in enumerate(parts)
    ]
    text = fit(ps, limit, "the full report")
    assert size(text) <= limit
    for p in ps:
        shown = [r for r in p.rows if r in text.split("\n")]
        assert p.rows[: len(shown)] == tuple(shown) or len(set(p.rows)) < len(p.rows)


def test_a_short_section_is_shown_whole_beside_a_long_one() -> None:
    long = Part(("### Long",), tuple(f"| row {i} {'x' * 100} |" for i in range(2000)))
    short = Part(("### Short",), ("| a |", "| b |", "| c |"))
    later = Part(("### Later",), tuple(f"| later {i} {'y' * 100} |" for i in range(2000)))
    text = fit([long, short, later], 60_000, "p")
    assert "| a |\n| b |\n| c |" in text
    kept = [text.count("| row "), text.count("| later ")]
    # shared alike (rows of about one size), and the budget is used
    assert abs(kept[0] - kept[1]) <= max(kept) // 50 and sum(kept) > 400
    assert fit([short], 60_000, "p") == "### Short\n| a |\n| b |\n| c |\n"


def test_a_soft_404_is_flagged_in_the_report_and_its_json(tmp_path: Path) -> None:
    """`check` says a redirect to the site's home page is "probably gone"; the report did not."""
    gone, moved = "https://blog.example/2024/post", "https://docs.example/old"
    reg = write_history(
        tmp_path,
        entry(gone) + entry(moved),
        [
            (
                T0 + 8 * DAY,
                [
                    row(
                        gone,
                        "redirect",
                        T0 + 8 * DAY,
                        status=301,
                        final_url="https://blog.example/",
                    ),
                    row(moved, "redirect", T0 + 8 * DAY, status=301, final_url=moved + "/new"),
                ],
            )
        ],
    )
    _, md = report(reg)
    line = next(ln for ln in md.splitlines() if "blog.example/2024/post" in ln)
    assert "probably gone" in line and "home page" in line
    assert "probably gone" not in next(ln for ln in md.splitlines() if "docs.example/old" in ln)
    _, doc = report(reg, "-f", "json")
    flags = {r["target"]: r["soft_404"] for r in json.loads(doc)["rows"]}
    assert flags == {gone: "redirects to the site's home page", moved: None}


def test_flaky_means_one_thing_on_the_page(tmp_path: Path) -> None:
    """The Flaky section is a link that failed and worked in turn; the trend's middle line is
    what failed without being found dead: it is called "failing", in Markdown and JSON."""
    u = "https://docs.example/limited"
    reg = write_history(
        tmp_path,
        entry(u),
        [(T0 + n * DAY, [row(u, "rate-limited", T0 + n * DAY, status=429)]) for n in range(8)],
    )
    _, md = report(reg)
    trend = md[md.index("### Trend") :]
    assert "flaky" not in trend.lower() and '"failing"' in trend and "| failing |" in trend
    _, doc = report(reg, "-f", "json")
    assert [p["failing"] for p in json.loads(doc)["trend"]][-1] == 1


def test_a_target_is_spelt_one_way_in_every_table(tmp_path: Path) -> None:
    """A percent-encoded path in one table and Chinese in another; the encoded one did not
    wrap. Both tables show the characters, and link to the address."""
    written = "https://docs.example/框架/格局"
    encoded = "https://docs.example/%E6%A1%86%E6%9E%B6/%E6%A0%BC%E5%B1%80"
    reg = write_history(
        tmp_path,
        entry(written),
        [
            (
                T0 + n * DAY,
                [
                    Observation(
                        WebUrl(encoded),
                        written,
                        Outcome.OK if n < 7 else Outcome.DEAD,
                        404 if n >= 7 else 200,
                        checked_at=T0 + n * DAY,
                    )
                ],
            )
            for n in range(9)
        ],
    )
    _, md = report(reg)
    dead = md.split("### Newly dead")[1].split("###")[0]
    changed = md.split("### What changed")[1].split("### Trend")[0]
    for table in (dead, changed):
        assert "[docs.example/框架/格局](<" in table
    assert "%E6" not in re.sub(r"\]\(<[^>]*>\)", "", md)  # only inside link destinations


def test_dead_since_is_when_what_changed_says_it_died(tmp_path: Path) -> None:
    """A timeout says the check could not tell; the link died at its first 404."""
    u = "https://docs.example/page"
    outcomes = ["ok"] * 5 + ["unreachable", "unreachable", "dead", "dead"]
    reg = write_history(
        tmp_path,
        entry(u),
        [
            (T0 + n * DAY, [row(u, o, T0 + n * DAY, status=404 if o == "dead" else None)])
            for n, o in enumerate(outcomes)
        ],
    )
    _, md = report(reg)
    died = re.search(r"\| died \| .* \| (\d{4}-\d\d-\d\d) \|", md)
    assert died is not None and died[1] == "2026-09-27"
    dead_row = next(ln for ln in md.splitlines() if ln.startswith("| [docs.example/page]"))
    assert dead_row.split(" | ")[2] == "2026-09-27"  # dead since
    _, doc = report(reg, "-f", "json")
    assert json.loads(doc)["rows"][0]["dead_since"] == "2026-09-27T06:00:00Z"


def test_dead_links_are_clickable_except_github_issues_and_prs(tmp_path: Path) -> None:
    """A link to an issue or PR from the rolling issue would post a cross-reference into that
    tracker (DECISIONS), so those stay code; every other dead link is a link."""
    page = "https://docs.example/gone"
    issue = "https://github.com/octo/repo/issues/7"
    pull = "https://github.com/octo/repo/pull/8/files"
    urls = [page, issue, pull]
    # a page that moved to a discussion thread: its new address is a mention too
    moved = "https://docs.example/forum"
    thread = "https://github.com/octo/repo/discussions/9"
    reg = write_history(
        tmp_path,
        "".join(entry(u) for u in [*urls, moved]),
        [
            (
                T0 + n * DAY,
                [row(u, "ok" if n < 7 else "dead", T0 + n * DAY, status=404) for u in urls]
                + [row(moved, "redirect", T0 + n * DAY, status=301, final_url=thread)],
            )
            for n in range(9)
        ],
    )
    _, md = report(reg)
    out = html(md)
    hrefs = re.findall(r'<a href="([^"]*)"', out)
    assert page in hrefs and moved in hrefs
    assert not [h for h in hrefs if "github.com/octo" in h and "web.archive.org" not in h]
    for shown in ("issues/7", "pull/8/files", "discussions/9"):
        assert f"<code>github.com/octo/repo/{shown}</code>" in out


def test_tables_have_at_most_five_columns(tmp_path: Path) -> None:
    """Eight columns needed a horizontal scroll bar on an issue page."""
    u = "https://docs.example/p"
    reg = write_history(
        tmp_path,
        entry(u, "T"),
        [
            (T0 + n * DAY, [row(u, ["ok", "dead"][n % 2], T0 + n * DAY, status=404)])
            for n in range(9)
        ],
    )
    _, md = report(reg)
    heads = re.findall(r"^\|(?:---\|)+$", md, re.MULTILINE)
    assert heads and max(h.count("---") for h in heads) <= 5


@pytest.mark.parametrize("n", [1, 2, 8, 14, 30])
def test_the_trend_chart_has_at_most_twelve_short_unique_labels(tmp_path: Path, n: int) -> None:
    """Labels overlapped from ~14 runs (from 8 with times): more runs than fit are days or
    weeks. (tests/consumers/test_mermaid.py draws it and measures the labels.)"""
    u = "https://docs.example/p"
    step = 27 * DAY / n if n > 12 else DAY
    last = T0 + 9 * DAY
    runs = [(last - i * step, [row(u, "ok", last - i * step)]) for i in reversed(range(n))]
    reg = write_history(tmp_path, entry(u), runs)
    _, md = report(reg)
    x = re.search(r"x-axis \[(.*)\]", md)
    assert x is not None
    labels = re.findall(r'"([^"]*)"', x[1])
    assert 1 <= len(labels) <= 12 and len(set(labels)) == len(labels)
    assert max(len(label) for label in labels) <= 11


def test_two_runs_in_the_same_minute_are_two_points_of_the_trend(tmp_path: Path) -> None:
    """Runs 20 s apart were two identical trend rows ("09-28 06:00" twice), one of them wrong."""
    u = "https://docs.example/p"
    at = T0 + 8 * DAY
    reg = write_history(
        tmp_path,
        entry(u),
        [(at, [row(u, "ok", at)]), (at + 20, [row(u, "dead", at + 20, status=404)])],
    )
    _, md = report(reg)
    trend = md[md.index("### Trend") :]
    x = re.search(r"x-axis \[(.*)\]", trend)
    assert x is not None
    labels = re.findall(r'"([^"]*)"', x[1])
    assert len(labels) == 2 and labels[0] != labels[1]
    rows = re.findall(r"^\| (20[^|]*?) \| (\d+) \| (\d+) \| (\d+) \|$", trend, re.MULTILINE)
    assert len({r[0] for r in rows}) == 2, rows  # two rows a reader tells apart
    assert [r[0] for r in rows] == ["2026-09-28 06:00:00", "2026-09-28 06:00:20"]
    assert [r[1:] for r in rows] == [("1", "0", "0"), ("0", "0", "1")]


#: what GitHub links in an issue's text: `#N`, `owner/repo#N`, `GH-N` (any case)
_REFERENCE = re.compile(r"(?:[\w.-]+/[\w.-]+)?#\d+|\bGH-\d+", re.IGNORECASE)


def test_issue_references_in_the_weekly_issue_render_as_plain_text(tmp_path: Path) -> None:
    """A title or section naming `#123`, `GH-42` or `vllm-project/vllm#9120` would post a
    cross-reference into that tracker from the rolling issue: cmark-gfm shows them as written,
    and no reference is left for GitHub to link."""
    said = "Fixes #123, GH-42 and gh-7, see vllm-project/vllm#9120"
    u, moved = "https://docs.example/p", "https://docs.example/q"
    reg = write_history(
        tmp_path,
        entry(u, said, "§1 #4 in GH-5") + entry(moved, said),
        [
            (
                T0 + n * DAY,
                [
                    row(u, "ok" if n < 7 else "dead", T0 + n * DAY, status=404),
                    row(moved, "redirect", T0 + n * DAY, status=301, final_url=moved + "/new"),
                ],
            )
            for n in range(9)
        ],
    )
    _, md = report(reg)
    out = html(md)
    text = unescape(re.sub(r"<code>.*?</code>|<[^>]+>", " ", out, flags=re.DOTALL))
    read = text.replace("\u2060", "")  # a word joiner is invisible: it reads as written
    assert read.count(said) >= 3 and "§1 #4 in GH-5" in read
    assert _REFERENCE.findall(text) == [], _REFERENCE.findall(text)
    assert len(_REFERENCE.findall(read)) >= 12  # what GitHub would link without the joiner
    assert not [h for h in re.findall(r'href="([^"]*)"', out) if "/issues/" in h]


def test_a_day_of_many_runs_is_drawn_in_periods_that_count_every_run(tmp_path: Path) -> None:
    """30 runs in one day showed the last 6 only, in the chart and its table: now the day's
    hours, each the state after its last run, every run counted."""
    u = "https://docs.example/p"
    last = T0 + 9 * DAY  # 09-29 06:00
    times = [last - i * 600 for i in reversed(range(30))]  # from 01:10, every 10 minutes
    runs = [(t, [row(u, "dead" if i < 3 else "ok", t, status=404)]) for i, t in enumerate(times)]
    reg = write_history(tmp_path, entry(u), runs)
    _, md = report(reg)
    trend = md[md.index("### Trend") :]
    x = re.search(r"x-axis \[(.*)\]", trend)
    assert x is not None
    labels = re.findall(r'"([^"]*)"', x[1])
    assert labels == [f"09-29 0{h}:00" for h in range(1, 7)]
    rows = re.findall(r"^\| (2026-[^|]*?) \| (\d+) \| (\d+) \| (\d+) \|$", trend, re.MULTILINE)
    assert rows[0] == ("2026-09-29 01:00–02:00 (5 runs)", "1", "0", "0")
    assert rows[-1] == ("2026-09-29 06:00", "1", "0", "0")  # one run: its time
    counted = [int(m[1]) if (m := re.search(r"\((\d+) runs\)", r[0])) else 1 for r in rows]
    assert sum(counted) == 30
    assert "Anchors at each 1-hour period" in trend


def test_the_docs_excerpt_is_the_report_as_it_is() -> None:
    """docs/commands.md quoted an old report (eight columns, links as code) as "real"."""
    root = Path(__file__).resolve().parents[1]
    page = (root / "docs" / "commands.md").read_text(encoding="utf-8")
    m = re.search(r"\(`tests/golden/report\.md`\):\n\n```markdown\n(.*?)```\n", page, re.DOTALL)
    assert m is not None
    golden = (root / "tests" / "golden" / "report.md").read_text(encoding="utf-8")
    assert "### Newly dead" in m[1] and golden.startswith(m[1])
