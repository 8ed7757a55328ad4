"""Following redirects by hand, the one way links, DOIs and the GitHub API all do it.

No client here is allowed to follow redirects itself: each hop is sent by the caller's own
`fetch`, so whatever screens a request (the address guard in the transport, the scheme check,
the token that only goes to the API host) screens every hop, not only the first. What is
decided here, once: a hop back to a URL already seen is a loop; more than `max_redirects`
hops is too many; a hop the caller does not `allow` (off the API host) is not sent; and the
chain is "moved" (a 301/308 the registry should learn) only when every hop was permanent.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from enum import Enum
from typing import Generic, Protocol, TypeVar
from urllib.parse import quote_from_bytes

import httpx

__all__ = ["PERMANENT", "Followed", "Headed", "Stop", "follow", "location", "location_of"]

A = TypeVar("A")
#: the statuses that say "this URL has moved for good"
PERMANENT = frozenset({301, 308})


class Headed(Protocol):
    """What an answer is judged by: an `httpx.Response`, or the link checker's lighter reply
    read straight off the connection pool (anchors.net.transport.Reply)."""

    @property
    def status_code(self) -> int: ...

    @property
    def headers(self) -> httpx.Headers: ...

    @property
    def url(self) -> httpx.URL: ...


class Stop(str, Enum):
    """Why a chain ended before an answer that is not a redirect."""

    LOOP = "loop"
    TOO_MANY = "too-many"
    REFUSED = "refused"  # the caller's `allow` said no


@dataclass(frozen=True, slots=True)
class Followed(Generic[A]):
    """The end of a redirect chain.

    `answer` is the last answer received: the final one, or (when `stop` is set) the redirect
    that was not followed, whose target is `url`. Without `stop`, `url` is where `answer` came
    from. `moved_to` is set when at least one hop was made and every hop was permanent.
    """

    answer: A
    url: httpx.URL
    hops: int
    moved_to: httpx.URL | None = None
    stop: Stop | None = None

    def reason(self, max_redirects: int) -> str:
        """The chain's problem in words, for a finding (only when `stop` is set)."""
        if self.stop is Stop.LOOP:
            return f"redirect loop back to {self.url}"
        if self.stop is Stop.TOO_MANY:
            return f"more than {max_redirects} redirects"
        return f"redirect to {self.url} not followed"


async def follow(
    url: httpx.URL,
    fetch: Callable[[httpx.URL], Awaitable[A]],
    target: Callable[[A], tuple[int, httpx.URL] | None],
    *,
    max_redirects: int,
    allow: Callable[[httpx.URL], bool] | None = None,
) -> Followed[A]:
    """Fetch `url`, then each redirect `target` names, until an answer that is not one.

    `target(answer)` is (status, absolute next URL) for a redirect to follow, else None.
    """
    seen, permanent, hops = {str(url)}, True, 0
    while True:
        answer = await fetch(url)
        hop = target(answer)
        if hop is None:
            moved = url if hops and permanent else None
            return Followed(answer, url, hops, moved)
        status, nxt = hop
        permanent = permanent and status in PERMANENT
        stop = (
            Stop.REFUSED
            if allow is not None and not allow(nxt)
            else Stop.LOOP
            if str(nxt) in seen
            else Stop.TOO_MANY
            if hops >= max_redirects
            else None
        )
        if stop is not None:
            return Followed(answer, nxt, hops, None, stop)
        seen.add(str(nxt))
        url, hops = nxt, hops + 1


def location_of(resp: httpx.Response) -> tuple[int, httpx.URL] | None:
    """`target` for httpx answers: a redirect status (301, 302, 303, 307, 308) with a Location,
    resolved against the URL asked; an invalid Location is no redirect (the answer stands)."""
    loc = location(resp) if resp.is_redirect else None  # is_redirect: the status only
    if loc is None:
        return None
    try:
        return resp.status_code, resp.url.join(loc)
    except httpx.InvalidURL:
        return None


#: what stays as it is in a Location: printable ASCII (a `%` escape is kept as written)
_PLAIN = bytes(range(0x21, 0x7F))


def location(resp: Headed) -> str | None:
    """An answer's first Location as its bytes say, every byte outside printable ASCII
    percent-encoded: a raw UTF-8 `/café` is `/caf%C3%A9`, as a browser sends it, however
    httpx decoded the header block (as Latin-1, when another header is not UTF-8)."""
    for name, value in resp.headers.raw:
        if name.lower() == b"location":
            return quote_from_bytes(value.strip(), safe=_PLAIN)
    return None
