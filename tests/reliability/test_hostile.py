"""Hostile content: parsers never crash or hang, and untrusted text is inert in every output."""

from __future__ import annotations

import io
import json
import re
from datetime import date
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rich.console import Console
from typer.testing import CliRunner

from anchors.cli.app import app
from anchors.extract import extract
from anchors.findings import Code, Finding
from anchors.ids import ArxivId, InvalidId, canonical_url, parse_anchor
from anchors.render import github, markdown, text
from anchors.render import json as rjson
from anchors.result import CheckResult

from ..cassettes import load
from ..examples import examples

pytestmark = [pytest.mark.reliability(kind="hostile"), pytest.mark.timeout(60)]
D = date(2026, 9, 24)
PUNCT = "（）【】，。；、：「」()[]{}<>|`*_~:/.#?&=%@!-v "
texty = st.text(
    alphabet=st.sampled_from(list("0123456789abcxyzAXhtps") + list(PUNCT) + ["中", "文", "\n"]),
    max_size=300,
)


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(texty, st.text(max_size=100)))
def test_id_parser_never_crashes_and_canonical_form_is_a_fixed_point(s: str) -> None:
    try:
        key = parse_anchor(s)
    except InvalidId:
        return
    again = parse_anchor(getattr(key, "url", None) or str(key))
    assert again.key == key.key


@settings(max_examples=examples(200), deadline=None)
@given(
    st.builds(
        lambda y, m, n, v: f"{y:02d}{m:02d}.{n:05d}" + (f"v{v}" if v else ""),
        st.integers(15, 99),
        st.integers(1, 12),
        st.integers(1, 99999),
        st.one_of(st.none(), st.integers(1, 30)),
    )
)
def test_every_valid_new_id_round_trips(s: str) -> None:
    key = ArxivId.parse(s)
    assert str(key) == s  # already canonical: printed as written
    assert parse_anchor(f"https://arxiv.org/abs/{s}") == key  # the abs page names the same paper
    assert (
        parse_anchor(f"arXiv:{s}").key == parse_anchor(f"https://export.arxiv.org/pdf/{s}.pdf").key
    )


@settings(max_examples=examples(300), deadline=None)
@given(
    st.lists(
        st.sampled_from(list("abc/?=&#%:.-_~") + ["utm_x", "中", "%2F", "fbclid"]), max_size=30
    ).map("".join)
)
def test_canonical_url_is_idempotent(path: str) -> None:
    try:
        once = canonical_url("https://Example.COM/" + path)
    except InvalidId:
        return
    assert canonical_url(once) == once


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(texty)
def test_briefing_extraction_never_crashes(s: str) -> None:
    b = extract(s, "b.md", D)
    for c in b.citations:
        assert 1 <= c.line <= s.count("\n") + 1


@pytest.mark.parametrize(
    "blob",
    [
        "（" * 1_000_000,
        "https://a.example/" + "(" * 500_000,
        "[" * 500_000 + "https://x.example" + "]" * 500_000,
        "arXiv:" * 150_000,
        "1" * 1_000_000,
        "| " * 400_000,
        "2609." * 200_000,
        "a/b#" * 200_000,
        "10." + "1" * 500_000 + "/x",
    ],
    ids=[
        "fullwidth-paren",
        "nested-paren-url",
        "brackets",
        "arxiv-prefix",
        "digits",
        "pipes",
        "id-prefixes",
        "gh-refs",
        "long-doi",
    ],
)
@pytest.mark.timeout(20)
def test_pathological_input_is_linear(blob: str) -> None:
    b = extract(blob, "b.md", D)  # pytest-timeout is the bound: a hang fails the test
    # and the answer is still right: the one URL in the blob (brackets and all) or nothing
    hosts = [str(c.key).split("/")[2] for c in b.citations]
    assert hosts == [h for h in ("a.example", "x.example") if f"https://{h}" in blob]


EVIL = (
    "[bold red]boom[/] \x1b[31mred\x1b[0m | `tick` <script>alert(1)</script> @everyone\n"
    "::error::x %0A"
)


def _result() -> CheckResult:
    f = Finding(
        Code.TITLE_MISMATCH,
        EVIL,
        "registry.yaml",
        3,
        f"the registry's title is not the paper's; the real title is: {EVIL}",
        {"resolved_title": EVIL},
    )
    return CheckResult("registry.yaml", D, 1, [f], online=True)


def test_terminal_output_is_inert() -> None:
    buf = io.StringIO()
    Console(file=buf, force_terminal=True, color_system="truecolor", width=300).print(
        text.check_result(_result())
    )
    out = buf.getvalue()
    assert "[bold red]boom[/]" in out  # markup shown literally, not interpreted
    assert "\x1b[31mred" not in out and "[31mred" in out  # the foreign ESC is gone


def test_markdown_output_is_inert() -> None:
    out = markdown.check_result(_result())
    rows = [ln for ln in out.splitlines() if ln.startswith("| warning | title-mismatch")]
    assert len(rows) == 1 and rows[0].count(" | ") == 4  # the title's | cannot add a column
    outside_code = re.sub(r"`[^`]*`", "", out)  # code spans render their content as text
    assert "<script>" not in outside_code and "@everyone" not in outside_code
    assert "\x1b" not in out and "\\[bold red\\]" in out


def test_json_output_is_faithful_and_inert() -> None:
    out = rjson.check_result(_result())
    assert "\x1b" not in out and "<script>" in out  # JSON keeps the text, escapes the control
    assert json.loads(out)["findings"][0]["resolved_title"] == EVIL


def test_github_annotations_cannot_inject_commands() -> None:
    out = github.check_result(_result())
    assert out.count("\n") == 1 and out.count("::") == 2  # one line, one command
    message = out.split("::", 2)[2]
    assert "%250A" in message and "%0A" not in message.replace("%250A", "")  # literal %0A escaped
    assert "\x1b" not in message


def test_github_token_never_reaches_output_or_files(tmp_path: Path, monkeypatch) -> None:
    token = "ghp_SECRETSECRETSECRET0123456789"
    monkeypatch.setenv("GITHUB_TOKEN", token)
    reg = tmp_path / "registry.yaml"
    reg.write_text(
        "version: 1\nanchors:\n  - url: https://github.com/PyGithub/PyGithub/issues/28\n"
        "    first_anchored: 2026-09-24\n    status: new\n",
        encoding="utf-8",
    )
    outputs = []
    with load("github/issue-closed").serve() as gh:
        for fmt in ("text", "json", "github", "markdown"):
            r = CliRunner().invoke(
                app,
                [
                    "check",
                    str(reg),
                    "--github-api",
                    gh.url(""),
                    "-f",
                    fmt,
                    "--no-cache" if fmt != "json" else "--quiet",
                ],
            )
            outputs.append(r.stdout + r.stderr)
    assert all(token not in o for o in outputs)
    for f in (tmp_path / ".anchors").iterdir():
        assert token.encode() not in f.read_bytes(), f
