"""What a person reads: any width, a pipe, NO_COLOR, the concise form, one order, one summary."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from anchors.cli.app import app
from anchors.render.summary import plural
from anchors.render.text import clip

runner = CliRunner()
LONG = "https://docs.example.org/a/rather/long/path/to/a/page/that/keeps/going/index.html"
URL_ENTRY = "  - url: {url}\n    first_anchored: 2026-09-24\n    status: new\n"
ARXIV_ENTRY = '  - arxiv: "{id}"\n    first_anchored: 2026-09-24\n    status: new\n'


@pytest.fixture
def reg(tmp_path: Path) -> Path:
    """Findings on lines 3 (future-id), 9 (duplicate of a long URL) and 12 (schema)."""
    p = tmp_path / "registry-with-a-longish-name.yaml"
    p.write_text(
        "version: 1\nanchors:\n"
        + ARXIV_ENTRY.format(id="2709.00001")
        + URL_ENTRY.format(url=LONG)
        + URL_ENTRY.format(url=LONG)
        + "  - arxiv: 2609.10000\n    first_anchored: 2026-09-24\n    status: new\n",
        encoding="utf-8",
    )
    return p


def check(reg: Path, *args: str, env: dict[str, str] | None = None):
    return runner.invoke(
        app, ["check", str(reg), "--offline", "--today", "2026-12-02", *args], env=env
    )


@pytest.mark.parametrize("columns", ["40", "60", "80", "100"])
def test_location_and_anchor_are_never_cut_and_the_message_wraps(reg: Path, columns: str) -> None:
    r = check(reg, "-f", "text", env={"COLUMNS": columns})
    assert r.exit_code == 1
    lines = r.stdout.splitlines()
    heads = [ln for ln in lines if not ln.startswith(" ")]
    assert heads[1] == f"{reg}:9: error duplicate {LONG}"  # whole, however narrow
    assert heads[0].startswith(f"{reg}:3: error future-id 2709.00001")
    body = [ln for ln in lines if ln.startswith("    ")]
    # wrapped to the width; only a word longer than the width (a URL) stands out, whole
    assert body and all(len(ln) <= max(int(columns), 24) or " " not in ln.strip() for ln in body)
    assert any(f"(url:{LONG});" in ln for ln in body)
    assert all(ln == ln.rstrip() for ln in lines)  # no trailing spaces in a pipe
    assert "…" not in r.stdout


def test_no_color_changes_colour_not_width(reg: Path) -> None:
    plain = check(reg, "-f", "text", env={"COLUMNS": "60"}).stdout
    assert check(reg, "-f", "text", env={"COLUMNS": "60", "NO_COLOR": "1"}).stdout == plain
    wide = check(reg, "-f", "text", env={"COLUMNS": "200"}).stdout
    assert len(wide.splitlines()) < len(plain.splitlines())  # COLUMNS is respected in a pipe
    forced = check(reg, "-f", "text", env={"COLUMNS": "60", "FORCE_COLOR": "1"}).stdout
    assert "\x1b[" in forced and re.sub(r"\x1b\[[0-9;]*m", "", forced) == plain


def test_concise_is_one_finding_a_line_and_the_default_in_a_pipe(reg: Path) -> None:
    r = check(reg, "-f", "concise", env={"COLUMNS": "40"})
    assert r.stdout.splitlines() == [
        (
            f"{reg}:3: future-id 2709.00001 2709 is later than today (2026-12): "
            "arXiv has not issued this ID yet; check for a typo"
        ),
        (
            f"{reg}:9: duplicate {LONG} same anchor as the entry on line 6 (url:{LONG}); "
            "merge the two entries"
        ),
        f"{reg}:12: schema 2609.10000 " + r.stdout.splitlines()[2].split(" schema 2609.10000 ")[1],
    ]
    assert check(reg).stdout == r.stdout  # CliRunner's stdout is a pipe


def test_every_format_shows_one_order(reg: Path) -> None:
    lines = {
        "concise": [
            int(ln.split(":")[1]) for ln in check(reg, "-f", "concise").stdout.splitlines()
        ],
        "json": [f["line"] for f in json.loads(check(reg, "-f", "json").stdout)["findings"]],
        "github": [int(m) for m in re.findall(r",line=(\d+)", check(reg, "-f", "github").stdout)],
        "markdown": [
            int(m)
            for m in re.findall(
                r"^\| \w+ \| [\w-]+ \| [^|]+:(\d+) \|",
                check(reg, "-f", "markdown").stdout,
                re.MULTILINE,
            )
        ],
        "sarif": [
            x["locations"][0]["physicalLocation"]["region"]["startLine"]
            for x in json.loads(check(reg, "-f", "sarif").stdout)["runs"][0]["results"]
        ],
        "text": [int(m) for m in re.findall(r":(\d+): ", check(reg, "-f", "text").stdout)],
    }
    assert all(v == [3, 9, 12] for v in lines.values()), lines


def test_summary_is_printed_once_on_stderr_with_plurals(reg: Path, tmp_path: Path) -> None:
    r = check(reg, "-f", "text")
    assert re.fullmatch(
        r"4 anchors \(offline\): 1 OK, 3 failing; findings: 3 errors, 0 warnings, 0 notes; "
        r"\d+\.\d s\n",
        r.stderr,
    ), r.stderr
    assert "anchors" not in r.stdout.replace(str(reg), "").split("error")[0]
    clean = tmp_path / "clean.yaml"
    clean.write_text(
        "version: 1\nanchors:\n" + ARXIV_ENTRY.format(id="2609.00001"), encoding="utf-8"
    )
    r = check(clean, "-f", "text")
    assert r.exit_code == 0 and r.stdout == ""
    assert r.stderr.startswith("1 anchor (offline): 1 OK; findings: 0 errors, 0 warnings, 0 notes;")
    assert check(clean, "-q").stderr == ""


def test_plurals_and_clipping() -> None:
    assert [plural(n, "error") for n in (0, 1, 2)] == ["0 errors", "1 error", "2 errors"]
    assert plural(1, "run") == "1 run" and plural(3, "anchor") == "3 anchors"
    assert clip("x" * 70, 60) == "x" * 59 + "…" and clip("short", 60) == "short"


def test_markdown_keeps_parentheses_and_escapes_what_matters(reg: Path) -> None:
    out = check(reg, "-f", "markdown").stdout
    assert "(2026-12)" in out and "\\(" not in out
    assert out.count("| severity | code | where | anchor | message |") == 1


def test_add_clips_titles_on_a_terminal_only(tmp_path: Path) -> None:
    brief = tmp_path / "2026-09-24-b.md"
    long_title = "A Very Long Title About Serving Mixture of Experts Models From Solid State Disks"
    brief.write_text(
        f"# Briefing (2026-09-24)\n\n| 2609.18063 | {long_title} |\n", encoding="utf-8"
    )
    args = ["add", str(brief), "-r", str(tmp_path / "r.yaml"), "--dry-run"]
    piped = runner.invoke(app, [*args, "--today", "2026-12-02"], env={"COLUMNS": "80"})
    assert piped.exit_code == 0, piped.output
    assert piped.stdout == f'{brief}:3: added 2609.18063 "{long_title}"\n'
    assert "1 added, 0 duplicates, 0 conflicts" in piped.stderr  # a new registry
    width = len(f"{brief}:3: added 2609.18063") + 40
    shown = runner.invoke(app, [*args, "-f", "text"], env={"COLUMNS": str(width)}).stdout
    assert shown.startswith(f'{brief}:3: added 2609.18063  "{long_title[:20]}')
    assert long_title not in shown and shown.endswith('…"\n') and len(shown) - 1 <= width


def test_json_keeps_non_ascii_readable(tmp_path: Path) -> None:
    p = tmp_path / "r.yaml"
    p.write_text(
        'version: 1\nanchors:\n  - arxiv: "2709.00001"\n    section: "§1.3 KV 缓存"\n'
        "    first_anchored: 2026-09-24\n    status: new\n    titel: x\n",
        encoding="utf-8",
    )
    out = check(p, "-f", "json").stdout
    doc = json.loads(out)
    assert doc["schema_version"] == 1
    assert "\\u00a7" not in out and "\\u" not in out.replace("\\u001b", "")


def test_every_code_is_a_sarif_rule_with_a_description() -> None:
    from anchors.findings import Code
    from anchors.render.sarif import RULES

    assert set(RULES) == set(Code) and all(RULES.values())


@pytest.mark.parametrize("columns", ["60", "80", "100"])
def test_add_on_a_terminal_keeps_each_anchor_whole_on_one_line(
    tmp_path: Path, columns: str
) -> None:
    """A table column sized by the longest URL squeezed the others to nothing, and a URL
    folded over up to 7 lines; now each anchor is one line, whole, and only its title is
    clipped, to what the width leaves."""
    briefing = Path(__file__).resolve().parent.parent / "briefings"
    r = runner.invoke(
        app,
        [
            "add",
            "--dry-run",
            "-f",
            "text",
            "-r",
            str(tmp_path / "new.yaml"),
            *map(str, sorted(briefing.glob("*.md"))),
        ],
        env={"COLUMNS": columns},
    )
    assert r.exit_code == 0, r.output
    rows = [ln for ln in r.stdout.splitlines() if re.match(r"\S+:\d+: added ", ln)]
    assert len(rows) >= 40
    assert any("https://www.tensormesh.ai/learn/vllm-vs-sglang §1.1 框架格局" in ln for ln in rows)
    titled = [ln for ln in rows if ln.endswith('"')]
    assert all(len(ln) <= int(columns) for ln in titled), max(titled, key=len)
