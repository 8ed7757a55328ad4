"""GitHub REST answers read as a client reads them: their JSON shape, and their next page.

A list (an issue's comments, a pull request's reviews) comes in pages of at most 100; each
page names the next in its `Link` header (`<https://api.github.com/repositories/1/issues/2/
comments?page=2>; rel="next"`), which is followed as given, never rebuilt from a page number.
"""

from __future__ import annotations

import re

__all__ = ["looks_like_the_api", "next_link"]

#: the most of a `Link` header read (GitHub's has four short entries)
_LINK_CHARS = 8192
#: one entry of a Link header: the URL in angle brackets and its parameters up to the next
#: entry; both classes stop at the next `<`, so a scan never passes the next entry
_LINK_RE = re.compile(r"<([^<>]{1,2000}+)>([^<]*+)")
_REL_RE = re.compile(r"""\brel\s*=\s*"?([^";,]*+)""", re.IGNORECASE)


def next_link(header: str | None) -> str | None:
    """The URL the `Link` header names `rel="next"`, or None (the last page, or no header)."""
    for match in _LINK_RE.finditer((header or "")[:_LINK_CHARS]):
        rel = _REL_RE.search(match.group(2))
        if rel is not None and "next" in rel.group(1).lower().split():
            return match.group(1).strip()
    return None


def looks_like_the_api(status: int, data: object) -> bool:
    """GitHub's REST API answers JSON objects, its 404s included (`{"message": "Not Found"}`).

    A wrong `--github-api` root (a web site, a proxy's error page) answers something else, and
    reading its 404s as "the issue does not exist" would fail every issue: a configuration error.
    """
    if status not in (200, 404, 410):
        return True  # limits, 403s and 5xx are judged as answers, as before
    return isinstance(data, dict | list) and (status == 200 or "message" in data)
