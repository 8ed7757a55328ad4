"""Registry scale: `anchors check --offline` and `anchors add` against a bare libyaml parse.

Generates registries of 1k, 10k and 100k anchors, then times each command and the bare parse
(`yaml.load(f, Loader=yaml.CSafeLoader)`) as separate processes in the same run, best of
`--repeat`, with each process's peak RSS. Prints a table and the ratios the targets are set on.

    python bench/registry.py [--sizes 1000,10000,100000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import difflib
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SEED = ROOT / "briefings" / "2026-09-24-inference-e1.md"
BARE = "import sys, yaml\nwith open(sys.argv[1], 'rb') as f: yaml.load(f, Loader=yaml.CSafeLoader)\n"


def make_registry(n: int, path: Path) -> None:
    lines = ["# generated for bench/registry.py\n", "version: 1\n", "anchors:\n"]
    for i in range(n):
        yymm = 2301 + (i // 90000) * 100 + (i // 9000) % 9
        if i % 5 == 4:
            lines.append(f"  - url: https://blog{i % 97}.example.com/posts/{i}\n")
        else:
            lines.append(f'  - arxiv: "{yymm}.{10000 + i % 90000:05d}"\n')
        lines.append(f'    title: "Generated paper number {i}: a study of things"\n'
                     f"    first_anchored: 2026-0{1 + i % 9}-1{i % 10}\n"
                     f"    status: {'new' if i % 3 else 'continued'}\n"
                     f'    section: "§1.{i % 7} Section {i % 7}"\n'
                     f'    cited_in: ["2026-0{1 + i % 9}-1{i % 10}"]\n')
    path.write_text("".join(lines), encoding="utf-8")


def run(cmd: list[str]) -> tuple[float, int, int]:
    """Wall seconds, peak RSS (KiB) and exit code of one process."""
    start = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(p.pid, 0)
    return time.perf_counter() - start, usage.ru_maxrss, os.waitstatus_to_exitcode(status)


def best(cmd: list[str], repeat: int, setup=None) -> tuple[float, int]:
    times, rss = [], 0
    for _ in range(repeat):
        if setup:
            setup()
        t, r, code = run(cmd)
        if code not in (0, 1):
            raise SystemExit(f"{' '.join(cmd)} exited {code}")
        times.append(t)
        rss = max(rss, r)
    return min(times), rss


def changed_outside_merge(before: str, after: str) -> int:
    """Lines of the original that the merge removed (should be 0: it only appends here)."""
    return sum(1 for d in difflib.ndiff(before.splitlines(True), after.splitlines(True))
               if d.startswith("- "))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="1000,10000,100000")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    py = sys.executable
    anchors = [py, "-m", "anchors"]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        t = Path(tmp)
        null = [py, "-c", "pass"]
        startup, _ = best(null, args.repeat)
        for n in (int(s) for s in args.sizes.split(",")):
            reg = t / f"r{n}.yaml"
            make_registry(n, reg)
            pristine = reg.read_text(encoding="utf-8")
            work = t / f"w{n}.yaml"

            def reset(reg: Path = reg, work: Path = work) -> None:
                shutil.copy(reg, work)

            parse, parse_rss = best([py, "-c", BARE, str(reg)], args.repeat)
            check, check_rss = best([*anchors, "check", "--offline", "-q", "--today",
                                     "2026-12-02", str(reg)], args.repeat)
            add, add_rss = best([*anchors, "add", "-q", "--today", "2026-12-02", "-r", str(work),
                                 str(SEED)], args.repeat, reset)
            removed = changed_outside_merge(pristine, work.read_text(encoding="utf-8"))
            rows.append((n, reg.stat().st_size, parse, parse_rss, check, check_rss, add, add_rss,
                         removed))
    print(f"interpreter start-up alone: {startup * 1000:.0f} ms (included in every figure)")
    print(f"{'anchors':>8} {'MB':>6} {'parse s':>8} {'check s':>8} {'add s':>8} "
          f"{'check/parse':>11} {'add/parse':>9} {'parse RSS':>9} {'check RSS':>9} {'add RSS':>9}"
          f" {'lines lost':>10}")
    for n, size, parse, prss, check, crss, add, arss, removed in rows:
        print(f"{n:>8} {size / 1e6:>6.1f} {parse:>8.3f} {check:>8.3f} {add:>8.3f} "
              f"{check / parse:>11.2f} {add / parse:>9.2f} {prss / 1024:>8.0f}M {crss / 1024:>8.0f}M "
              f"{arss / 1024:>8.0f}M {removed:>10}")
    by = {r[0]: r for r in rows}
    if 10000 in by:
        r10 = by[10000]
        print(f"target check --offline at 10k <= 1.5x parse: {r10[4] / r10[2]:.2f}x")
        print(f"target add at 10k <= 2x parse: {r10[6] / r10[2]:.2f}x")
        if 100000 in by:
            r100 = by[100000]
            print(f"target 100k check <= 12x the 10k check: {r100[4] / r10[4]:.2f}x")
            print(f"target check RSS at 100k <= 3x parse RSS: {r100[5] / r100[3]:.2f}x")
    worst = max(r[4] / r[2] for r in rows)
    print(f"ratio: check/parse worst {worst:.2f}x, add/parse at 10k "
          f"{by[10000][6] / by[10000][2] if 10000 in by else float('nan'):.2f}x")


if __name__ == "__main__":
    main()
