"""What tests/test_regex_linear.py needs: every regex in the package, and how its time grows.

`reachable()` imports every module under `anchors/` and collects each compiled `re.Pattern` it
holds, at module level or inside a tuple, list, dict or class (`_STRONG[0][0]`); `compile_sites()`
reads the source with `ast` for the patterns that no import can see: a `re.compile` inside a
function, and a pattern written inline in a call (`re.sub(r"…", …)`). `growth()` times one
attack at two sizes, n and 4n, from the first n where a run takes long enough to measure.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
import re
import time
import tracemalloc
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

import anchors

PACKAGE = Path(anchors.__file__).resolve().parent

#: a run must take this long at size n before its time at 4n is compared with it
FLOOR = 0.0005
#: past this length an attack that still runs under FLOOR is fast enough at any size a reader
#: accepts (files and answers are read up to a few MiB)
MAX_CHARS = 1 << 21
#: t(4n) / t(n): ~4 for a linear pattern, 16 for a quadratic one
BOUND = 8.0
#: memory a match may take per character of its input: a repeat of a group that keeps state
#: for each repetition to backtrack to (`(?:\.[0-9]+)*` on `.1.1.1…`) takes 60-400
MAX_BYTES_PER_CHAR = 8.0

_CALLS = frozenset({"compile", "search", "match", "fullmatch", "sub", "subn", "split", "findall"})
_CALLS = _CALLS | {"finditer"}


class Use(str, Enum):
    """How the package applies a pattern: over a whole text (search, finditer, sub, split), or
    anchored once at a position (match, fullmatch). A scan costs the most, so it is the default."""

    SCAN = "scan"
    MATCH = "match"
    FULLMATCH = "fullmatch"


@dataclass(frozen=True)
class Attack:
    """`prefix + pump * n + suffix`: a long run of what the pattern repeats, then a spoiler."""

    prefix: str
    pump: str
    suffix: str = ""

    def text(self, n: int) -> str:
        return self.prefix + self.pump * n + self.suffix


@dataclass(frozen=True)
class Guard:
    """The attacks one pattern must meet in linear time, applied as the package applies it."""

    attacks: tuple[Attack, ...]
    use: Use = Use.SCAN


def reachable() -> list[tuple[tuple[str, ...], re.Pattern[str] | re.Pattern[bytes]]]:
    """Every compiled pattern a module of the package holds, with each `module.NAME[index]` it
    is held under (one pattern object may have several: a re-export, or `re`'s own cache
    handing two modules the same object for the same pattern)."""
    names: dict[int, list[str]] = {}
    objects: dict[int, re.Pattern[str] | re.Pattern[bytes]] = {}
    for info in pkgutil.walk_packages([str(PACKAGE)], "anchors."):
        if info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if isinstance(value, type) and value.__module__ != info.name:
                continue  # a class imported from elsewhere is walked in its own module
            for where, pattern in _patterns_in(value, f"{info.name}.{name}", depth=0):
                names.setdefault(id(pattern), []).append(where)
                objects[id(pattern)] = pattern
    return [(tuple(names[k]), objects[k]) for k in names]


def _patterns_in(
    value: object, where: str, depth: int
) -> Iterator[tuple[str, re.Pattern[str] | re.Pattern[bytes]]]:
    if isinstance(value, re.Pattern):
        yield where, value
    elif depth > 3:
        return
    elif isinstance(value, (tuple, list)):
        for i, item in enumerate(value):
            yield from _patterns_in(item, f"{where}[{i}]", depth + 1)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _patterns_in(item, f"{where}[{key!r}]", depth + 1)
    elif isinstance(value, type):
        for name, item in vars(value).items():
            yield from _patterns_in(item, f"{where}.{name}", depth + 1)


def compile_sites() -> tuple[list[str], list[str]]:
    """(`module.function` holding a `re.compile`, `file:line` of each inline pattern): the two
    ways a pattern escapes `reachable()`. Inline is any `re.search(…)`-style call, whatever names
    its pattern (a string constant compiles out of sight as well as a literal), and an import of
    `re` under another name."""
    in_functions: list[str] = []
    inline: list[str] = []
    for path in sorted(PACKAGE.rglob("*.py")):
        module = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        module = module.removesuffix(".__init__")
        tree = ast.parse(path.read_text(encoding="utf-8"))
        shown = f"{path.relative_to(PACKAGE.parent)}"
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module in ("re", "regex"):
                inline.append(f"{shown}:{node.lineno}: from {node.module} import …")
            if isinstance(node, ast.Import) and any(
                a.name == "regex" or (a.name == "re" and a.asname) for a in node.names
            ):
                inline.append(f"{shown}:{node.lineno}: import re/regex under another name")
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                for call in _re_calls(node):
                    if call.func.attr == "compile":  # type: ignore[attr-defined]
                        name = getattr(node, "name", f"<lambda at line {node.lineno}>")
                        in_functions.append(f"{module}.{name}")
        for call in _re_calls(tree):
            if call.func.attr != "compile":  # type: ignore[attr-defined]
                shape = "<literal>" if call.args and _literal(call.args[0]) else "…"
                inline.append(f"{shown}:{call.lineno}: re.{call.func.attr}({shape})")  # type: ignore[attr-defined]
    return sorted(set(in_functions)), inline


def _re_calls(tree: ast.AST) -> Iterator[ast.Call]:
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == "re"
            and node.func.attr in _CALLS
        ):
            yield node


def _literal(node: ast.expr) -> bool:
    return isinstance(node, (ast.Constant, ast.JoinedStr))


def apply(pattern: re.Pattern[str] | re.Pattern[bytes], text: str, use: Use) -> Callable[[], None]:
    """A call that applies `pattern` to `text` (UTF-8 for a bytes pattern) as `use` says."""
    subject: str | bytes = text.encode("utf-8") if isinstance(pattern.pattern, bytes) else text

    def run() -> None:
        if use is Use.SCAN:
            for _ in pattern.finditer(subject):  # type: ignore[arg-type]
                pass
        elif use is Use.MATCH:
            pattern.match(subject)  # type: ignore[arg-type]
        else:
            pattern.fullmatch(subject)  # type: ignore[arg-type]

    return run


def seconds(run: Callable[[], None], tries: int = 3) -> float:
    """The best of `tries` timings, each in CPU seconds of this thread: time the thread waited
    for a core (six test workers on two) is not counted."""
    best = float("inf")
    for _ in range(tries):
        start = time.thread_time()
        run()
        best = min(best, time.thread_time() - start)
    return best


def growth(
    pattern: re.Pattern[str] | re.Pattern[bytes], attack: Attack, use: Use, start: int = 64
) -> tuple[int, float]:
    """`(n, t(4n) / t(n))` at the first n (doubling from `start`) where a run takes FLOOR;
    `(n, 1.0)` when even MAX_CHARS runs faster than that."""
    n = start
    while True:
        text = attack.text(n)
        base = seconds(apply(pattern, text, use))
        if base >= FLOOR:
            break
        if len(text) >= MAX_CHARS:
            return n, 1.0
        n *= 2
    return n, seconds(apply(pattern, attack.text(4 * n), use)) / base


def bytes_per_char(
    pattern: re.Pattern[str] | re.Pattern[bytes], attack: Attack, use: Use, chars: int = 50_000
) -> float:
    """Peak memory the attack takes (traced, so the regex engine's own stack counts), per
    character of an input about `chars` long."""
    text = attack.text(max(1, chars // max(1, len(attack.pump))))
    run = apply(pattern, text, use)
    tracemalloc.start()
    try:
        run()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return peak / len(text)


def linear(
    pattern: re.Pattern[str] | re.Pattern[bytes], attack: Attack, use: Use
) -> tuple[bool, str]:
    """Whether the attack's time grows linearly; a ratio over BOUND is measured once more at
    four times the size before it counts (a busy machine can disturb one measurement, not two)."""
    n, ratio = growth(pattern, attack, use)
    if ratio >= BOUND:  # past a step (the engine's stack outgrowing a cache) it is measured again
        n, ratio = growth(pattern, attack, use, start=4 * n)
    return ratio < BOUND, f"t(4n)/t(n) = {ratio:.1f} at n = {n} ({len(attack.text(n))} chars)"
