"""Which hosts a link check may reach: screening after name resolution, on every connection.

URLs in a registry are untrusted. The guard is called by the transport (anchors.transport) twice:
when a name is resolved (every address of the name is screened) and when a socket is opened
(`open_socket` screens the exact address about to be connected, IP-literal URLs and redirect
hops included), so what is screened is what is connected to: no DNS-rebinding gap. Names are
resolved through an injected `Resolver`, so tests and benchmarks never ask a real DNS server.

    GuardError
    ├── Blocked         scheme or address not allowed (blocked-url)
    ├── NameNotFound    the name does not exist, NXDOMAIN (dead-link)
    └── ResolveFailed   temporary resolver failure (unreachable; evidence the network is down)
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from collections.abc import Iterable, Mapping
from typing import Protocol

import httpx

from .ranges import blocked_reason, carried_ipv4
from .witness import Witness

__all__ = [
    "Blocked",
    "GuardError",
    "NameNotFound",
    "NetGuard",
    "ResolveFailed",
    "Resolver",
    "StaticResolver",
    "SystemResolver",
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
        name = host.lower()
        if name in self.failing:
            raise ResolveFailed(host, "name resolution failed (temporary failure)")
        if name not in self.table:
            raise NameNotFound(host, "no such host (NXDOMAIN)")
        return self.table[name]


class NetGuard:
    """Resolves and screens hosts; `allow_private` lets loopback and private ranges through.

    `trusted` are the hosts the user named as API roots (a flag or the environment: a
    GitHub Enterprise server, a loopback test server); they, and the addresses they resolve
    to, are not screened. Everything else, their redirects included, is.
    """

    def __init__(
        self,
        resolver: Resolver | None = None,
        allow_private: bool = False,
        trusted: Iterable[str] = (),
        witness: Witness | None = None,
    ) -> None:
        self.resolver: Resolver = resolver or SystemResolver()
        self.allow_private = allow_private
        self.trusted = frozenset(h.lower().strip("[]") for h in trusted)
        self._trusted_ips: set[str] = set()
        #: whether the resolver demonstrably works: an NXDOMAIN is evidence of a dead link only
        #: beside a public name that resolved to public addresses (anchors.check.recorder)
        self.witness = witness if witness is not None else Witness()

    def check_scheme(self, url: httpx.URL | str) -> None:
        parsed = url if isinstance(url, httpx.URL) else httpx.URL(url)
        if parsed.scheme not in ALLOWED_SCHEMES:
            raise Blocked(
                parsed.host or str(url), f"scheme {parsed.scheme or '(none)'}: is not checked"
            )

    def screen(self, host: str, address: str) -> None:
        """Raise Blocked unless `address` (what `host` resolved to) may be connected to."""
        if self.allow_private or address in self._trusted_ips or host.lower() in self.trusted:
            return
        ip = ipaddress.ip_address(address.split("%")[0])
        why = blocked_reason(ip)
        if why:
            verb = "is a" if host == address else "resolves to"
            v4 = carried_ipv4(ip) if isinstance(ip, ipaddress.IPv6Address) else None
            shown = f"{ip} (= {v4})" if v4 else str(ip)
            raise Blocked(host, f"{verb} {why} address {shown} (use --allow-private)")

    async def addresses(self, host: str, port: int) -> list[str]:
        """The addresses of `host`, each screened; a name with any forbidden one is refused."""
        try:
            ips, named = [str(ipaddress.ip_address(host))], False
        except ValueError:
            ips = [
                str(ipaddress.ip_address(a.split("%")[0]))
                for a in await self.resolver.resolve(host, port)
            ]
            named = True
        if not ips:
            raise NameNotFound(host, "no addresses")
        if host.lower() in self.trusted:
            self._trusted_ips.update(ips)  # the user's API host: what it resolves to is theirs
        for ip in ips:
            self.screen(host, ip)
        if named:  # a name the guard refused never gets here
            self.witness.saw(host, ips)
        return ips

    def open_socket(
        self,
        addr_info: tuple[
            int | socket.AddressFamily, int | socket.SocketKind, int, str, tuple[object, ...]
        ],
    ) -> socket.socket:
        """The connector's socket factory: the last word on the exact address connected to."""
        family, type_, proto, _, address = addr_info  # aiohappyeyeballs' AddrInfoType
        self.screen(str(address[0]), str(address[0]))
        return socket.socket(family, type_, proto)
