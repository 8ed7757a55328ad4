"""Counts agree between commands: `check` then `report` count the same anchors in the same states,
and the states sum to the registry; a run that did not finish is no point of the trend.

By the CLI, on loopback. Names resolve through `publicnames.OsResolver`: `site*` are public names
(the resolver demonstrably works), `gone*` do not exist, `flaky*` fail to resolve for now.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from anchors.cli.app import app

from .checkout import as_checkout
from .loopback import LoopbackServer, respond
from .publicnames import OsResolver, loopback_only
from .registries import url_registry

#: one request at a time, so the first page answers first (three silent hosts before any answer
#: are the outage rule's), and no share of unanswered anchors stops the run (`test_unanswered`)
ENV = {
    "ANCHORS_ALLOW_PRIVATE": "1",
    "ANCHORS_ATTEMPTS": "1",
    "ANCHORS_CONCURRENCY": "1",
    "ANCHORS_MAX_UNREACHABLE": "1",
}
#: path -> status the page answers (/moved is a permanent redirect to a page that works)
PAGES = {"/ok": 200, "/moved": 301, "/gone": 404, "/busy": 503, "/limited": 429, "/wall": 403}


async def _page(req, w):  # type: ignore[no-untyped-def]
    path = req.path.split("?")[0].rstrip("0123456789")
    status = 200 if path == "/moved-here" else PAGES.get(path, 404)
    where = {"Location": f"/moved-here{req.path[len(path) :]}"} if status == 301 else {}
    return await respond(w, status, b"", where, req=req)


@pytest.fixture
def resolver(monkeypatch: pytest.MonkeyPatch) -> OsResolver:
    fake = OsResolver(socket.getaddrinfo)
    monkeypatch.setattr(socket, "getaddrinfo", fake)
    loopback_only(monkeypatch)
    fake.failing = {f"flaky{i}.example" for i in range(3)}
    return fake


@pytest.fixture
def web() -> Iterator[LoopbackServer]:
    with LoopbackServer(lambda req: _page) as srv:
        yield srv


def _run(*args: str, env: dict[str, str] | None = None) -> Any:
    return CliRunner().invoke(app, list(args), env={**ENV, **(env or {})})


def _check_then_report(reg: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    checked = _run("check", str(reg), "--no-cache", "-f", "json")
    assert checked.exit_code in (0, 1), checked.output
    reported = _run("report", str(reg), "-f", "json")
    assert reported.exit_code in (0, 1), reported.output
    return json.loads(checked.stdout), json.loads(reported.stdout)


#: one anchor: where its name resolves (public, unknown, failing) and which page it cites
_anchor = st.tuples(st.sampled_from(["site", "site", "gone", "flaky"]), st.integers(0, 2))
_page_of = st.sampled_from([*PAGES, "/ok"])


@settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    anchors=st.lists(st.tuples(_anchor, _page_of, st.booleans()), min_size=1, max_size=9),
    public_evidence=st.booleans(),
)
@pytest.mark.slow
def test_check_and_report_count_the_same_anchors_in_the_same_states(
    web: LoopbackServer,
    resolver: OsResolver,
    anchors: list[tuple[tuple[str, int], str, bool]],
    public_evidence: bool,
) -> None:
    """Whatever the mix (pages that work, move, die, refuse or rate-limit, names that do not
    exist or fail, several anchors on one host, skipped entries, with and without a public
    name resolving), the report's states after a check are the check's, summing to the
    registry's entries."""
    host = {"site": "site{}.example", "gone": "gone{}.example", "flaky": "flaky{}.example"}
    sites = {"docs.example", *(f"site{i}.example" for i in range(3))}
    resolver.public, resolver.names = (sites, set()) if public_evidence else (set(), sites)
    entries = [(f"http://docs.example:{web.port}/ok", False)]  # something answers: no outage
    entries += [
        (f"http://{host[where].format(n)}:{web.port}{path}{i}", skip)
        for i, ((where, n), path, skip) in enumerate(anchors)
    ]
    with tempfile.TemporaryDirectory() as tmp:
        reg = as_checkout(Path(tmp)) / "registry.yaml"
        reg.write_text(
            "version: 1\nanchors:\n"
            + "".join(
                f'  - url: "{url}"\n    first_anchored: 2026-09-24\n    status: new\n'
                + ("    check: skip\n" if skip else "")
                for url, skip in entries
            ),
            encoding="utf-8",
        )
        check, report = _check_then_report(reg)
    states = {k: n for k, n in check["states"].items() if n}
    assert {k: n for k, n in report["states"].items() if n} == states
    assert sum(report["states"].values()) == check["anchors"] == len(entries)


def test_unknown_names_beside_a_host_reached_by_address_are_counted_by_both(
    tmp_path: Path, web: LoopbackServer, resolver: OsResolver
) -> None:
    """The issue's trial: a host answered (reached by its address), no name resolved. `check`
    counted the unknown names `unverified`; the report lost them (36 of 44 tracked). Now both
    count every entry, in the same states."""
    gone = [f"https://gone{i}.example/paper" for i in range(8)]
    flaky = [f"https://flaky{i % 3}.example/p{i}" for i in range(5)]
    reg = url_registry(tmp_path, [f"http://127.0.0.1:{web.port}/ok", *gone, *flaky])
    r = _run("check", str(reg), "--no-cache", "-f", "json")
    assert r.exit_code == 0, r.output
    check = json.loads(r.stdout)
    assert {k: n for k, n in check["states"].items() if n} == {"ok": 1, "unverified": 13}
    rep = _run("report", str(reg), "-f", "json")
    report = json.loads(rep.stdout)
    assert rep.exit_code == 0, rep.output  # unreachable is never dead
    assert report["targets"] == 14
    assert sorted(row["target"] for row in report["rows"]) == sorted(gone + flaky)
    assert {k: n for k, n in report["states"].items() if n} == {"ok": 1, "unverified": 13}
    md = _run("report", str(reg)).stdout
    assert "14 anchors in the registry as last checked: 1 OK, 13 unverified" in md


@pytest.mark.slow
def test_an_interrupted_run_is_no_point_of_the_trend_and_no_change(tmp_path: Path) -> None:
    """A check stopped by SIGTERM keeps what it learnt, then a full run: the report counts two
    runs, one of them interrupted, draws the full run alone and says so; what the interrupted
    run saw counts in the states, never as "what changed"."""
    slow = {"on": True}

    async def handler(req, w):  # type: ignore[no-untyped-def]
        if req.path.startswith("/slow") and slow["on"]:
            await asyncio.sleep(30)
        return await respond(w, 200, b"", req=req)

    with LoopbackServer(lambda req: handler) as srv:
        urls = [srv.url(f"/fast{i}") for i in range(4)] + [srv.url(f"/slow{i}") for i in range(11)]
        reg = url_registry(tmp_path, urls)
        p = subprocess.Popen(
            [sys.executable, "-m", "anchors", "check", str(reg), "--allow-private", "-q"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            env={**os.environ, "NO_COLOR": "1", "PYTHONPATH": str(Path(__file__).parent.parent)},
        )
        deadline = time.monotonic() + 20
        while srv.counts.get("/slow0", 0) == 0 and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.5)  # the fast ones are answered and recorded by now
        p.send_signal(signal.SIGTERM)
        p.communicate(timeout=20)
        assert p.returncode == 143
        slow["on"] = False
        full = _run("check", str(reg), "--allow-private", "--no-cache")
        assert full.exit_code == 0, full.output
    rep = _run("report", str(reg), "-f", "json")
    doc = json.loads(rep.stdout)
    assert rep.exit_code == 0, rep.output
    assert (doc["window"]["runs"], doc["window"]["partial_runs"]) == (2, 1)
    assert [(t["ok"], t["failing"], t["dead"]) for t in doc["trend"]] == [(15, 0, 0)]
    assert doc["transitions"] == [] and doc["states"]["ok"] == 15
    md = _run("report", str(reg)).stdout
    assert "2 runs (1 interrupted) between" in md
    assert "1 run that did not finish (interrupted, or still running) is not shown" in md
