"""Identifiers: arXiv IDs, GitHub issue/PR references, DOIs and canonical URLs.

Raw strings stop here: `parse_anchor` gives a typed key or raises `InvalidId` with a reason.
"""

from __future__ import annotations

from .model import *  # noqa: F403
from .model import __all__ as _model_all
from .urls import *  # noqa: F403
from .urls import __all__ as _urls_all
from .model import AnchorKey, ArxivId, Doi, GithubRef
from .urls import key_from_url

__all__ = sorted({*_model_all, *_urls_all, "parse_anchor"})


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
