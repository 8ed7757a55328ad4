"""A GitHub issue or pull request thread as passages: its body, every comment, and for a pull
request every review comment (on diff lines) and review body.

The input is the REST API's JSON as parsed (`anchors.jsonread.loads`): the issue object and
lists of comment objects, each read for its `id`, `body` and `updated_at` (a review's
`submitted_at`, as reviews have no `updated_at`), so an edited comment is a new version of its
place. Each place is "body", "comment <id>", "review comment <id>" or "review <id>"; a comment
the API gave in another shape is a gap, never a silent hole. A minimized ("hidden") comment is
read like any other: only GraphQL marks it, the REST answers carry its text unmarked.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from .markdown import passages_from_markdown
from .passages import Passage, SourceText

__all__ = ["MAX_BODY_CHARS", "THREAD_BUDGET", "passages_from_thread", "thread_scope"]

#: seconds of work one thread may take; what is left after it is a gap
THREAD_BUDGET = 10.0
#: characters of one body read; GitHub refuses bodies over 65,536, so a longer one is not
#: GitHub's and its end is a gap
MAX_BODY_CHARS = 1 << 18
#: what each list is, for `where` and the scope: (singular, plural)
_NAMES = {
    "comment": ("comment", "comments"),
    "review comment": ("review comment", "review comments"),
    "review": ("review", "reviews"),
}


@dataclass
class _Thread:
    deadline: float
    clock: Callable[[], float]
    passages: list[Passage] = field(default_factory=list)
    gaps: list[str] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    stopped: bool = False

    def read(self, body: object, where: str, version: object) -> None:
        if not self.stopped and self.clock() > self.deadline:
            self.stopped = True
            self.gaps.append(f"reading the thread took too long; stopped before {where}")
        if self.stopped:
            return
        text = body if isinstance(body, str) else ""
        if len(text) > MAX_BODY_CHARS:
            self.gaps.append(f"{where}: only its first {MAX_BODY_CHARS} characters were read")
            text = text[:MAX_BODY_CHARS]
        stamp = version if isinstance(version, str) else ""
        self.passages.extend(passages_from_markdown(text, where, stamp))


def thread_scope(counts: dict[str, int], body: bool = True) -> str:
    """What was read, in a finding's words: "body + 63 comments + 2 reviews"."""
    parts = ["body"] if body else []
    for name, (one, many) in _NAMES.items():
        n = counts.get(name, 0)
        if n or name == "comment":
            parts.append(f"{n} {one if n == 1 else many}")
    return " + ".join(parts)


def passages_from_thread(
    issue: object,
    comments: Sequence[object] = (),
    review_comments: Sequence[object] = (),
    reviews: Sequence[object] = (),
    *,
    gaps: Sequence[str] = (),
    budget: float = THREAD_BUDGET,
    clock: Callable[[], float] = time.monotonic,
) -> SourceText:
    """The passages of a thread: `issue` (the issue or PR object) and its lists, as the API
    gave them; `gaps` says what the fetch could not read (a failed page)."""
    thread = _Thread(clock() + budget, clock, gaps=list(gaps))
    if isinstance(issue, dict):
        thread.read(issue.get("body"), "body", issue.get("updated_at"))
    else:
        thread.gaps.append("the issue itself was not read")
    for name, items in (
        ("comment", comments),
        ("review comment", review_comments),
        ("review", reviews),
    ):
        thread.counts[name] = _read_list(thread, name, items)
    scope = thread_scope(thread.counts, isinstance(issue, dict))
    return SourceText(tuple(thread.passages), scope, tuple(thread.gaps))


def _read_list(thread: _Thread, name: str, items: Sequence[object]) -> int:
    """Reads each item of one list; returns how many were read (an unreadable one is a gap)."""
    read = 0
    stamp_field = "submitted_at" if name == "review" else "updated_at"
    for item in items:
        ident = item.get("id") if isinstance(item, dict) else None
        if not isinstance(item, dict) or not isinstance(ident, int) or isinstance(ident, bool):
            thread.gaps.append(f"a {name} the API gave in a shape anchors does not read")
            continue
        body = item.get("body")
        if body is not None and not isinstance(body, str):
            thread.gaps.append(f"{name} {ident}: its body is not text")
            continue
        thread.read(body, f"{name} {ident}", item.get(stamp_field))
        read += 1
    return read
