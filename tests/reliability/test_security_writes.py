"""What `add` and `fix` write into the registry from outside stays one value.

A cited URL, a redirect's `Location` and a cached snapshot's date come from briefings, servers
and a file; written as YAML they must read back as exactly themselves, never break the file or
add entries to it.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from anchors.cli.app import app
from anchors.findings import Outcome
from anchors.history import History, Observation, Snapshot
from anchors.ids import WebUrl
from anchors.ids.web import canonical_url
from anchors.registry.scalars import quote, reads_back, url_value

pytestmark = [pytest.mark.reliability(kind="security"), pytest.mark.timeout(60)]


def _cli(*args: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(app, list(args))


def _entries(reg: Path) -> list[dict[str, object]]:
    doc = yaml.safe_load(reg.read_text(encoding="utf-8"))
    return list(doc["anchors"])


@pytest.mark.parametrize(
    "cited",
    ["[A page](https://example.com/a:)", "<https://example.com/a:>", "[q](https://example.com/a:)"],
)
def test_add_writes_a_url_ending_in_a_colon_so_it_reads_back(tmp_path: Path, cited: str) -> None:
    url = "https://example.com/a:"
    brief = tmp_path / "2026-09-24-notes.md"
    brief.write_text(f"# Notes\n\n- {cited}\n", encoding="utf-8")
    reg = tmp_path / "registry.yaml"
    r = _cli("add", str(brief), "-r", str(reg), "--today", "2026-09-30")
    assert r.exit_code == 0, r.output
    assert [e["url"] for e in _entries(reg)] == [url]
    assert _cli("check", str(reg), "--offline").exit_code == 0


def _moved(tmp_path: Path, old: str, new: str, flow: bool) -> tuple[Path, Path]:
    reg = tmp_path / "registry.yaml"
    entry = (
        f"  - {{url: {old}, first_anchored: 2026-09-20, status: new}}\n"
        if flow
        else f"  - url: {old}\n    first_anchored: 2026-09-20\n    status: new\n"
    )
    reg.write_text(f"version: 1\nanchors:\n{entry}", encoding="utf-8")
    db = tmp_path / "h.sqlite"
    h = History(db)
    h.record(
        h.start_run(str(reg), 1.0),
        [Observation(WebUrl(canonical_url(old)), "", Outcome.REDIRECT, 200, new, checked_at=1.0)],
    )
    h.close()
    return reg, db


@pytest.mark.parametrize("new", ["http://docs.example/new:", "http://docs.example/new?a=b:c"])
@pytest.mark.parametrize("flow", [False, True])
def test_fix_writes_a_location_so_it_reads_back(tmp_path: Path, new: str, flow: bool) -> None:
    reg, db = _moved(tmp_path, "http://docs.example/old", new, flow)
    r = _cli("fix", "-r", str(reg), "--history", str(db))
    assert r.exit_code == 0, r.output
    [entry] = _entries(reg)
    assert (entry["url"], entry["cited_url"]) == (new, "http://docs.example/old")
    assert _cli("check", str(reg), "--offline").exit_code == 0


@pytest.mark.parametrize(
    "date",
    [
        (
            "2026-09-19}\n  - url: https://evil.example/\n    first_anchored: 2026-09-19\n"
            "    status: new\n#"
        ),
        "2026-09-19, extra: 1",
        "yesterday",
    ],
)
def test_a_tampered_snapshot_date_in_the_history_adds_nothing_to_the_registry(
    tmp_path: Path, date: str
) -> None:
    reg = tmp_path / "registry.yaml"
    reg.write_text(
        "version: 1\nanchors:\n  - url: http://docs.example/fine\n"
        "    first_anchored: 2026-09-20\n    status: new\n",
        encoding="utf-8",
    )
    state = tmp_path / "state"
    h = History(state / "history.sqlite")
    fine = Observation(WebUrl("http://docs.example/fine"), "", Outcome.OK, 200)
    h.record(h.start_run(str(reg), 1.0), [fine])
    snap = "https://web.archive.org/web/20260919000000/http://docs.example/fine"
    # a snapshot row as a hand-edited (or hostile) history file may hold it
    h.keep_snapshots(str(reg), [(fine.key, Snapshot(snap, date))])
    evil = Snapshot("javascript:alert(1)", "2026-09-19")
    h.keep_snapshots(str(reg.with_name("other.yaml")), [(fine.key, evil)])
    h.close()
    before = reg.read_bytes()
    r = _cli("fix", "-r", str(reg), "--cache-dir", str(state), "--only", "archive")
    assert r.exit_code == 0, r.output
    assert reg.read_bytes() == before  # the damaged snapshot is not used
    assert History.read_only(state / "history.sqlite").snapshots() == {}


def test_a_value_that_would_not_read_back_is_refused_before_writing() -> None:
    assert reads_back("archived", '{url: "https://a.example/", date: 2026-09-19}')
    assert reads_back("url", url_value("https://example.com/a:"))
    assert reads_back("url", url_value("https://example.com/a:"), flow=True)
    for bad in ("https://example.com/a:", "x\n  - url: y", "{url: a, date: 2026}\n- b", "a: b"):
        assert not reads_back("url", bad) and not reads_back("url", bad, flow=True), bad


_URLS = st.text(
    alphabet=st.sampled_from(list("abc:/?#=&%@!*'\"{}[],|>` -~.\\\t\n") + ["中", "\x85", "\u2028"]),
    max_size=40,
).map(lambda s: "https://example.com/" + s)


@settings(max_examples=500, deadline=None)
@given(_URLS)
@pytest.mark.slow
def test_every_written_url_reads_back_as_itself(url: str) -> None:
    value = url_value(url)
    assert yaml.safe_load(f"url: {value}\n") == {"url": url}
    assert reads_back("url", value)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=60))
@pytest.mark.slow
def test_every_quoted_title_reads_back_as_itself(title: str) -> None:
    assert yaml.safe_load(f"title: {quote(title)}\n") == {"title": title}
