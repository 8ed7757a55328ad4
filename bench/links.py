"""Link throughput: `anchors check` on 40 loopback hosts beside an ideal client's floor and peers.

The workload and the floor are in bench/workload.py: 2,000 or 8,000 URLs, 50 ms per answer,
~10% 404, 5% 301, 3% 429 (Retry-After 1) and 3% 503 before a 200 (once in input A, twice in
B). `--fragments` of the pages that answer 200 (5% by default) are cited with a `#fragment`, so
they are read with GET; one in four names a place the page lacks, and `false`/`missed` count
wrong `missing-fragment` verdicts beside wrong dead links. `anchors check --allow-private` runs
in a subprocess, `--runs` times per setting; the server times the check phase and counts what
is in flight; bench/timer.py gives the process's CPU and peak RSS. With `--others`, the other link
checkers (bench/peers.py) run on the same input beside it.

    python bench/links.py [--urls 2000,8000] [--limits 64/8,32/8] [--runs 3] [--inputs A,B]
                          [--fragments 0.05] [--others [--tools lychee,...] [--peer-urls 2000]]
                          [--profile FILE] [--tree before=DIR --tree after=DIR]   # runs interleaved
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from urllib.parse import urlsplit

from workload import (
    HOSTS,
    LATENCY,
    PLANS,
    Plan,
    floor,
    free_port,
    make_routes,
    paths,
    run_measured,
    write_inputs,
)

from tests.loopback import LoopbackServer

# targets (issue 25; issue 14 had 1.25/1.35 and 1.0 ms)
PHASE_TARGET = {2000: 1.10, 8000: 1.10}
CPU_TARGET_MS = 0.5
RSS_TARGET_MB = 108


def verdicts(out: bytes, items, port: int) -> tuple[int, int]:
    doc = json.loads(out)
    dead = {f["anchor"] for f in doc["findings"] if f["code"] == "dead-link"}
    dead = {a.split("#", 1)[0] for a in dead}
    false_dead = sum(1 for h, p, k in items if k != "dead" and f"http://{h}:{port}{p}" in dead)
    missed = sum(1 for h, p, k in items if k == "dead" and f"http://{h}:{port}{p}" not in dead)
    return false_dead, missed


def cited_fragments(items, share: float) -> dict[str, str]:
    """Every 1/share-th page that answers 200 cited with a `#fragment`: one in four names a
    place the page lacks (`gone-N`), the others the one it has (`sec-N`)."""
    if not share:
        return {}
    step, out = max(1, round(1 / share)), {}
    ok = [p for _, p, k in items if k == "ok"]
    for n, path in enumerate(ok[::step]):
        i = path.split("/")[2]
        out[path] = f"gone-{i}" if n % 4 == 3 else f"sec-{i}"
    return out


def fragment_verdicts(out: bytes, fragments: dict[str, str]) -> tuple[int, int]:
    """(places called missing that are there, missing places not called missing)."""
    said = {
        (urlsplit(f["anchor"]).path, f.get("fragment"))
        for f in json.loads(out)["findings"]
        if f["code"] == "missing-fragment"
    }
    wrong = sum(1 for p, frag in fragments.items() if frag.startswith("sec") and (p, frag) in said)
    missed = sum(
        1 for p, frag in fragments.items() if frag.startswith("gone") and (p, frag) not in said
    )
    return wrong, missed


def bytecode_ready(folders: list[str]) -> None:
    """Compile the anchors each tree runs before any run is timed, and let the commands read
    that bytecode (PYTHONDONTWRITEBYTECODE dropped from this process's environment, which each
    command inherits).

    Why: a checkout nothing has imported from, under PYTHONDONTWRITEBYTECODE (this sandbox's
    shell sets it), makes every timed run compile ~100 anchors modules from source, ~0.13 s of
    CPU (~0.06 ms per URL at 2,000 URLs) that an installed package (pip writes its bytecode)
    never pays. The bytecode goes where Python looks for it (each package's `__pycache__`,
    ignored by git), so the installed libraries keep reading theirs."""
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    # the package `python -m anchors` imports from each tree's folder, compiled where it looks
    script = "import compileall, anchors; compileall.compile_dir(anchors.__path__[0], quiet=1)"
    for folder in folders:
        cwd = Path(folder).resolve() if folder else None
        subprocess.run([sys.executable, "-c", script], cwd=cwd, check=True)


def run_anchors(
    items,
    plan: Plan,
    conc: int,
    per_host: int,
    profile: str | None,
    share: float = 0.0,
    tree: Path | None = None,
) -> dict:
    log: list[float] = []
    srv = LoopbackServer(make_routes(plan, log), hosts=HOSTS, port=free_port())
    fragments = cited_fragments(items, share)
    with srv, tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        reg, _, _ = write_inputs(items, srv.port, folder, fragments)
        prefix = (
            [sys.executable, "-m", "pyinstrument", "-o", profile, "-r", _renderer(profile), "-m"]
            if profile
            else [sys.executable, "-m"]
        )
        cmd = [
            *prefix,
            "anchors",
            "check",
            str(reg),
            "--allow-private",
            "--format",
            "json",
            "-q",
            "--no-cache",
            "--history",
            str(folder / "h.sqlite"),
            "--concurrency",
            str(conc),
            "--per-host",
            str(per_host),
            "--timeout",
            "10",
        ]
        r = run_measured(cmd, cwd=tree)  # `python -m anchors` runs the tree it starts in
        t0 = r.started  # the command's fork, on the clock the server logs with
        first = min(t for t, *_ in srv.log) if srv.log else float("nan")
        fd, md = verdicts(r.out, items, srv.port)
        ff, mf = fragment_verdicts(r.out, fragments)
        return {
            "wall": r.wall,
            "phase": max(log) - first if log else float("nan"),
            "cpu": r.cpu,
            "rss": r.rss_kib / 1024,
            "false_dead": fd + ff,
            "missed_dead": md + mf,
            "gets": sum(n for (m, _), n in srv.methods.items() if m == "GET"),
            "start": first - t0,
            "exit": t0 + r.wall - max(log) if log else float("nan"),
            "requests": sum(srv.counts.values()),
            "max_in_flight": srv.max_in_flight,
            "max_per_host": max(srv.per_host_max.values()),
            "code": r.exit,
        }


def _renderer(path: str) -> str:
    """pyinstrument's renderer for a profile file: text, or what its extension says."""
    return {".html": "html", ".json": "speedscope", ".pstats": "pstats"}.get(
        Path(path).suffix, "text"
    )


def row(
    n: int, conc: int, per_host: int, key: str, fl: float, runs: list[dict], tree: str = ""
) -> dict:
    ratios = [r["phase"] / fl for r in runs]
    cpu = [r["cpu"] / n * 1000 for r in runs]
    out = {
        "n": n,
        "limits": f"{conc}/{per_host}",
        "input": key,
        "floor": fl,
        "ratio_min": min(ratios),
        "ratio_med": statistics.median(ratios),
        "cpu_min": min(cpu),
        "cpu_med": statistics.median(cpu),
        "wall_med": statistics.median(r["wall"] for r in runs),
        "rss": max(r["rss"] for r in runs),
        "false_dead": max(r["false_dead"] for r in runs),
        "missed_dead": max(r["missed_dead"] for r in runs),
        "flight": max(r["max_in_flight"] for r in runs),
        "host": max(r["max_per_host"] for r in runs),
        "start": statistics.median(r["start"] for r in runs),
        "exit": statistics.median(r["exit"] for r in runs),
        "req": statistics.median(r["requests"] for r in runs) / n,
        "tree": tree,
        "gets": max(r["gets"] for r in runs),
    }
    print(
        f"{tree:<8}{n:>6} {out['limits']:>6} {key:>5} {fl:>7.2f} {out['ratio_min']:>6.2f} "
        f"{out['ratio_med']:>6.2f} {out['cpu_min']:>6.2f} {out['cpu_med']:>6.2f} "
        f"{out['wall_med']:>7.2f} {out['start']:>6.2f} {out['exit']:>5.2f} {out['rss']:>6.0f} "
        f"{out['req']:>5.2f} {out['false_dead']:>5} {out['missed_dead']:>6} "
        f"{out['flight']:>4}/{conc:<3} {out['host']:>3}/{per_host} {out['gets']:>5}",
        flush=True,
    )
    return out


def targets(rows: list[dict]) -> None:
    print("\ntargets:")
    for r in rows:
        t = PHASE_TARGET.get(r["n"])
        ok = lambda c: "met" if c else "NOT met"
        if t:
            print(
                f"  {r['n']} URLs {r['limits']} input {r['input']}: phase/floor median "
                f"{r['ratio_med']:.2f} (min {r['ratio_min']:.2f}) <= {t}: {ok(r['ratio_med'] <= t)}"
            )
    worst_cpu = max(r["cpu_med"] for r in rows)
    print(
        f"  CPU per URL <= {CPU_TARGET_MS} ms: worst median {worst_cpu:.2f} ms: "
        f"{'met' if worst_cpu <= CPU_TARGET_MS else 'NOT met'}"
    )
    _cpu_split(rows)
    big = [r["rss"] for r in rows if r["n"] == 8000]
    if big:
        print(
            f"  RSS at 8,000 URLs: {max(big):.0f} MB (<= {RSS_TARGET_MB}: "
            f"{'met' if max(big) <= RSS_TARGET_MB else 'NOT met'})"
        )
    wrong = sum(r["false_dead"] + r["missed_dead"] for r in rows)
    over = [
        r
        for r in rows
        if r["flight"] > int(r["limits"].split("/")[0])
        or r["host"] > int(r["limits"].split("/")[1])
    ]
    print(
        f"  false + missed dead or missing-fragment: {wrong}; settings where in flight "
        f"exceeded a limit: {len(over)}"
    )


def _cpu_split(rows: list[dict]) -> None:
    """The process's CPU as start-up plus a cost per URL: the line through the medians at the
    smallest and largest URL counts of each setting (same limits and input)."""
    by = {(r["limits"], r["input"], r["n"]): r["cpu_med"] * r["n"] / 1000 for r in rows}
    for limits, key in sorted({(r["limits"], r["input"]) for r in rows}):
        ns = sorted(n for (lim, k, n) in by if (lim, k) == (limits, key))
        if len(ns) < 2:
            continue
        lo, hi = ns[0], ns[-1]
        per = (by[limits, key, hi] - by[limits, key, lo]) / (hi - lo)
        print(
            f"  {limits} input {key}: CPU = {by[limits, key, lo] - per * lo:.2f} s fixed "
            f"+ {per * 1000:.3f} ms per URL (from {lo:,} and {hi:,} URLs)"
        )


def peers(args, ours: dict[tuple[int, str], dict]) -> None:
    from peers import bench_peer, install

    tools = install()
    if args.tools:
        tools = {k: v for k, v in tools.items() if k in args.tools.split(",")}
    conc = int(args.limits.split(",")[0].split("/")[0])
    for n in (int(x) for x in args.peer_urls.split(",")):
        items = paths(n)
        for key in args.inputs.split(","):
            base = ours.get((n, key))
            if base is None:
                continue
            print(
                f"\npeers, {n} URLs, input {key}, concurrency {conc} "
                f"(anchors: median wall {base['wall_med']:.2f} s, CPU {base['cpu_med']:.2f} ms/URL)"
            )
            print(
                f"{'tool':<20} {'wall s':>7} {'/anchors':>8} {'CPU ms/URL':>10} {'RSS MB':>6} "
                f"{'false dead':>10} {'missed':>6} {'max flight':>10}  live URLs called dead"
            )
            for name, prefix in tools.items():
                p = bench_peer(name, prefix, items, PLANS[key], conc, args.other_timeout)
                wrong = ", ".join(f"{c} {k}" for k, c in p["wrong"].items()) or "none"
                print(
                    f"{name:<20} {p['wall']:>7.2f} {p['wall'] / base['wall_med']:>7.1f}x "
                    f"{p['cpu'] / n * 1000:>10.2f} {p['rss'] / 1024:>6.0f} {p['false_dead']:>10} "
                    f"{p['missed_dead']:>6} {p['max_in_flight']:>10}  {wrong}",
                    flush=True,
                )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--urls", default="2000,8000")
    ap.add_argument("--limits", default="64/8,32/8", help="concurrency/per-host pairs")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--inputs", default="A,B")
    ap.add_argument(
        "--tree",
        action="append",
        default=[],
        metavar="NAME=DIR",
        help="run the anchors in DIR (a checkout) as NAME; several take turns in each setting",
    )
    ap.add_argument("--others", action="store_true", help="also run the other link checkers")
    ap.add_argument("--tools", help="with --others: only these (comma-separated)")
    ap.add_argument("--peer-urls", default="2000")
    ap.add_argument("--other-timeout", type=float, default=600)
    ap.add_argument(
        "--fragments",
        type=float,
        default=0.05,
        help="share of the pages that answer 200 cited with a #fragment (read with GET); one in "
        "four names a place the page lacks; 0 for none",
    )
    ap.add_argument(
        "--profile",
        metavar="FILE",
        help="run anchors under pyinstrument (a text report, or .html/.json/.pstats, to FILE)",
    )
    args = ap.parse_args()
    print(f"load average at start: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    print(
        f"{len(HOSTS)} loopback hosts, {LATENCY * 1000:.0f} ms per answer; {args.runs} runs per "
        "setting; ratios: check phase (server-timed) / floor; CPU per URL of the process"
    )
    trees = dict(t.split("=", 1) for t in args.tree) or {"": ""}
    bytecode_ready(list(trees.values()))
    print(
        f"{'tree' if args.tree else '':<8}{'URLs':>6} {'limits':>6} {'input':>5} {'floor':>7} "
        f"{'r min':>6} {'r med':>6} "
        f"{'cpu mn':>6} {'cpu md':>6} {'wall md':>7} {'start':>6} {'exit':>5} {'RSS MB':>6} "
        f"{'req/U':>5} {'false':>5} {'missed':>6} {'flight':>8} {'host':>5} {'GETs':>5}"
    )
    rows, ours = [], {}
    for n in (int(x) for x in args.urls.split(",")):
        items = paths(n)
        cited = cited_fragments(items, args.fragments)
        gone = sum(f.startswith("gone") for f in cited.values())
        print(f"{n} URLs: {len(cited)} cited with a #fragment, {gone} of them naming no place")
        for pair in args.limits.split(","):
            conc, per_host = (int(x) for x in pair.split("/"))
            for key in args.inputs.split(","):
                plan = PLANS[key]
                fl = floor(items, plan, conc, per_host)
                got: dict[str, list[dict]] = {name: [] for name in trees}
                for _ in range(args.runs):  # the trees take turns, so they share the load
                    for name, folder in trees.items():
                        tree = Path(folder).resolve() if folder else None
                        got[name].append(
                            run_anchors(
                                items, plan, conc, per_host, args.profile, args.fragments, tree
                            )
                        )
                for name, runs in got.items():
                    rows.append(row(n, conc, per_host, key, fl, runs, name))
                    ours.setdefault((n, key), rows[-1])
    for name in trees:
        if name:
            print(f"\ntree {name} ({trees[name]}):")
        targets([r for r in rows if r["tree"] == name])
    print(f"load average at end: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    if args.others:
        peers(args, ours)


if __name__ == "__main__":
    main()
