"""`exclude` patterns, matched by RE2: time linear in the URL, whatever the pattern says.

An `exclude` pattern may come from the checked repository's `anchors.toml`, which a pull request
can edit, and Python's `re` backtracks: `(a|aa)*$` against a URL of forty `a`s runs for hours.
RE2 (google-re2: Google's automaton engine, what GitHub and GitLab run user patterns with)
finds a match in one pass over the URL for any pattern; it has no look-around and no
back-references, which a pattern for URLs does without. The syntax is otherwise Python's
(`\\d` is ASCII only). A pattern RE2 refuses is a ValueError saying why.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import re2

__all__ = ["PatternError", "UrlPattern", "url_pattern"]

_OPTIONS = re2.Options()
_OPTIONS.log_errors = False  # RE2 would also print each refused pattern to stderr


class PatternError(ValueError):
    """A pattern RE2 will not run: `str()` says why."""


@dataclass(frozen=True)
class UrlPattern:
    """One compiled `exclude` pattern; `search(url)` says whether it matches anywhere in it."""

    text: str
    compiled: object = field(repr=False, compare=False)

    def search(self, url: str) -> bool:
        return self.compiled.search(url) is not None  # type: ignore[attr-defined]


def url_pattern(text: str) -> UrlPattern:
    """`text` compiled by RE2; PatternError naming why when RE2 will not run it (a syntax error,
    look-around or a back-reference)."""
    try:
        return UrlPattern(text, re2.compile(text, _OPTIONS))
    except re2.error as exc:
        why = exc.args[0] if exc.args else exc
        why = why.decode("utf-8", "replace") if isinstance(why, bytes) else str(why)
        raise PatternError(why) from None
