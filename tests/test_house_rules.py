"""Two house rules read from the source with `ast`, so they hold once the code is tidy.

Local names say what they hold: at most 5% of the names a function binds (its parameters and
the names it assigns, comprehensions left out) are one letter, the conventional `i`, `n`, `e`,
`f` and `_` aside. And an import inside a function says why it is not at the module's top (the
cycle or the start-up cost it avoids) in a comment on its line or the line above.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "anchors"

#: the share of one-letter local names the package may hold
MAX_ONE_LETTER_SHARE = 0.05

#: one-letter names every reader knows: an index, a count, an exception, a file
CONVENTIONAL = frozenset({"i", "n", "e", "f", "_"})

#: modules that say once, above a table of one-import functions, why each import is lazy
#: (render/outputs.py: each renderer is imported when its format is asked for); the test
#: says when one no longer needs to be here
UNCOMMENTED_IMPORTS_ALLOWED = frozenset(
    {
        "anchors/render/outputs.py",
    }
)

#: comment words that are tool switches, not a reason
_PRAGMA_RE = re.compile(r"(type:\s*ignore(\[[^\]]*\])?|noqa(:\s*[\w, ]+)?|pragma:[^#]*|fmt:\s*\w+)")

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


@dataclass
class Names:
    """The local names of some source, counted function by function."""

    total: int = 0
    one_letter: Counter[str] = field(default_factory=Counter)

    @property
    def share(self) -> float:
        return sum(self.one_letter.values()) / self.total if self.total else 0.0


def _bound_here(scope: ast.AST) -> set[str]:
    """The names `scope` itself binds: nested functions and comprehensions are scopes of
    their own (a comprehension's `x` is the one place a short name is the norm)."""
    assert isinstance(scope, _SCOPES)
    arguments = scope.args
    names = {
        arg.arg
        for arg in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs)
        if arg.arg not in ("self", "cls")
    }
    names |= {arg.arg for arg in (arguments.vararg, arguments.kwarg) if arg is not None}
    pending = list(ast.iter_child_nodes(scope))
    while pending:
        node = pending.pop()
        if isinstance(node, (*_SCOPES, *_COMPREHENSIONS, ast.ClassDef)):
            continue
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, (ast.ExceptHandler, ast.MatchAs, ast.MatchStar)) and node.name:
            names.add(node.name)  # `except ... as name`, `case [first, *rest]`
        pending.extend(ast.iter_child_nodes(node))
    return names


def local_names(source: str) -> Names:
    """Every function's and lambda's local names in `source`, one-letter ones by letter."""
    out = Names()
    for scope in ast.walk(ast.parse(source)):
        if isinstance(scope, _SCOPES):
            for name in _bound_here(scope):
                out.total += 1
                if len(name) == 1 and name not in CONVENTIONAL:
                    out.one_letter[name] += 1
    return out


def _comment_lines(source: str) -> set[int]:
    """The lines holding a comment that says something (a bare `# noqa` says nothing)."""
    lines = set()
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT and re.search(r"\w", _PRAGMA_RE.sub("", token.string)):
            lines.add(token.start[0])
    return lines


def uncommented_local_imports(source: str) -> list[int]:
    """The lines of the imports inside functions with no reason given: no comment on any line
    of the statement, of the run of imports it stands in, or on the line above that run (one
    comment says why a block of lazy imports is lazy)."""
    commented = _comment_lines(source)
    local = sorted(
        {
            (node.lineno, node.end_lineno or node.lineno)
            for scope in ast.walk(ast.parse(source))
            if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef))
            for node in ast.walk(scope)
            if isinstance(node, (ast.Import, ast.ImportFrom))
        }
    )
    runs: list[list[tuple[int, int]]] = []
    for start, end in local:
        if runs and start == runs[-1][-1][1] + 1:
            runs[-1].append((start, end))
        else:
            runs.append([(start, end)])
    return [
        start
        for run in runs
        if not commented & set(range(run[0][0] - 1, run[-1][1] + 1))
        for start, _ in run
    ]


def _package() -> dict[str, str]:
    return {
        path.relative_to(PACKAGE.parent).as_posix(): path.read_text(encoding="utf-8")
        for path in sorted(PACKAGE.rglob("*.py"))
    }


def test_local_names_say_what_they_hold() -> None:
    per_module = {name: local_names(source) for name, source in _package().items()}
    total = sum(names.total for names in per_module.values())
    short = sum(sum(names.one_letter.values()) for names in per_module.values())
    share = short / total
    print(f"one-letter local names: {short} of {total} = {share:.1%}")
    worst = sorted(per_module.items(), key=lambda item: -sum(item[1].one_letter.values()))[:8]
    listed = "\n".join(
        f"  {name}: {sum(names.one_letter.values())} ({', '.join(sorted(names.one_letter))})"
        for name, names in worst
        if names.one_letter
    )
    assert share <= MAX_ONE_LETTER_SHARE, (
        f"{short} of {total} local names ({share:.1%}) are one letter, over "
        f"{MAX_ONE_LETTER_SHARE:.0%}; name them by what they hold. The most:\n{listed}"
    )


def test_each_function_local_import_says_why() -> None:
    found = {
        name: lines
        for name, source in _package().items()
        if (lines := uncommented_local_imports(source))
    }
    unlisted = {
        name: lines for name, lines in found.items() if name not in UNCOMMENTED_IMPORTS_ALLOWED
    }
    assert not unlisted, (
        "imports inside functions without a comment saying which cycle or start-up cost they "
        f"avoid (move them to the top, or say why on the line or the line above): {unlisted}"
    )
    tidied = sorted(UNCOMMENTED_IMPORTS_ALLOWED - set(found))
    assert not tidied, f"these modules are tidy now; take them off the allow-list: {tidied}"


_CRAMPED = """
def total(r, a):
    s = 0
    for x in a:
        s += x.size
    match r:
        case [h, *rest]:
            s += h
    return [v for v in a if v], s + len(rest)
"""


def test_the_name_rule_fails_on_one_letter_locals() -> None:
    names = local_names(_CRAMPED)
    assert names.one_letter == Counter({"r": 1, "a": 1, "s": 1, "x": 1, "h": 1})
    assert names.total == 6  # `rest` too; the comprehension's `v` is its own scope, not counted
    assert names.share > MAX_ONE_LETTER_SHARE


def test_the_name_rule_lets_conventional_and_comprehension_names_pass() -> None:
    source = """
def sizes(rows, path):
    try:
        with open(path) as f:
            for i, row in enumerate(rows):
                n = len(row)
    except OSError as e:
        raise ValueError(path) from e
    return {k: v for k, v in rows}, lambda row: row.size
"""
    names = local_names(source)
    assert names.total == 8 and not names.one_letter and names.share == 0.0


_IMPORTS = """
def plain():
    import json

def said_on_its_line():
    import difflib  # only on this error path: ~1.5 ms of every start otherwise

def said_above():
    # a cycle: the registry imports this module
    from registry import load

def only_a_pragma():
    import cn2an  # type: ignore[import-untyped]

def parenthesised():
    from tenacity import (  # the retry path only
        Retrying,
    )

import os  # the module's top needs no reason
"""


def test_the_import_rule_fails_on_an_uncommented_local_import() -> None:
    lines = uncommented_local_imports(_IMPORTS)
    assert lines == [3, 13]  # `import json`, and the import whose comment is only a pragma


def test_the_import_rule_passes_a_reasoned_module() -> None:
    assert uncommented_local_imports("def f():\n    import re  # 2 ms of every start\n") == []


def test_one_comment_covers_a_run_of_imports_and_no_further() -> None:
    source = (
        "def run():\n"
        "    # start-up: the renderers only for this command\n"
        "    from json import dumps\n"
        "    from csv import writer\n"
        "    rows = []\n"
        "    from io import StringIO\n"
        "    return dumps, writer, rows, StringIO\n"
    )
    assert uncommented_local_imports(source) == [6]
