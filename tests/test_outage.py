"""The network's silence is not a dead link: `check` during an outage, then `report`, by the CLI.

The machine's resolver is injected where the operating system's sits (`socket.getaddrinfo`, which
the guard's resolver, aiohttp and requests all ask): names the test lists map to loopback, and
every other name is unknown (NXDOMAIN) or fails (a temporary failure), as on a machine whose
resolver answers NXDOMAIN to everything or cannot reach its DNS server. No real name is resolved.
"""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from anchors.cli.app import app

from .loopback import LoopbackServer, respond
from .publicnames import OsResolver, loopback_only
from .registries import url_registry

ENV = {"ANCHORS_ALLOW_PRIVATE": "1", "ANCHORS_ATTEMPTS": "1"}


@pytest.fixture
def resolver(monkeypatch: pytest.MonkeyPatch) -> OsResolver:
    fake = OsResolver(socket.getaddrinfo)
    monkeypatch.setattr(socket, "getaddrinfo", fake)
    loopback_only(monkeypatch)
    return fake


async def _page(req, w):  # type: ignore[no-untyped-def]
    return await respond(w, 200 if req.path.startswith("/ok") else 404, b"", req=req)


@pytest.fixture
def web() -> Iterator[LoopbackServer]:
    with LoopbackServer(lambda req: _page) as srv:
        yield srv


def _check(reg: Path) -> Any:
    return CliRunner().invoke(app, ["check", str(reg), "--no-cache", "-f", "json"], env=ENV)


def _report(reg: Path) -> Any:
    return CliRunner().invoke(app, ["report", str(reg), "-f", "json"], env=ENV)


@pytest.mark.parametrize("mode", ["nxdomain", "fail"])
@pytest.mark.parametrize("hosts", [1, 2, 4])
def test_an_outage_records_nothing_and_the_report_shows_no_dead_link(
    tmp_path: Path, web: LoopbackServer, resolver: OsResolver, mode: str, hosts: int
) -> None:
    """A good run, then two runs with the resolver answering NXDOMAIN to everything (or failing
    for everything): with three or more hosts `check` exits 2 as before, with one or two it
    warns `unreachable`; either way nothing is recorded, and `report` still shows the good run
    alone, with no dead link."""
    names = [f"site{i}.example" for i in range(hosts)]
    reg = url_registry(tmp_path, [f"http://{n}:{web.port}/ok" for n in names])
    resolver.names = set(names)
    assert _check(reg).exit_code == 0

    resolver.names, resolver.mode = set(), mode
    for _ in range(2):
        r = _check(reg)
        if hosts >= 3:
            assert r.exit_code == 2 and "is this machine offline?" in r.stderr
        else:
            assert r.exit_code == 0, r.output
            found = json.loads(r.stdout)["findings"]
            assert {f["code"] for f in found} == {"unreachable"} and len(found) == hosts

    rep = _report(reg)
    got = json.loads(rep.stdout)
    assert rep.exit_code == 0, rep.output
    assert got["window"]["runs"] == 1 and got["rows"] == []
    assert [t["ok"] for t in got["trend"]] == [hosts]


def test_an_outage_before_any_run_leaves_nothing_to_report(
    tmp_path: Path, resolver: OsResolver
) -> None:
    """The issue's case: a registry copied to a machine without network. Each check exits 2 and
    records nothing, so `report` has nothing to report from (exit 2), not a newly dead link."""
    reg = url_registry(tmp_path, [f"https://site{i}.example/x" for i in range(4)])
    for _ in range(2):
        assert _check(reg).exit_code == 2
    rep = _report(reg)
    assert rep.exit_code == 2, rep.output
    assert "nothing to report from" in rep.stderr and "newly dead" not in rep.stdout


def test_one_unknown_name_among_names_that_resolve_is_still_dead(
    tmp_path: Path, web: LoopbackServer, resolver: OsResolver
) -> None:
    """The rule can still say "dead": the resolver works (a public name resolved to a public
    address), so a name it does not know is a dead link, recorded, and the report shows it
    newly dead."""
    resolver.public = {"docs.example"}
    reg = url_registry(tmp_path, [f"http://docs.example:{web.port}/ok", "https://gone.example/"])
    r = _check(reg)
    assert r.exit_code == 1
    [f] = json.loads(r.stdout)["findings"]
    assert (f["code"], f["message"]) == ("dead-link", "no such host (NXDOMAIN)")
    rep = _report(reg)
    assert rep.exit_code == 1
    assert [(row["section"], row["target"]) for row in json.loads(rep.stdout)["rows"]] == [
        ("newly-dead", "https://gone.example/")
    ]


def test_a_temporary_resolver_failure_is_never_dead(
    tmp_path: Path, web: LoopbackServer, resolver: OsResolver
) -> None:
    resolver.names, resolver.mode = {"docs.example"}, "fail"
    reg = url_registry(tmp_path, [f"http://docs.example:{web.port}/ok", "https://flaky.example/"])
    r = _check(reg)
    assert r.exit_code == 0
    assert [f["code"] for f in json.loads(r.stdout)["findings"]] == ["unreachable"]
    rep = json.loads(_report(reg).stdout)
    assert [(row["section"], row["last_outcome"]) for row in rep["rows"]] == [
        ("not-dead", "unreachable")
    ]


@pytest.mark.parametrize("mode", ["nxdomain", "fail"])
@pytest.mark.parametrize("hosts", [1, 4])
def test_an_outage_with_every_kind_of_anchor_is_one_line_or_warnings(
    tmp_path: Path, resolver: OsResolver, mode: str, hosts: int
) -> None:
    """The bundled registry's kinds (arXiv, GitHub, DOI and links): during an outage the
    services fail as the links do, so the run exits 2 with one line, no traceback, and records
    nothing: three or more link hosts are the outage rule's (is this machine offline?); one link
    host and the three services are four silent places, more than half of the anchors without
    any answer (`check.silence`: the gate cannot pass). Every service is named under
    `.invalid`."""
    reg = url_registry(tmp_path, [f"https://site{i}.example/x" for i in range(hosts)])
    with reg.open("a", encoding="utf-8") as f:
        for field, value in (
            ("arxiv", "2609.18063"),
            ("url", "https://github.com/vllm-project/vllm/issues/8242"),
            ("doi", "10.1145/3600006.3613165"),
        ):
            f.write(f'  - {field}: "{value}"\n    first_anchored: 2026-09-24\n    status: new\n')
    resolver.mode = mode
    env = {
        **ENV,
        "ANCHORS_ARXIV_API": "https://export.arxiv.invalid/api/query",
        "ANCHORS_ARXIV_DELAY": "0",
        "ANCHORS_GITHUB_API": "https://api.github.invalid",
        "ANCHORS_DOI_API": "https://doi.invalid",
        "ANCHORS_CROSSREF_API": "https://api.crossref.invalid",
    }
    r = CliRunner().invoke(app, ["check", str(reg), "--no-cache", "-f", "json"], env=env)
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    if hosts >= 3:
        assert r.exit_code == 2 and "is this machine offline?" in r.stderr
    else:
        assert r.exit_code == 2, r.output
        assert "4 of 4 anchors checked online got no answer at all" in r.stderr
        found = json.loads(r.stdout)["findings"]
        assert {f["code"] for f in found} == {"unreachable"} and len(found) == 4
    rep = _report(reg)
    assert rep.exit_code == 2 and "nothing to report from" in rep.stderr
