"""Web pages: any other http(s) URL, compared in canonical form, stored as cited.

`canonical_url` is the key for duplicates, the cache and the history; `cited_url` is what the
registry stores. They differ on purpose (see `cited_url`).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import ClassVar, Literal
from urllib.parse import parse_qsl, quote, unquote, urlencode, urlsplit, urlunsplit

from .kinds import AnchorKind, InvalidId

__all__ = ["WebUrl", "canonical_url", "cited_url"]


@dataclass(frozen=True, slots=True)
class WebUrl:
    """Any other http(s) URL, compared in canonical form."""

    kind: ClassVar[Literal[AnchorKind.URL]] = AnchorKind.URL
    id_field: ClassVar[str] = "url"

    url: str

    @property
    def key(self) -> str:
        return f"{self.kind.value}:{self.url}"

    def __str__(self) -> str:
        return self.url


_TRACKING_PARAMS = frozenset({"fbclid", "gclid", "dclid", "msclkid", "mc_cid", "mc_eid", "yclid"})
_DEFAULT_PORTS = {"http": 80, "https": 443}


@functools.lru_cache(maxsize=1 << 16)
def canonical_url(url: str) -> str:
    """Normalise a URL for duplicate detection; raises InvalidId for non-URLs.

    Remembered: a check asks it of each URL when the registry loads, again when the briefings
    citing a dead link are read, and for each result (~30 us a URL each time)."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError as exc:
        raise InvalidId(url, f"not a valid URL ({exc})") from None
    scheme = parts.scheme.lower()
    host = (parts.hostname or "").lower().rstrip(".")
    if scheme not in ("http", "https") or not host:
        raise InvalidId(url, "not an http(s) URL with a host")
    netloc = f"[{host}]" if ":" in host else host
    if port is not None and port != _DEFAULT_PORTS[scheme]:
        netloc += f":{port}"
    if parts.username or parts.password:
        raise InvalidId(url, "URLs with credentials are not anchors")
    path = quote(unquote(parts.path), safe="/:@!$&'()*+,;=-._~%")
    path = path.rstrip("/") or "/"
    query = [
        (k, v)
        for k, v in parse_qsl(parts.query, keep_blank_values=True)
        if not k.lower().startswith("utm_") and k.lower() not in _TRACKING_PARAMS
    ]
    return urlunsplit((scheme, netloc, path, urlencode(query), _route(parts.fragment)))


def _route(fragment: str) -> str:
    """The fragment when it names a page of a hash-routed site (`#/docs/x`, `#!/y`, Zulip's
    `#narrow/stream/…`), which is part of what the URL cites; "" for a place in one page."""
    head = fragment.split("/", 1)[0]
    if fragment.startswith(("/", "!")) or ("/" in fragment and head.isascii() and head.isalpha()):
        return fragment
    return ""


def _tracking(name: str) -> bool:
    n = unquote(name.replace("+", " ")).lower()
    return n.startswith("utm_") or n in _TRACKING_PARAMS


def cited_url(url: str) -> str:
    """The URL as cited, minus what is provably noise: `utm_*` and click-ID parameters.

    Everything else (case, a trailing slash, `/pull/` rather than `/issues/`, the fragment, the
    order and encoding of other parameters) is kept byte for byte: the registry stores what the
    briefing cited, and `canonical_url` is only the key for duplicates, the cache and history.
    """
    url = url.strip()
    head, hash_, fragment = url.partition("#")
    base, mark, query = head.partition("?")
    if not mark:
        return url
    params = query.split("&")
    kept = [p for p in params if not (p and _tracking(p.split("=", 1)[0]))]
    if len(kept) == len(params):
        return url
    return base + ("?" + "&".join(kept) if any(kept) else "") + hash_ + fragment
