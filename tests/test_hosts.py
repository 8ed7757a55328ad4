"""Per-host rules of a link check run (anchors.net.hosts), through the production stack."""

from __future__ import annotations

import asyncio

from anchors.net.hosts import Hosts
from anchors.net.links import Outcome
from anchors.net.retry import RetryPolicy

from .loopback import LoopbackServer, respond
from .stack import links


async def reset(req, w):
    w.transport.abort()
    return False


async def ok(req, w):
    return await respond(w, 200, b"fine", req=req)


def run_in_order(srv: LoopbackServer, paths: list[str]):
    """One URL after another, so the host's failure count is deterministic."""

    async def go():
        async with links(allow_private=True, per_host=1, attempts=3) as lc:
            return [await lc.check(srv.url(p)) for p in paths]

    return asyncio.run(go())


def test_a_host_failing_three_times_in_a_row_gets_one_try_per_url() -> None:
    with LoopbackServer(lambda req: ok if req.path.startswith("/ok") else reset) as srv:
        got = run_in_order(srv, ["/r1", "/r2", "/r3"])
    assert [r.outcome for r in got] == [Outcome.UNREACHABLE] * 3
    # the first URL's three tries are the three failures in a row; then no more retries
    assert [r.requests for r in got] == [3, 1, 1]


def test_an_answer_from_the_host_gives_it_its_retries_back() -> None:
    with LoopbackServer(lambda req: ok if req.path.startswith("/ok") else reset) as srv:
        got = run_in_order(srv, ["/r1", "/r2", "/ok", "/r3"])
    assert [r.requests for r in got] == [3, 1, 1, 3]
    assert got[2].outcome is Outcome.OK and got[3].outcome is Outcome.UNREACHABLE


def test_a_url_told_to_wait_again_does_not_make_its_host_limiting() -> None:
    """Retries refused again are the same URLs' limits; only new URLs refused in a row pause
    the host (in the benchmark's last second this held every URL of a host for nothing)."""
    hosts = Hosts(8, RetryPolicy(clock=lambda: 100.0))
    h = hosts.get("h")
    for retry in (False, False, True, True, True):  # two URLs refused, then their retries
        hosts.note(h, responded=True, failed=False, retry_after=1.0, retry=retry)
    assert hosts.pause_left(h) == 0
    hosts.note(h, responded=True, failed=False, retry_after=1.0)  # a third new URL refused
    assert hosts.pause_left(h) == 1.0
    hosts.note(h, responded=True, failed=False, retry_after=None)  # served: the run is over
    assert h.limited == 0
