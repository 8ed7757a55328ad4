"""The address guard's own table, on links, redirects and every service client.

Non-global addresses are modelled by screening before connect: an injected resolver answers
100.100.100.200 (a cloud metadata service in the shared 100.64.0.0/10 range) and a tripwire
socket refuses, and records, any connection to an address off this machine, so a guard that
let one through fails the test without a packet leaving loopback.
"""

from __future__ import annotations

import asyncio
import errno
import ipaddress
import socket
from collections.abc import Iterator
from typing import ClassVar

import pytest

from anchors.findings import Outcome
from anchors.net.netguard import NetGuard, StaticResolver
from anchors.net.ranges import blocked_reason

from ..loopback import LoopbackServer, respond
from ..stack import links
from ..test_links import _OnePublic  # 127.0.0.1 stands in for a public address

pytestmark = [pytest.mark.reliability(kind="security"), pytest.mark.timeout(60)]


class _Tripwire(socket.socket):
    """A socket that connects to loopback only; any other address is recorded and refused."""

    attempts: ClassVar[list[str]] = []

    def _allowed(self, address: object) -> bool:
        host = address[0] if isinstance(address, tuple) else None
        try:
            return host is not None and ipaddress.ip_address(host).is_loopback
        except ValueError:
            return False

    def connect(self, address: object) -> None:  # type: ignore[override]
        if not self._allowed(address):
            _Tripwire.attempts.append(str(address))
            raise ConnectionRefusedError(errno.ECONNREFUSED, "tripwire: not sent off the machine")
        super().connect(address)  # type: ignore[arg-type]

    def connect_ex(self, address: object) -> int:  # type: ignore[override]
        if not self._allowed(address):
            _Tripwire.attempts.append(str(address))
            return errno.ECONNREFUSED
        return super().connect_ex(address)  # type: ignore[arg-type]


@pytest.fixture
def tripwire(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    _Tripwire.attempts = []
    monkeypatch.setattr(socket, "socket", _Tripwire)
    yield _Tripwire.attempts


# --- the table ---------------------------------------------------------------------------------

BLOCKED = {
    "0.1.2.3": "'this network'",
    "10.1.2.3": "private",
    "100.64.0.1": "shared",
    "100.100.100.200": "shared",
    "100.127.255.254": "shared",
    "127.0.0.2": "loopback",
    "169.254.169.254": "link-local",
    "172.16.0.1": "private",
    "172.31.255.254": "private",
    "192.0.0.8": "IETF",
    "192.0.2.10": "documentation",
    "192.88.99.1": "6to4 relay",
    "192.168.1.1": "private",
    "198.18.0.1": "benchmarking",
    "198.19.255.254": "benchmarking",
    "198.51.100.7": "documentation",
    "203.0.113.9": "documentation",
    "224.0.0.251": "multicast",
    "240.0.0.1": "reserved",
    "255.255.255.255": "reserved",
    "::": "unspecified",
    "::1": "loopback",
    "::7f00:1": "not global unicast",  # IPv4-compatible (deprecated) 127.0.0.1
    "::ffff:127.0.0.1": "loopback",
    "::ffff:100.100.100.200": "shared",
    "64:ff9b::a9fe:a9fe": "link-local",  # NAT64 of 169.254.169.254
    "64:ff9b::6464:64c8": "shared",  # NAT64 of 100.100.100.200
    "64:ff9b:1::1": "local-use NAT64",
    "100::1": "discard-only",
    "2001:0:4136:e378:8000:63bf:3fff:fdd2": "Teredo",
    "2001:2::1": "benchmarking",
    "2001:10::1": "ORCHID",
    "2001:db8::1": "documentation",
    "2002:a00:1::": "private",  # 6to4 of 10.0.0.1
    "2002:6464:64c8::1": "shared",  # 6to4 of 100.100.100.200
    "2002:7f00:1::": "loopback",
    "3fff::1": "documentation",
    "4000::1": "not global unicast",
    "5f00::1": "segment routing",
    "fc00::1": "unique local",
    "fd12:3456::1": "unique local",
    "fe80::1": "link-local",
    "fec0::1": "site-local",
    "ff02::1": "multicast",
}
PUBLIC = [
    "1.1.1.1",
    "8.8.8.8",
    "100.63.255.255",
    "100.128.0.0",
    "172.32.0.1",
    "192.0.0.9",  # IANA: globally reachable inside 192.0.0.0/24 (PCP anycast)
    "198.20.0.1",
    "::ffff:8.8.8.8",
    "64:ff9b::808:808",
    "2002:808:808::1",
    "2001:1::1",
    "2001:4:112::1",
    "2001:20::1",
    "2606:4700:4700::1111",
    "2a00:1450:4001:80b::200e",
]


@pytest.mark.parametrize(("address", "why"), sorted(BLOCKED.items()))
def test_every_special_purpose_range_is_blocked(address: str, why: str) -> None:
    assert why in (blocked_reason(address) or "public"), address


@pytest.mark.parametrize("address", PUBLIC)
def test_public_addresses_pass(address: str) -> None:
    assert blocked_reason(address) is None


def test_the_guard_blocks_what_the_table_blocks_whatever_python_says() -> None:
    """The guard reads the table, not `ipaddress.is_global` (which changed in 3.12 and 3.13)."""
    guard = NetGuard(allow_private=False)
    for address in BLOCKED:
        with pytest.raises(Exception, match="allow-private"):
            guard.screen(address, address)


# --- links: an entry, a redirect, the IPv4-mapped form -----------------------------------------

METADATA = "100.100.100.200"


@pytest.mark.parametrize(
    "url",
    [
        "http://metadata.example/latest/meta-data/",  # a name resolving to it
        f"http://{METADATA}/latest/meta-data/",
        f"http://[::ffff:{METADATA}]/latest/meta-data/",
        "http://[2002:6464:64c8::1]/latest/meta-data/",
        "http://[64:ff9b::6464:64c8]/latest/meta-data/",
        "http://[fec0::1]/",
        "http://192.0.2.10/",
    ],
)
def test_a_non_global_entry_is_blocked_before_connect(url: str, tripwire: list[str]) -> None:
    resolver = StaticResolver({"metadata.example": [METADATA]})

    async def go():  # type: ignore[no-untyped-def]
        async with links(resolver=resolver, allow_private=False, attempts=1) as lc:
            return await lc.check(url)

    r = asyncio.run(go())
    assert r.outcome is Outcome.BLOCKED, r
    assert tripwire == []  # no connection was attempted


@pytest.mark.parametrize(
    "location",
    [
        f"http://{METADATA}/latest/meta-data/",
        f"http://[::ffff:{METADATA}]/latest/meta-data/",
        "http://metadata.example/latest/meta-data/",
    ],
)
def test_a_redirect_to_a_non_global_address_is_blocked_at_the_hop(
    location: str, tripwire: list[str]
) -> None:
    async def to_metadata(req, w):  # type: ignore[no-untyped-def]
        return await respond(w, 302, b"", {"Location": location}, req=req)

    resolver = StaticResolver({"public.example": ["127.0.0.1"], "metadata.example": [METADATA]})
    with LoopbackServer(lambda req: to_metadata) as srv:

        async def go():  # type: ignore[no-untyped-def]
            guard = _OnePublic(resolver, allow_private=False)
            async with links(guard=guard, attempts=1) as lc:
                return await lc.check(f"http://public.example:{srv.port}/r")

        r = asyncio.run(go())
    assert r.outcome is Outcome.BLOCKED and METADATA in (r.error or ""), r
    assert tripwire == []
