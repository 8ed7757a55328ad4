"""The machine's resolver as a test of the outage rule sets it, with no traffic beyond loopback.

`OsResolver` takes the place of `socket.getaddrinfo` (which the guard's resolver, aiohttp and
requests all ask). Only a public name that resolved to a public address proves the resolver works
(`anchors.net.witness`), so a `public` name resolves to loopback first and to `PUBLIC` second:
the witness sees a public address, the connection goes to the first address, and `loopback_only`
refuses, before any packet, a socket to anything but loopback should the order ever change.
"""

from __future__ import annotations

import errno
import socket
from collections.abc import Callable
from typing import Any

import pytest

from anchors.net.netguard import NetGuard
from anchors.net.ranges import blocked_reason

__all__ = ["PUBLIC", "OsResolver", "loopback_only"]

#: a public unicast address by anchors' table; no test ever connects to it
PUBLIC = "93.184.215.14"


class OsResolver:
    """`socket.getaddrinfo` as a test sets it: `names` resolve to loopback, `public` names to
    loopback and `PUBLIC`, `table` names to the address given, `failing` names fail for now;
    the rest as `mode` says ("nxdomain": unknown, "fail": a temporary resolver failure);
    addresses are passed on."""

    def __init__(self, real: Callable[..., Any]) -> None:
        self.real = real
        self.names: set[str] = set()
        self.public: set[str] = set()
        self.table: dict[str, str] = {}
        self.failing: set[str] = set()
        self.mode = "nxdomain"

    def __call__(self, host: Any, port: Any, *args: Any, **kw: Any) -> Any:
        name = (host.decode() if isinstance(host, bytes) else str(host)).lower()
        if name in self.names or name in self.public:
            found = self.real("127.0.0.1", port, *args, **kw)
            return found + (self.real(PUBLIC, port, *args, **kw) if name in self.public else [])
        if name in self.table:
            return self.real(self.table[name], port, *args, **kw)
        try:
            socket.inet_pton(socket.AF_INET6 if ":" in name else socket.AF_INET, name)
        except OSError:
            if self.mode == "nxdomain" and name not in self.failing:
                raise socket.gaierror(socket.EAI_NONAME, "Name or service not known") from None
            raise socket.gaierror(socket.EAI_AGAIN, "Temporary failure in resolution") from None
        return self.real(host, port, *args, **kw)


def loopback_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every guarded socket to an address that is not loopback is refused as it is made."""
    real = NetGuard.open_socket

    def open_socket(self: NetGuard, addr_info: tuple[Any, ...]) -> socket.socket:
        if blocked_reason(str(addr_info[4][0])) != "loopback":
            raise ConnectionRefusedError(errno.ECONNREFUSED, "the test reaches loopback only")
        return real(self, addr_info)

    monkeypatch.setattr(NetGuard, "open_socket", open_socket)
