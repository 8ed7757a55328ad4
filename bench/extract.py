"""Extraction speed: `anchors.extract` against a CommonMark parse of the same text.

Inputs of about 100 KB: the seed briefing repeated, the real-Markdown corpus in tests/data/markdown
repeated, and a pathological line (10,000 glued links `[x](https://a.example/(((`). Each is timed
best of `--repeat` in this process, beside markdown-it-py parsing the same text (a parse, no link
extraction), so the ratio says what the extractor costs relative to reading Markdown at all.

    python bench/extract.py [--repeat 5]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from markdown_it import MarkdownIt

from anchors.extract import extract

SEED = ROOT / "briefings" / "2026-09-24-inference-e1.md"
CORPUS = ROOT / "tests" / "data" / "markdown"
SIZE = 100_000


def grow(text: str) -> str:
    return (text * (SIZE // len(text.encode()) + 1))[:SIZE]


def best(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    corpus = "".join(
        p.read_text(encoding="utf-8") for p in sorted(CORPUS.glob("*.md")) if p.name != "SOURCES.md"
    )
    inputs = {
        "seed briefing": grow(SEED.read_text(encoding="utf-8")),
        "real Markdown corpus": grow(corpus),
        "10k glued links, one line": "[x](https://a.example/(((" * 4000,
    }
    md = MarkdownIt("commonmark")
    print(
        f"{'input':28} {'KB':>6} {'anchors s':>10} {'markdown-it s':>14} {'ratio':>6} {'cites':>6}"
    )
    ratios = []
    for label, text in inputs.items():
        n = len(extract(text, "b.md", date(2026, 12, 1)).citations)
        ours = best(lambda t=text: extract(t, "b.md", date(2026, 12, 1)), args.repeat)  # type: ignore[misc]
        base = best(lambda t=text: md.parse(t), args.repeat)  # type: ignore[misc]
        kb = len(text.encode()) / 1000
        print(f"{label:28} {kb:6.0f} {ours:10.3f} {base:14.3f} {ours / base:6.2f} {n:6}")
        ratios.append(ours / base)
    print(f"ratio: extract/markdown-it parse worst {max(ratios):.2f}x")


if __name__ == "__main__":
    main()
