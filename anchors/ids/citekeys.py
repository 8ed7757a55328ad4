"""BibTeX/CSL citation keys: readable, derived from one identifier alone, never shared by two.

A key spells the identifier in the characters every BibTeX tool accepts (lower-case letters,
digits, `.` and `-`), so `\\cite{arxiv-2312.07104}` reads as what it cites. Where that spelling
loses information (`foo-bar/baz#1` and `foo/bar-baz#1` would both be `gh-foo-bar-baz-1`;
`10.5555/abc_def` and `10.5555/abc-def` both `doi-10.5555-abc-def`), the key ends in `--` and
8 hex digits of the SHA-1 of the anchor key. An exact spelling never contains `--`, so the two
forms cannot meet; the key depends on its own identifier only, so adding, removing or
reordering other anchors never changes it. Web pages always carry the hash of their canonical
URL (`url-<host>-<8 hex>`): a URL does not fit in a key.
"""

from __future__ import annotations

import hashlib
import re
from typing import assert_never
from urllib.parse import urlsplit

from .model import AnchorKey, AnchorKind

__all__ = ["cite_key"]

_OTHER = re.compile(r"[^a-z0-9.]+")
#: spellings that lose nothing: the only `-` is where a `/` (or owner/repo/number split) was
_EXACT_DOI = re.compile(r"10\.[0-9]+(?:\.[0-9]+)*/[a-z0-9.]+")
_EXACT_OWNER = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")  # repo names after it have no `-`
_EXACT_REPO = re.compile(r"[a-z0-9.]+")


def _slug(*parts: str) -> str:
    """The parts lower-cased, other characters as `-`, joined by `-`; never `--` inside."""
    cut = (_OTHER.sub("-", p.lower()).strip("-") for p in parts)
    return "-".join(p for p in cut if p)


def _hashed(prefix: str, k: AnchorKey, *parts: str) -> str:
    return f"{prefix}-{_slug(*parts)}--{hashlib.sha1(k.key.encode('utf-8')).hexdigest()[:8]}"


def cite_key(k: AnchorKey) -> str:
    """`arxiv-2312.07104`, `arxiv-astro-ph-0601001`, `doi-10.1145-3600006.3613165`,
    `gh-pygithub-pygithub-28`, `gh-vllm-project-vllm-8242`, `url-<host>-<8 hex>`; a spelling
    that could name two identifiers gets `--<8 hex>` (`doi-10.5555-abc-def--1a2b3c4d`)."""
    match k.kind:
        case AnchorKind.ARXIV:  # archive names are letters and `-`, numbers digits: exact
            return "arxiv-" + _slug(k.canonical)
        case AnchorKind.DOI:
            doi = k.doi.lower()
            if _EXACT_DOI.fullmatch(doi):
                return "doi-" + doi.replace("/", "-")
            return _hashed("doi", k, doi)
        case AnchorKind.GITHUB:
            owner, repo = k.owner.lower(), k.repo.lower()
            if _EXACT_OWNER.fullmatch(owner) and _EXACT_REPO.fullmatch(repo):
                return f"gh-{owner}-{repo}-{k.number}"
            return _hashed("gh", k, owner, repo, str(k.number))
        case AnchorKind.URL:
            host = urlsplit(k.url).hostname or "web"
            digest = hashlib.sha1(k.url.encode("utf-8")).hexdigest()[:8]
            return f"url-{_slug(host)}-{digest}"
        case _:
            assert_never(k)
