"""Whether the resolver demonstrably works in a run: the one witness the outage rule asks.

An unknown name (NXDOMAIN) is a dead link only beside proof that the resolver works. A name the
hosts file answers, a name that is local by definition (`localhost`, `*.local`, `*.internal`, a
single label) or one that resolved to an address the guard's table refuses (loopback, private,
documentation...) is answered without the network, or by a resolver that may answer anything:
none of them proves the network is up. Only a public name that resolved to a public address
(and that the guard accepted whole) is evidence; `--allow-private` lets private addresses be
reached, never count as evidence.
"""

from __future__ import annotations

import ipaddress
import os
import sys
from pathlib import Path

from .ranges import blocked_reason

__all__ = ["HOSTS_FILE", "Witness", "hosts_names", "is_public_name"]


def _hosts_file() -> Path:
    if sys.platform == "win32":  # pragma: no cover - the suite runs on POSIX
        root = os.environ.get("SystemRoot", r"C:\Windows")
        return Path(root) / "System32" / "drivers" / "etc" / "hosts"
    return Path("/etc/hosts")


#: the machine's hosts file (read once per run, at most `_HOSTS_CAP` bytes)
HOSTS_FILE = _hosts_file()
_HOSTS_CAP = 1 << 20
#: names answered without asking the DNS, or never on the public internet (RFC 6761, 6762,
#: 8375, 9476, and ICANN's `.internal`)
_LOCAL_SUFFIXES = ("localhost", "local", "internal", "home.arpa", "invalid", "onion", "alt")


def hosts_names(path: Path | None) -> frozenset[str]:
    """The names a hosts file lists (lower case, no trailing dot); none if it cannot be read."""
    if path is None:
        return frozenset()
    try:
        with path.open("rb") as f:
            data = f.read(_HOSTS_CAP)
    except OSError:
        return frozenset()
    names: set[str] = set()
    for line in data.decode("utf-8", "replace").splitlines():
        fields = line.split("#", 1)[0].split()
        names.update(n.lower().rstrip(".") for n in fields[1:])
    return frozenset(names)


def is_public_name(host: str) -> bool:
    """A name the public DNS answers: dotted, not an address, not local by definition."""
    name = host.lower().rstrip(".")
    try:
        ipaddress.ip_address(name.strip("[]"))
        return False
    except ValueError:
        pass
    if "." not in name:
        return False
    return not any(name == s or name.endswith("." + s) for s in _LOCAL_SUFFIXES)


class Witness:
    """Counts the public names that resolved to public addresses in one run; the link guard and
    the services' guard share one, so an API host's resolution speaks for the resolver too."""

    def __init__(self, hosts_file: Path | None = None) -> None:
        #: the hosts file whose names are not evidence (`HOSTS_FILE` when None)
        self.hosts_file = HOSTS_FILE if hosts_file is None else hosts_file
        self._hosts: frozenset[str] | None = None
        #: public names that resolved to public addresses (what proves the resolver works)
        self.public_names = 0

    def saw(self, host: str, addresses: list[str]) -> None:
        """`host` resolved to `addresses`, which the guard accepted: evidence if the name is
        public, not in the hosts file, and one of the addresses is public."""
        if not addresses or not is_public_name(host):
            return
        if all(blocked_reason(a.split("%")[0]) is not None for a in addresses):
            return
        if self._hosts is None:
            self._hosts = hosts_names(self.hosts_file)
        if host.lower().rstrip(".") not in self._hosts:
            self.public_names += 1

    @property
    def resolver_works(self) -> bool:
        return self.public_names > 0
