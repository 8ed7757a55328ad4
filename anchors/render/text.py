"""Terminal output: readable at any width, every foreign string escaped, markup never parsed.

A finding is a head line `file:line: severity code anchor` that is never cut or wrapped (the
terminal may fold it; copying keeps it whole), then its message wrapped under it. `concise` is
one finding a line, for grep and editors. A person reads the first `MAX_SHOWN_PER_CODE` of
each code and a count of the rest (a document of 20,000 uncited headings is not read line by
line); `-f concise` and `-f json` hold every finding.
"""

from __future__ import annotations

import textwrap
from collections import Counter
from collections.abc import Iterable
from typing import TYPE_CHECKING

from rich.cells import cell_len
from rich.console import Group, RenderableType
from rich.text import Text

from ..findings import Finding, Severity
from ..merging.result import Change
from .concise import anchor_line, where
from .escape import plain
from .summary import plural

if TYPE_CHECKING:
    from ..merging.result import MergeResult
    from ..result import CheckResult

__all__ = ["MAX_SHOWN_PER_CODE", "add_result", "check_result", "clip", "findings"]

#: findings of one code the text format prints; the rest are counted after them
MAX_SHOWN_PER_CODE = 50

_STYLE = {Severity.ERROR: "bold red", Severity.WARNING: "yellow", Severity.INFO: "cyan"}
_INDENT = "    "


def clip(text: str, n: int) -> str:
    """At most `n` characters, with "…" when something was cut."""
    return text if len(text) <= n else text[: n - 1].rstrip() + "…"


def _finding(f: Finding, width: int) -> list[Text]:
    head = Text.assemble(
        (where(f) + ":", "bold"),
        " ",
        (f.severity.value, _STYLE[f.severity]),
        " ",
        (f.code.value, "bold"),
        no_wrap=True,
        overflow="ignore",
    )
    if f.anchor:
        head.append(" " + plain(f.anchor))
    body = textwrap.wrap(
        plain(f.message),
        max(width - len(_INDENT), 20),
        break_long_words=False,
        break_on_hyphens=False,
    )
    return [head, *(Text(_INDENT + line, no_wrap=True, overflow="ignore") for line in body)]


def findings(fs: Iterable[Finding], width: int = 80) -> list[Text]:
    """Findings in the order given, the same for every command that reports them: at most
    MAX_SHOWN_PER_CODE of a code, then one line counting the rest of each code cut."""
    lines: list[Text] = []
    shown: Counter[str] = Counter()
    for f in fs:
        shown[f.code.value] += 1
        if shown[f.code.value] <= MAX_SHOWN_PER_CODE:
            lines += _finding(f, width)
    for code, n in shown.items():
        if n > MAX_SHOWN_PER_CODE:
            more = n - MAX_SHOWN_PER_CODE
            lines.append(
                Text(f"… and {more} more {code} findings (every one: -f concise or -f json)")
            )
    return lines


def check_result(result: CheckResult, width: int = 80) -> Group:
    """The findings; the summary is the CLI's, printed once on stderr."""
    return Group(*findings(result.findings, width))


_CHANGE_STYLE = {"added": "green", "continued": "cyan", "unchanged": "dim"}


def add_result(result: MergeResult, width: int = 80) -> Group:
    """What changed (added, continued), one line each with the title clipped to the width, a
    count of the anchors left unchanged, then the findings as `check` prints them."""
    lines = Text(no_wrap=True, overflow="ignore", end="")
    unchanged = 0
    for key, change in result.change_of().items():
        if change is Change.UNCHANGED:
            unchanged += 1
            continue
        at, what, title = anchor_line(result, key, change)
        room = width - cell_len(f'{at} {what}  ""')
        lines.append(at, "bold")
        lines.append(" ")
        lines.append(change.value, _CHANGE_STYLE[change.value])
        lines.append(what[len(change.value) :])
        if title and room >= 12:  # what the width leaves, in terminal cells (中文 takes two)
            shown = Text(title)
            shown.truncate(room, overflow="ellipsis")
            lines.append(f'  "{shown.plain}"')
        lines.append("\n")
    parts: list[RenderableType] = [lines] if lines else []
    if unchanged:
        parts.append(Text(f"{plural(unchanged, 'anchor')} unchanged (already recorded)"))
    if result.findings:
        parts += [Text()] if parts else []  # a blank line before the findings
        parts += findings(result.findings, width)
    return Group(*parts)
