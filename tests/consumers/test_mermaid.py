"""The weekly report's trend chart drawn by the real Mermaid in headless Chromium: every x-axis
label is drawn, and no two overlap, at any number of runs (they overlapped from ~14 runs, and
from 8 when labels carried a time)."""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from anchors.cli.app import app

from ..test_weekly_issue import DAY, NOW, T0, entry, row, write_history
from .browser import run_page
from .tools import node_file

#: runs a consumer program (the slow tier: .ci/run, not a plain `pytest`)
pytestmark = pytest.mark.slow

_PAGE = """<!doctype html><html><body><div id="out"></div><pre id="result">pending</pre>
<script src="MERMAID"></script>
<script>
const charts = CHARTS;
async function main() {
  mermaid.initialize({startOnLoad: false});
  const found = [];
  for (const [i, code] of charts.entries()) {
    const div = document.createElement('div');
    document.getElementById('out').appendChild(div);
    const {svg} = await mermaid.render('chart' + i, code);
    div.innerHTML = svg;
    const el = div.querySelector('svg');
    const box = el.getBoundingClientRect();
    const labels = [...el.querySelectorAll('g.bottom-axis g.label text')].map(t => {
      const b = t.getBoundingClientRect();
      return [t.textContent, b.left - box.left, b.right - box.left, b.width];
    });
    found.push({labels, width: box.width});
  }
  return found;
}
main().then(r => { document.getElementById('result').textContent = JSON.stringify(r); })
      .catch(e => { document.getElementById('result').textContent = 'ERROR ' + e; });
</script></body></html>"""


def draw(charts: list[str], tmp: Path) -> list[dict[str, object]]:
    mermaid = node_file("mermaid/dist/mermaid.min.js")
    page = _PAGE.replace("MERMAID", mermaid.as_uri()).replace("CHARTS", json.dumps(charts))
    got: list[dict[str, object]] = run_page(page, tmp)
    return got


def overlaps(labels: list[list[object]]) -> list[tuple[str, str]]:
    """Neighbouring labels whose boxes touch (2 px apart at least, as a reader needs)."""
    boxes = sorted((float(str(a)), float(str(b)), str(t)) for t, a, b, _ in labels)
    return [(p[2], q[2]) for p, q in itertools.pairwise(boxes) if q[0] < p[1] + 2]


def chart_of(md: str) -> str:
    m = re.search(r"```mermaid\n(.*?)```", md, re.DOTALL)
    assert m is not None
    return m[1]


def history_of(tmp: Path, times: list[float]) -> str:
    u = "https://docs.example/p"
    runs = [
        (t, [row(u, ["ok", "dead", "unreachable"][i % 3], t, status=404)])
        for i, t in enumerate(times)
    ]
    reg = write_history(tmp, entry(u), runs)
    # a window holding every run (the default 14 days would drop the older ones)
    r = CliRunner().invoke(app, ["report", "-r", str(reg), "--now", NOW, "--since", "200d"])
    assert r.exit_code in (0, 1), r.output
    assert f"; {len(times)} run{'s' if len(times) > 1 else ''} between" in r.stdout
    return chart_of(r.stdout)


LAST = T0 + 9 * DAY
SHAPES = {
    "1 run": [LAST],
    "2 runs in one minute": [LAST - 10, LAST],
    "6 runs in one day": [LAST - i * 3600 for i in reversed(range(6))],
    "8 runs over 2 days": [LAST - i * 6 * 3600 for i in reversed(range(8))],
    "12 daily runs": [LAST - i * DAY for i in reversed(range(12))],
    "14 daily runs": [LAST - i * DAY for i in reversed(range(14))],
    "30 runs in 27 days": [LAST - i * 0.9 * DAY for i in reversed(range(30))],
    "30 runs in 3 days": [LAST - i * 2.4 * 3600 for i in reversed(range(30))],
    "30 runs in one day": [LAST - i * 600 for i in reversed(range(30))],
    "31 runs in one hour": [LAST - i * 100 for i in reversed(range(31))],
    "60 runs in 60 days": [LAST - i * DAY for i in reversed(range(60))],
    "150 runs in 150 days": [LAST - i * DAY for i in reversed(range(150))],
}


def test_the_trend_chart_is_readable_at_any_number_of_runs(tmp_path: Path) -> None:
    charts = {}
    for i, (name, times) in enumerate(SHAPES.items()):
        folder = tmp_path / str(i)
        folder.mkdir()
        charts[name] = history_of(folder, times)
    drawn = draw(list(charts.values()), tmp_path)
    for (name, code), got in zip(charts.items(), drawn, strict=True):
        labels = got["labels"]
        assert isinstance(labels, list)
        written = re.findall(r'"([^"]*)"', re.search(r"x-axis \[(.*)\]", code)[1])  # type: ignore[index]
        assert [t for t, *_ in labels] == written, name  # every label drawn, in order
        assert not overlaps(labels), (name, overlaps(labels))
        assert all(
            0 <= float(a) and float(b) <= float(str(got["width"])) for _, a, b, _ in labels
        ), name


def test_the_overlap_check_can_fail(tmp_path: Path) -> None:
    """The measurement sees what the old chart did: 30 runs with timed labels overlap."""
    labels = ", ".join(f'"09-{1 + i // 4:02d} {i % 4 * 6:02d}:00"' for i in range(30))
    ones = ", ".join(["1"] * 30)
    crowded = f"xychart-beta\n    x-axis [{labels}]\n    y-axis 0 --> 5\n    line [{ones}]\n"
    (got,) = draw([crowded], tmp_path)
    assert isinstance(got["labels"], list) and len(got["labels"]) == 30
    assert overlaps(got["labels"])
