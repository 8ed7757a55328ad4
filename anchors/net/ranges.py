"""Which addresses are public: anchors' own table of the IANA special-purpose ranges.

Python's `ipaddress.is_global` changed between 3.11, 3.12 and 3.13 (2002::/16, 64:ff9b:1::/48,
fec0::/10 among others), so the guard reads this table instead: the same answer on every
supported Python, tested range by range (tests/test_ranges.py).

An IPv6 address that carries an IPv4 one is judged by the IPv4 address it carries: IPv4-mapped
(::ffff:a.b.c.d), the NAT64 well-known prefix (64:ff9b::/96, the last 32 bits) and 6to4
(2002::/16, bits 16 to 47). `2002:6464:64c8::` is 100.100.100.200, a cloud metadata service.
Sources: the IANA IPv4 and IPv6 Special-Purpose Address Registries, RFC 6890, RFC 4291.
"""

from __future__ import annotations

from ipaddress import IPv4Address, IPv4Network, IPv6Address, IPv6Network, ip_address

__all__ = ["blocked_reason", "carried_ipv4"]

IPAddress = IPv4Address | IPv6Address

#: (network, why) for every IPv4 range that is not a public unicast destination
_V4: tuple[tuple[IPv4Network, str], ...] = tuple(
    (IPv4Network(net), why)
    for net, why in (
        ("0.0.0.0/8", "'this network'"),
        ("10.0.0.0/8", "private"),
        ("100.64.0.0/10", "shared (carrier-grade NAT; cloud metadata lives here too)"),
        ("127.0.0.0/8", "loopback"),
        ("169.254.0.0/16", "link-local (cloud metadata lives here)"),
        ("172.16.0.0/12", "private"),
        ("192.0.0.0/24", "IETF protocol assignment"),
        ("192.0.2.0/24", "documentation"),
        ("192.88.99.0/24", "6to4 relay anycast (deprecated)"),
        ("192.168.0.0/16", "private"),
        ("198.18.0.0/15", "benchmarking"),
        ("198.51.100.0/24", "documentation"),
        ("203.0.113.0/24", "documentation"),
        ("224.0.0.0/4", "multicast"),
        ("240.0.0.0/4", "reserved"),
    )
)

#: exceptions inside 192.0.0.0/24 that IANA lists as globally reachable (PCP, TURN anycast)
_V4_PUBLIC = (IPv4Network("192.0.0.9/32"), IPv4Network("192.0.0.10/32"))

#: the only IPv6 block that holds public unicast addresses
_V6_GLOBAL = IPv6Network("2000::/3")
#: (network, why) for the ranges inside 2000::/3 that are not public destinations
_V6: tuple[tuple[IPv6Network, str], ...] = tuple(
    (IPv6Network(net), why)
    for net, why in (
        ("2001::/32", "Teredo tunnel"),
        ("2001:2::/48", "benchmarking"),
        ("2001:10::/28", "ORCHID (deprecated)"),
        ("2001::/23", "IETF protocol assignment"),
        ("2001:db8::/32", "documentation"),
        ("3fff::/20", "documentation"),
    )
)
#: exceptions inside 2001::/23 that IANA lists as globally reachable
_V6_PUBLIC = tuple(
    IPv6Network(net)
    for net in (
        "2001:1::1/128",
        "2001:1::2/128",
        "2001:1::3/128",
        "2001:3::/32",
        "2001:4:112::/48",
        "2001:20::/28",
        "2001:30::/28",
    )
)
#: IPv6 ranges outside 2000::/3, named for the message (everything there is refused)
_V6_OTHER: tuple[tuple[IPv6Network, str], ...] = tuple(
    (IPv6Network(net), why)
    for net, why in (
        ("::1/128", "loopback"),
        ("::/128", "unspecified"),
        ("64:ff9b:1::/48", "local-use NAT64"),
        ("100::/64", "discard-only"),
        ("5f00::/16", "segment routing (SRv6)"),
        ("fc00::/7", "unique local (private)"),
        ("fe80::/10", "link-local"),
        ("fec0::/10", "site-local (deprecated)"),
        ("ff00::/8", "multicast"),
    )
)
_MAPPED = IPv6Network("::ffff:0:0/96")
_NAT64 = IPv6Network("64:ff9b::/96")
_SIX_TO_FOUR = IPv6Network("2002::/16")


def carried_ipv4(ip: IPv6Address) -> IPv4Address | None:
    """The IPv4 address an IPv6 one stands for (mapped, NAT64 well-known prefix, 6to4)."""
    value = int(ip)
    if ip in _MAPPED or ip in _NAT64:
        return IPv4Address(value & 0xFFFFFFFF)
    if ip in _SIX_TO_FOUR:
        return IPv4Address((value >> 80) & 0xFFFFFFFF)
    return None


def blocked_reason(address: str | IPAddress) -> str | None:
    """Why `address` is not a public unicast destination ("private", "loopback", ...), or
    None when it is one; an IPv6 address carrying an IPv4 one answers for that one."""
    ip = ip_address(address) if isinstance(address, str) else address
    if isinstance(ip, IPv6Address):
        inner = carried_ipv4(ip)
        if inner is not None:
            return blocked_reason(inner)
        if ip not in _V6_GLOBAL:
            return next((why for net, why in _V6_OTHER if ip in net), "not global unicast")
        if any(ip in net for net in _V6_PUBLIC):
            return None
        return next((why for net, why in _V6 if ip in net), None)
    if any(ip in net for net in _V4_PUBLIC):
        return None
    return next((why for net, why in _V4 if ip in net), None)
