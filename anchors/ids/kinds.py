"""What every anchor key shares: its kind, and the error for text that is no valid key.

A key's string form is `<kind>:<identity>` (`arxiv:2309.06180`, `github:owner/repo#12`); the
cache, the history and the reports group by the kind, so they read it with `kind_of` instead
of cutting the string themselves.
"""

from __future__ import annotations

from enum import Enum

__all__ = ["AnchorKind", "InvalidId", "kind_of", "prefix_of", "split_key"]


class InvalidId(ValueError):
    """A citation that looks like an identifier but is not a valid one."""

    def __init__(self, text: str, reason: str) -> None:
        super().__init__(f"{text}: {reason}")
        self.text = text
        self.reason = reason


class AnchorKind(str, Enum):
    """Which service answers for an anchor; also the prefix of its key.

    Code that treats kinds differently matches on `key.kind` (mypy narrows the key with it, and
    `assert_never` makes a new kind an error at every such place) instead of testing classes.
    """

    ARXIV = "arxiv"
    DOI = "doi"
    GITHUB = "github"
    URL = "url"

    @property
    def is_paper(self) -> bool:
        """An arXiv ID or a DOI names a paper: its title is the paper's own (metadata to check
        it against), never the heading a briefing files it under."""
        return self in (AnchorKind.ARXIV, AnchorKind.DOI)


def split_key(key: str) -> tuple[AnchorKind, str]:
    """`"arxiv:2309.06180"` -> `(AnchorKind.ARXIV, "2309.06180")`; ValueError for no key."""
    kind, sep, rest = key.partition(":")
    if not sep:
        raise ValueError(f"{key!r} is not an anchor key (kind:identity)")
    return AnchorKind(kind), rest


def kind_of(key: str) -> AnchorKind:
    """The kind a key string names."""
    return split_key(key)[0]


def prefix_of(text: str) -> str:
    """The part before the first `:` of a key, or of a name built on one (the cache's
    `capture:<key>`); "" when there is none."""
    prefix, sep, _ = text.partition(":")
    return prefix if sep else ""
