"""`anchors add` at scale: merging and each output, at 10k, 20k and 40k citations, on four shapes.

Shapes: one briefing citing n URLs on one host; every kind mixed (arXiv, GitHub, DOI, URLs on 97
hosts); the mixed briefing continued a day later into a registry that holds it; the same briefing
added again (everything already recorded). For each: CPU seconds of this process to extract the
briefing (the baseline: a linear pass over the same text), to merge it (`add --dry-run`: load and
merge), and to render the result as JSON, concise lines (a pipe) and text (a terminal). Printed:
the seconds, each path's 20k/10k and 40k/10k ratios (linear is 2 and 4), and each path over the
extraction at the same size (flat when both are linear).

    python bench/add.py [--sizes 10000,20000,40000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import io
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from anchors.extract import extract
from anchors.merging.merge import add
from anchors.render import RENDERERS, Target, render

try:  # each command's formats as one typed table (an older anchors names the command)
    from anchors.render import ADD as ADD_OUTPUTS
except ImportError:
    ADD_OUTPUTS = "add"

TODAY = date(2026, 12, 2)
PATHS = ("extract", "merge", "json", "concise", "text")


def one_host(n: int) -> str:
    return "".join(
        f"- [Post {i}](https://blog.example.com/posts/{i}) §1.{i % 7} x\n" for i in range(n)
    )


def mixed(n: int) -> str:
    kinds = (
        lambda i: (
            f"- arXiv:{2301 + (i // 90000) * 100 + (i // 9000) % 9}.{10000 + i % 90000:05d}\n"
        ),
        lambda i: f"- https://github.com/owner{i % 50}/repo{i % 13}/issues/{i + 1}\n",
        lambda i: f"- doi:10.1000/paper.{i}\n",
        lambda i: f"- [Page {i}](https://site{i % 97}.example.org/p/{i})\n",
    )
    return "".join(kinds[i % 4](i) for i in range(n))


SHAPES: dict[str, tuple[Callable[[int], str], str]] = {
    "one host": (one_host, "new"),
    "mixed kinds": (mixed, "new"),
    "continued": (mixed, "continued"),
    "up to date": (mixed, "again"),
}


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def cpu(fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    """Best CPU seconds of this process over `repeat` runs (2 shared cores: wall time is the
    neighbours'), and the last result."""
    best, out = float("inf"), None
    for _ in range(repeat):
        t = time.process_time()
        out = fn()
        best = min(best, time.process_time() - t)
    return best, out


def measure(shape: str, n: int, tmp: Path, repeat: int) -> dict[str, float]:
    body, state = SHAPES[shape]
    text = f"# Notes (2026-09-24)\n\n{body(n)}"
    first = extract(text, "2026-09-24-notes.md", date(2026, 9, 24))
    reg = tmp / f"{shape.replace(' ', '-')}-{n}.yaml"
    if state != "new":
        add(reg, [first], TODAY)
    day = "2026-09-24" if state == "again" else "2026-09-25"
    out: dict[str, float] = {}
    out["extract"], b = cpu(
        lambda: extract(text, f"{day}-notes.md", date.fromisoformat(day)), repeat
    )
    out["merge"], r = cpu(lambda: add(reg, [b], TODAY, dry_run=True), repeat)
    for fmt in PATHS[2:]:
        if ("add", fmt) not in RENDERERS:  # an anchors without this output
            out[fmt] = float("nan")
            continue
        target = Target(Terminal() if fmt == "text" else io.StringIO(), dry_run=True)
        out[fmt], _ = cpu(lambda f=fmt, t=target: render(ADD_OUTPUTS, f, r, t), repeat)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="10000,20000,40000")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    print(f"CPU seconds of this process, best of {args.repeat}; ratios against the smallest size")
    with tempfile.TemporaryDirectory() as tmp:
        for shape in SHAPES:
            rows = {n: measure(shape, n, Path(tmp), args.repeat) for n in sizes}
            print(f"\n{shape}")
            print(
                f"{'citations':>9} "
                + " ".join(f"{p:>8}" for p in PATHS)
                + "   "
                + " ".join(f"{p + '/ext':>12}" for p in PATHS[1:])
            )
            for n, row in rows.items():
                print(
                    f"{n:>9} "
                    + " ".join(f"{row[p]:>8.3f}" for p in PATHS)
                    + "   "
                    + " ".join(f"{row[p] / row['extract']:>12.2f}" for p in PATHS[1:])
                )
            base = rows[sizes[0]]
            for n in sizes[1:]:
                ratios = " ".join(f"{p} {rows[n][p] / base[p]:.2f}x" for p in PATHS)
                print(f"{n // 1000}k/{sizes[0] // 1000}k (linear {n / sizes[0]:.0f}x): {ratios}")


if __name__ == "__main__":
    main()
