"""Regenerate the generated blocks of docs/*.md: each command's `--help` and the findings pages.

    python scripts/gen_docs.py          # rewrite the blocks in place
    python scripts/gen_docs.py --check  # exit 1, naming each page that is out of date

A block is `<!-- generated: NAME -->` ... `<!-- end generated -->`; the prose around it is
written by hand and kept. NAME is `help` (the `anchors` group), `help COMMAND`, `findings-table`
`findings`, or `architecture` (every module under its layer, from tests/layers.py, the table
tests/test_layers.py enforces). tests/test_docs.py fails when a committed page differs from what
this makes.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import typer

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # this checkout's package and layer table, not an installed one

from anchors.catalogue import CATALOGUE
from anchors.cli.app import app
from anchors.findings import Code
from tests.layers import LAYER_TABLE

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


def _purpose(path: Path) -> str:
    """The first sentence of a module's docstring: what it holds."""
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    first = " ".join(doc.split("\n\n")[0].split())
    return re.split(r"(?<=\.)\s", first, maxsplit=1)[0].rstrip(".")


def architecture() -> str:
    """Each layer, lowest first, with every module in it and its purpose."""
    package = ROOT / "anchors"
    modules = {}
    for path in sorted(package.rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        dotted = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        modules[dotted] = path

    def layer_of(dotted: str) -> int:
        best, rank = -1, -1
        for i, layer in enumerate(LAYER_TABLE):
            for p in layer.modules:
                if (dotted == p or (p != "anchors" and dotted.startswith(p + "."))) and len(
                    p
                ) > best:
                    best, rank = len(p), i
        return rank

    out = []
    for i, layer in enumerate(LAYER_TABLE):
        out.append(f"### {i + 1}. {layer.name}\n\n{layer.holds[0].upper()}{layer.holds[1:]}.\n")
        for dotted, path in modules.items():
            if layer_of(dotted) == i:
                rel = path.relative_to(ROOT).as_posix()
                out.append(f"- `{rel}`: {_purpose(path)}")
        out.append("")
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
    if name == "architecture":
        return architecture()
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
