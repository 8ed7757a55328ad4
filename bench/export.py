"""Export against `check --offline`: time and peak memory of `export` in each format on the same
registry, as a ratio of the offline check's (issue 25's target: within 2x of both at 100k).

Registries of 1k/10k/100k anchors (bench/registry.py's generator) with a cache holding what a
check resolves for every arXiv anchor (title, three authors, date, a journal reference), so an
export formats names and venues as it does after a real check. Each command is a separate
process, best of `--repeat`, timed by bench/timer.py (the command's own peak RSS).

    python bench/export.py [--sizes 1000,10000,100000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from registry import make_registry
from timer import measure

ANCHORS = [sys.executable, "-m", "anchors"]


def write_cache(n: int, folder: Path) -> None:
    """What `check` caches for each arXiv anchor of `make_registry(n)`, in the cache's format."""
    from anchors.net.cache import Cache

    cache = Cache(folder / ".anchors" / "cache.json")
    for i in range(n):
        if i % 5 == 4:
            continue
        yymm = 2301 + (i // 90000) * 100 + (i // 9000) % 9
        data = {
            "outcome": "ok",
            "title": f"Paged attention for fp8_e4m3 serving, part {i}",
            # authors recur across papers, as in a field's literature: 3,000 people in all
            "authors": [f"Given{(i + k * 7) % 3000} Family{(i * 3 + k) % 3000}" for k in range(3)],
            "published": "2023-09-12",
            "version": 2,
            "journal_ref": f"Proc. SOSP {i % 30}:611-626,2023",
        }
        cache.put(f"arxiv:{yymm}.{10000 + i % 90000:05d}", data)
    (folder / ".anchors").mkdir(exist_ok=True)
    cache.save()


def best(cmd: list[str], repeat: int) -> tuple[float, float, int]:
    """Least wall seconds, least CPU seconds (user + system: what the command itself costs,
    steady on a shared machine) and the peak RSS (KiB) of `repeat` runs."""
    walls, cpus, rss = [], [], 0
    for _ in range(repeat):
        m = measure(cmd)
        if m.exit not in (0, 1):
            raise SystemExit(f"{' '.join(cmd)} failed")
        walls.append(m.wall)
        cpus.append(m.cpu)
        rss = max(rss, m.rss_kib)
    return min(walls), min(cpus), rss


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="1000,10000,100000")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    print(
        f"best of {args.repeat}: wall s, CPU s, peak RSS MB; ratios to check --offline "
        "(CPU and memory; target <= 2x)"
    )
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            folder = Path(tmp) / f"r{n}"
            folder.mkdir()
            reg = folder / "registry.yaml"
            make_registry(n, reg)
            write_cache(n, folder)
            out = str(folder / "out")
            cmds = {
                "check --offline": [*ANCHORS, "check", "--offline", "-q", str(reg)],
                "export bibtex": [
                    *ANCHORS,
                    "export",
                    "-q",
                    "-r",
                    str(reg),
                    "-f",
                    "bibtex",
                    "-o",
                    out,
                ],
                "export biblatex": [
                    *ANCHORS,
                    "export",
                    "-q",
                    "-r",
                    str(reg),
                    "-f",
                    "bibtex",
                    "--bib-style",
                    "biblatex",
                    "-o",
                    out,
                ],
                "export csl-json": [
                    *ANCHORS,
                    "export",
                    "-q",
                    "-r",
                    str(reg),
                    "-f",
                    "csl-json",
                    "-o",
                    out,
                ],
                "export markdown": [*ANCHORS, "export", "-q", "-r", str(reg), "-o", out],
            }
            got = {name: best(cmd, args.repeat) for name, cmd in cmds.items()}
            _, base_c, base_m = got["check --offline"]
            print(f"\n{n} anchors")
            for name, (w, c, m) in got.items():
                print(
                    f"  {name:17} {w:7.2f} s {c:7.2f} s CPU {m / 1024:6.0f} MB   "
                    f"CPU {c / base_c:4.2f}x  memory {m / base_m:4.2f}x"
                )


if __name__ == "__main__":
    main()
