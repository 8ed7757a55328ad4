"""arXiv batching: requests and their spacing when `anchors check` resolves N arXiv IDs.

A loopback fake of the arXiv API answers id_list queries with Atom feeds in the real layout
(the post-2025 backend's, as in cassettes/arxiv/), drops IDs it "does not have" silently as the
real API does, and logs every request. For N = 10, 250, 1000 the script runs `anchors check`
twice: cold (expect ceil(N/100) requests, plus one confirmation per batch that had missing IDs,
none closer than the spacing) and warm, inside the cache TTL (expect 0 requests).

    python bench/arxiv.py [--sizes 10,250,1000] [--delay 3.0] [--missing-every 0]

`--delay` is passed as `--arxiv-delay`, the documented option for mirrors and test servers; the
default is arXiv's real 3 s, so the spacing reported is the one arXiv sees.
"""

from __future__ import annotations

import argparse
import itertools
import math
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tests.loopback import LoopbackServer, respond

HEAD = (
    "<?xml version='1.0' encoding='UTF-8'?>\n"
    '<feed xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/" '
    'xmlns:arxiv="http://arxiv.org/schemas/atom" xmlns="http://www.w3.org/2005/Atom">\n'
    "  <id>https://arxiv.org/api/benchbenchbenchbenchbench0</id>\n"
    "  <title>arXiv Query: search_query=&amp;id_list={ids}&amp;start=0"
    "&amp;max_results={m}</title>\n"
    "  <updated>2026-07-20T14:03:11Z</updated>\n"
    "  <opensearch:itemsPerPage>{m}</opensearch:itemsPerPage>\n"
    "  <opensearch:totalResults>{n}</opensearch:totalResults>\n"
    "  <opensearch:startIndex>0</opensearch:startIndex>\n"
)
ENTRY = (
    "  <entry>\n    <id>http://arxiv.org/abs/{i}v1</id>\n    <title>Benchmark paper {i}</title>\n"
    "    <updated>2026-01-02T00:00:00Z</updated>\n"
    '    <link href="https://arxiv.org/abs/{i}v1" rel="alternate" type="text/html"/>\n'
    '    <link href="https://arxiv.org/pdf/{i}v1" rel="related" type="application/pdf" '
    'title="pdf"/>\n'
    "    <summary>An abstract.</summary>\n"
    '    <category term="cs.LG" scheme="http://arxiv.org/schemas/atom"/>\n'
    "    <published>2026-01-02T00:00:00Z</published>\n"
    '    <arxiv:primary_category term="cs.LG"/>\n'
    "    <author>\n      <name>A. Author</name>\n    </author>\n  </entry>\n"
)


def fake_api(log: list[tuple[float, int]], missing_every: int):
    def exists(i: str) -> bool:
        return not missing_every or int(i.split(".")[1]) % missing_every != 0

    async def handler(req, w):
        q = parse_qs(urlsplit(req.path).query, keep_blank_values=True)
        ids = q.get("id_list", [""])[0].split(",")
        log.append((time.monotonic(), len(ids)))
        found = [i for i in ids if exists(i)]
        body = HEAD.format(ids=",".join(ids), m=q.get("max_results", ["10"])[0], n=len(found))
        body += "".join(ENTRY.format(i=i) for i in reversed(found)) + "</feed>\n"
        return await respond(
            w, 200, body.encode(), {"Content-Type": "application/atom+xml; charset=UTF-8"}, req=req
        )

    return lambda req: handler


def registry(n: int, path: Path) -> None:
    lines = ["version: 1\n", "anchors:\n"]
    for k in range(1, n + 1):
        lines.append(
            f'  - arxiv: "2601.{k:05d}"\n    first_anchored: 2026-09-24\n    status: new\n'
        )
    path.write_text("".join(lines), encoding="utf-8")


def check(reg: Path, api: str, state: Path, delay: float) -> int:
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "anchors",
            "check",
            str(reg),
            "-q",
            "--format",
            "json",
            "--arxiv-api",
            api,
            "--arxiv-delay",
            str(delay),
            "--cache-dir",
            str(state),
            "--today",
            "2026-12-02",
        ],
        check=False,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    ).returncode


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="10,250,1000")
    ap.add_argument("--delay", type=float, default=3.0)
    ap.add_argument(
        "--missing-every", type=int, default=0, help="make every k-th ID not exist (0: all exist)"
    )
    args = ap.parse_args()
    print(f"spacing {args.delay:g} s; missing: every {args.missing_every or 'none'}")
    print(
        f"{'N':>6} {'expected':>8} {'cold req':>8} {'batch sizes':>24} {'min gap s':>9} "
        f"{'cold s':>7} {'warm req':>8} {'warm expected':>13}"
    )
    ok = True
    for n in (int(s) for s in args.sizes.split(",")):
        log: list[tuple[float, int]] = []
        with (
            LoopbackServer(fake_api(log, args.missing_every)) as srv,
            tempfile.TemporaryDirectory() as tmp,
        ):
            reg, state = Path(tmp) / "registry.yaml", Path(tmp) / "state"
            registry(n, reg)
            api = srv.url("/api/query")
            start = time.perf_counter()
            check(reg, api, state, args.delay)
            cold_s = time.perf_counter() - start
            cold = list(log)
            check(reg, api, state, args.delay)
            warm = len(log) - len(cold)
        batches = math.ceil(n / 100)
        missing_batches = 0
        if args.missing_every:
            ids = [k for k in range(1, n + 1)]
            missing_batches = sum(
                1
                for b in range(batches)
                if any(k % args.missing_every == 0 for k in ids[b * 100 : (b + 1) * 100])
            )
        expected = batches + missing_batches
        # failures are never cached: the missing IDs are asked again (and confirmed) when warm
        n_missing = sum(
            1 for k in range(1, n + 1) if args.missing_every and k % args.missing_every == 0
        )
        warm_expected = 2 * math.ceil(n_missing / 100) if n_missing else 0
        gaps = [b[0] - a[0] for a, b in itertools.pairwise(cold)]
        sizes = ",".join(str(s) for _, s in cold)
        if len(sizes) > 24:
            sizes = sizes[:21] + "..."
        print(
            f"{n:>6} {expected:>8} {len(cold):>8} {sizes:>24} "
            f"{min(gaps) if gaps else float('nan'):>9.2f} {cold_s:>7.1f} {warm:>8} "
            f"{warm_expected:>13}"
        )
        ok &= (
            len(cold) == expected
            and warm == warm_expected
            and (not gaps or min(gaps) >= args.delay * 0.99)
        )
    print(
        "ratio: requests / expected = 1.00 (cold and warm)" if ok else "ratio: MISMATCH (see table)"
    )


if __name__ == "__main__":
    main()
