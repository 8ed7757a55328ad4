"""No function in anchors/ is longer than 50 lines (its signature, docstring and body): a longer
one decides several things, and each deserves a name that says why it is there."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "anchors"
LIMIT = 50


def too_long(source: str, where: str, limit: int = LIMIT) -> list[str]:
    """`where:name (lines)` for every function (method, nested or async) over `limit` lines,
    counted from its `def` (decorators excluded) to its last line."""
    return [
        f"{where}:{node.name} ({node.end_lineno - node.lineno + 1} lines)"
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and node.end_lineno is not None
        and node.end_lineno - node.lineno + 1 > limit
    ]


def test_no_function_is_over_50_lines() -> None:
    found = [
        line
        for path in sorted(PACKAGE.rglob("*.py"))
        for line in too_long(
            path.read_text(encoding="utf-8"), path.relative_to(PACKAGE.parent).as_posix()
        )
    ]
    assert found == []


def test_a_long_function_is_named() -> None:
    body = "".join(f"        x{i} = {i}\n" for i in range(50))
    source = f"def fine():\n    pass\n\n\nclass C:\n    async def long(self):\n{body}"
    assert too_long(source, "m.py") == ["m.py:long (51 lines)"]
    assert too_long(source, "m.py", limit=51) == []
