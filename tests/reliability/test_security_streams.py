"""No string from a file or the network becomes a GitHub Actions workflow command.

The runner reads every line a step prints, on stdout and stderr, as a command when it starts
with `::` after leading spaces, and (the legacy form) when `##[` appears anywhere in it
(actions/runner, ActionCommand.TryParseV2 and TryParse). A registry path from a config file, a
title or a value in a registry reaches the summaries, warnings, errors and every format.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from anchors.cli.app import app
from anchors.findings import Outcome
from anchors.history import History, Observation
from anchors.ids import WebUrl
from anchors.render.escape import plain

pytestmark = [pytest.mark.reliability(kind="security"), pytest.mark.timeout(120)]

EVIL = "x\n::error::INJECTED ##[add-mask]MASKED ::stop-commands::S"
#: what the github format itself prints, once per line, and nothing else may start a line with
_ANNOTATION = re.compile(r"::(error|warning|notice) file=[^:]*(,line=\d+)?,title=[^:]*::")


def _commands(text: str, github: bool = False) -> list[str]:
    """The lines of `text` the runner would act on (beyond the github format's own)."""
    bad = []
    for line in text.splitlines():
        body = line.lstrip()
        own = _ANNOTATION.match(body) if github else None
        rest = body[own.end() :] if own else body
        if "##[" in line or (rest.startswith("::") if not own else "::" in rest):
            bad.append(line)
    return bad


def test_plain_breaks_both_command_forms() -> None:
    shown = plain(EVIL)
    assert "\n" not in shown and "::" not in shown and "##[" not in shown
    assert shown.replace("\u200c", "") == EVIL.replace("\n", " ")  # nothing else changes


@pytest.fixture
def hostile(tmp_path: Path, seed: Path) -> Path:
    """A repository whose config names a registry path holding a newline and commands, whose
    registry holds commands in a title and a value, and a history with one redirect."""
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    name = "r\n::error::PATH ##[add-mask]P.yaml"
    (repo / "anchors.toml").write_text(f'registry = "{name.encode("unicode_escape").decode()}"\n')
    reg = repo / name
    title = EVIL.encode("unicode_escape").decode()
    reg.write_text(
        "version: 1\nanchors:\n"
        f'  - url: https://a.example/::error::U\n    title: "{title}"\n'
        f'    first_anchored: 2026-09-20\n    status: "{title}"\n'
        "  - url: https://a.example/::error::U\n    first_anchored: 2026-09-20\n    status: new\n",
        encoding="utf-8",
    )
    h = History(repo / ".anchors" / "history.sqlite")
    h.record(
        h.start_run(str(reg), 1.0),
        [
            Observation(
                WebUrl("https://a.example/::error::U"),
                "",
                Outcome.REDIRECT,
                200,
                "https://b.example/::x",
            )
        ],
    )
    h.close()
    return repo


COMMANDS = [
    ["check", "--offline", "-f", fmt] for fmt in ("text", "concise", "json", "markdown", "sarif")
] + [
    ["check", "--offline", "-f", "github"],
    ["add", "BRIEFING", "--check"],
    ["add", "BRIEFING", "--dry-run", "-f", "json"],
    ["add", "BRIEFING", "--dry-run"],
    ["export", "-f", "markdown"],
    ["export", "-f", "bibtex"],
    ["export", "-f", "csl-json"],
    ["report", "--now", "1970-01-02T00:00Z", "--since", "2d"],
    ["report", "--now", "1970-01-02T00:00Z", "--since", "2d", "-f", "json"],
    ["fix", "--dry-run"],
]


@pytest.mark.parametrize("argv", COMMANDS, ids=lambda a: " ".join(a))
def test_no_output_line_is_a_workflow_command(
    hostile: Path, seed: Path, monkeypatch: pytest.MonkeyPatch, argv: list[str]
) -> None:
    monkeypatch.chdir(hostile)
    args = [str(seed) if a == "BRIEFING" else a for a in argv]
    r = CliRunner().invoke(app, args)
    assert "Traceback" not in r.output and r.exit_code in (0, 1, 2), r.output
    assert r.stdout.strip() or r.stderr.strip()
    github = "github" in argv
    assert _commands(r.stdout, github) == [] and _commands(r.stderr) == [], r.output


# --- issue references in Markdown ------------------------------------------------------------

#: what GitHub links in rendered text: `#N`, `owner/repo#N`, `GH-N` (any case)
_REFERENCE = re.compile(r"(?:[\w.-]+/[\w.-]+)?#\d+|\bGH-\d+", re.IGNORECASE)


@pytest.mark.parametrize(
    "title",
    [
        "Fixes #123 at last",
        "see vllm-project/vllm#9120 (merged)",
        "GH-42 and gh-7 are the same bug",
        "#1",
        "[#5](https://github.com/o/r/issues/5) and @octocat",
    ],
)
def test_issue_references_in_untrusted_titles_render_as_plain_text(title: str) -> None:
    import html

    import cmarkgfm

    from anchors.render.escape import markdown

    rendered = cmarkgfm.github_flavored_markdown_to_html(f"- {markdown(title)}\n")
    text = html.unescape(re.sub(r"<[^>]+>", "", rendered)).strip()
    assert "<a " not in rendered
    assert text.replace("\u2060", "") == title  # reads as written
    assert _REFERENCE.findall(text) == [], text  # and links nothing
