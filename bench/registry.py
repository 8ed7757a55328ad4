"""Registry scale: `anchors check --offline` and `anchors add` against a bare libyaml parse.

Generates registries of 1k, 10k and 100k anchors, then times each command and the bare parse
(`yaml.load(f, Loader=yaml.CSafeLoader)`) as separate processes in the same run, best of
`--repeat`, with each process's peak RSS. Prints a table and the ratios the targets are set on.

Two more cases (issue 10): one briefing citing 10k and 40k arXiv IDs, merged in-process into an
empty registry and into one that already holds them (the work done under the registry's lock:
load, merge, splice, write), with the 40k/10k ratio (linear is 4); and a 1M-line registry
(`--million`), whose peak RSS in `check --offline` is reported against its size.

    python bench/registry.py [--sizes 1000,10000,100000] [--repeat 3] [--only merge|million]
"""

from __future__ import annotations

import argparse
import difflib
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from timer import measure

ROOT = Path(__file__).resolve().parent.parent
SEED = ROOT / "briefings" / "2026-09-24-inference-e1.md"
BARE = (
    "import sys, yaml\nwith open(sys.argv[1], 'rb') as f: yaml.load(f, Loader=yaml.CSafeLoader)\n"
)


def make_registry(n: int, path: Path) -> None:
    lines = ["# generated for bench/registry.py\n", "version: 1\n", "anchors:\n"]
    for i in range(n):
        yymm = 2301 + (i // 90000) * 100 + (i // 9000) % 9
        if i % 5 == 4:
            lines.append(f"  - url: https://blog{i % 97}.example.com/posts/{i}\n")
        else:
            lines.append(f'  - arxiv: "{yymm}.{10000 + i % 90000:05d}"\n')
        lines.append(
            f'    title: "Generated paper number {i}: a study of things"\n'
            f"    first_anchored: 2026-0{1 + i % 9}-1{i % 10}\n"
            f"    status: {'new' if i % 3 else 'continued'}\n"
            f'    section: "§1.{i % 7} Section {i % 7}"\n'
            f'    cited_in: ["2026-0{1 + i % 9}-1{i % 10}"]\n'
        )
    path.write_text("".join(lines), encoding="utf-8")


def run(cmd: list[str]) -> tuple[float, int, int]:
    """Wall seconds, peak RSS (KiB) and exit code of one process (bench/timer.py)."""
    m = measure(cmd)
    return m.wall, m.rss_kib, m.exit


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


def briefing_text(n: int) -> str:
    """One briefing table citing `n` distinct arXiv IDs."""
    return "".join(
        f"| 2609.{10000 + i:05d} | Paper number {i} | 本次新增 → §1.{i % 7} Kernels |\n"
        for i in range(n)
    )


def merge_case(n: int, tmp: Path, repeat: int) -> tuple[float, float, float]:
    """CPU seconds to extract, to add into an empty registry, and to add again (all continued).

    CPU time of this process, not wall time: 2 shared cores make wall time the neighbours'."""
    from datetime import date

    from anchors.extract import extract
    from anchors.merging.merge import add

    text = briefing_text(n)
    ext, new, cont = [], [], []
    for r in range(repeat):
        t0 = time.process_time()
        b1 = extract(text, "2026-09-24-e1.md", date(2026, 9, 24))
        t1 = time.process_time()
        reg = tmp / f"m{n}-{r}.yaml"
        add(reg, [b1], date(2026, 12, 2))
        t2 = time.process_time()
        b2 = extract(text, "2026-09-25-e1.md", date(2026, 9, 25))
        t3 = time.process_time()
        add(reg, [b2], date(2026, 12, 2))
        t4 = time.process_time()
        ext.append(t1 - t0)
        new.append(t2 - t1)
        cont.append(t4 - t3)
    return min(ext), min(new), min(cont)


def run_merge(tmp: Path, repeat: int) -> None:
    rows = {n: merge_case(n, tmp, repeat) for n in (10000, 40000)}
    print(f"one briefing, in-process CPU seconds, best of {repeat}")
    print(f"{'citations':>9} {'extract s':>9} {'add new s':>9} {'add cont s':>10}")
    for n, (e, a, c) in rows.items():
        print(f"{n:>9} {e:>9.3f} {a:>9.3f} {c:>10.3f}")
    (e1, a1, c1), (e4, a4, c4) = rows[10000], rows[40000]
    print(
        f"target 40k/10k <= 4.5: add new {a4 / a1:.2f}x, add continued {c4 / c1:.2f}x "
        f"(extract {e4 / e1:.2f}x)"
    )


def make_million(path: Path) -> int:
    """A registry of 1,000,002 lines (6 per anchor plus the header), like a grown team file."""
    n = 166_666
    with path.open("w", encoding="utf-8") as f:
        f.write("version: 1\nanchors:\n")
        for i in range(n):
            f.write(
                f'  - arxiv: "{2301 + (i // 90000) * 100 + (i // 9000) % 9}'
                f'.{10000 + i % 90000:05d}"\n'
                f'    title: "Generated paper {i}"\n    first_anchored: 2026-09-1{i % 10}\n'
                f'    status: new\n    section: "§1.{i % 7}"\n'
                f'    cited_in: ["2026-09-1{i % 10}"]\n'
            )
    return 2 + 6 * n


def run_million(tmp: Path, repeat: int) -> None:
    py = sys.executable
    reg = tmp / "million.yaml"
    lines = make_million(reg)
    size = reg.stat().st_size
    parse, parse_rss = best([py, "-c", BARE, str(reg)], repeat)
    check, check_rss = best(
        [py, "-m", "anchors", "check", "--offline", "-q", "--today", "2026-12-02", str(reg)], repeat
    )
    print(
        f"{lines} lines, {size / 1e6:.1f} MB: parse {parse:.2f} s, {parse_rss / 1024:.0f} MB RSS; "
        f"check --offline {check:.2f} s, {check_rss / 1024:.0f} MB RSS"
    )
    print(
        f"target check --offline peak RSS <= 20x file size: {check_rss * 1024 / size:.1f}x "
        f"(parse alone {parse_rss * 1024 / size:.1f}x)"
    )


def changed_outside_merge(before: str, after: str) -> int:
    """Lines of the original that the merge removed (should be 0: it only appends here)."""
    return sum(
        1
        for d in difflib.ndiff(before.splitlines(True), after.splitlines(True))
        if d.startswith("- ")
    )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="1000,10000,100000")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--only", choices=["merge", "million"])
    ap.add_argument("--million", action="store_true", help="also the 1M-line registry")
    args = ap.parse_args()
    if args.only or args.million:
        sys.path.insert(0, str(ROOT))
        with tempfile.TemporaryDirectory() as tmp:
            if args.only in (None, "merge"):
                run_merge(Path(tmp), args.repeat)
            if args.only == "million" or args.million:
                run_million(Path(tmp), args.repeat)
        if args.only:
            return
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
            check, check_rss = best(
                [*anchors, "check", "--offline", "-q", "--today", "2026-12-02", str(reg)],
                args.repeat,
            )
            add, add_rss = best(
                [*anchors, "add", "-q", "--today", "2026-12-02", "-r", str(work), str(SEED)],
                args.repeat,
                reset,
            )
            removed = changed_outside_merge(pristine, work.read_text(encoding="utf-8"))
            rows.append(
                (n, reg.stat().st_size, parse, parse_rss, check, check_rss, add, add_rss, removed)
            )
    print(f"interpreter start-up alone: {startup * 1000:.0f} ms (included in every figure)")
    print(
        f"{'anchors':>8} {'MB':>6} {'parse s':>8} {'check s':>8} {'add s':>8} "
        f"{'check/parse':>11} {'add/parse':>9} {'parse RSS':>9} {'check RSS':>9} {'add RSS':>9}"
        f" {'lines lost':>10}"
    )
    for n, size, parse, prss, check, crss, add, arss, removed in rows:
        print(
            f"{n:>8} {size / 1e6:>6.1f} {parse:>8.3f} {check:>8.3f} {add:>8.3f} "
            f"{check / parse:>11.2f} {add / parse:>9.2f} {prss / 1024:>8.0f}M {crss / 1024:>8.0f}M "
            f"{arss / 1024:>8.0f}M {removed:>10}"
        )
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
    print(
        f"ratio: check/parse worst {worst:.2f}x, add/parse at 10k "
        f"{by[10000][6] / by[10000][2] if 10000 in by else float('nan'):.2f}x"
    )


if __name__ == "__main__":
    main()
