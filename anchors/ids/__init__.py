"""Identifiers: arXiv IDs, GitHub issue/PR references, DOIs and canonical URLs.

Raw strings stop here: `parse_anchor` gives a typed key or raises `InvalidId` with a reason.
The key model is in `model` (one module per kind behind it); `urls` says which URL names which ID.
"""

from __future__ import annotations

from . import model, urls
from .model import *
from .model import AnchorKey, ArxivId, Doi, GithubRef
from .urls import *
from .urls import key_from_url

__all__ = ["parse_anchor"]
__all__ += model.__all__
__all__ += urls.__all__


def parse_anchor(text: str) -> AnchorKey:
    """Classify one citation: a URL, an arXiv ID, a DOI or an `owner/repo#N` reference."""
    raw = text.strip()
    if "://" in raw:
        return key_from_url(raw)
    if raw.lower().startswith(("doi:", "10.")):
        return Doi.parse(raw)
    if "#" in raw:
        return GithubRef.parse(raw)
    return ArxivId.parse(raw)
