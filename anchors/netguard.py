"""Which hosts a link check may reach: screening after name resolution, on every connection.

URLs in a registry are untrusted. The guard runs inside the HTTP transport's network backend,
so the address that is screened is the address that is connected to (no DNS-rebinding gap),
for the first request and for every redirect hop alike. Names are resolved through an
injected `Resolver`, so tests and benchmarks never ask a real DNS server.

    GuardError
    ├── Blocked         scheme or address not allowed (blocked-url)
    ├── NameNotFound    the name does not exist, NXDOMAIN (dead-link)
    └── ResolveFailed   temporary resolver failure (unreachable; evidence the network is down)
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
import ssl
from collections.abc import Iterable, Mapping
from typing import Any, Protocol

import httpcore
import httpx

__all__ = [
    "Blocked",
    "GuardError",
    "GuardedBackend",
    "NameNotFound",
    "NetGuard",
    "ResolveFailed",
    "Resolver",
    "StaticResolver",
    "SystemResolver",
    "guarded_transport",
]

ALLOWED_SCHEMES = frozenset({"http", "https"})


class GuardError(Exception):
    """Raised from the transport; carries the host it is about."""

    def __init__(self, host: str, reason: str) -> None:
        super().__init__(f"{host}: {reason}")
        self.host = host
        self.reason = reason


class Blocked(GuardError):
    pass


class NameNotFound(GuardError):
    pass


class ResolveFailed(GuardError):
    pass


class Resolver(Protocol):
    async def resolve(self, host: str, port: int) -> list[str]:
        """Addresses for `host`; raises NameNotFound or ResolveFailed."""
        ...


class SystemResolver:
    """The operating system's resolver, off the event loop."""

    async def resolve(self, host: str, port: int) -> list[str]:
        loop = asyncio.get_running_loop()
        try:
            infos = await loop.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        except socket.gaierror as exc:
            if exc.errno in (socket.EAI_NONAME, getattr(socket, "EAI_NODATA", -5)):
                raise NameNotFound(host, "no such host (NXDOMAIN)") from None
            raise ResolveFailed(host, f"name resolution failed ({exc.strerror})") from None
        return list(dict.fromkeys(str(i[4][0]) for i in infos))


class StaticResolver:
    """A fixed name table, as a hosts file would be; unknown names do not exist."""

    def __init__(self, table: Mapping[str, Iterable[str]], failing: Iterable[str] = ()) -> None:
        self.table = {k.lower(): list(v) for k, v in table.items()}
        self.failing = frozenset(h.lower() for h in failing)

    async def resolve(self, host: str, port: int) -> list[str]:
        h = host.lower()
        if h in self.failing:
            raise ResolveFailed(host, "name resolution failed (temporary failure)")
        if h not in self.table:
            raise NameNotFound(host, "no such host (NXDOMAIN)")
        return self.table[h]


def _forbidden(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> str | None:
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if ip.is_loopback:
        return "loopback"
    if ip.is_link_local:
        return "link-local (cloud metadata lives here)"
    if ip.is_private:
        return "private"
    if ip.is_multicast or ip.is_unspecified or ip.is_reserved:
        return "not a public unicast"
    return None


class NetGuard:
    """Resolves and screens hosts; `allow_private` lets loopback and private ranges through."""

    def __init__(self, resolver: Resolver | None = None, allow_private: bool = False) -> None:
        self.resolver: Resolver = resolver or SystemResolver()
        self.allow_private = allow_private

    def check_scheme(self, url: httpx.URL | str) -> None:
        u = url if isinstance(url, httpx.URL) else httpx.URL(url)
        if u.scheme not in ALLOWED_SCHEMES:
            raise Blocked(u.host or str(url), f"scheme {u.scheme or '(none)'}: is not checked")

    async def addresses(self, host: str, port: int) -> list[str]:
        try:
            ips = [ipaddress.ip_address(host)]
        except ValueError:
            ips = [ipaddress.ip_address(a.split("%")[0]) for a in await self.resolver.resolve(host, port)]
        if not ips:
            raise NameNotFound(host, "no addresses")
        if not self.allow_private:
            for ip in ips:
                why = _forbidden(ip)
                if why:
                    raise Blocked(host, f"resolves to {why} address {ip} (use --allow-private)")
        return [str(ip) for ip in ips]


class GuardedBackend(httpcore.AsyncNetworkBackend):
    """httpcore network backend that connects only to addresses the guard approved."""

    def __init__(self, guard: NetGuard) -> None:
        self.guard = guard
        self.inner = httpcore.AnyIOBackend()

    async def connect_tcp(self, host: str, port: int, timeout: float | None = None,
                          local_address: str | None = None,
                          socket_options: Iterable[Any] | None = None) -> httpcore.AsyncNetworkStream:
        ips = await self.guard.addresses(host, port)
        last: Exception | None = None
        for ip in ips:
            try:
                return await self.inner.connect_tcp(ip, port, timeout=timeout,
                                                    local_address=local_address,
                                                    socket_options=socket_options)
            except (httpcore.ConnectError, httpcore.ConnectTimeout) as exc:
                last = exc
        assert last is not None
        raise last

    async def connect_unix_socket(self, path: str, timeout: float | None = None,
                                  socket_options: Iterable[Any] | None = None) -> httpcore.AsyncNetworkStream:
        raise Blocked(path, "unix sockets are not checked")

    async def sleep(self, seconds: float) -> None:
        await self.inner.sleep(seconds)


class _PerOrigin(httpx.AsyncBaseTransport):
    """One connection pool per origin, all through the guard.

    httpcore's pool scans every connection for every request, so one pool of hundreds of
    connections costs O(n) per request; a pool per host keeps each scan as small as the
    per-host limit. One SSL context serves them all.
    """

    def __init__(self, guard: NetGuard, limits: httpx.Limits, verify: Any) -> None:
        self.guard = guard
        self.limits = limits
        self.ssl_context = verify if isinstance(verify, ssl.SSLContext) else \
            httpx.create_ssl_context(verify=verify, trust_env=False)
        self.origins: dict[tuple[bytes, bytes, int | None], httpx.AsyncHTTPTransport] = {}

    def _for(self, url: httpx.URL) -> httpx.AsyncHTTPTransport:
        key = (url.raw_scheme, url.raw_host, url.port)
        t = self.origins.get(key)
        if t is None:
            t = self.origins[key] = httpx.AsyncHTTPTransport(verify=self.ssl_context,
                                                            trust_env=False)
            # NOTE: httpx takes no network_backend argument, so the pool it built is replaced
            # by an equal one that connects through the guard.
            t._pool = httpcore.AsyncConnectionPool(
                ssl_context=self.ssl_context,
                max_connections=self.limits.max_connections,
                max_keepalive_connections=self.limits.max_keepalive_connections,
                keepalive_expiry=self.limits.keepalive_expiry,
                network_backend=GuardedBackend(self.guard),
            )
        return t

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        return await self._for(request.url).handle_async_request(request)

    async def aclose(self) -> None:
        for t in self.origins.values():
            await t.aclose()


def guarded_transport(guard: NetGuard, limits: httpx.Limits, verify: Any = True) -> httpx.AsyncBaseTransport:
    """An httpx transport whose every connection goes through `guard`, one pool per origin."""
    return _PerOrigin(guard, limits, verify)
