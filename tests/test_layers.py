"""The package's layers, checked from the source: no import cycle, no import that points up.

The layout reads as the data flow (docs/architecture.md). Every runtime import inside
`anchors/` is read with `ast` (function-level imports included; `if TYPE_CHECKING:` blocks are
not imports at run time and are skipped) and must go to the same layer or a lower one. No
cycle either, counting the `TYPE_CHECKING` imports too: two modules that need each other's
names, even only for types, are one module in two files.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

from tests.layers import LAYER_TABLE

PACKAGE = Path(__file__).resolve().parent.parent / "anchors"

LAYERS = [(layer.name, layer.modules) for layer in LAYER_TABLE]


def _modules() -> dict[str, tuple[Path, bool]]:
    out = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        is_pkg = parts[-1] == "__init__"
        out[".".join(parts[:-1] if is_pkg else parts)] = (path, is_pkg)
    return out


MODULES = _modules()


def _type_checking_nodes(tree: ast.AST) -> set[int]:
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for inner in node.body:
                skip.update(id(n) for n in ast.walk(inner))
    return skip


@cache
def _tree(module: str) -> ast.Module:
    return ast.parse(MODULES[module][0].read_text(encoding="utf-8"))


def _imports(module: str, typing: bool = False) -> set[str]:
    """What `module` imports at run time (`typing`: and for type checking too)."""
    _, is_pkg = MODULES[module]
    tree = _tree(module)
    skip = set() if typing else _type_checking_nodes(tree)
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.split(".")[0] == "anchors")
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                here = module.split(".") if is_pkg else module.split(".")[:-1]
                base_parts = here[: len(here) - node.level + 1]
                base = ".".join(base_parts + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            if base.split(".")[0] != "anchors":
                continue
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                found.add(sub if sub in MODULES else base)
    found.discard(module)
    return found


def _layer(module: str) -> int:
    best, rank = -1, -1
    for i, (_, prefixes) in enumerate(LAYERS):
        for p in prefixes:
            inside = module == p or (p != "anchors" and module.startswith(p + "."))
            if inside and len(p) > best:
                best, rank = len(p), i
    return rank


@cache
def _graph(typing: bool = False) -> dict[str, set[str]]:
    """Module -> what it imports; read when a test asks, not while every worker collects."""
    return {m: _imports(m, typing) for m in MODULES}


def test_every_module_has_a_layer() -> None:
    assert [m for m in MODULES if _layer(m) < 0] == []


@pytest.mark.slow
def test_no_import_points_to_a_higher_layer() -> None:
    upward = [
        f"{m} ({LAYERS[_layer(m)][0]}) imports {d} ({LAYERS[_layer(d)][0]})"
        for m, deps in _graph().items()
        for d in deps
        if _layer(d) > _layer(m)
    ]
    assert upward == []


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    state: dict[str, int] = {}
    cycles: list[list[str]] = []

    def visit(m: str, stack: list[str]) -> None:
        state[m] = 1
        for d in sorted(graph.get(m, ())):
            if d == "anchors":  # the package root only holds the version and lazy exports
                continue
            if state.get(d) == 1:
                cycles.append(stack[stack.index(d) :] + [d] if d in stack else [m, d])
            elif d not in state:
                visit(d, stack + [d])
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m, [m])
    return cycles


#: cycles through a `TYPE_CHECKING` import only, waiting for their owner (each entry must still
#: be a cycle, so a fixed one is removed from here); no runtime cycle is ever listed
TYPE_ONLY_CYCLES: list[list[str]] = []


def test_no_import_cycle() -> None:
    assert _cycles(_graph()) == []
    assert _cycles(_graph(typing=True)) == TYPE_ONLY_CYCLES


def test_a_cycle_through_a_type_only_import_is_caught() -> None:
    planted = {**_graph(typing=True), "anchors.ids.model": {"anchors.net.links"}}
    planted["anchors.net.links"] = planted["anchors.net.links"] | {"anchors.ids.model"}
    assert _cycles(planted)


@pytest.mark.parametrize("bad", ["anchors.cli.app", "anchors.render.text"])
def test_the_check_can_fail(bad: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """An upward import planted in a low module is caught (the rule is not vacuous)."""
    graph = _graph()
    planted = {**graph, "anchors.ids.model": graph["anchors.ids.model"] | {bad}}
    upward = [d for m, deps in planted.items() for d in deps if _layer(d) > _layer(m)]
    assert bad in upward


#: rooms that speak to the network through `net/` alone, never through the check's verdicts
_BESIDE_THE_CHECK = ("anchors.archive", "anchors.export", "anchors.report")


def test_the_archive_the_export_and_the_report_never_import_the_check() -> None:
    """They need the network (archive, export's refresh) or the history (report), not the
    check's verdicts: `net/` and `history/` are what they stand on."""
    crossing = [
        f"{m} imports {d}"
        for m, deps in _graph(typing=True).items()
        if m.startswith(_BESIDE_THE_CHECK)
        for d in deps
        if d == "anchors.check" or d.startswith("anchors.check.")
    ]
    assert crossing == []


def test_the_network_layer_knows_nothing_of_citations() -> None:
    """`net/` stands below the registry, the extraction, the history and the check."""
    above = ("anchors.registry", "anchors.extract", "anchors.history", "anchors.check")
    crossing = [
        f"{m} imports {d}"
        for m, deps in _graph(typing=True).items()
        if m.startswith("anchors.net")
        for d in deps
        if d.startswith(above)
    ]
    assert crossing == []


def _lines(path: Path) -> int:
    return path.read_text(encoding="utf-8").count("\n")


def test_no_room_holds_more_than_a_sixth_of_the_package() -> None:
    """No top-level package over 15% of the package's lines (a room a reader must hunt in)."""
    total = sum(_lines(path) for path, _ in MODULES.values())
    rooms: dict[str, int] = {}
    for module, (path, _) in MODULES.items():
        parts = module.split(".")
        if len(parts) > 2 or (len(parts) == 2 and MODULES[module][1]):
            rooms[parts[1]] = rooms.get(parts[1], 0) + _lines(path)
    share = {room: round(100 * n / total, 1) for room, n in rooms.items()}
    assert max(share.values()) <= 15.0, sorted(share.items(), key=lambda kv: -kv[1])[:3]
