"""Scale: each command as the work grows, and the history as the past grows.

Part 1, registries of 1k/10k/100k anchors (bench/registry.py's generator): `check --offline`,
`report`, `fix --dry-run` and `export` (BibTeX and CSL-JSON), each a separate process, best of
`--repeat`: CPU seconds (user + system) and peak RSS (bench/timer.py). The ratios are each size's
CPU against the size before (linear is 10x per step), and each export's CPU and RSS against the
offline check of the same size (issue 25: within 2x at 100k).

Part 2, one registry of `--history-anchors` (2,000) checked weekly: histories of 13, 52 and
156 runs, written as `check` writes them (one observation per anchor per run, through the
library of the checkout under test), then `report --since 7d` and `fix --dry-run` on each. The
ratios are against the 13-run history in the same run (target: <= 1.5x at 156 runs, RSS flat);
the history's size per run is printed too.

    python bench/scale.py [--sizes 1000,10000,100000] [--runs 13,52,156] [--repeat 3]
    python bench/scale.py --only history      # part 2 alone
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from export import best as best_cpu  # (wall, CPU, peak RSS)
from registry import best, make_registry

ANCHORS = [sys.executable, "-m", "anchors"]
WEEK = 7 * 86400.0
NOW = 1_790_000_000.0  # 2026-09-21: every run below is before it
NOW_ISO = "2026-09-21T00:00:00Z"
#: what a weekly check of a registry sees: most answers fine, some dead for good, some flapping
_FACTS = '{"authors": ["A. Author", "B. Author"], "title": "Generated paper %d", "version": 2}'


def write_history(db: Path, reg: Path, anchors: int, runs: int) -> None:
    """`runs` weekly checks of the registry `reg` of `anchors` entries (bench/registry.py's
    layout: 4 arXiv IDs, then a URL), recorded through this checkout's library."""
    from anchors.findings import Outcome
    from anchors.history import History
    from anchors.registry.loader import load

    try:
        from anchors.history import ArxivFacts, Observation
    except ImportError:  # the code before issue 24: string rows
        from anchors.history import Row  # type: ignore[attr-defined]

        typed = False
    else:
        typed = True
    keys = [a.key for a in load(reg).anchors if a.key is not None]
    h = History(db)
    for n in range(runs):
        at = NOW - (runs - n) * WEEK + 3600
        run_id = h.start_run(str(reg), at)
        rows = []
        for i, key in enumerate(keys):
            dead = i % 50 == 1 or (i % 50 == 2 and (runs - n) % 3 == 0)
            outcome = Outcome.DEAD if dead else Outcome.OK
            paper = key.kind.value == "arxiv"
            if typed:
                facts = ArxivFacts(f"Generated paper {i}", 2, authors=("A. B",)) if paper else None
                rows.append(
                    Observation(
                        key,
                        str(key),
                        outcome,
                        404 if dead else 200,
                        checked_at=at + i / 1000,
                        elapsed_ms=120,
                        facts=None if dead else facts,
                    )
                )
            else:
                target = key.url if key.kind.value == "url" else key.key
                facts = {"title": f"Generated paper {i}", "version": 2, "authors": ["A. B"]}
                rows.append(
                    Row(
                        target,
                        str(key),
                        key.kind.value,
                        outcome.value,
                        404 if dead else 200,
                        None,
                        None,
                        120,
                        at + i / 1000,
                        0,
                        None if dead or not paper else facts,
                    )
                )
        h.record(run_id, rows)
        h.finish_run(run_id, True, at + len(keys) / 1000)
    h.close()


def part_commands(sizes: list[int], repeat: int, tmp: Path) -> None:
    print(
        f"commands at scale; best of {repeat} (CPU s, peak RSS MB; wall s at the end); "
        "ratio: CPU at this size / the size before"
    )
    print(f"load average at the start: {os.getloadavg()[0]:.1f}")
    rows: dict[str, list[tuple[float, float, int]]] = {}
    for n in sizes:
        folder = tmp / f"r{n}"
        folder.mkdir()
        reg = folder / "registry.yaml"
        make_registry(n, reg)
        write_history(folder / ".anchors" / "history.sqlite", reg, n, 2)
        cmds = {
            "check --offline": [*ANCHORS, "check", "--offline", "-q", str(reg)],
            "report": [
                *ANCHORS,
                "report",
                "-r",
                str(reg),
                "--now",
                NOW_ISO,
                "-o",
                str(reg.parent / "out.txt"),
            ],
            "fix --dry-run": [*ANCHORS, "fix", "-r", str(reg), "--dry-run"],
            "export bibtex": [
                *ANCHORS,
                "export",
                "-r",
                str(reg),
                "-f",
                "bibtex",
                "-o",
                str(reg.parent / "out.txt"),
            ],
            "export csl-json": [
                *ANCHORS,
                "export",
                "-r",
                str(reg),
                "-f",
                "csl-json",
                "-o",
                str(reg.parent / "out.txt"),
            ],
        }
        for name, cmd in cmds.items():
            rows.setdefault(name, []).append(best_cpu(cmd, repeat))
    print(f"{'command':18}" + "".join(f"{n:>16}" for n in sizes) + "   ratio per 10x   wall s")
    for name, got in rows.items():
        cells = "".join(f"{c:8.2f}s {r / 1024:5.0f}M" for _, c, r in got)
        ratios = " ".join(f"{got[i][1] / got[i - 1][1]:.1f}x" for i in range(1, len(got)))
        walls = " ".join(f"{w:.2f}" for w, _, _ in got)
        print(f"{name:18}{cells}   {ratios}   {walls}")
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")
    base = rows["check --offline"]
    for name in ("export bibtex", "export csl-json"):
        cells = ", ".join(
            f"{n}: {c / b[1]:.2f}x CPU {r / b[2]:.2f}x RSS"
            for n, (_, c, r), b in zip(sizes, rows[name], base, strict=True)
        )
        print(f"{name} / check --offline (target at the largest size <= 2x): {cells}")


def part_history(runs: list[int], anchors: int, repeat: int, tmp: Path) -> None:
    print(
        f"history of {anchors} anchors checked weekly; best of {repeat}; "
        f"ratios against the {runs[0]}-run history"
    )
    folder = tmp / "h"
    folder.mkdir()
    reg = folder / "registry.yaml"
    make_registry(anchors, reg)
    base: dict[str, tuple[float, int]] = {}
    sizes: list[tuple[int, int]] = []
    print(
        f"{'runs':>5} {'MB':>7} {'KB/run':>7} {'command':14} {'wall s':>7} {'RSS MB':>7} "
        f"{'wall x':>7} {'RSS x':>6}"
    )
    for n in runs:
        db = folder / ".anchors" / "history.sqlite"
        if db.exists():
            db.unlink()
        write_history(db, reg, anchors, n)
        size = db.stat().st_size
        sizes.append((n, size))
        for name, cmd in {
            "report 7d": [
                *ANCHORS,
                "report",
                "-r",
                str(reg),
                "--now",
                NOW_ISO,
                "--since",
                "7d",
                "-o",
                str(reg.parent / "out.txt"),
            ],
            "fix --dry-run": [*ANCHORS, "fix", "-r", str(reg), "--dry-run"],
        }.items():
            t, r = best(cmd, repeat)
            b = base.setdefault(name, (t, r))
            print(
                f"{n:5d} {size / 1e6:7.1f} {size / n / 1e3:7.0f} {name:14} {t:7.2f} "
                f"{r / 1024:7.0f} {t / b[0]:6.2f}x {r / b[1]:5.2f}x"
            )
    (n0, s0), (n1, s1) = sizes[0], sizes[-1]
    print(f"history growth: {(s1 - s0) / (n1 - n0) / 1e3:.0f} KB per run of {anchors} anchors")
    print(f"target: report and fix at {runs[-1]} runs <= 1.5x the {runs[0]}-run figure")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="1000,10000,100000")
    ap.add_argument("--runs", default="13,52,156")
    ap.add_argument("--history-anchors", type=int, default=2000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--only", choices=["commands", "history"])
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        if args.only != "history":
            part_commands([int(s) for s in args.sizes.split(",")], args.repeat, Path(tmp))
        if args.only != "commands":
            part_history(
                [int(s) for s in args.runs.split(",")], args.history_anchors, args.repeat, Path(tmp)
            )


if __name__ == "__main__":
    main()
