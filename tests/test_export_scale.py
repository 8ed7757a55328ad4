"""Export grows with the work: the calls made to export 2n entries are at most 2.2x those for n,
in every format (counted, not timed: bench/export.py times them against `check --offline`)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from datetime import date
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from anchors.export import collect
from anchors.net.cache import Cache
from anchors.registry.loader import load
from anchors.render import EXPORT, Target, render


def registry(tmp: Path, n: int) -> Path:
    """n entries of every kind, a third with cached metadata (authors, venue, pages)."""
    lines = ["version: 1\nanchors:\n"]
    cache = Cache(tmp / ".anchors" / "cache.json")
    for i in range(n):
        kind = i % 3
        if kind == 0:
            lines.append(f'  - arxiv: "2309.{10000 + i:05d}"\n    title: "Paper {i}"\n')
            cache.put(
                f"arxiv:2309.{10000 + i:05d}",
                {
                    "outcome": "ok",
                    "title": f"A paper about fp8_e4m3 and --flags #{i}",
                    "authors": ["Alice Author", "Bob B. Builder", "Chen, Li"],
                    "published": "2023-09-12",
                    "journal_ref": f"J. Things {i}:1-9,2024",
                },
            )
        elif kind == 1:
            lines.append(f'  - doi: "10.1000/x{i}"\n')
            cache.put(
                f"doi:10.1000/x{i}",
                {
                    "outcome": "ok",
                    "title": f"Article {i} <tips> | more",
                    "authors": ["Ann Bee"],
                    "published": "2021-01-01",
                    "journal_ref": "Nature",
                    "volume": "5",
                    "issue": "7",
                    "page": "1-10",
                    "work_type": "article-journal",
                },
            )
        else:
            lines.append(f"  - url: https://blog{i % 7}.example/posts/{i}_x%20y\n")
        day = f"2026-09-2{i % 10}"
        lines.append(
            f"    first_anchored: {day}\n    status: new\n"
            f'    section: "§1.{i % 5} S"\n    cited_in: ["{day}"]\n'
        )
    reg = tmp / "registry.yaml"
    reg.write_text("".join(lines), encoding="utf-8")
    (tmp / ".anchors").mkdir(exist_ok=True)
    cache.save()
    return reg


def calls(work: Callable[[], object]) -> int:
    """Python function calls `work` makes (every call, of anchors and its libraries)."""
    count = 0

    def profile(frame: object, event: str, arg: object) -> None:
        nonlocal count
        if event in ("call", "c_call"):
            count += 1

    sys.setprofile(profile)
    try:
        work()
    finally:
        sys.setprofile(None)
    return count


@pytest.mark.parametrize(
    "fmt, style",
    [
        ("bibtex", "classic"),
        ("bibtex", "biblatex"),
        ("csl-json", "classic"),
        ("markdown", "classic"),
    ],
)
@pytest.mark.slow
def test_exporting_twice_the_entries_costs_at_most_twice_the_calls(
    tmp_path: Path, fmt: str, style: str
) -> None:
    cost = []
    for n in (300, 600):
        folder = tmp_path / str(n)
        folder.mkdir()
        reg = registry(folder, n)
        cache = Cache(
            folder / ".anchors" / "cache.json",
            ttls={k: float("inf") for k in ("arxiv", "doi", "url", "github")},
        )
        loaded = load(reg)

        def work(loaded: object = loaded, cache: Cache = cache) -> object:
            items = collect(loaded, cache)  # type: ignore[arg-type]
            return render(EXPORT, fmt, items, Target(None, bib_style=style))

        work()  # imports and first-use caches out of the count
        cost.append(calls(work))
    assert cost[1] <= 2.2 * cost[0], cost
    # and each entry costs what it needs: pybtex's LaTeX encoder lexed every character of
    # every field, 2,200 calls an entry (40 s for 100k) where 420 did; pybtex's entry objects
    # and writer, json.dumps's Python encoder and a regex call a title word took ~440 (BibTeX)
    # and ~800 (CSL-JSON) where ~290 and ~350 do
    per_entry = {"bibtex": 350, "csl-json": 450, "markdown": 300}[fmt]  # with `collect`
    assert cost[1] / 600 <= per_entry, cost


def test_csl_json_written_a_piece_at_a_time_is_the_whole_text(tmp_path: Path) -> None:
    """`write` streams CSL-JSON to the file and to stdout: the same bytes as the whole array."""
    import io
    import json

    from anchors.render import write
    from anchors.render.csl import csl_json

    reg = registry(tmp_path, 30)
    items = collect(load(reg), Cache(tmp_path / ".anchors" / "cache.json"))
    whole = json.dumps(csl_json(items), ensure_ascii=False, indent=2) + "\n"
    out = io.StringIO()
    write(EXPORT, "csl-json", items, out)
    write(EXPORT, "csl-json", items, out, tmp_path / "o.json")
    assert out.getvalue() == whole == (tmp_path / "o.json").read_text(encoding="utf-8")
    out = io.StringIO()
    write(EXPORT, "csl-json", [], out)
    assert json.loads(out.getvalue()) == []


@pytest.mark.parametrize("fmt", ["bibtex", "csl-json"])
@pytest.mark.slow
def test_writing_an_export_holds_an_entry_not_the_whole_text(tmp_path: Path, fmt: str) -> None:
    """The memory `write` holds at once, counted by tracemalloc (allocations, not time): twice
    the entries, a peak grown by under a third of the text (only BibTeX's set of keys seen, to
    refuse one twice, grows). The whole text, and json.dumps's or pybtex's pieces of it, made
    CSL-JSON 2.3x the offline check's memory at 100k."""
    import io
    import tracemalloc

    from anchors.render import write

    peaks, sizes = [], []
    for n in (600, 1200):
        folder = tmp_path / str(n)
        folder.mkdir()
        items = collect(load(registry(folder, n)), Cache(folder / ".anchors" / "cache.json"))
        write(EXPORT, fmt, items, io.StringIO(), folder / "warm")  # imports out of the count
        tracemalloc.start()
        try:
            write(EXPORT, fmt, items, io.StringIO(), folder / "out")
            peaks.append(tracemalloc.get_traced_memory()[1])
        finally:
            tracemalloc.stop()
        sizes.append((folder / "out").stat().st_size)
        assert sizes[-1] > 200 * n  # the whole export was written
    assert peaks[1] - peaks[0] <= (sizes[1] - sizes[0]) / 3, (peaks, sizes)


_TEXT = st.text(st.characters(codec="utf-8"), max_size=12)


@given(
    title=st.none() | _TEXT,
    authors=st.lists(_TEXT.filter(str.strip), max_size=3),
    section=st.none() | _TEXT,
    version=st.none() | st.integers(1, 10**20),
    days=st.lists(st.dates(), max_size=2),
)
@settings(max_examples=200, deadline=None)
@pytest.mark.slow
def test_csl_json_text_is_the_json_modules_for_any_values(
    title: str | None,
    authors: list[str],
    section: str | None,
    version: int | None,
    days: list[date],
) -> None:
    """The CSL-JSON writer formats items itself (json.dumps with `indent` is pure Python):
    any text (quotes, backslashes, controls, U+2028, astral characters), numbers, nulls and
    empty lists come out as `json.dumps(..., ensure_ascii=False, indent=2)` writes them."""
    import io
    import json

    from anchors.export import ExportItem
    from anchors.render import write
    from anchors.render.csl import csl_json

    item = ExportItem(
        key="arxiv:2312.07104",
        cite_key='k"\\\u2028',
        kind="arxiv",
        anchor="2312.07104",
        url="https://arxiv.org/abs/2312.07104",
        title=title,
        authors=tuple(authors),
        published=days[0].isoformat() if days else None,
        container=None,
        doi=None,
        arxiv_id="2312.07104",
        version=version,
        first_anchored=days[-1] if days else None,
        status=None,
        section=section,
        cited_in=tuple(days),
    )
    out = io.StringIO()
    write(EXPORT, "csl-json", [item, item], out)
    assert out.getvalue() == json.dumps(csl_json([item, item]), ensure_ascii=False, indent=2) + "\n"


@pytest.mark.parametrize("fmt", ["bibtex", "csl-json"])
def test_each_author_is_read_once_however_many_papers_name_them(
    tmp_path: Path, fmt: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Authors recur across a field's papers: pybtex reads a name (~0.2 ms) once per export
    however many entries name it, counted at n and 2n entries with the same five authors."""
    import io
    import uuid

    from pybtex.database import Person

    from anchors.export import ExportItem
    from anchors.render import write

    made = 0
    real = Person.__init__

    def counted(self: Person, *args: object, **kwargs: object) -> None:
        nonlocal made
        made += 1
        real(self, *args, **kwargs)

    monkeypatch.setattr(Person, "__init__", counted)
    tag = uuid.uuid4().hex[:8]  # names no earlier test has read
    for n in (50, 100):
        people = tuple(f"Given{tag} Family{n}x{k}" for k in range(5))
        items = [
            ExportItem(
                key=f"arxiv:2309.{10000 + i:05d}",
                cite_key=f"k{i}",
                kind="arxiv",
                anchor=f"2309.{10000 + i:05d}",
                url=f"https://arxiv.org/abs/2309.{10000 + i:05d}",
                title=f"Paper {i}",
                authors=people[i % 3 : i % 3 + 3],
                published="2023-09-12",
                container=None,
                doi=None,
                arxiv_id=f"2309.{10000 + i:05d}",
                version=None,
                first_anchored=None,
                status=None,
                section=None,
                cited_in=(),
            )
            for i in range(n)
        ]
        made = 0
        out = io.StringIO()
        write(EXPORT, fmt, items, out)
        assert out.getvalue().count("Family") == 3 * n  # every author of every entry written
        assert made == 5, (n, made)
