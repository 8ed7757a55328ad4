"""BibTeX/CSL citation keys: v0.2.0's readable spelling, and a suffix only where two meet.

A key spells the identifier with every character but letters, digits and `.` as `-`
(`doi-10.1038-s41586-021-03819-2`, `gh-openai-openai-python-123`), exactly as v0.2.0 did: the
`\\cite{}` keys in users' papers are these, so the spelling never changes. It can lose
information (`foo-bar/baz#1` and `foo/bar-baz#1` are both `gh-foo-bar-baz-1`), so the keys are
given out over a whole registry at once (`cite_keys`): of the identifiers that spell alike the
earliest keeps the plain key, and each later one ends in `--` and 8 hex of the SHA-1 of its
anchor key. `add` appends, so a key in use never changes when a lookalike arrives; and as the
whole registry decides, a section's export and the full export give an entry the same key.
Web pages carry the hash of their canonical URL (`url-<host>-<8 hex>`): a URL does not fit.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from typing import assert_never
from urllib.parse import urlsplit

from .model import AnchorKey, AnchorKind

__all__ = ["cite_keys", "plain_key"]

_KEY_CHARS = re.compile(r"[^A-Za-z0-9.]+")


def _sha1(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()


def plain_key(key: AnchorKey) -> str:
    """v0.2.0's key, character for character: `arxiv-2312.07104`, `arxiv-astro-ph-0601001`,
    `doi-10.1145-3600006.3613165`, `gh-pygithub-pygithub-28`, `url-<host>-<8 hex>`."""
    match key.kind:
        case AnchorKind.ARXIV:
            return "arxiv-" + _KEY_CHARS.sub("-", key.canonical).strip("-")
        case AnchorKind.DOI:
            return "doi-" + _KEY_CHARS.sub("-", key.doi.lower()).strip("-")
        case AnchorKind.GITHUB:
            owner, repo = (
                _KEY_CHARS.sub("-", key.owner.lower()),
                _KEY_CHARS.sub("-", key.repo.lower()),
            )
            return f"gh-{owner}-{repo}-{key.number}"
        case AnchorKind.URL:
            host = urlsplit(key.url).hostname or "web"
            return f"url-{_KEY_CHARS.sub('-', host.lower()).strip('-')}-{_sha1(key.url)[:8]}"
        case _:
            assert_never(key)


def cite_keys(keys: Iterable[AnchorKey]) -> list[str]:
    """The key of each identifier, given in registry order: the plain key, unless an earlier,
    different identifier has it, then `<plain>--<8 hex of the SHA-1 of the anchor key>`. One
    identifier given twice (a moved entry and an entry for its old URL) gets one key twice; the
    export reports that as a clash."""
    holder: dict[str, str] = {}  # plain key -> the anchor key that keeps it
    out = []
    for key in keys:
        plain = plain_key(key)
        first = holder.setdefault(plain, key.key)
        out.append(plain if first == key.key else f"{plain}--{_sha1(key.key)[:8]}")
    return out
