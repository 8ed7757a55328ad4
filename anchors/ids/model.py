"""The anchor key model: the four kinds of key, one union over them, and the shared vocabulary.

Raw strings stop here: `parse_anchor` turns any citation text into a frozen key object or raises
`InvalidId` with a reason a person can act on. Each key class lives in the module of its kind
(`arxiv`, `doi`, `github`, `web`) and knows its `kind` and the registry field (`id_field`) it is
stored under, so callers ask the key instead of testing its class or cutting its string.
"""

from __future__ import annotations

from typing import assert_never

from .arxiv import OLD_ARCHIVES, ArxivId, is_future, issued_after
from .doi import Doi
from .github import GithubRef
from .kinds import AnchorKind, InvalidId, kind_of, split_key
from .web import WebUrl, canonical_url, cited_url

__all__ = [
    "OLD_ARCHIVES",
    "AnchorKey",
    "AnchorKind",
    "ArxivId",
    "Doi",
    "GithubRef",
    "InvalidId",
    "WebUrl",
    "canonical_url",
    "cited_url",
    "is_future",
    "issued_after",
    "key_from_text",
    "kind_of",
    "split_key",
]

AnchorKey = ArxivId | GithubRef | Doi | WebUrl


def key_from_text(text: str) -> AnchorKey:
    """A key's string form (`AnchorKey.key`, as the history and the cache store it) read back as
    the key; InvalidId (a ValueError) for text that is no key of a known kind."""
    try:
        kind, identity = split_key(text)
    except ValueError:
        raise InvalidId(text, "not an anchor key (kind:identity)") from None
    match kind:
        case AnchorKind.ARXIV:
            return ArxivId.parse(identity)
        case AnchorKind.DOI:
            return Doi.parse(identity)
        case AnchorKind.GITHUB:
            return GithubRef.parse(identity)
        case AnchorKind.URL:
            return WebUrl(identity)
        case _:
            assert_never(kind)
