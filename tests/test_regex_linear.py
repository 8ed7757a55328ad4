"""Every regex in the package runs in time linear in its input, and none can be added without
a guard that shows it.

Briefings, the living document, the registry, config files and every server's answer are
written by someone else, and a pattern that retries each split of a long run (`# a` + 80,000
spaces + `b`) hangs a CI gate for minutes. Each compiled pattern the package holds (found by
importing every module, and by `ast` for a `re.compile` inside a function or a pattern written
inline) must have an entry in tests/regex_attacks.py; each entry's attacks, and a run of each
single character the pattern repeats (and of common pieces: `1,`, `![a](`, `\\cite{`), must take
no more than BOUND times as long at 4n as at n (linear: ~4; quadratic: 16). Ratios of two sizes,
never a wall-clock time. This is the one timing guard of the package's patterns.
"""

from __future__ import annotations

import re
import sre_constants
from re import _parser  # type: ignore[attr-defined]

import pytest

from tests.regex_attacks import DYNAMIC, EXEMPT, GUARDS
from tests.regexguard import (
    BOUND,
    MAX_BYTES_PER_CHAR,
    Attack,
    Guard,
    Use,
    apply,
    bytes_per_char,
    compile_sites,
    growth,
    linear,
    reachable,
    seconds,
)

PATTERNS = reachable()


def _guard(names: tuple[str, ...]) -> tuple[str, Guard] | None:
    return next(((n, GUARDS[n]) for n in names if n in GUARDS), None)


def test_every_pattern_the_package_holds_has_a_guard() -> None:
    unguarded = [
        names for names, _ in PATTERNS if _guard(names) is None and not set(names) & set(EXEMPT)
    ]
    assert not unguarded, f"add an entry to tests/regex_attacks.py for each of: {unguarded}"


def test_no_guard_names_a_pattern_that_is_gone() -> None:
    held = {n for names, _ in PATTERNS for n in names}
    gone = (set(GUARDS) | set(EXEMPT)) - held
    assert not gone, f"no module holds {sorted(gone)}"


def test_no_pattern_hides_from_the_guard() -> None:
    """A pattern inline in a call (`re.sub(r"…", …)`) is compiled at module level instead, and
    a `re.compile` inside a function has an entry that builds one as the function does."""
    in_functions, inline = compile_sites()  # here, not at import: it parses every module
    assert not inline, "compile these at module level, with a guard: " + "; ".join(inline)
    assert set(in_functions) == set(DYNAMIC), "list each in regex_attacks.DYNAMIC"


def test_the_guard_can_fail() -> None:
    """The measurement tells a quadratic pattern from a linear one: the ATX heading pattern the
    living-document reader had (`# a` + spaces + `b`) fails it, the one it has passes."""
    old = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
    n, ratio = growth(old, Attack("# a", " ", "b"), Use.MATCH)
    assert ratio >= BOUND, (n, ratio)
    new = GUARDS["anchors.document.reader._ATX_OPEN_RE"]
    assert linear(re.compile(r" {0,3}(#{1,6})(?=[ \t]|$)"), Attack("# a", " ", "b"), new.use)[0]


CASES = [
    pytest.param(pattern, attack, guard.use, id=f"{name}:{i}")
    for names, pattern in PATTERNS
    if (found := _guard(names)) is not None
    for name, guard in [found]
    for i, attack in enumerate(guard.attacks)
] + [
    pytest.param(build(), attack, guard.use, id=f"{name}:{i}")
    for name, (build, guard) in DYNAMIC.items()
    for i, attack in enumerate(guard.attacks)
]


@pytest.mark.parametrize(("pattern", "attack", "use"), CASES)
def test_each_attack_takes_linear_time(pattern: re.Pattern[str], attack: Attack, use: Use) -> None:
    ok, why = linear(pattern, attack, use)
    assert ok, f"{pattern.pattern!r} on {attack}: {why}"
    memory = bytes_per_char(pattern, attack, use)
    assert memory < MAX_BYTES_PER_CHAR, f"{pattern.pattern!r} on {attack}: {memory:.0f} B/char"


#: a run this long of one character takes well under this on a linear pattern; only a slower
#: one is measured at two sizes
_SCREEN_CHARS, _SCREEN_SECONDS = 20_000, 0.02
#: pieces longer than one character that files and answers repeat (numbers with groups and
#: points, figures' units and words, Markdown, HTML and TeX openings): run through every pattern
_COMMON_PIECES = frozenset(
    {"1,", ",111", "1.1", "1 ", "1x", "#1", "§1.", "A100", "±1", "10^", "七倍", "百分之", "约 ",
     "tokens/", "issue ", "来源", "http://", "- ", "> ", "|-", "![a](", "[a](x", "<a", "<img ",
     "\\textbf{", "\\cite{", "Fig. ", ". ", "。"}
)  # fmt: skip


def _repeated_chars(pattern: re.Pattern[str] | re.Pattern[bytes]) -> set[str]:
    """A few characters each repeated class of the pattern matches (and a few it does not)."""
    source = pattern.pattern if isinstance(pattern.pattern, str) else pattern.pattern.decode()
    out: set[str] = set(" \t\n0aA._-/#:[](){}<>@'\"*\u0661\u00e9\u3000")
    for op, arg in _walk(_parser.parse(source, pattern.flags & ~re.UNICODE)):
        if op is sre_constants.LITERAL:
            out.add(chr(arg))
    return out


def _walk(parsed: object) -> list[tuple[object, object]]:
    out: list[tuple[object, object]] = []
    for op, arg in parsed:  # type: ignore[attr-defined]
        out.append((op, arg))
        for sub in arg if isinstance(arg, (list, tuple)) else ():
            if isinstance(sub, _parser.SubPattern):
                out.extend(_walk(sub))
            elif isinstance(sub, list):
                out.extend(x for s in sub if isinstance(s, _parser.SubPattern) for x in _walk(s))
        if isinstance(arg, _parser.SubPattern):
            out.extend(_walk(arg))
    return out


SCREENED = [
    pytest.param(pattern, guard.use, id=name)
    for names, pattern in PATTERNS
    if (found := _guard(names)) is not None
    for name, guard in [found]
] + [pytest.param(build(), guard.use, id=name) for name, (build, guard) in DYNAMIC.items()]


@pytest.mark.slow  # ~190 patterns × ~60 runs of 20,000 characters: the slow tier (CI runs it)
@pytest.mark.parametrize(("pattern", "use"), SCREENED)
def test_a_run_of_any_one_character_takes_linear_time(pattern: re.Pattern[str], use: Use) -> None:
    """Beyond the listed attacks: a long run of each character the pattern names (and of a few
    common ones and pieces), which is how most slow patterns are found."""
    slow = []
    for c in sorted(_repeated_chars(pattern) | _COMMON_PIECES):
        attack = Attack("", c, "\x00")
        run = apply(pattern, attack.text(_SCREEN_CHARS // len(c)), use)
        if seconds(run, tries=1) < _SCREEN_SECONDS:
            continue
        ok, why = linear(pattern, attack, use)
        if not ok:
            slow.append(f"{attack}: {why}")
    assert not slow, f"{pattern.pattern!r}: " + "; ".join(slow)
