"""Start-up: `anchors --version` and `anchors check --offline registry.yaml` beside a bare
interpreter.

Each command runs as a fresh process, `--runs` times, interleaved with `python -c pass` so that
all three see the same machine load. Wall time and CPU time (user + system, bench/timer.py) are
printed with their ratio to the bare interpreter's. The targets (80 and 150 ms where a bare
start took 10 ms) are judged on what a command costs beyond the bare start, in CPU time: on
shared cores wall time mostly measures the neighbours, and this machine's bare start also
imports certifi from a site .pth, which inflates every ratio's denominator alike. The bundled
registry is only ever checked offline.

    python bench/startup.py [--runs 21]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from timer import measure

ROOT = Path(__file__).resolve().parent.parent
TARGET_MS = {"--version": 80, "check --offline": 150}
COMMANDS = {
    "python -c pass": [sys.executable, "-c", "pass"],
    "--version": [sys.executable, "-m", "anchors", "--version"],
    "check --offline": [
        sys.executable,
        "-m",
        "anchors",
        "check",
        "--offline",
        str(ROOT / "registry.yaml"),
        "-q",
    ],
}


def once(cmd: list[str]) -> tuple[float, float]:
    """Wall and CPU milliseconds of one run."""
    # bytecode is written and read, as for a user (a PYTHONDONTWRITEBYTECODE in the bench's
    # environment made every edited module compile from source on every run)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(PYTHONPATH=str(ROOT), NO_COLOR="1")
    m = measure(cmd, env=env, cwd=ROOT)
    return m.wall * 1000, m.cpu * 1000


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=21)
    args = ap.parse_args()
    times: dict[str, list[tuple[float, float]]] = {k: [] for k in COMMANDS}
    for cmd in COMMANDS.values():  # warm the file cache and the .pyc files
        once(cmd)
    for _ in range(args.runs):
        for name, cmd in COMMANDS.items():
            times[name].append(once(cmd))
    med = {
        k: (statistics.median(w for w, _ in v), statistics.median(c for _, c in v))
        for k, v in times.items()
    }
    bare_wall, bare_cpu = med["python -c pass"]
    print(
        f"{args.runs} runs each, interleaved; milliseconds; ratios are medians over the bare "
        "interpreter's median"
    )
    print(
        f"{'command':<18} {'wall min':>8} {'wall med':>8} {'ratio':>6} {'CPU min':>8} "
        f"{'CPU med':>8} {'ratio':>6} {'CPU over bare':>13}"
    )
    for name, v in times.items():
        w, c = med[name]
        print(
            f"{name:<18} {min(x for x, _ in v):>8.0f} {w:>8.0f} {w / bare_wall:>6.2f} "
            f"{min(x for _, x in v):>8.0f} {c:>8.0f} {c / bare_cpu:>6.2f} {c - bare_cpu:>13.0f}"
        )
    for name, target in TARGET_MS.items():
        over = med[name][1] - bare_cpu
        print(
            f"target {name} <= {target} ms with a 10 ms bare start, i.e. <= {target - 10} ms "
            f"beyond it: {over:.0f} ms CPU beyond the bare start -> "
            f"{'met' if over <= target - 10 else 'NOT met'}"
        )


if __name__ == "__main__":
    main()
