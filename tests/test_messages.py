"""Messages that guide: the wrong file handed to a command, a typo'd path, a tab in the YAML.

Each is one line `anchors: error: <what, where>` and exit 2, saying what to do instead.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from anchors.cli.app import app

ROOT = Path(__file__).resolve().parent.parent
BRIEFING = "# Inference notes (2026-09-24)\n\n- [Edge0](https://arxiv.org/abs/2609.18063)\n"


def _run(*args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(app, list(args))
    return r.exit_code, r.stdout, r.stderr


@pytest.mark.parametrize(
    ("name", "text", "said"),
    [
        (
            "registry.yaml",
            (ROOT / "registry.yaml").read_text(encoding="utf-8"),
            "an anchors registry",
        ),
        ("ci.yml", "name: ci\non:\n  push: {}\n", "YAML"),
        ("anchors.json", '{"anchors": []}', "JSON"),
        ("notes", '[{"url": "https://example.org/x"}]', "JSON"),
        ("settings", "name: x\nurl: https://example.org/x\n", "YAML"),
    ],
)
def test_add_refuses_a_registry_or_any_yaml_or_json_as_a_briefing(
    tmp_path: Path, name: str, text: str, said: str
) -> None:
    """`anchors add registry.yaml --date …` used to merge the registry as prose (titles
    `arxiv: "`, sections `§1.3 KV Cache"`); now nothing is written and the line says why."""
    given = tmp_path / name
    given.write_text(text, encoding="utf-8")
    target = tmp_path / "out.yaml"
    code, out, err = _run("add", str(given), "--date", "2026-09-24", "-r", str(target))
    assert (code, out) == (2, "") and not target.exists()
    assert err == (
        f"anchors: error: {given}: this is {said}, not a briefing: `anchors add` reads Markdown "
        "or text"
        + (
            f"; check it with `anchors check {given}`, or add briefings to it with `-r {given}`"
            if said == "an anchors registry"
            else ""
        )
        + "\n"
    )


def test_prose_that_starts_like_yaml_is_still_a_briefing(tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("Date: 2026-09-24\n\nSee https://example.org/x today.\n", encoding="utf-8")
    code, _, err = _run("add", str(notes), "--date", "2026-09-24", "-r", str(tmp_path / "r.yaml"))
    assert code == 0, err


@pytest.mark.parametrize("name", ["briefing.md", "2026-09-24-notes"])
def test_check_given_a_briefing_says_to_add_it(tmp_path: Path, name: str) -> None:
    given = tmp_path / name
    given.write_text(BRIEFING, encoding="utf-8")
    code, out, err = _run("check", str(given), "--offline")
    assert (code, out) == (2, "")
    assert err == (
        f"anchors: error: {given}: this looks like a briefing, not a registry: merge it into "
        f"the registry with `anchors add {given}`\n"
    )


def test_a_yaml_file_that_is_no_registry_gets_no_briefing_hint(tmp_path: Path) -> None:
    """The hint can say no: a workflow file is not a registry, and not a briefing either."""
    given = tmp_path / "ci.yml"
    given.write_text("# CI\nname: ci  # https://example.org\non: push\n", encoding="utf-8")
    code, _, err = _run("check", str(given), "--offline")
    assert code == 2 and "not an anchors registry" in err and "briefing" not in err


@pytest.mark.parametrize(
    ("text", "line", "column"),
    [
        ("version: 1\nanchors:\n\t- url: https://example.org/x\n", 3, 1),
        ("version: 1\nanchors:\n  - url: https://example.org/x\n\ttitle: X\n", 4, 1),
        ("version: 1\nanchors:\n  -\turl: https://example.org/x\n", 3, 4),
    ],
)
def test_a_tab_in_the_yaml_is_named_as_the_cause(
    tmp_path: Path, text: str, line: int, column: int
) -> None:
    reg = tmp_path / "registry.yaml"
    reg.write_text(text, encoding="utf-8")
    code, _, err = _run("check", str(reg), "--offline")
    assert code == 2
    assert err == (
        f"anchors: error: {reg}:{line}: not valid YAML: a tab at column {column}: YAML indents "
        "with spaces only; replace the tab with spaces\n"
    )


def test_a_missing_registry_names_the_near_ones(tmp_path: Path, monkeypatch) -> None:
    """`registry.yaml` is missing but `registry.yml` and `data/registry.yaml` exist."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "data").mkdir()
    for near in ("registry.yml", "data/registry.yaml"):
        (tmp_path / near).write_text("version: 1\nanchors: []\n", encoding="utf-8")
    code, _, err = _run("check", "--offline")
    assert code == 2
    assert err == (
        "anchors: error: registry.yaml: no such registry; did you mean registry.yml or "
        "data/registry.yaml? (`anchors add BRIEFING --registry registry.yaml` creates one)\n"
    )
    code, _, err = _run("export", "regsitry.yaml")
    assert code == 2 and "did you mean registry.yml?" in err


def test_a_missing_registry_with_nothing_near_gets_no_guess(tmp_path: Path) -> None:
    code, _, err = _run("check", str(tmp_path / "registry.yaml"), "--offline")
    assert code == 2 and "did you mean" not in err and "creates one" in err


REGISTRY = (
    'version: 1\nanchors:\n  - arxiv: "2709.00001"\n    first_anchored: 2026-09-24\n'
    '    status: new\n    section: "§1.3 KV Cache"\n'
)


def test_check_offline_reads_standard_input(tmp_path: Path) -> None:
    r = CliRunner().invoke(
        app, ["check", "-", "--offline", "--today", "2026-12-02"], input=REGISTRY.encode()
    )
    assert r.exit_code == 1, r.output
    assert r.stdout.startswith("<stdin>:3: future-id 2709.00001 ")


def _fifo(tmp_path: Path, text: str) -> Path:
    """A pipe the way `<(git show main:registry.yaml)` makes one: written once, by a writer
    that waits for the reader."""
    import os
    import threading

    fifo = tmp_path / "63"
    os.mkfifo(fifo)

    def feed() -> None:
        with contextlib.suppress(OSError), open(fifo, "wb") as w:
            w.write(text.encode())

    threading.Thread(target=feed, daemon=True).start()
    return fifo


def test_read_only_commands_read_a_pipe(tmp_path: Path) -> None:
    code, out, _ = _run("check", str(_fifo(tmp_path, REGISTRY)), "--offline")
    assert code == 1 and ": future-id 2709.00001 " in out
    (tmp_path / "b").mkdir()
    code, out, _ = _run("export", str(_fifo(tmp_path / "b", REGISTRY)))
    assert code == 0 and "2709.00001" in out


@pytest.mark.parametrize(
    "command",
    [
        ["check"],
        ["add", str(ROOT / "tests" / "data" / "briefing-0925.md"), "-r"],
        ["fix"],
    ],
    ids=["online check", "add", "fix"],
)
def test_a_pipe_is_refused_where_the_registry_is_written_or_state_kept(
    tmp_path: Path, command: list[str]
) -> None:
    fifo = _fifo(tmp_path, REGISTRY)
    code, _, err = _run(*command, str(fifo))
    assert code == 2 and err.startswith(f"anchors: error: {fifo}: a registry from a pipe")
    assert err.count("\n") == 1
