"""The link workload shared by bench/links.py and bench/peers.py: 40 loopback hosts, the floor.

A loopback server plays 40 hosts (127.0.0.2 ... 127.0.0.41, one port); every answer comes after
50 ms and depends only on the path: ~10% 404, 5% 301 -> 200, 3% 429 (Retry-After: 1) then 200,
3% 503 then 200 (once each in input A, twice in input B). The server counts what is in flight
and logs each answer, so the check phase (first request in to last answer out) is timed by it.

The floor is an exact simulation of an ideal client under the same limits: each request holds a
global and a per-host slot for the latency, a 301 costs one more request, a 503 is retried at
once, a 429 is retried exactly when Retry-After says.
"""

from __future__ import annotations

import asyncio
import heapq
import socket
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from timer import Measured, measure

from tests.loopback import Request, respond

HOSTS = [f"127.0.0.{i}" for i in range(2, 42)]
LATENCY = 0.05
RETRY_AFTER = 1.0


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
    name: str
    failures: int  # how many times a 429/503 path fails before it succeeds


PLANS = {"A": Plan("A: 429/503 fail once", 1), "B": Plan("B: 429/503 fail twice", 2)}


def make_routes(plan: Plan, log: list[float]):
    seen: Counter[tuple[str, str]] = Counter()

    def route(_req: Request):
        async def handler(req: Request, w: asyncio.StreamWriter) -> bool:
            await asyncio.sleep(LATENCY)
            kind = req.path.rsplit("/", 1)[-1]
            key = (req.host, req.path)
            n = seen[key]
            seen[key] += 1
            if kind == "dead":
                keep = await respond(w, 404, b"gone", req=req)
            elif kind == "moved":
                keep = await respond(
                    w, 301, b"", {"Location": req.path.replace("/moved", "/final")}, req=req
                )
            elif kind == "limited" and n < plan.failures:
                keep = await respond(w, 429, b"", {"Retry-After": str(int(RETRY_AFTER))}, req=req)
            elif kind == "flaky" and n < plan.failures:
                keep = await respond(w, 503, b"", req=req)
            else:  # each page has one place a citation may name (bench/links.py --fragments)
                i = req.path.split("/")[2]
                page = f'<html><body><h2 id="sec-{i}">ok</h2></body></html>'.encode()
                keep = await respond(w, 200, page, req=req)
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
        nxt = [
            t
            for t in (running[0][0] if running else None, pending[0][0] if pending else None)
            if t is not None
        ]
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


def write_inputs(
    items: list[tuple[str, str, str]],
    port: int,
    folder: Path,
    fragments: dict[str, str] | None = None,
) -> tuple[Path, Path, Path]:
    """The registry (its URLs cited with `fragments[path]` where given), a Markdown list and an
    HTML page of the same URLs."""
    reg = folder / "registry.yaml"
    lines = ["version: 1\n", "anchors:\n"]
    for host, path, _ in items:
        cited = f"#{fragments[path]}" if fragments and path in fragments else ""
        lines.append(
            f'  - url: "http://{host}:{port}{path}{cited}"\n    first_anchored: 2026-09-24\n'
            '    status: new\n    cited_in: ["2026-09-24"]\n'
        )
    reg.write_text("".join(lines), encoding="utf-8")
    md = folder / "links.md"
    md.write_text("".join(f"- <http://{h}:{port}{p}>\n" for h, p, _ in items), encoding="utf-8")
    html = folder / "links.html"
    html.write_text(
        "<html><body>"
        + "".join(f'<a href="http://{h}:{port}{p}">x</a>\n' for h, p, _ in items)
        + "</body></html>",
        encoding="utf-8",
    )
    return reg, md, html


def run_measured(cmd: list[str], timeout: float = 900, cwd: Path | None = None) -> Measured:
    """Wall time, CPU, peak RSS, exit code and stdout of one process (killed at `timeout`),
    measured by bench/timer.py (the command's own peak RSS, not this server's)."""
    return measure(cmd, timeout=timeout, cwd=cwd, capture=True)


def free_port() -> int:
    """A port free on all 40 loopback addresses."""
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
