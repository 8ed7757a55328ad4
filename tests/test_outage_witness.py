"""What proves the resolver works, by the CLI: only a public name that resolved to a public address.

An unknown name (NXDOMAIN) is a dead link only beside such a name. A name the hosts file answers,
a name local by definition, one that resolved to loopback or private addresses only, and one the
address guard refused are answered without the network (or by a resolver that answers anything):
beside them an unknown name is `unreachable`, recorded as such, so `report` shows it not dead.
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
from anchors.net import witness

from .loopback import LoopbackServer, respond
from .publicnames import OsResolver, loopback_only
from .registries import url_registry

ENV = {"ANCHORS_ALLOW_PRIVATE": "1", "ANCHORS_ATTEMPTS": "1"}


@pytest.fixture
def resolver(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> OsResolver:
    fake = OsResolver(socket.getaddrinfo)
    monkeypatch.setattr(socket, "getaddrinfo", fake)
    loopback_only(monkeypatch)
    monkeypatch.setattr(witness, "HOSTS_FILE", tmp_path / "no-hosts-file")
    return fake


async def _page(req, w):  # type: ignore[no-untyped-def]
    return await respond(w, 200, b"", req=req)


@pytest.fixture
def web() -> Iterator[LoopbackServer]:
    with LoopbackServer(lambda req: _page) as srv:
        yield srv


def _run(*args: str, env: dict[str, str] | None = None) -> Any:
    return CliRunner().invoke(app, list(args), env=env or ENV)


def _gone(reg: Path) -> tuple[Any, list[tuple[str, str]]]:
    """`check`, then `report`: the check's findings and the report's rows for the unknown name."""
    r = _run("check", str(reg), "--no-cache", "-f", "json")
    rep = _run("report", str(reg), "-f", "json")
    rows = json.loads(rep.stdout)["rows"]
    return r, [(row["section"], row["last_outcome"]) for row in rows]


@pytest.mark.parametrize(
    ("name", "how"),
    [
        ("docs.example", "hosts file"),
        ("docs", "single label"),
        ("docs.internal", "local by definition"),
        ("docs.localhost", "local by definition"),
        ("docs.example", "loopback only"),
    ],
)
def test_a_name_answered_without_the_network_proves_nothing(
    tmp_path: Path,
    web: LoopbackServer,
    resolver: OsResolver,
    monkeypatch: pytest.MonkeyPatch,
    name: str,
    how: str,
) -> None:
    """The page answers (the network spoke), but its name proves nothing about the resolver:
    the unknown name beside it is unreachable, not dead, and the report shows it not dead."""
    if how == "hosts file":
        hosts = tmp_path / "hosts"
        hosts.write_text(f"127.0.0.1 localhost\n93.184.215.14  {name.upper()}.  # pinned\n")
        monkeypatch.setattr(witness, "HOSTS_FILE", hosts)
    if how == "loopback only":
        resolver.names = {name}
    else:
        resolver.public = {name}
    reg = url_registry(tmp_path, [f"http://{name}:{web.port}/ok", "https://gone.example/"])
    r, rows = _gone(reg)
    assert r.exit_code == 0, r.output
    [f] = json.loads(r.stdout)["findings"]
    assert f["code"] == "unreachable" and "no public name resolved" in f["message"]
    assert rows == [("not-dead", "unreachable")]


def test_a_name_the_guard_refuses_proves_nothing(
    tmp_path: Path, resolver: OsResolver, loopback: type[LoopbackServer]
) -> None:
    """No `--allow-private`: the GitHub API the user named answers (the network spoke), a name
    resolving to a private address is refused by the guard, and the unknown name is unreachable."""

    async def api(req, w):  # type: ignore[no-untyped-def]
        body = json.dumps({"full_name": "o/tool", "html_url": "https://github.com/o/tool"})
        return await respond(w, 200, body.encode(), {"Content-Type": "application/json"}, req=req)

    resolver.table = {"intranet.example": "10.0.0.5"}
    urls = ["https://github.com/o/tool", "https://intranet.example/", "https://gone.example/"]
    reg = url_registry(tmp_path, urls)
    with loopback(lambda req: api) as srv:
        env = {"ANCHORS_ATTEMPTS": "1", "ANCHORS_GITHUB_API": srv.url("")}
        r = _run("check", str(reg), "--no-cache", "-f", "json", env=env)
    assert r.exit_code == 0, r.output
    found = {f["anchor"]: f["code"] for f in json.loads(r.stdout)["findings"]}
    assert found == {"https://intranet.example/": "blocked-url", urls[2]: "unreachable"}


def test_a_public_name_with_a_public_address_is_evidence(
    tmp_path: Path, web: LoopbackServer, resolver: OsResolver
) -> None:
    """The rule can still say dead: beside a public name that resolved to a public address, an
    unknown name is a dead link (the same setup as above, only the name is public)."""
    resolver.public = {"docs.example"}
    reg = url_registry(tmp_path, [f"http://docs.example:{web.port}/ok", "https://gone.example/"])
    r, rows = _gone(reg)
    assert r.exit_code == 1
    assert [f["code"] for f in json.loads(r.stdout)["findings"]] == ["dead-link"]
    assert rows == [("newly-dead", "dead")]
