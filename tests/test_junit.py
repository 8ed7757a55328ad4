"""JUnit XML as its consumers read it: valid against the Jenkins/Ant junit-10.xsd shape
(tests/data/junit-10.xsd, checked with xmlschema), read back by junitparser with the summary
line's counts; an unverified or unchecked anchor is skipped, never a pass. Beside it, the same
run's GitLab Code Quality report (tests/test_gitlab.py holds its own tests) and per-site figures
that add up to the summary. One mixed registry on two loopback hosts, checked by the CLI.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import xmlschema
from junitparser import Failure, JUnitXml, Skipped
from typer.testing import CliRunner

from anchors.cli.app import app

from .loopback import LoopbackServer, respond

XSD = xmlschema.XMLSchema(Path(__file__).parent / "data" / "junit-10.xsd")
HOSTS = ("127.0.0.1", "127.0.0.2")
ANSWERS: dict[str, tuple[int, dict[str, str]]] = {
    "/ok": (200, {}),
    "/moved": (301, {"Location": "/ok"}),
    "/gone": (404, {}),
    "/limited": (429, {"Retry-After": "3600"}),  # over the retry cap: unverified at once
}


async def _answer(req, w):  # type: ignore[no-untyped-def]
    status, headers = ANSWERS.get(req.path, (200, {}))
    return await respond(w, status, b"<title>t</title>", headers, req=req)


@pytest.fixture
def web() -> Iterator[LoopbackServer]:
    with LoopbackServer(lambda req: _answer, hosts=HOSTS) as srv:
        yield srv


def _entry(field: str, value: str, extra: str = "") -> str:
    return f'  - {field}: "{value}"\n    first_anchored: 2026-09-24\n    status: new\n{extra}'


def mixed_registry(folder: Path, web: LoopbackServer) -> Path:
    """10 entries on three sites: OK, redirected, failing (dead, future ID, duplicate),
    unverified (rate-limited), not checked (skip, excluded) and a warning (an ID later than
    its first_anchored)."""
    (folder / ".git").mkdir(exist_ok=True)
    (folder / "anchors.toml").write_text('exclude = ["/private/"]\n', encoding="utf-8")
    a, b = HOSTS
    reg = folder / "registry.yaml"
    reg.write_text(
        "version: 1\nanchors:\n"
        + _entry("url", web.url("/ok", a))
        + _entry("url", web.url("/moved", a))
        + _entry("url", web.url("/gone", b))
        + _entry("url", web.url("/limited", b))
        + _entry("url", web.url("/ok", a))  # a duplicate: failing
        + _entry("url", web.url("/later", b), "    check: skip\n")
        + _entry("url", web.url("/private/x", a))
        + _entry("url", web.url("/also-ok", b))
        + _entry("arxiv", "2611.00001", "    check: skip\n")  # later than its first_anchored
        + _entry("arxiv", "2709.00001"),  # later than today: failing
        encoding="utf-8",
    )
    return reg


def check(folder: Path, *args: str) -> Any:
    return CliRunner().invoke(
        app,
        [
            "check",
            str(folder / "registry.yaml"),
            "--allow-private",
            "--no-cache",
            "--today",
            "2026-12-02",
            *args,
        ],
    )


def said(line: str) -> dict[str, int]:
    """The anchors' states as the summary line tells them: `2 OK, 1 redirected, ...`."""
    head = re.split(r"; findings", line)[0].split(": ", 1)[1]
    head = re.sub(r" \(.*?\)", "", head)
    return {w: int(n) for n, w in (p.split(" ", 1) for p in head.split(", "))}


def summary_of(stderr: str) -> dict[str, int]:
    (line,) = [x for x in stderr.splitlines() if " anchors" in x and "findings:" in x]
    return said(line)


def read_back(path: Path) -> JUnitXml:
    XSD.validate(str(path))  # raises with the first reason it is not the shape Jenkins reads
    return JUnitXml.fromfile(str(path))


def cases(xml: JUnitXml) -> dict[str, Any]:
    return {case.name: case for suite in xml for case in suite}


def test_junit_validates_and_reads_back_with_the_summary_lines_counts(
    tmp_path: Path, web: LoopbackServer
) -> None:
    mixed_registry(tmp_path, web)
    out = tmp_path / "anchors.xml"
    r = check(tmp_path, "-f", "concise", "--output-junit", str(out))
    assert r.exit_code == 1, r.output
    states = summary_of(r.stderr)
    assert states == {
        "OK": 2,
        "redirected": 1,
        "with warnings": 1,
        "unverified": 1,
        "failing": 3,
        "not checked": 2,
    }
    xml = read_back(out)
    (suite,) = list(xml)
    assert suite.name == str(tmp_path / "registry.yaml")
    assert suite.tests == sum(states.values()) == 10
    assert suite.failures == states["failing"]
    assert suite.skipped == states["unverified"] + states["not checked"]
    assert suite.errors == 0
    got = cases(xml)
    limited = got[web.url("/limited", HOSTS[1])]
    (verdict,) = limited.result
    assert isinstance(verdict, Skipped)  # an unverifiable link is not a passing test
    assert verdict.message.startswith("unverified: rate-limited: ")
    (skip,) = got[web.url("/later", HOSTS[1])].result
    assert isinstance(skip, Skipped) and skip.message == "not checked: `check: skip` in its entry"
    (dead,) = got[web.url("/gone", HOSTS[1])].result
    assert isinstance(dead, Failure) and dead.type == "dead-link"
    assert "dead-link" in got[web.url("/gone", HOSTS[1])].system_out
    assert (
        got["2709.00001"].classname == "arxiv" and got[web.url("/ok", HOSTS[0])].classname == "url"
    )
    # time where this run asked the network, none where it did not
    assert got[web.url("/gone", HOSTS[1])].time > 0
    assert got["2709.00001"].time is None
    # a warning passes without --strict (its message is still there)
    later = got["2611.00001"]
    assert later.is_passed and "later-than-briefing" in later.system_out


def test_strict_fails_warnings_in_the_exit_code_and_in_junit_alike(
    tmp_path: Path, web: LoopbackServer
) -> None:
    mixed_registry(tmp_path, web)
    out = tmp_path / "strict.xml"
    r = check(tmp_path, "-f", "concise", "--strict", "--output-junit", str(out))
    assert r.exit_code == 1
    states = summary_of(r.stderr)
    (suite,) = list(read_back(out))
    assert suite.failures == states["failing"] + states["with warnings"] + states["unverified"]
    assert suite.skipped == states["not checked"]


def test_a_registry_that_passes_is_all_passes_and_one_that_fails_is_not(
    tmp_path: Path, web: LoopbackServer
) -> None:
    (tmp_path / "registry.yaml").write_text(
        "version: 1\nanchors:\n" + _entry("url", web.url("/ok")), encoding="utf-8"
    )
    r = check(tmp_path, "-f", "junit")
    assert r.exit_code == 0, r.output
    out = tmp_path / "ok.xml"
    out.write_text(r.stdout, encoding="utf-8")
    (suite,) = list(read_back(out))
    assert (suite.tests, suite.failures, suite.skipped) == (1, 0, 0)
    ANSWERS["/ok-now-gone"] = (404, {})
    (tmp_path / "registry.yaml").write_text(
        "version: 1\nanchors:\n" + _entry("url", web.url("/ok-now-gone")), encoding="utf-8"
    )
    r = check(tmp_path, "-f", "junit")
    assert r.exit_code == 1
    out.write_text(r.stdout, encoding="utf-8")
    (suite,) = list(read_back(out))
    assert (suite.tests, suite.failures, suite.skipped) == (1, 1, 0)


def test_findings_about_no_anchor_are_a_case_of_their_file(tmp_path: Path) -> None:
    """A registry whose top level is wrong fails as a case named after the file: JUnit never
    passes a run that exits 1."""
    (tmp_path / "registry.yaml").write_text(
        'version: 1\ncolour: blue\nanchors:\n  - arxiv: "2609.00001"\n'
        "    first_anchored: 2026-09-24\n    status: new\n",
        encoding="utf-8",
    )
    r = CliRunner().invoke(
        app, ["check", str(tmp_path / "registry.yaml"), "--offline", "-f", "junit"]
    )
    out = tmp_path / "file.xml"
    out.write_text(r.stdout, encoding="utf-8")
    got = cases(read_back(out))
    file_case = got[str(tmp_path / "registry.yaml")]
    assert file_case.classname == "file"
    assert (r.exit_code == 1) == (not file_case.is_passed)
    assert got["2609.00001"].is_passed


def test_a_living_document_is_a_suite_of_its_citations(tmp_path: Path) -> None:
    (tmp_path / "registry.yaml").write_text(
        "version: 1\nanchors:\n" + _entry("arxiv", "2609.00001", '    section: "§1 Serving"\n'),
        encoding="utf-8",
    )
    plan = tmp_path / "plan.md"
    plan.write_text(
        "# Plan\n\n## §1 Serving\n\n- arXiv:2609.00001\n- arXiv:2609.00002\n", encoding="utf-8"
    )
    r = CliRunner().invoke(
        app,
        [
            "check",
            str(tmp_path / "registry.yaml"),
            "--offline",
            "--document",
            str(plan),
            "--today",
            "2026-12-02",
            "-f",
            "junit",
        ],
    )
    out = tmp_path / "doc.xml"
    out.write_text(r.stdout, encoding="utf-8")
    registry, document = list(read_back(out))
    assert document.name == str(plan) and document.tests == 2
    got = {c.name: c for c in document}
    assert got["arXiv:2609.00001"].is_passed
    unregistered = got["arXiv:2609.00002"]
    assert "unregistered" in unregistered.system_out
    assert registry.tests == 1


@pytest.mark.slow
def test_one_run_gives_every_output(tmp_path: Path, web: LoopbackServer) -> None:
    """`--output-junit` and `--output-gitlab` beside the log cost no second check: the server
    is asked exactly what one run asks, and each file is what its `--format` prints."""
    mixed_registry(tmp_path, web)
    before = sum(web.counts.values())
    alone = check(tmp_path, "-f", "concise")
    one_run = sum(web.counts.values()) - before
    junit, gitlab = tmp_path / "a.xml", tmp_path / "a.json"
    both = check(
        tmp_path, "-f", "concise", "--output-junit", str(junit), "--output-gitlab", str(gitlab)
    )
    assert sum(web.counts.values()) - before == 2 * one_run
    assert both.stdout == alone.stdout
    assert json.loads(gitlab.read_text(encoding="utf-8")) == json.loads(
        check(tmp_path, "-f", "gitlab").stdout
    )
    assert (
        cases(read_back(junit)).keys()
        == cases(JUnitXml.fromstring(check(tmp_path, "-f", "junit").stdout.encode())).keys()
    )


def test_per_site_figures_add_up_to_the_summary(tmp_path: Path, web: LoopbackServer) -> None:
    mixed_registry(tmp_path, web)
    r = check(tmp_path, "-f", "json", "--verbose")
    doc = json.loads(r.stdout)
    hosts = {h["host"]: h for h in doc["hosts"]}
    assert set(hosts) == {*HOSTS, "arxiv.org"}
    states, not_checked = doc["states"], sum(doc["not_checked"].values())
    assert sum(h["anchors"] for h in hosts.values()) == doc["anchors"]
    assert sum(h["failing"] for h in hosts.values()) == states["failing"]
    assert sum(h["unverified"] for h in hosts.values()) == states["unverified"]
    assert sum(h["not_checked"] for h in hosts.values()) == states["not-checked"] == not_checked
    assert sum(h["checked"] for h in hosts.values()) == doc["anchors"] - not_checked
    b = hosts[HOSTS[1]]
    assert (b["anchors"], b["failing"], b["unverified"], b["rate_limited"]) == (4, 1, 1, 1)
    assert b["median_ms"] is not None and hosts["arxiv.org"]["median_ms"] is None
    # the most failing and unverified site first, in JSON and in the --verbose lines
    assert doc["hosts"][0]["host"] == HOSTS[1]
    lines = [x for x in r.stderr.splitlines() if x.startswith(f"{HOSTS[1]}: ")]
    median = f"median {b['median_ms']:.0f} ms"
    assert lines == [
        f"{HOSTS[1]}: 4 anchors, 3 checked, 1 failing, 1 unverified, 1 rate-limited; {median}"
    ]


def test_report_junit_is_one_case_per_failing_link(tmp_path: Path, web: LoopbackServer) -> None:
    (tmp_path / "registry.yaml").write_text(
        "version: 1\nanchors:\n"
        + _entry("url", web.url("/ok"))
        + _entry("url", web.url("/gone"))
        + _entry("url", web.url("/limited")),
        encoding="utf-8",
    )
    assert check(tmp_path, "-q").exit_code == 1
    out = tmp_path / "report.xml"
    r = CliRunner().invoke(
        app, ["report", "-r", str(tmp_path / "registry.yaml"), "--output-junit", str(out)]
    )
    assert r.exit_code == 1, r.output
    (suite,) = list(read_back(out))
    got = {c.name: c for c in suite}
    assert set(got) == {web.url("/gone"), web.url("/limited")}
    assert isinstance(got[web.url("/gone")].result[0], Failure)
    assert isinstance(got[web.url("/limited")].result[0], Skipped)
    assert "### Hosts" in r.stdout  # the Markdown of the same run, on stdout


def test_the_schema_can_fail(tmp_path: Path) -> None:
    bad = tmp_path / "bad.xml"
    bad.write_text(
        '<testsuites><testsuite name="x" tests="1" failures="0">'
        '<testcase name="a" time="1 s"/></testsuite></testsuites>',
        encoding="utf-8",
    )
    with pytest.raises(xmlschema.XMLSchemaValidationError):
        XSD.validate(str(bad))
