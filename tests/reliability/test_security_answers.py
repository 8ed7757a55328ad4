"""Every service's answer is bytes a server controls: its headers and its JSON cannot crash a
check, and cannot make a live link dead.

One loopback server plays the web, GitHub, doi.org, Crossref, arXiv, the Wayback Machine and
Save Page Now (tests/hostilefake.py); in each case one of them misbehaves. A byte outside ASCII
in a response header (`X-Note: café`) crashed `check` with UnicodeEncodeError in every service
client; 100,000 `[` as a service's JSON ended in RecursionError. Now the run ends with a
verdict for every anchor: the live link OK, the anchor whose answer could not be read
`unverifiable` with the reason (never dead, never not-found), the others checked as ever.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from anchors.cli.app import app

from ..hostilefake import DOI, ISSUE, PAPER, Services

pytestmark = [pytest.mark.reliability(kind="security"), pytest.mark.timeout(90)]

KEYS = {"ANCHORS_IA_ACCESS_KEY": "acc3ss-K3Y", "ANCHORS_IA_SECRET_KEY": "s3cr3t-K3Y"}


def _entry(field: str, value: str) -> str:
    return f'  - {field}: "{value}"\n    first_anchored: 2026-09-24\n    status: new\n'


def _check(
    tmp_path: Path, services: Services, *more: str, title: str = ""
) -> tuple[int, dict, str]:
    """`check -f json` of a live page, a redirect to a page, a GitHub issue, a DOI and an
    arXiv paper, every service on the fake; `more` flags (`--archive`, `--archive-save`: the
    archive's services on the fake too)."""
    (tmp_path / "anchors.toml").write_text("wayback_delay = 0\nsave_delay = 0\n", "utf-8")
    with services.server() as srv:
        services.port = srv.port
        reg = tmp_path / "registry.yaml"
        reg.write_text(
            "version: 1\nanchors:\n"
            + _entry("url", srv.url("/page"))
            + _entry("url", srv.url("/moved"))
            + _entry("url", ISSUE)
            + _entry("doi", DOI)
            + (f'    title: "{title}"\n' if title else "")
            + _entry("arxiv", PAPER),
            encoding="utf-8",
        )
        args = ["check", str(reg), "--allow-private", "-f", "json", *more]
        args += ["--today", "2026-12-02", "--timeout", "5"]
        args += ["--github-api", srv.url("/gh"), "--doi-api", srv.url("/doi")]
        args += ["--crossref-api", srv.url("/crossref"), "--arxiv-api", srv.url("/api/query")]
        args += ["--arxiv-delay", "0", "--wayback-api", srv.url("/wayback/available")]
        env = {**KEYS, "ANCHORS_SAVE_API": srv.url("/save")}
        r = CliRunner().invoke(app, args, env=env)
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    assert "Traceback" not in r.stderr and r.exit_code in (0, 1), r.stderr[-3000:]
    return r.exit_code, json.loads(r.stdout), r.stderr


def _codes(doc: dict) -> dict[str, list[str]]:
    """The finding codes by anchor (the anchor as the JSON names it)."""
    out: dict[str, list[str]] = {}
    for f in doc["findings"]:
        out.setdefault(f["anchor"], []).append(f["code"])
    return out


def _message(doc: dict, code: str) -> str:
    return next(f["message"] for f in doc["findings"] if f["code"] == code)


@pytest.mark.parametrize("service", ["link", "github", "doi", "crossref", "arxiv"])
def test_a_non_ascii_response_header_changes_nothing(tmp_path: Path, service: str) -> None:
    """`X-Note: café` in Latin-1 and in UTF-8 bytes from one service: every anchor is OK, the
    redirect whose Location is raw UTF-8 (`/café`) included, followed to `/caf%C3%A9`
    (decoded as Latin-1 beside the other header, it led to a page that is not there)."""
    code, doc, _ = _check(tmp_path, Services((service, "header")), "--no-cache")
    assert doc["findings"] == [] and code == 0
    assert doc["states"]["ok"] == 5


@pytest.mark.parametrize("service", ["wayback", "save"])
def test_a_non_ascii_header_from_the_archive_changes_nothing(tmp_path: Path, service: str) -> None:
    """The Wayback Machine's answers and snapshots, or Save Page Now's: snapshots are found,
    captures made, as with well-behaved headers."""
    saving = service == "save"
    flag = "--archive-save" if saving else "--archive"
    hostile = Services((service, "header"), no_snapshots=saving)
    code, doc, _ = _check(tmp_path, hostile, flag, "--no-cache")
    assert doc["states"]["ok"] == 5 and code == 0
    codes = {c for cs in _codes(doc).values() for c in cs}
    assert codes == ({"archive-capture"} if saving else set()), doc["findings"]


@pytest.mark.parametrize(
    ("service", "anchor", "why"),
    [
        ("github", ISSUE, "GitHub API answer could not be read (nested deeper than 64"),
        ("doi", DOI, "the DOI's metadata could not be read (nested deeper than 64"),
        ("crossref", DOI, "Crossref's record (retractions, corrections) could not be read"),
    ],
)
def test_json_nested_too_deep_leaves_its_anchor_unverifiable(
    tmp_path: Path, service: str, anchor: str, why: str
) -> None:
    code, doc, _ = _check(tmp_path, Services((service, "nested")), "--no-cache")
    found = _codes(doc)
    [key] = [k for k in found if anchor in k]
    assert found == {key: ["unverifiable"]}, doc["findings"]
    assert why in _message(doc, "unverifiable")
    assert doc["states"]["ok"] == 4 and doc["states"]["failing"] == 0 and code == 0


def test_an_arxiv_entry_with_a_date_no_calendar_has_is_unverifiable(tmp_path: Path) -> None:
    """The `arxiv` package raises ValueError for `<updated>yesterday</updated>`: the paper is
    unverifiable (the answer could not be read), the rest checked."""
    code, doc, _ = _check(tmp_path, Services(("arxiv", "bad-date")), "--no-cache")
    found = _codes(doc)
    assert list(found.values()) == [["unverifiable"]] and PAPER in next(iter(found))
    assert "arXiv API answer could not be read" in _message(doc, "unverifiable")
    assert doc["states"]["ok"] == 4 and code == 0


@pytest.mark.parametrize("service", ["wayback", "save"])
def test_archive_json_nested_too_deep_is_a_warning_not_a_crash(
    tmp_path: Path, service: str
) -> None:
    saving = service == "save"
    flag = "--archive-save" if saving else "--archive"
    hostile = Services((service, "nested"), no_snapshots=saving)
    code, doc, _ = _check(tmp_path, hostile, flag, "--no-cache")
    codes = {c for cs in _codes(doc).values() for c in cs}
    assert codes == {"archive-unavailable"}, doc["findings"]
    assert doc["states"]["ok"] == 5 and code == 0


def test_a_github_etag_outside_ascii_is_not_sent_back(tmp_path: Path) -> None:
    """An ETag with a raw UTF-8 byte is never kept: the next run asks again without
    `If-None-Match` (an ETag that no header can carry crashed it)."""
    services = Services(("github", "etag"))
    # the ETag store is read under --no-cache too; its folder named: this machine's own
    state = ("--no-cache", "--cache-dir", str(tmp_path / "state"))
    first = _check(tmp_path, services, *state)
    second = _check(tmp_path, services, *state)
    assert first[1]["states"]["ok"] == second[1]["states"]["ok"] == 5
    assert services.github_asked == 2 and services.conditional == 0


def test_a_lone_surrogate_in_a_service_answer_is_recorded_not_a_crash(tmp_path: Path) -> None:
    """A GitHub title with a `\\ud800` escape and no partner: the run records it (history,
    cache) as U+FFFD, where the first UTF-8 write of it crashed."""
    code, doc, _ = _check(tmp_path, Services(("github", "surrogate")))
    assert doc["states"]["ok"] == 5 and code == 0
    assert "\ufffd".encode() in (tmp_path / ".anchors" / "cache.json").read_bytes()


def _utf8(text: str) -> str:
    """`text`'s UTF-8 bytes as the Latin-1 characters the fake writes byte for byte."""
    return text.encode().decode("latin-1")


@pytest.mark.parametrize(
    ("service", "status", "headers", "state", "needle"),
    [
        # `²` is a digit to str.isdigit, not to float: ValueError on the link path
        ("link", 429, {"Retry-After": _utf8("²")}, "unverified", "(HTTP 429); not a dead link"),
        # 5,000 digits: int() refuses them (ValueError)
        ("github", 200, {"x-ratelimit-remaining": "0", "x-ratelimit-reset": "9" * 5000}, "ok", ""),
        # a reset in the year 33658: no datetime can say it (ValueError)
        (
            "github",
            403,
            {"x-ratelimit-remaining": "0", "x-ratelimit-reset": "999999999999"},
            "not-checked",
            "spent for longer than any run waits",
        ),
    ],
    ids=["retry-after-superscript", "reset-5000-digits", "reset-past-9999"],
)
def test_numbers_in_headers_are_ascii_digits_of_a_sane_length(
    tmp_path: Path, service: str, status: int, headers: dict, state: str, needle: str
) -> None:
    """The service's anchors get the verdict the status means, the rest are OK."""
    hostile = Services((service, "headers"), headers=headers, status=status)
    _, doc, err = _check(tmp_path, hostile, "--no-cache", "--retry-after-cap", "0")
    hit = 2 if service == "link" else 1  # /page, and /moved's target
    assert doc["states"][state] == (5 if state == "ok" else hit), doc["states"]
    assert needle in json.dumps(doc["findings"], ensure_ascii=False) + err


@pytest.mark.parametrize(
    ("kind", "codes"),
    [("marks", ["title-mismatch"]), ("spaces", [])],
    ids=["320000-combining-marks", "80000-spaces"],
)
def test_a_hostile_title_is_compared_in_linear_time(
    tmp_path: Path, kind: str, codes: list[str]
) -> None:
    """A DOI's title of 320,000 combining marks (a 4 MB answer: normalized by insertion) or
    with 80,000 spaces inside (gone over again from each space): each kept the event loop for
    minutes; now it is compared (`ŕ` is not `r`: another title; spaces are spaces: the same)
    in about the time the run takes with the plain title."""
    start = time.monotonic()
    _check(tmp_path, Services(), "--no-cache", title="A Paper")
    baseline = time.monotonic() - start
    start = time.monotonic()
    _, doc, _ = _check(tmp_path, Services(("doi", kind)), "--no-cache", title="A Paper")
    elapsed = time.monotonic() - start
    assert [f["code"] for f in doc["findings"]] == codes
    assert elapsed < 3 * baseline + 1, (elapsed, baseline)


@pytest.mark.parametrize("service", ["github", "doi", "crossref", "wayback", "save"])
def test_a_redirect_to_a_location_no_url_takes_is_a_verdict(tmp_path: Path, service: str) -> None:
    """`301` to `x:y/`: httpx's client parsed a Location even when it followed none, and raised
    InvalidURL (no HTTPError: no caller caught it). Now the hop is judged like any other: not
    followed off the API's host, or a scheme no one asks; never dead, and the rest checked."""
    saving = service == "save"
    hostile = Services(
        (service, "headers"), headers={"Location": "x:y/"}, status=301, no_snapshots=saving
    )
    more = ["--archive-save" if saving else "--archive"] if service in ("wayback", "save") else []
    _, doc, _ = _check(tmp_path, hostile, "--no-cache", *more)
    codes = {f["anchor"].rsplit("/", 1)[-1]: f["code"] for f in doc["findings"]}
    assert not {"dead-link", "not-found"} & set(codes.values()), doc["findings"]
    assert "page" not in codes and "moved" not in codes
