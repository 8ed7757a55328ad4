"""Regenerate the generated blocks of docs/*.md: each command's `--help` and the findings pages.

    python scripts/gen_docs.py          # rewrite the blocks in place
    python scripts/gen_docs.py --check  # exit 1, naming each page that is out of date

A block is `<!-- generated: NAME -->` ... `<!-- end generated -->`; the prose around it is
written by hand and kept. NAME is `help` (the `anchors` group), `help COMMAND`, `findings-table`
or `findings`. tests/test_docs.py fails when a committed page differs from what this makes.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import typer

from anchors.catalogue import CATALOGUE
from anchors.cli.app import app
from anchors.findings import Code

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
BLOCK = re.compile(r"(<!-- generated: ([\w -]+) -->\n)(.*?)(<!-- end generated -->)", re.DOTALL)
#: the width help is wrapped at, whatever the terminal that runs this script
WIDTH = 100


def help_text(command: str | None = None) -> str:
    """`anchors [COMMAND] --help` as a user sees it at 100 columns."""
    group = typer.main.get_command(app)
    ctx = group.make_context("anchors", [], resilient_parsing=True, terminal_width=WIDTH)
    if command is None:
        return group.get_help(ctx)
    cmd = group.get_command(ctx, command)  # type: ignore[attr-defined]
    if cmd is None:
        raise SystemExit(f"gen_docs: no command {command!r}")
    sub = cmd.make_context(command, [], parent=ctx, resilient_parsing=True)
    return str(cmd.get_help(sub))


def commands() -> list[str]:
    group = typer.main.get_command(app)
    ctx = group.make_context("anchors", [], resilient_parsing=True)
    return list(group.list_commands(ctx))  # type: ignore[attr-defined]


def findings_table() -> str:
    rows = ["| code | severity | what |", "|---|---|---|"]
    for code in Code:
        doc = CATALOGUE[code]
        assert "|" not in doc.title, code
        rows.append(f"| [`{code.value}`](#{code.value}) | {code.severity.value} | {doc.title} |")
    return "\n".join(rows) + "\n"


def findings() -> str:
    out = []
    for code in Code:
        doc = CATALOGUE[code]
        out.append(
            f"### {code.value}\n\n"
            f"**{code.severity.value}**: {doc.title}.\n\n"
            f"- When: {doc.description}\n"
            f"- Example: {doc.example}\n"
            f"- Fix: {doc.fix}\n"
        )
    return "\n".join(out)


def block(name: str) -> str:
    if name == "help":
        return f"```text\n{help_text()}\n```\n"
    if name.startswith("help "):
        return f"```text\n{help_text(name.removeprefix('help '))}\n```\n"
    if name == "findings-table":
        return findings_table()
    if name == "findings":
        return findings()
    raise SystemExit(f"gen_docs: unknown generated block {name!r}")


def render(page: str) -> str:
    """The page with every generated block made afresh."""
    return BLOCK.sub(lambda m: m.group(1) + block(m.group(2)) + m.group(4), page)


def main(argv: list[str]) -> int:
    check = "--check" in argv
    stale = []
    for path in sorted(DOCS.glob("*.md")):
        old = path.read_text(encoding="utf-8")
        new = render(old)
        if new != old:
            stale.append(path.relative_to(ROOT).as_posix())
            if not check:
                path.write_text(new, encoding="utf-8")
    for name in stale:
        print(f"{'out of date' if check else 'regenerated'}: {name}", file=sys.stderr)
    return 1 if check and stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
