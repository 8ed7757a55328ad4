"""`add`'s output in everyday use, and every `add` merge and render path linear in its input.

In a pipe: one line per anchor (`grep URL` finds it whole), as `check` does; on a terminal: only
what changed, and how many did not. Complexity is guarded by counting work (tests/work.py) at n
and 2n citations, on several shapes of input: many URLs on one host, every kind mixed, a
briefing continued into the registry, and a briefing added again that is already recorded.
"""

from __future__ import annotations

import io
import itertools
import shutil
from collections.abc import Callable
from dataclasses import fields, replace
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from anchors.cli.app import app
from anchors.extract import extract
from anchors.merging.merge import MergeResult, add
from anchors.render import ADD, Target, render

from .work import Key, work

ROOT = Path(__file__).resolve().parent.parent
SEED = ROOT / "briefings" / "2026-09-24-inference-e1.md"
TODAY = date(2026, 12, 2)


def _run(*args: str) -> Any:
    return CliRunner().invoke(app, ["add", "--today", "2026-12-02", *args])


def test_in_a_pipe_each_anchor_is_one_line_that_grep_finds(tmp_path: Path) -> None:
    """The 80-column table wrapped URLs over up to 7 lines and cut sections to `§1.…`."""
    reg = tmp_path / "registry.yaml"
    r = _run(str(SEED), "-r", str(reg))
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    url = (
        "https://cloud.google.com/blog/products/compute/"
        "ai-inference-recipe-using-nvidia-dynamo-with-ai-hypercomputer"
    )
    [hit] = [ln for ln in lines if url in ln]
    assert (
        hit == f'{SEED}:86: added {url} §1.1 框架格局 "NVIDIA Dynamo 1.0 — PD Disagg 最新支持矩阵"'
    )
    added = [ln for ln in lines if ": added " in ln]
    assert len(added) == 43 and all(ln.startswith(f"{SEED}:") for ln in added)
    assert f"{SEED}:169: added 2609.18063 §1.3 KV Cache " in r.stdout  # sections whole


def test_on_a_terminal_only_what_changed_and_a_count_of_the_rest(tmp_path: Path) -> None:
    reg = tmp_path / "registry.yaml"
    shutil.copy(ROOT / "registry.yaml", reg)
    again = _run(str(SEED), "-r", str(reg), "-f", "text", "--dry-run")
    assert again.exit_code == 0, again.output
    out = again.stdout
    assert out.startswith("43 anchors unchanged (already recorded)\n\n")  # no row reprinted
    assert " added " not in out and "2609.18063 §" not in out
    later = tmp_path / "2026-10-01-notes.md"
    later.write_text(
        "# Notes (2026-10-01)\n\n## §1.3 KV Cache\n\n- arXiv:2609.18063\n"
        "- [New post](https://example.org/new)\n",
        encoding="utf-8",
    )
    width = len(str(later)) + 80
    r = CliRunner().invoke(
        app,
        ["add", str(later), "-r", str(reg), "-f", "text", "--dry-run"],
        env={"COLUMNS": str(width)},
    )
    continued, added = r.stdout.splitlines()
    assert continued.startswith(f'{later}:5: continued 2609.18063 §1.3 KV Cache  "Edge0: Serving')
    assert continued.endswith('…"') and len(continued) <= width  # the title clipped to fit
    assert added == f'{later}:6: added https://example.org/new  "New post"'


def _one_host(n: int) -> str:
    return "".join(f"- [Post {i}](https://blog.example.com/posts/{i})\n" for i in range(n))


def _mixed(n: int) -> str:
    kinds = (
        lambda i: f"- arXiv:2609.{10000 + i:05d} Paper {i}\n",
        lambda i: f"- https://github.com/owner{i % 7}/repo/issues/{i + 1}\n",
        lambda i: f"- doi:10.1000/paper.{i}\n",
        lambda i: f"- [Page {i}](https://site{i % 97}.example.org/p/{i})\n",
    )
    return "".join(kinds[i % 4](i) for i in range(n))


def _briefing(body: str, day: str) -> Any:
    return extract(
        f"# Notes ({day})\n\n## §1.3 KV Cache\n\n{body}", f"{day}-notes.md", date.fromisoformat(day)
    )


#: each shape: the briefing's body for n citations, and whether the registry already holds them
#: ("new": an empty registry; "continued": cited a day before; "again": the same briefing again)
SHAPES: dict[str, tuple[Callable[[int], str], str]] = {
    "one host": (_one_host, "new"),
    "mixed kinds": (_mixed, "new"),
    "continued": (_mixed, "continued"),
    "up to date": (_mixed, "again"),
}


_RUNS = itertools.count()


def _merge(tmp: Path, shape: str, n: int, dry_run: bool = True) -> Callable[[], MergeResult]:
    """The `add` of `shape` at `n` citations, ready to run (its registry prepared)."""
    body, state = SHAPES[shape]
    reg = tmp / f"{shape}-{n}-{next(_RUNS)}.yaml"
    first = _briefing(body(n), "2026-09-24")
    if state != "new":
        add(reg, [first], TODAY)
    b = first if state == "again" else _briefing(body(n), "2026-09-25")
    return lambda: add(reg, [b], TODAY, dry_run=dry_run)


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _keyed(r: MergeResult) -> MergeResult:
    """`r` with counting keys wherever it holds anchor keys, so a list searched per key shows
    (tests/work.py)."""
    k = {key: Key(key) for key in r.entries}

    def swap(v: Any) -> Any:
        if isinstance(v, dict) and v.keys() <= k.keys():
            return {k[key]: x for key, x in v.items()}
        if isinstance(v, list) and all(isinstance(x, str) for x in v):
            return [k.get(x, x) for x in v]
        return v

    return replace(r, **{f.name: swap(getattr(r, f.name)) for f in fields(r)})


def _ratio(cost: Callable[[int], int], n: int = 200) -> float:
    cost(n)  # imports and first-use caches do not count
    return cost(2 * n) / cost(n)


@pytest.fixture(scope="module")
def merged(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str, int], MergeResult]:
    """The dry-run `add` of each shape and size, merged once for the module: the rendering
    tests of its three formats only read it (the merge itself is timed by
    test_merging_is_linear)."""
    tmp = tmp_path_factory.mktemp("merged")
    done: dict[tuple[str, int], MergeResult] = {}

    def get(shape: str, n: int) -> MergeResult:
        if (shape, n) not in done:
            done[shape, n] = _merge(tmp, shape, n)()
        return done[shape, n]

    return get


@pytest.mark.parametrize("fmt", ["json", "concise", "text"])
@pytest.mark.parametrize("shape", list(SHAPES))
@pytest.mark.slow
def test_rendering_add_is_linear(
    merged: Callable[[str, int], MergeResult], shape: str, fmt: str
) -> None:
    """Twice the citations, at most 2.2 times the work: `key in r.added` (a list) made the
    JSON and the table quadratic."""

    def cost(n: int) -> int:
        r = _keyed(merged(shape, n))
        out = _Terminal() if fmt == "text" else io.StringIO()
        return work(lambda: render(ADD, fmt, r, Target(out, dry_run=True)))

    assert _ratio(cost) <= 2.2


@pytest.mark.parametrize("dry_run", [True, False])
@pytest.mark.parametrize("shape", list(SHAPES))
@pytest.mark.slow
def test_merging_is_linear(tmp_path: Path, shape: str, dry_run: bool) -> None:
    """Load, merge and (unless a dry run) splice and write: 2n citations, at most 2.2x the work."""
    assert _ratio(lambda n: work(_merge(tmp_path, shape, n, dry_run))) <= 2.2


@pytest.mark.slow
def test_the_terminal_output_costs_about_what_the_json_does(tmp_path: Path) -> None:
    """The rich table cost ~17x the JSON's work; the changed-only lines cost no more than it."""
    r = _merge(tmp_path, "mixed kinds", 400)()
    render(ADD, "text", r, Target(_Terminal()))
    text = work(lambda: render(ADD, "text", r, Target(_Terminal())))
    json_ = work(lambda: render(ADD, "json", r, Target(io.StringIO())))
    assert text <= 1.5 * json_
