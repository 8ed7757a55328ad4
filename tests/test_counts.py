"""Counts that add up: each anchor in one state, the states summing to the registry's entries,
findings by severity apart, the same numbers in every format; messages that say what happened.

One mixed registry, checked online by the CLI against a loopback server.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from anchors.cli.app import app

from .loopback import LoopbackServer, respond

ANSWERS: dict[str, tuple[int, dict[str, str]]] = {
    "/ok": (200, {}),
    "/also-ok": (200, {}),
    "/moved": (301, {"Location": "/ok"}),
    "/gone": (404, {}),
    "/limited": (429, {"Retry-After": "3600"}),  # longer than the 30 s cap: one request
    "/busy": (429, {"Retry-After": "0"}),  # waited out, tried again, three times
    "/login": (401, {}),
}


async def _answer(req, w):  # type: ignore[no-untyped-def]
    status, headers = ANSWERS.get(req.path, (200, {}))
    return await respond(w, status, b"", headers, req=req)


@pytest.fixture
def web() -> Iterator[LoopbackServer]:
    with LoopbackServer(lambda req: _answer) as srv:
        yield srv


def _entry(field: str, value: str, extra: str = "") -> str:
    return f'  - {field}: "{value}"\n    first_anchored: 2026-09-24\n    status: new\n{extra}'


@pytest.fixture
def mixed(tmp_path: Path, web: LoopbackServer) -> Path:
    """12 entries: 2 OK, 1 redirected, 1 with a warning, 3 unverified, 3 failing, 2 not
    checked (one `check: skip`, one excluded by the config)."""
    (tmp_path / "anchors.toml").write_text('exclude = ["/private/"]\n', encoding="utf-8")
    reg = tmp_path / "registry.yaml"
    reg.write_text(
        "version: 1\nanchors:\n"
        + "".join(
            _entry("url", web.url(p))
            for p in ("/ok", "/also-ok", "/moved", "/gone", "/limited", "/busy", "/login")
        )
        + _entry("url", web.url("/ok"))  # a duplicate: failing
        + _entry("url", web.url("/later"), "    check: skip\n")
        + _entry("url", web.url("/private/page"))
        + _entry("arxiv", "2611.00001", "    check: skip\n")  # later than its first_anchored
        + _entry("arxiv", "2709.00001"),  # later than today: failing
        encoding="utf-8",
    )
    return reg


def _check(reg: Path, *args: str) -> Any:
    return CliRunner().invoke(
        app,
        ["check", str(reg), "--allow-private", "--no-cache", "--today", "2026-12-02", *args],
    )


def _said(line: str) -> dict[str, int]:
    """The anchors' states as a summary line tells them: `2 OK, 1 redirected, ...`."""
    head = re.split(r"[;.] [Ff]indings", line)[0].split(": ", 1)[1]
    head = re.sub(r" \(.*?\)", "", head)
    return {word: int(n) for n, word in (part.split(" ", 1) for part in head.split(", "))}


WORDS = {
    "ok": "OK",
    "redirected": "redirected",
    "warned": "with warnings",
    "unverified": "unverified",
    "failing": "failing",
    "not-checked": "not checked",
}


def test_every_anchor_is_in_one_state_and_every_format_says_the_same(mixed: Path) -> None:
    r = _check(mixed, "-f", "json")
    doc = json.loads(r.stdout)
    assert r.exit_code == 1, r.output
    assert doc["states"] == {
        "ok": 2,
        "redirected": 1,
        "warned": 1,
        "unverified": 3,
        "failing": 3,
        "not-checked": 2,
    }
    assert sum(doc["states"].values()) == doc["anchors"] == 12
    assert doc["not_checked"] == {
        "skipped": 1,
        "unchanged": 0,
        "excluded": 1,
        "filtered": 0,
        "rate-limit": 0,
    }
    assert doc["summary"] == {"error": 3, "warning": 4, "info": 1}  # findings, not anchors
    shown = {WORDS[k]: n for k, n in doc["states"].items() if n}
    line = r.stderr.strip()
    assert line.startswith(
        "12 anchors: 2 OK, 1 redirected, 1 with warnings, 3 unverified, 3 failing, "
        "2 not checked (1 skipped, 1 excluded); findings: 3 errors, 4 warnings, 1 note; "
    ), line
    md = _check(mixed, "-f", "markdown")
    assert _said(md.stdout.splitlines()[2]) == shown == _said(line)
    assert "Findings: 3 errors, 4 warnings, 1 note." in md.stdout


def test_only_hides_findings_but_never_turns_them_into_ok(mixed: Path) -> None:
    """`--only dead-link`: the 429s and the 401 were not shown to be fine, so they are not
    checked (filtered), as are the duplicate and the future ID; the redirect (a note) is OK."""
    doc = json.loads(_check(mixed, "-f", "json", "--only", "dead-link").stdout)
    assert [f["code"] for f in doc["findings"]] == ["dead-link"]
    assert {k: n for k, n in doc["states"].items() if n} == {
        "ok": 3,
        "failing": 1,
        "not-checked": 8,
    }
    assert {k: n for k, n in doc["not_checked"].items() if n} == {
        "skipped": 2,
        "excluded": 1,
        "filtered": 5,
    }
    assert sum(doc["states"].values()) == doc["anchors"]


def test_a_retry_after_over_the_cap_says_the_server_saw_one_request(
    mixed: Path, web: LoopbackServer
) -> None:
    doc = json.loads(_check(mixed, "-f", "json").stdout)
    said = {f["anchor"].rsplit("/", 1)[-1]: f for f in doc["findings"]}
    assert web.counts["/limited"] == 1 and said["limited"]["requests"] == 1
    assert said["limited"]["message"] == (
        "rate-limited (HTTP 429, Retry-After 3600 s): a wait longer than --retry-after-cap, "
        "not waited for; not a dead link, check again later"
    )
    assert "through" not in said["limited"]["message"]
    assert web.counts["/busy"] == 3
    assert said["busy"]["message"] == (
        "rate-limited through 3 tries (HTTP 429, Retry-After 0 s); not a dead link, "
        "check again later"
    )


def test_a_problem_in_a_field_counts_against_its_entry(tmp_path: Path) -> None:
    """A schema finding points at the field's line, inside the entry: the entry is failing, not
    OK because its first line had no finding ('1 OK, 1 error' for one anchor, before)."""
    reg = tmp_path / "registry.yaml"
    reg.write_text(
        'version: 1\nanchors:\n  - arxiv: "2609.19969"\n    first_anchored: 2026-09-21\n'
        "    status: new\n    titel: x\n"
        '  - arxiv: "2609.19970"\n    first_anchored: 2026-09-21\n    status: new\n'
        "titel: y\n",  # a problem of the file, not of an entry
        encoding="utf-8",
    )
    r = CliRunner().invoke(app, ["check", str(reg), "--offline", "-f", "json"])
    doc = json.loads(r.stdout)
    assert [(f["line"], f["anchor"]) for f in doc["findings"]] == [(6, "2609.19969"), (10, "")]
    assert {k: n for k, n in doc["states"].items() if n} == {"ok": 1, "failing": 1}
    assert r.stderr.startswith("2 anchors (offline): 1 OK, 1 failing; findings: 2 errors")
