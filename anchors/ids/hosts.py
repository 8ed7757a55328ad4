"""The site an address belongs to: its registrable domain, public-suffix aware and offline.

`docs.vllm.ai` and `blog.vllm.ai` are one site (`vllm.ai`), `bbc.co.uk` is not `co.uk`, and two
GitHub Pages sites (`a.github.io`, `b.github.io`) are two: the Public Suffix List's private
section counts, as browsers count it for cookies. The list is the snapshot the
`publicsuffixlist` package bundles (released with the list's date in its version): read once,
on first use (~40 ms), never fetched. An IP address, a single label (`localhost`) or a bare
public suffix is its own site.
"""

from __future__ import annotations

import ipaddress
from functools import cache, lru_cache
from urllib.parse import urlsplit

from publicsuffixlist import PublicSuffixList

__all__ = ["site_of", "site_of_host"]


@cache
def _list() -> PublicSuffixList:
    return PublicSuffixList()  # the bundled file; it fetches nothing unless told to


@lru_cache(maxsize=4096)
def site_of_host(host: str) -> str:
    """The registrable domain of a host name (lower-cased, no trailing dot)."""
    host = host.lower().rstrip(".")
    try:
        ipaddress.ip_address(host)
    except ValueError:
        pass
    else:
        return host
    if "." not in host:
        return host
    return _list().privatesuffix(host) or host


def site_of(url: str) -> str | None:
    """The registrable domain of a URL's host; None when it names no host."""
    try:
        host = urlsplit(url).hostname
    except ValueError:
        return None
    return site_of_host(host) if host else None
