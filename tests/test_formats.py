"""One table maps (command, format) to a renderer: every choice `--help` offers renders, and
the table holds nothing the CLI does not offer."""

from __future__ import annotations

import io
import json
import time
from datetime import date
from pathlib import Path
from typing import Any

import pytest
import typer

from anchors.check.session import CheckOptions, check
from anchors.cli.app import app
from anchors.cli.formats import FORMATS
from anchors.export import collect
from anchors.extract.citations import read_briefing
from anchors.findings import Outcome
from anchors.history import Observation
from anchors.ids.model import WebUrl
from anchors.merging.merge import add
from anchors.registry.loader import load
from anchors.render import ADD, CHECK, EXPORT, RENDERERS, REPORT, Target, render
from anchors.report.weekly import build

TODAY = date(2026, 12, 2)
REGISTRY = (
    "version: 1\nanchors:\n"
    '  - arxiv: "2709.00001"\n    first_anchored: 2026-09-24\n    status: new\n'
    '    title: "标题 with a § sign"\n    section: "§1.3 KV Cache"\n'
    '    cited_in: ["2026-09-24"]\n'
)


def _choices() -> dict[str, list[str]]:
    """The `--format` choices of each command, as the CLI itself parses them."""
    group: Any = typer.main.get_command(app)  # click's classes, or typer's vendored copies
    out = {}
    for name, command in group.commands.items():
        for param in command.params:
            if "--format" in getattr(param, "opts", []):
                out[name] = [str(getattr(c, "value", c)) for c in param.type.choices]
    return out


def test_every_format_the_cli_offers_has_a_renderer_and_no_other() -> None:
    choices = _choices()
    assert set(choices) == set(FORMATS) == {"add", "check", "report", "export"}
    offered = {(cmd, fmt) for cmd, fmts in choices.items() for fmt in fmts}
    assert offered == set(RENDERERS)
    assert offered == {(cmd, f.value) for cmd, enum in FORMATS.items() for f in enum}


@pytest.fixture
def results(tmp_path: Path) -> dict[str, Any]:
    reg = tmp_path / "registry.yaml"
    reg.write_text(REGISTRY, encoding="utf-8")
    briefing = tmp_path / "2026-09-25-brief.md"
    briefing.write_text(
        "# 2026-09-25\n\n## §1.3 KV Cache\n\n- arXiv:2709.00001 本次新增\n", encoding="utf-8"
    )
    now = time.time()
    rows = [
        Observation(
            WebUrl("https://example.org/gone"),
            "https://example.org/gone",
            Outcome.DEAD,
            404,
            None,
            "HTTP 404",
            checked_at=now - 60,
            run_id=1,
        )
    ]
    return {
        "check": check([reg], CheckOptions(TODAY, offline=True)),
        "add": add(reg, [read_briefing(briefing, None)], TODAY, dry_run=True),
        "report": build(rows, now),
        "export": collect(load(reg)),
    }


@pytest.mark.parametrize(("command", "fmt"), sorted(RENDERERS))
def test_every_renderer_renders_its_commands_result(
    results: dict[str, Any], command: str, fmt: str
) -> None:
    out = io.StringIO()
    outputs = {"add": ADD, "check": CHECK, "report": REPORT, "export": EXPORT}[command]
    text = render(outputs, fmt, results[command], Target(out, registry="registry.yaml"))
    assert text.strip(), (command, fmt)
    if fmt in ("json", "sarif", "csl-json"):
        json.loads(text)
    if command in ("check", "export"):
        assert "2709.00001" in text, (command, fmt)
