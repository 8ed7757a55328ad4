"""The witness of a working resolver: which resolutions count, and the hosts file it reads."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from anchors.net.netguard import Blocked, NetGuard, StaticResolver
from anchors.net.witness import Witness, hosts_names, is_public_name

from .publicnames import PUBLIC


@pytest.mark.parametrize(
    ("name", "public"),
    [
        ("docs.example.org", True),
        ("Docs.Example.ORG.", True),
        ("docs", False),
        ("localhost", False),
        ("a.localhost", False),
        ("printer.local", False),
        ("db.internal", False),
        ("nas.home.arpa", False),
        ("x.onion", False),
        ("gone.invalid", False),
        ("127.0.0.1", False),
        ("[::1]", False),
        ("2001:db8::1", False),
    ],
)
def test_public_names(name: str, public: bool) -> None:
    assert is_public_name(name) is public


def test_hosts_file_names_are_read_with_comments_case_and_dots(tmp_path: Path) -> None:
    hosts = tmp_path / "hosts"
    hosts.write_bytes(
        b"# a comment naming ignored.example\n127.0.0.1 localhost LOCAL.Example.\n"
        b"\n  ::1\tsix.example # pinned.example\n\xff\xfe not utf-8 is.example\n"
    )
    assert hosts_names(hosts) == {
        "localhost",
        "local.example",
        "six.example",
        "not",
        "utf-8",
        "is.example",
    }
    assert hosts_names(tmp_path / "absent") == frozenset()
    assert hosts_names(tmp_path) == frozenset()  # a folder: unreadable, so empty


def test_a_huge_hosts_file_is_read_only_to_its_bound(tmp_path: Path) -> None:
    hosts = tmp_path / "hosts"
    hosts.write_bytes(b"1.2.3.4 first.example\n" + b"#" * (2 << 20) + b"\n1.2.3.4 last.example\n")
    assert hosts_names(hosts) == {"first.example"}


@pytest.mark.parametrize(
    ("host", "addresses", "counts"),
    [
        ("docs.example.org", [PUBLIC], True),
        ("docs.example.org", ["127.0.0.1", PUBLIC], True),
        ("docs.example.org", ["127.0.0.1"], False),
        ("docs.example.org", ["10.0.0.1", "192.168.0.1"], False),
        ("docs.example.org", ["::ffff:127.0.0.1"], False),
        ("pinned.example.org", [PUBLIC], False),
        ("intranet", [PUBLIC], False),
        ("docs.example.org", [], False),
    ],
)
def test_what_the_witness_counts(
    tmp_path: Path, host: str, addresses: list[str], counts: bool
) -> None:
    hosts = tmp_path / "hosts"
    hosts.write_text(f"{PUBLIC} pinned.example.org\n", encoding="utf-8")
    w = Witness(hosts)
    w.saw(host, addresses)
    assert w.resolver_works is counts


def test_the_guard_tells_the_witness_only_what_it_accepted(tmp_path: Path) -> None:
    """A name the guard refuses never counts, even with a public address among its answers;
    an address literal is no resolution at all."""
    table = {"mixed.example.org": [PUBLIC, "10.0.0.1"], "ok.example.org": [PUBLIC]}
    guard = NetGuard(StaticResolver(table), witness=Witness(tmp_path / "none"))
    with pytest.raises(Blocked):
        asyncio.run(guard.addresses("mixed.example.org", 443))
    asyncio.run(guard.addresses(PUBLIC, 443))
    assert not guard.witness.resolver_works
    asyncio.run(guard.addresses("ok.example.org", 443))
    assert guard.witness.public_names == 1
