"""aiohttp's errors as the httpx errors every client of the transport tells apart.

httpx-aiohttp's own table maps every `ClientConnectionError`, refused and reset included, to
`ConnectTimeout`, and lets a malformed answer escape as an aiohttp exception; the checker needs
refused (dead), reset (retried) and timeout (unreachable) apart (anchors.net.answers).
"""

from __future__ import annotations

import aiohttp
import httpx

__all__ = ["httpx_error", "reraise_as_httpx"]

#: aiohttp's error, most specific first -> the httpx error the checker understands
_ERRORS: tuple[tuple[type[BaseException], type[httpx.TransportError]], ...] = (
    (aiohttp.ClientConnectorSSLError, httpx.ConnectError),
    (aiohttp.ClientConnectorCertificateError, httpx.ConnectError),
    (aiohttp.ConnectionTimeoutError, httpx.ConnectTimeout),
    (aiohttp.SocketTimeoutError, httpx.ReadTimeout),
    (aiohttp.ServerTimeoutError, httpx.ReadTimeout),
    (aiohttp.ClientConnectorError, httpx.ConnectError),
    (aiohttp.ServerDisconnectedError, httpx.RemoteProtocolError),
    (aiohttp.ClientPayloadError, httpx.ReadError),
    (aiohttp.ClientOSError, httpx.ReadError),
    (aiohttp.InvalidURL, httpx.UnsupportedProtocol),  # e.g. 127.1: not a canonical IPv4
    (aiohttp.NonHttpUrlClientError, httpx.UnsupportedProtocol),
    (aiohttp.ClientConnectionError, httpx.ReadError),
    # a malformed answer: bad status line, header too long, bad chunk... (httpcore: the same)
    (aiohttp.ClientResponseError, httpx.RemoteProtocolError),
    (aiohttp.ClientError, httpx.RemoteProtocolError),
)


def httpx_error(exc: BaseException) -> httpx.TransportError | None:
    """The httpx error for an aiohttp one; None: not aiohttp's (a guard error passes as it is)."""
    if not isinstance(exc, aiohttp.ClientError):
        return None
    for theirs, ours in _ERRORS:
        if isinstance(exc, theirs):
            return ours(str(exc))
    return None


def reraise_as_httpx(exc: BaseException) -> None:
    """Raise the httpx error for `exc` from it; returns when `exc` is not aiohttp's."""
    mapped = httpx_error(exc)
    if mapped is not None:
        raise mapped from exc
