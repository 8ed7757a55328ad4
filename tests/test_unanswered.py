"""A CI gate that cannot see the network does not pass: `check` with most anchors unanswered.

One page answers (so the outage rule, which needs silence everywhere, does not stop the run) and
the other hosts' names fail to resolve (a temporary failure: `unreachable`, never dead). More
than half of the anchors unanswered, from three hosts or more, is exit 2 with one line saying
so; what answered is still recorded. No real name is resolved.
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
    fake.mode = "fail"
    monkeypatch.setattr(socket, "getaddrinfo", fake)
    loopback_only(monkeypatch)
    fake.public = {"docs.example"}
    return fake


async def _page(req, w):  # type: ignore[no-untyped-def]
    return await respond(w, 403 if req.path.startswith("/refuse") else 200, b"", req=req)


@pytest.fixture
def web() -> Iterator[LoopbackServer]:
    with LoopbackServer(lambda req: _page) as srv:
        yield srv


def _registry(tmp_path: Path, web: LoopbackServer, silent: int, answered: int = 1) -> Path:
    ok = [f"http://docs.example:{web.port}/ok{i}" for i in range(answered)]
    return url_registry(tmp_path, ok + [f"https://down{i}.example/x" for i in range(silent)])


def _check(reg: Path, *args: str, env: dict[str, str] | None = None) -> Any:
    return CliRunner().invoke(
        app, ["check", str(reg), "--no-cache", "-f", "json", *args], env={**ENV, **(env or {})}
    )


def test_most_anchors_unanswered_is_exit_2_and_what_answered_is_recorded(
    tmp_path: Path, web: LoopbackServer, resolver: OsResolver
) -> None:
    reg = _registry(tmp_path, web, silent=4)
    r = _check(reg)
    assert r.exit_code == 2, r.output
    [line] = [x for x in r.stderr.splitlines() if x.startswith("anchors: error:")]
    assert "4 of 5 anchors checked online got no answer at all" in line
    assert "--max-unreachable" in line and "Traceback" not in r.output
    found = json.loads(r.stdout)["findings"]  # what was found is still shown
    assert {f["code"] for f in found} == {"unreachable"} and len(found) == 4
    rep = CliRunner().invoke(app, ["report", str(reg), "-f", "json"], env=ENV)
    assert rep.exit_code == 0, rep.output  # recorded, and never dead
    rows = json.loads(rep.stdout)["rows"]
    assert sorted(row["section"] for row in rows) == ["not-dead"] * 4


@pytest.mark.parametrize(
    ("silent", "answered", "why"),
    [
        (2, 1, "two hosts are a handful, whatever the share"),
        (3, 3, "half is not more than half"),
    ],
)
def test_a_handful_of_unreachable_sites_stay_warnings(
    tmp_path: Path, web: LoopbackServer, resolver: OsResolver, silent: int, answered: int, why: str
) -> None:
    r = _check(_registry(tmp_path, web, silent, answered))
    assert r.exit_code == 0, (why, r.output)
    assert [f["code"] for f in json.loads(r.stdout)["findings"]] == ["unreachable"] * silent


def test_a_site_that_answered_and_refused_is_an_answer(
    tmp_path: Path, web: LoopbackServer, resolver: OsResolver
) -> None:
    """Four hosts that answer 403 (bot walls) are unverifiable, not unanswered: exit 0."""
    names = [f"wall{i}.example" for i in range(4)]
    resolver.public |= set(names)
    urls = [f"http://docs.example:{web.port}/ok"]
    urls += [f"http://{n}:{web.port}/refuse" for n in names]
    r = _check(url_registry(tmp_path, urls))
    assert r.exit_code == 0, r.output
    assert {f["code"] for f in json.loads(r.stdout)["findings"]} == {"unverifiable"}


@pytest.mark.parametrize(
    ("args", "env"),
    [
        (["--max-unreachable", "0.9"], {}),
        (["--max-unreachable", "90%"], {}),
        ([], {"ANCHORS_MAX_UNREACHABLE": "0.8"}),
    ],
)
def test_the_share_is_set_by_flag_or_environment(
    tmp_path: Path,
    web: LoopbackServer,
    resolver: OsResolver,
    args: list[str],
    env: dict[str, str],
) -> None:
    r = _check(_registry(tmp_path, web, silent=4), *args, env=env)
    assert r.exit_code == 0, r.output


def test_a_lower_share_stops_sooner(
    tmp_path: Path, web: LoopbackServer, resolver: OsResolver
) -> None:
    r = _check(_registry(tmp_path, web, silent=3, answered=3), "--max-unreachable", "0.25")
    assert r.exit_code == 2 and "more than 25%" in r.stderr


def test_a_config_file_may_not_relax_the_gate(
    tmp_path: Path, web: LoopbackServer, resolver: OsResolver
) -> None:
    """A pull request could raise the share to 1 in `anchors.toml` and turn the gate off."""
    reg = _registry(tmp_path, web, silent=4)
    (tmp_path / "anchors.toml").write_text("max_unreachable = 1.0\n", encoding="utf-8")
    r = _check(reg)
    assert r.exit_code == 2
    assert "max_unreachable may not be set in a config file" in r.stderr
    assert "--max-unreachable or ANCHORS_MAX_UNREACHABLE" in r.stderr


@pytest.mark.parametrize("value", ["2", "-0.1", "150%", "half", "nan"])
def test_a_share_that_is_no_share_is_a_usage_error(
    tmp_path: Path, web: LoopbackServer, resolver: OsResolver, value: str
) -> None:
    r = _check(_registry(tmp_path, web, silent=1), "--max-unreachable", value)
    assert r.exit_code == 2 and "expected a share from 0 to 1" in r.stderr, r.output
