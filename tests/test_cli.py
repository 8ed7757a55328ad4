"""The command line as a user meets it: one registry option, clean help, one error style,
completion."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from anchors import __version__
from anchors.cli.app import app
from anchors.cli.formats import AddFormat, CheckFormat, ExportFormat, ReportFormat
from anchors.config import CONFIG_ENV, ENV

runner = CliRunner()
ENTRY = '  - arxiv: "{id}"\n    first_anchored: 2026-09-24\n    status: new\n'


def registry(tmp_path: Path, *ids: str) -> Path:
    reg = tmp_path / "registry.yaml"
    reg.write_text(
        "version: 1\nanchors:\n" + "".join(ENTRY.format(id=i) for i in ids), encoding="utf-8"
    )
    return reg


@pytest.mark.parametrize("form", ["arg", "--registry", "-r"])
def test_check_and_report_take_the_registry_both_ways(tmp_path: Path, form: str) -> None:
    reg = registry(tmp_path, "2709.00001")
    where = [str(reg)] if form == "arg" else [form, str(reg)]
    r = runner.invoke(app, ["check", *where, "--offline", "--today", "2026-12-02"])
    assert r.exit_code == 1 and "future-id" in r.stdout
    r = runner.invoke(app, ["report", *where])
    assert r.exit_code == 2 and f"{tmp_path}/.anchors/history.sqlite: nothing to report" in r.stderr


def test_add_takes_registry_by_option(tmp_path: Path, seed: Path) -> None:
    reg = tmp_path / "r.yaml"
    for flag in ("--registry", "-r"):
        r = runner.invoke(
            app, ["add", str(seed), flag, str(reg), "--dry-run", "--today", "2026-12-02"]
        )
        assert r.exit_code == 0 and f"would create {reg}: 43 added" in r.stderr


def test_argument_and_option_add_up_for_check_but_report_takes_one(tmp_path: Path) -> None:
    reg = registry(tmp_path, "2609.00001")
    (tmp_path / "b").mkdir()
    other = registry(tmp_path / "b", "2709.00001")
    r = runner.invoke(app, ["check", str(reg), "-r", str(other), "--offline", "-f", "concise"])
    assert r.exit_code == 1 and r.stdout.startswith(f"{other}:3: future-id")
    r = runner.invoke(app, ["report", str(reg), "-r", str(other)])
    assert r.exit_code == 2 and r.stderr.startswith("anchors: error: one registry at a time")


@pytest.mark.parametrize(
    ("command", "formats"),
    [
        ("add", AddFormat),
        ("check", CheckFormat),
        ("report", ReportFormat),
        ("export", ExportFormat),
    ],
)
def test_help_lists_exactly_the_formats_each_command_supports(command: str, formats: type) -> None:
    out = runner.invoke(app, [command, "-h"]).stdout
    m = re.search(r"--format <([a-z|-]+)>", out)
    assert m and m.group(1).split("|") == [f.value for f in formats]


def test_export_choices_are_the_exporters() -> None:
    from anchors import export

    assert [f.value for f in ExportFormat] == [f.value for f in export.ExportFormat]


@pytest.mark.parametrize("command", ["add", "check", "report", "export"])
def test_help_is_clean(command: str) -> None:
    r = runner.invoke(app, [command, "--help"])
    assert r.exit_code == 0
    out = r.stdout
    for junk in (
        "<bool>",
        "<str>",
        "<int>",
        "<float>",
        "<path>",
        "list[",
        "no-offline",
        "[default: no-",
        "╭",
        "│",
    ):
        assert junk not in out, (command, junk)
    assert "-h, --help" in out and "-q, --quiet" in out and "-r, --registry FILE" in out
    assert f"Usage: anchors {command} [OPTIONS]" in out
    assert out == runner.invoke(app, [command, "-h"]).stdout


def test_every_environment_variable_is_listed_in_check_help() -> None:
    out = " ".join(runner.invoke(app, ["check", "-h"]).stdout.split())
    for var in [*ENV.values(), CONFIG_ENV]:
        assert var in out, var


def test_version_short_and_long() -> None:
    for flag in ("-V", "--version"):
        r = runner.invoke(app, [flag])
        assert r.exit_code == 0 and r.stdout == f"anchors {__version__}\n"


@pytest.mark.parametrize(
    "argv",
    [
        ["check", "--bogus"],
        ["check", "-f", "nope"],
        ["add"],
        ["report", "-f", "github"],
        ["add", "x.md", "-f", "markdown"],
        ["nonsense"],
        ["check", "--concurrency", "many"],
    ],
)
def test_usage_errors_are_one_line_exit_2(argv: list[str]) -> None:
    r = runner.invoke(app, argv)
    assert r.exit_code == 2, r.output
    assert r.stdout == ""
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("anchors: error: "), r.stderr
    assert "╭" not in r.stderr and "Traceback" not in r.stderr


def test_bad_environment_value_is_one_line_naming_the_variable() -> None:
    r = runner.invoke(app, ["check", "--offline"], env={"ANCHORS_CONCURRENCY": "lots"})
    assert (
        r.exit_code == 2 and "ANCHORS_CONCURRENCY" in r.stderr and len(r.stderr.splitlines()) == 1
    )


def test_bare_command_prints_help() -> None:
    r = runner.invoke(app, [])
    assert "Usage: anchors [OPTIONS] COMMAND" in r.stdout and "--install-completion" in r.stdout


def test_completion_script_and_completions() -> None:
    r = runner.invoke(app, [], env={"_ANCHORS_COMPLETE": "source_bash"}, prog_name="anchors")
    assert r.exit_code == 0 and "_ANCHORS_COMPLETE=complete_bash" in r.stdout
    assert "complete -o default -F _anchors_completion anchors" in r.stdout
    r = runner.invoke(
        app,
        [],
        prog_name="anchors",
        env={
            "_ANCHORS_COMPLETE": "complete_bash",
            "COMP_WORDS": "anchors check --form",
            "COMP_CWORD": "2",
        },
    )
    assert r.stdout.split() == ["--format"]
    r = runner.invoke(
        app,
        [],
        prog_name="anchors",
        env={
            "_ANCHORS_COMPLETE": "complete_bash",
            "COMP_WORDS": "anchors report -f ",
            "COMP_CWORD": "3",
        },
    )
    assert sorted(r.stdout.split()) == ["json", "junit", "markdown"]


def test_a_github_api_root_that_is_not_the_api_is_a_configuration_error(tmp_path: Path) -> None:
    from .loopback import LoopbackServer, respond

    async def html_404(req, w):  # a web site, not the REST API: 404 with an HTML page
        return await respond(
            w, 404, b"<html>Not here</html>", {"Content-Type": "text/html"}, req=req
        )

    reg = tmp_path / "registry.yaml"
    reg.write_text(
        "version: 1\nanchors:\n"
        + "".join(
            f"  - url: https://github.com/o/r/issues/{n}\n"
            "    first_anchored: 2026-09-24\n    status: new\n"
            for n in (1, 2)
        ),
        encoding="utf-8",
    )
    with LoopbackServer(lambda req: html_404) as srv:
        r = runner.invoke(
            app,
            [
                "check",
                str(reg),
                "--github-api",
                srv.url("/wrong/"),
                "--no-cache",
                "--today",
                "2026-12-02",
            ],
        )
    assert r.exit_code == 2 and r.stdout == "", r.output
    (line,) = r.stderr.splitlines()
    assert line.startswith(
        f"anchors: error: --github-api {srv.url('/wrong/')}: answered HTTP 404 "
        "(text/html) to /wrong/repos/o/r/issues/1"
    )
    assert line.endswith("not what the GitHub REST API answers; check the URL")


def test_an_arxiv_api_that_is_not_the_api_is_a_configuration_error(tmp_path: Path) -> None:
    from .loopback import LoopbackServer, respond

    async def missing(req, w):
        return await respond(
            w, 404, b"<html>Not here</html>", {"Content-Type": "text/html"}, req=req
        )

    reg = registry(tmp_path, "2609.18063")
    with LoopbackServer(lambda req: missing) as srv:
        r = runner.invoke(
            app,
            [
                "check",
                str(reg),
                "--arxiv-api",
                srv.url("/nope"),
                "--arxiv-delay",
                "0",
                "--no-cache",
                "--today",
                "2026-12-02",
            ],
        )
    assert r.exit_code == 2 and r.stdout == "", r.output
    (line,) = r.stderr.splitlines()
    assert line == (
        f"anchors: error: --arxiv-api {srv.url('/nope')}: answered HTTP 404, which "
        "the arXiv API does not; check the URL"
    )


def test_a_page_that_is_not_an_arxiv_feed_is_no_verdict_on_any_paper(tmp_path: Path) -> None:
    """A maintenance or proxy page answering 200 has no entries; that is not "no such paper"."""
    import json

    from .loopback import LoopbackServer, respond

    async def maintenance(req, w):
        return await respond(
            w,
            200,
            b"<html><h1>arXiv is down for maintenance</h1></html>",
            {"Content-Type": "text/html"},
            req=req,
        )

    reg = registry(tmp_path, "2609.18063")
    with LoopbackServer(lambda req: maintenance) as srv:
        r = runner.invoke(
            app,
            [
                "check",
                str(reg),
                "--arxiv-api",
                srv.url("/api/query"),
                "--arxiv-delay",
                "0",
                "--no-cache",
                "--today",
                "2026-12-02",
                "-f",
                "json",
            ],
        )
        asked = sum(srv.counts.values())
    assert r.exit_code == 0, r.output  # a warning: it cannot say, so it does not fail the run
    [f] = json.loads(r.stdout)["findings"]
    assert f["code"] == "unverifiable" and "no Atom feed" in f["message"]
    assert asked == 3  # a passing maintenance page is tried again under the retry policy


@pytest.mark.slow
def test_what_the_arxiv_package_logs_is_not_printed_among_anchors_output(tmp_path: Path) -> None:
    """arXiv's REAL error feed served with 200: the package logs "Skipping entry ..." as a
    warning, which Python's last-resort handler used to print as a stray line."""
    from .cassettes import load
    from .loopback import LoopbackServer, respond

    body = load("arxiv/error-400").interactions[0]["response"]["body"].encode()

    async def error_feed(req, w):
        return await respond(w, 200, body, {"Content-Type": "application/atom+xml"}, req=req)

    import os
    import subprocess
    import sys

    reg = registry(tmp_path, "2609.18063")
    root = Path(__file__).resolve().parent.parent
    with LoopbackServer(lambda req: error_feed) as srv:
        # a real process: under pytest, its logging plugin would catch the warning instead
        r = subprocess.run(
            [
                sys.executable,
                "-m",
                "anchors",
                "check",
                str(reg),
                "--arxiv-api",
                srv.url("/api/query"),
                "--arxiv-delay",
                "0",
                "--no-cache",
                "--today",
                "2026-12-02",
                "-f",
                "concise",
            ],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
            env={**os.environ, "PYTHONPATH": str(root)},
        )
    assert r.returncode == 1 and "not-found" in r.stdout
    assert "Skipping" not in r.stderr and "missing <published>" not in r.stderr, r.stderr
    assert all(ln.startswith("1 anchor") for ln in r.stderr.splitlines()), r.stderr
