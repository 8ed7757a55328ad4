"""The HTTP transport under httpx: aiohttp's connection pool, with the guard in its public hooks.

httpx stays the API every service client and test is written against; only the connection
layer is aiohttp's (through `httpx-aiohttp`), about half the CPU per request of httpcore's. The
link checker, many small requests, skips httpx's objects (`exchange`): the same session, hooks,
errors and bytes on the wire (bench/README.md). Redirects, retries, limits and the body cap
stay in the checker above.

The guard sits in two public hooks of `aiohttp.TCPConnector`: a resolver that resolves names
through the guard (and screens every address it returns), and a `socket_factory` that screens
the exact address about to be connected, on every new connection. aiohttp never consults a
resolver for IP-literal URLs, so the socket factory is what catches `http://169.254.169.254/`
and the same on a redirect hop. Guard errors are not `OSError`s, so aiohttp passes them through
unwrapped; the transport raises each as the `httpx.ConnectError` every client of it handles, with
the guard's error as its cause, where the checker finds it (blocked-url, dead-link): a service
(GitHub, Wayback…) whose name does not resolve during an outage is unreachable, not a crash.
"""

from __future__ import annotations

import functools
import socket
import ssl
from collections.abc import AsyncIterator
from http.cookiejar import CookieJar
from typing import Any

import aiohttp
import httpx
import yarl
from aiohttp.abc import AbstractResolver, ResolveResult
from httpx_aiohttp import AiohttpTransport

from .aiohttp_errors import reraise_as_httpx
from .netguard import GuardError, NetGuard

__all__ = ["NoCookies", "Reply", "Transport", "guarded_transport", "ssl_context"]


class _Body(httpx.AsyncByteStream):
    """The response body as aiohttp reads it, with its errors mapped while it is read."""

    def __init__(self, resp: aiohttp.ClientResponse) -> None:
        self.resp = resp

    async def __aiter__(self) -> AsyncIterator[bytes]:
        try:
            async for chunk in self.resp.content.iter_chunked(_CHUNK):
                yield chunk
        except aiohttp.ClientError as exc:
            reraise_as_httpx(exc)
            raise

    async def aclose(self) -> None:
        # release() keeps the connection only when the body was read to its end
        self.resp.release()
        try:
            await self.resp.wait_for_close()
        except aiohttp.ClientError as exc:
            reraise_as_httpx(exc)
            raise


class Transport(AiohttpTransport):
    """httpx-aiohttp's transport (its constructor and session handling), with the request
    itself sent here: every aiohttp error becomes the httpx error the checker tells apart
    (refused, reset, timeout, malformed answer), headers and body alike, and a request costs
    less than through httpx-aiohttp's own adapter (bench/README.md).

    httpx-aiohttp maps refused and reset alike to ConnectTimeout, and lets a malformed answer
    (aiohttp's ClientResponseError) escape as an aiohttp exception. A request without a
    timeout extension (the link checker's: it holds one deadline of its own, body included)
    starts no aiohttp timer at all."""

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        ext = request.extensions
        resp = await self._request(
            request.method,
            request.url,
            request.headers.multi_items(),
            _timeout(ext.get("timeout")),
            data=_content(request),
            server_hostname=ext.get("sni_hostname"),
            origin=request,
        )
        return httpx.Response(
            resp.status,
            headers=resp.raw_headers,
            stream=_Body(resp),
            request=request,
            extensions={"http_version": b"HTTP/1.1"},
        )

    async def exchange(
        self, method: str, url: httpx.URL, headers: list[tuple[str, str]], cap: int
    ) -> tuple[Reply, bytes]:
        """The link checker's request, straight on aiohttp: no httpx `Request` or `Response`
        (~40 us a request, bench/README.md), the same errors as `handle_async_request`, the
        same bytes on the wire (`headers` as httpx would send them, Host first). At most
        `cap` bytes of the body are read; the connection is released before this returns."""
        resp = await self._request(method, url, headers, _NO_TIMEOUT)
        body = _Body(resp)
        try:
            got = bytearray()
            if cap:
                async for chunk in body:
                    got += chunk
                    if len(got) >= cap:
                        break
        finally:
            await body.aclose()
        return Reply(resp.status, url, resp.raw_headers), bytes(got[:cap])

    async def _request(
        self,
        method: str,
        url: httpx.URL,
        headers: list[tuple[str, str]],
        timeout: aiohttp.ClientTimeout,
        *,
        data: bytes | httpx.AsyncByteStream | None = None,
        server_hostname: str | None = None,
        origin: httpx.Request | None = None,
    ) -> aiohttp.ClientResponse:
        """One request without redirects; aiohttp's and the guard's errors as httpx's."""
        if not isinstance(self.client, aiohttp.ClientSession):
            self.client = self.get_client()
        try:
            # httpx has already normalised and percent-encoded it: not parsed a second time
            target = yarl.URL(str(url), encoded=True)
            _ = target.port  # yarl reads the port lazily: checked here, where aiohttp would
        except ValueError as exc:  # a port out of range: what aiohttp calls an invalid URL
            raise httpx.UnsupportedProtocol(str(url)) from exc
        try:
            return await self.client.request(
                method,
                target,
                headers=headers,
                data=data,
                allow_redirects=False,
                timeout=timeout,
                server_hostname=server_hostname,
            )
        except aiohttp.ClientError as exc:
            reraise_as_httpx(exc)
            raise
        except GuardError as exc:  # the guard refused the name or the address
            raise httpx.ConnectError(str(exc), request=origin) from exc


class Reply:
    """What the link checker judges an answer by (anchors.net.redirects.Headed): the status,
    the URL asked, and httpx's `Headers`, built only when read (a 2xx verdict reads none)."""

    __slots__ = ("_headers", "_raw", "status_code", "url")

    def __init__(self, status: int, url: httpx.URL, raw: RawHeaders) -> None:
        self.status_code, self.url, self._raw = status, url, raw
        self._headers: httpx.Headers | None = None

    @property
    def headers(self) -> httpx.Headers:
        if self._headers is None:
            self._headers = httpx.Headers(list(self._raw))
        return self._headers


RawHeaders = tuple[tuple[bytes, bytes], ...]


_CHUNK = 16384
_NO_TIMEOUT = aiohttp.ClientTimeout()


def _content(request: httpx.Request) -> bytes | httpx.AsyncByteStream | None:
    """The body to send: None for none, the bytes when httpx holds them, else the stream."""
    try:
        return request.content or None
    except httpx.RequestNotRead:
        request.headers.pop("transfer-encoding", None)  # aiohttp frames the stream itself
        assert isinstance(request.stream, httpx.AsyncByteStream)
        return request.stream


@functools.lru_cache(maxsize=16)
def _timeouts(
    connect: float | None, read: float | None, pool: float | None
) -> aiohttp.ClientTimeout:
    return aiohttp.ClientTimeout(sock_connect=connect, sock_read=read, connect=pool)


def _timeout(given: dict[str, float | None] | None) -> aiohttp.ClientTimeout:
    """httpx's timeout extension in aiohttp's terms (one object per setting, not per request)."""
    if not given:
        return _NO_TIMEOUT
    return _timeouts(given.get("connect"), given.get("read"), given.get("pool"))


class _GuardResolver(AbstractResolver):
    """Names resolve through the guard, which refuses a name with any forbidden address."""

    def __init__(self, guard: NetGuard) -> None:
        self.guard = guard

    async def resolve(
        self, host: str, port: int = 0, family: socket.AddressFamily = socket.AF_INET
    ) -> list[ResolveResult]:
        return [
            {
                "hostname": host,
                "host": ip,
                "port": port,
                "family": socket.AF_INET6 if ":" in ip else socket.AF_INET,
                "proto": 0,
                "flags": socket.AI_NUMERICHOST,
            }
            for ip in await self.guard.addresses(host, port)
        ]

    async def close(self) -> None:
        return None


_MAX_LINE = 16384
#: what `verify` may be: a context, or httpx's own (True, False, a CA bundle path)
Verify = ssl.SSLContext | bool | str


class NoCookies(CookieJar):
    """A cookie jar that keeps nothing, for `httpx.AsyncClient(cookies=NoCookies())`.

    A checker has no session to keep, and httpx files every response's cookies in its jar:
    ~0.1 ms per response. (The aiohttp session below keeps none either.)
    """

    def extract_cookies(self, response: object, request: object) -> None:
        return None

    def add_cookie_header(self, request: object) -> None:
        return None


def ssl_context(verify: Verify = True) -> ssl.SSLContext:
    """One context for every session: loading the CA bundle costs ~25 ms each time."""
    return _ssl_context(verify)


def _ssl_context(verify: Verify) -> ssl.SSLContext:
    if isinstance(verify, ssl.SSLContext):
        return verify
    return httpx.create_ssl_context(verify=verify, trust_env=False)


def _session(
    limits: httpx.Limits, ctx: ssl.SSLContext, guard: NetGuard | None
) -> aiohttp.ClientSession:
    extra: dict[str, Any] = {}  # Any: ClientSession's keyword arguments, each its own type
    if guard is not None:
        # Addresses are tried one after another (as before): a race of several would hide
        # which one the guard refused.
        extra = {
            "resolver": _GuardResolver(guard),
            "socket_factory": guard.open_socket,
            "happy_eyeballs_delay": None,
        }
    connector = aiohttp.TCPConnector(
        limit=limits.max_connections or 0,
        limit_per_host=0,
        ssl=ctx,
        keepalive_timeout=limits.keepalive_expiry,
        **extra,
    )
    # No cookie jar: a checker has no session to keep, and parsing Set-Cookie costs CPU.
    # aiohttp refuses a header line over 8 KiB; httpcore (h11) took a 16 KiB header block, and
    # real sites send 10 KiB cookies: allow 16 KiB a line, so such a page is not "malformed".
    return aiohttp.ClientSession(
        connector=connector,
        cookie_jar=aiohttp.DummyCookieJar(),
        trust_env=False,
        auto_decompress=False,
        max_line_size=_MAX_LINE,
        max_field_size=_MAX_LINE,
    )


def guarded_transport(
    guard: NetGuard, limits: httpx.Limits, verify: Verify = True
) -> httpx.AsyncBaseTransport:
    """An httpx transport whose every connection, redirect hops included, passes `guard`."""
    return _transport(limits, _ssl_context(verify), guard)


def _transport(limits: httpx.Limits, ctx: ssl.SSLContext, guard: NetGuard | None) -> Transport:
    # The session is made on first use, inside the running event loop, as aiohttp requires.
    return Transport(
        verify=ctx, limits=limits, trust_env=False, client=lambda: _session(limits, ctx, guard)
    )
