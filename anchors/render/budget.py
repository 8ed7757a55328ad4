"""A size cap for Markdown that is posted where a limit holds: the weekly GitHub issue, and a
job's step summary.

GitHub refuses an issue body over 65,536 characters, and a step summary over 1 MiB (dropping
the whole summary), so a report that grows with a bad week would fail to post in exactly that
week. A Markdown document is built as `Part`s (a heading
and table head that always stay, rows that may be cut, a tail), and `fit` keeps every part and
as many rows of each as the budget holds: the budget is shared out so that a part with a few
rows shows them all before a long part shows more, and what is left goes to the parts in
order. Under each cut table a line says how many rows are not shown and where the full report
is. A section added later is one more `Part`; the cap holds for it with no change here.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass
from itertools import accumulate

__all__ = ["ISSUE_LIMIT", "STEP_SUMMARY_LIMIT", "Part", "fit", "size", "utf8_size"]

#: the largest body GitHub accepts for an issue or comment is 65,536 characters; the rest is
#: room for what a workflow writes around the report (a marker, a link to the run)
ISSUE_LIMIT = 64_000


#: how a text's size is counted against a limit
Measure = Callable[[str], int]

#: GitHub refuses a step summary over 1 MiB (1,048,576 bytes, the file as written); the rest is
#: room for what a workflow writes around it (the action's heading)
STEP_SUMMARY_LIMIT = 1_000_000


def utf8_size(text: str) -> int:
    """The length a step summary is measured in: bytes of the UTF-8 file."""
    return len(text.encode("utf-8"))


def size(text: str) -> int:
    """The length as GitHub can count it: UTF-16 code units, never fewer than code points, so
    a body within this size is within the limit however the service counts characters."""
    return len(text.encode("utf-16-le")) // 2


@dataclass(frozen=True, slots=True)
class Part:
    """One section of a document: `head` and `tail` lines always kept, `rows` kept as a prefix.

    A row may span lines (a sub-heading with its table head and first row), so a cut never
    leaves a heading without a table. `noun` names a row in the cut line ("link", "change").
    """

    head: tuple[str, ...]
    rows: tuple[str, ...] = ()
    tail: tuple[str, ...] = ("",)
    noun: str = "row"
    #: the section's name, for the line that says it was left out (only when even the heads of
    #: all parts do not fit)
    name: str = ""

    def render(self, kept: int, pointer: str) -> list[str]:
        out = [*self.head, *self.rows[:kept]]
        if kept < len(self.rows):
            out += ["", _cut_line(len(self.rows) - kept, self.noun, pointer)]
        return out + list(self.tail)


def _cut_line(n: int, noun: str, pointer: str) -> str:
    return f"*{n} more {noun if n == 1 else noun + 's'} not shown here: see {pointer}.*"


def fit(parts: list[Part], limit: int, pointer: str, measure: Measure = size) -> str:
    """The parts as one document of at most `limit` (by `measure`: `size` for an issue,
    `utf8_size` for a step summary), cut as little as it can be.

    `pointer` is Markdown naming the full report, for the cut lines. Without a cut the text is
    exactly the parts joined. Where even the parts' heads do not fit, the last parts are left
    out whole, each with a line saying so.
    """
    whole = "\n".join(line for p in parts for line in p.render(len(p.rows), pointer))
    if measure(whole) <= limit:
        return whole
    shown, dropped = _heads_that_fit(parts, limit, pointer, measure)
    fixed = _fixed(shown, dropped, pointer, measure)
    kept = _share([[measure(r) + 1 for r in p.rows] for p in shown], max(0, limit - fixed))
    while True:
        lines = [line for p, k in zip(shown, kept, strict=True) for line in p.render(k, pointer)]
        lines += [_dropped_line(p, pointer) for p in dropped]
        text = "\n".join(lines)
        if measure(text) <= limit or not any(kept):
            return text
        # the estimate counts each cut line once at its widest; should it still be over, the
        # part with most rows kept gives one more
        i = max(range(len(kept)), key=lambda index: kept[index])
        kept[i] -= 1


def _fixed(shown: list[Part], dropped: list[Part], pointer: str, measure: Measure) -> int:
    """What the shown parts' heads and tails and the left-out parts' lines take."""
    heads = sum(measure(line) + 1 for p in shown for line in p.render(0, pointer))
    return heads + sum(measure(_dropped_line(p, pointer)) + 1 for p in dropped)


def _dropped_line(part: Part, pointer: str) -> str:
    what = (
        f"{len(part.rows)} {part.noun if len(part.rows) == 1 else part.noun + 's'}"
        if part.rows
        else ""
    )
    name = part.name or "A section"
    return f"*{name}{f' ({what})' if what else ''} is not shown here: see {pointer}.*"


def _heads_that_fit(
    parts: list[Part], limit: int, pointer: str, measure: Measure
) -> tuple[list[Part], list[Part]]:
    """The parts whose heads, tails and cut lines fit, in order; the rest are left out."""
    for n in range(len(parts), 0, -1):
        if _fixed(parts[:n], parts[n:], pointer, measure) <= limit:
            return parts[:n], parts[n:]
    return parts[:1], parts[1:]


def _share(rows: list[list[int]], budget: int) -> list[int]:
    """How many leading rows of each part to keep, their sizes summing to at most `budget`.

    Every part may spend up to one common allowance (the largest that fits, found by
    bisection), so short parts are shown whole; what the allowance leaves is then given to
    the parts in order, a row at a time while it fits.
    """
    sums = [list(accumulate(r)) for r in rows]

    def kept(allowance: int) -> list[int]:
        return [bisect_right(s, allowance) for s in sums]

    def spent(rows_kept: list[int]) -> int:
        return sum(s[n - 1] for s, n in zip(sums, rows_kept, strict=True) if n)

    lo, hi = 0, max((s[-1] for s in sums if s), default=0)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if spent(kept(mid)) <= budget:
            lo = mid
        else:
            hi = mid - 1
    counts = kept(lo)
    left = budget - spent(counts)
    for i, part_sums in enumerate(sums):
        while counts[i] < len(part_sums):
            row = part_sums[counts[i]] - (part_sums[counts[i] - 1] if counts[i] else 0)
            if row > left:
                break
            left -= row
            counts[i] += 1
    return counts
