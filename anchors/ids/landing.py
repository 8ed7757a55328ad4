"""Where a reader of a moved page lands, and when a redirect means the page is gone.

URL rules, beside `web`'s: a redirect keeps the cited fragment (`landing_url`), and a permanent
redirect to a login wall or to the site's home page is a soft 404 (`soft_404`): `check` says
"the page is probably gone", the report shows it, and `fix` does not apply it.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, urlsplit

from .web import cited_url

__all__ = ["landing_url", "soft_404"]


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
    asked_parts = urlsplit(old)
    asked = {
        old.rstrip("/"),
        f"{asked_parts.netloc}{asked_parts.path}".rstrip("/"),
        asked_parts.path.rstrip("/"),
    } - {""}
    for name, value in parse_qsl(query, keep_blank_values=True):
        if name.lower() in _RETURN:
            named = urlsplit(value)
            if value.rstrip("/") in asked or (
                named.path.rstrip("/") in asked and named.path.strip("/")
            ):
                return True
    return False


def _home_page(url: str) -> bool:
    """The root (or a language's root, or its index file), unless a query on it names one page
    (WordPress's `/?p=123`); tracking noise (`/?utm_source=...`) `cited_url` drops first."""
    parts = urlsplit(cited_url(url))
    if _HOME_PATH.fullmatch(parts.path.strip("/")) is None:
        return False
    return not any(
        k.lower() in _PAGE_PARAMS for k, _ in parse_qsl(parts.query, keep_blank_values=True)
    )
