"""Following redirects by hand, the one way links, DOIs and the GitHub API all do it.

No client here is allowed to follow redirects itself: each hop is sent by the caller's own
`fetch`, so whatever screens a request (the address guard in the transport, the scheme check,
the token that only goes to the API host) screens every hop, not only the first. What is
decided here, once: a hop back to a URL already seen is a loop; more than `max_redirects`
hops is too many; a hop the caller does not `allow` (off the API host) is not sent; and the
chain is "moved" (a 301/308 the registry should learn) only when every hop was permanent.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from enum import Enum
from typing import Generic, TypeVar
from urllib.parse import parse_qsl, urlsplit

import httpx

from ..ids.web import cited_url

__all__ = ["PERMANENT", "Followed", "Stop", "follow", "landing_url", "location_of", "soft_404"]

A = TypeVar("A")
#: the statuses that say "this URL has moved for good"
PERMANENT = frozenset({301, 308})


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
    if not resp.is_redirect or "location" not in resp.headers:  # is_redirect: the status only
        return None
    try:
        return resp.status_code, resp.url.join(resp.headers["location"])
    except httpx.InvalidURL:
        return None


def landing_url(cited: str, location: str) -> str:
    """Where a reader of `cited` lands when it redirects to `location`: a redirect keeps the
    cited fragment (`#section-2`) unless the Location has one of its own (RFC 9110 10.2.2), as
    every browser does, so a move must not drop the part of the page a briefing pointed at."""
    fragment = cited.partition("#")[2]
    return f"{location}#{fragment}" if fragment and "#" not in location else location


_LOGIN = re.compile(
    r"(^|/)(log-?in|sign-?in|sign_in|signon|sso|auth|oauth2?|session|"
    r"accounts?/login|users/sign_in|authorize)(/|$|\.)",
    re.IGNORECASE,
)
#: query parameters a login wall uses to send the reader back to the page they asked for
_RETURN = frozenset(
    {
        "next",
        "return_to",
        "returnto",
        "return",
        "redirect",
        "redirect_uri",
        "redirect_url",
        "redirect_to",
        "continue",
        "came_from",
        "service",
        "dest",
        "destination",
        "goto",
        "back",
        "backurl",
        "returnurl",
    }
)


#: the languages a site's home page is commonly published under (`/en/`, `/pt-br/`): ISO 639-1
#: codes, not any two letters, so `/go/` or `/tv/` is a section of the site, not its home
_LANGS = (
    "ar|bg|bn|ca|cs|da|de|el|en|es|et|eu|fa|fi|fr|ga|gl|he|hi|hr|hu|id|is|it|ja|ko|lt|"
    "lv|ms|nb|nl|nn|no|pl|pt|ro|ru|sk|sl|sr|sv|th|tr|uk|ur|vi|zh"
)
#: a site's home page: `/`, a language's, or its index file (`/index.php`)
_HOME_PATH = re.compile(
    rf"(?:(?:{_LANGS})(?:[-_](?:[a-z]{{2}}|[0-9]{{3}}|hans|hant))?(?:/|$))?"
    r"(?:(?:index|default|home)\.(?:html?|php|aspx?|jsp))?",
    re.IGNORECASE,
)
#: query parameters that name one page on a site's root path (WordPress's `/?p=123`); any other
#: query there (`?lang=en`, `?s=post`, `?error=404`, `?ref=404`) is still the home page
_PAGE_PARAMS = frozenset(
    {
        "p",
        "page_id",
        "post",
        "post_id",
        "id",
        "article",
        "story",
        "attachment_id",
        "cat",
        "tag",
        "m",
    }
)


def soft_404(old: str, new: str) -> str | None:
    """Why a redirect from `old` to `new` is really "the page is gone", or None: `check` says
    so instead of "cite the new URL", and `fix` does not apply it."""
    n = urlsplit(new)
    if _LOGIN.search(n.path) or _sends_back(old, n.query):
        return "redirects to a login page"
    if _home_page(new) and not _home_page(old):
        return "redirects to the site's home page"
    return None


def _sends_back(old: str, query: str) -> bool:
    """A return-to parameter naming the page asked for (`?continue=https://site/post`, or its
    path): a wall in front of it. A `?next=2` or `?ref=home` alone names no page of ours."""
    o = urlsplit(old)
    asked = {old.rstrip("/"), f"{o.netloc}{o.path}".rstrip("/"), o.path.rstrip("/")} - {""}
    for name, value in parse_qsl(query, keep_blank_values=True):
        if name.lower() in _RETURN:
            v = urlsplit(value)
            if value.rstrip("/") in asked or (v.path.rstrip("/") in asked and v.path.strip("/")):
                return True
    return False


def _home_page(url: str) -> bool:
    """The root (or a language's root, or its index file), unless a query on it names one page
    (WordPress's `/?p=123`); tracking noise (`/?utm_source=...`) `cited_url` drops first."""
    p = urlsplit(cited_url(url))
    if _HOME_PATH.fullmatch(p.path.strip("/")) is None:
        return False
    return not any(k.lower() in _PAGE_PARAMS for k, _ in parse_qsl(p.query, keep_blank_values=True))
