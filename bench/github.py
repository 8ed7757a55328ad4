"""GitHub's weekly cost: a second `anchors check --no-cache` of N GitHub anchors against a
loopback GitHub that honours `If-None-Match`, as the shipped weekly workflow runs it.

The fake (tests/githubfake.py) answers each issue with a realistic body (~5 KB), an ETag made
from it, a 304 when `If-None-Match` names it (free: no rate limit spent), and `delay` seconds
before every answer, 200 or 304. The first run finds no ETags; the second finds those the first
kept in `.anchors/etags.json` (read under `--no-cache` too) while `--changed` of the issues
changed between the runs. Printed: requests, 200s, 304s, the 304 share of the second run (the
goal is at least 95% for an unchanged registry), the rate limit spent, and each run's wall time
against the first, best of `--repeat`.

    python bench/github.py [--anchors 300] [--delay 0.02] [--changed 0,0.03] [--repeat 3]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tests.githubfake import FakeGithub, Issue


def registry(n: int, path: Path) -> dict[str, Issue]:
    issues, lines = {}, ["version: 1\n", "anchors:\n"]
    for k in range(n):
        repo, number = f"org{k % 30}/repo{k % 7}", 100 + k
        issues[f"{repo}#{number}"] = Issue(f"Issue {k}", "closed" if k % 3 else "open")
        lines.append(
            f'  - url: "https://github.com/{repo}/issues/{number}"\n'
            "    first_anchored: 2026-09-24\n    status: new\n"
        )
    path.write_text("".join(lines), encoding="utf-8")
    return issues


def check(reg: Path, api: str) -> float:
    start = time.perf_counter()
    subprocess.run(
        [
            sys.executable,
            "-m",
            "anchors",
            "check",
            str(reg),
            "--no-cache",
            "--github-api",
            api,
            "-q",
            "-f",
            "json",
            "--today",
            "2026-12-02",
        ],
        check=False,
        capture_output=True,
    )
    return time.perf_counter() - start


def weekly(
    n: int, delay: float, changed: float
) -> tuple[dict[str, int], dict[str, int], float, float]:
    """One first run and one second run; (first statuses, second statuses, walls)."""
    with tempfile.TemporaryDirectory() as tmp:
        reg = Path(tmp) / "registry.yaml"
        gh = FakeGithub(registry(n, reg), delay=delay, pad=5000)
        with gh.server() as srv:
            first = check(reg, srv.url(""))
            before = dict(gh.statuses)
            step = max(1, round(1 / changed)) if changed else 0
            for i, key in enumerate(list(gh.issues)):
                if step and i % step == 0:
                    gh.issues[key] = Issue(gh.issues[key].title + " (edited)", "closed")
            gh.statuses.clear()
            second = check(reg, srv.url(""))
            return before, dict(gh.statuses), first, second


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--anchors", type=int, default=300)
    ap.add_argument("--delay", type=float, default=0.02)
    ap.add_argument("--changed", default="0,0.03")
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    print(
        f"{a.anchors} GitHub anchors, {a.delay * 1000:.0f} ms per answer, --no-cache both runs; "
        f"best of {a.repeat}"
    )
    print(" changed run1 200 run2 200 run2 304 304 share spent  run1 s  run2 s  run2/run1")
    for share in (float(x) for x in a.changed.split(",")):
        runs = [weekly(a.anchors, a.delay, share) for _ in range(a.repeat)]
        before, after, _, _ = runs[0]
        first = min(r[2] for r in runs)
        second = min(r[3] for r in runs)
        full2, cond2 = after.get(200, 0), after.get(304, 0)
        total = sum(after.values())
        print(
            f"{share:8.0%} {before.get(200, 0):9d} {full2:9d} {cond2:9d} "
            f"{cond2 / total:9.1%} {full2:5d} {first:7.2f} {second:7.2f} {second / first:9.2f}"
        )
        if share == 0:
            goal = "met" if cond2 / total >= 0.95 else "NOT met"
            print(f"target: unchanged registry, second run >= 95% 304s: {cond2 / total:.1%} {goal}")


if __name__ == "__main__":
    main()
