"""The `arxiv` package's Client, set up for anchors: the one place that knows its internals.

What the client supports is used as it is documented: `page_size`, `delay_seconds` (its own
spacing between requests, arXiv's 3 s), `num_retries` (set to 0: anchors' retry policy decides
what is tried again, anchors.check.retry), and `query_url_format` (documented as the endpoint;
set on the instance, it points this client only at a mirror or a test server).

What it does not support is a request timeout: it sends through a plain `requests.Session`,
which waits forever by default, so a stalled API would hang the check. The session is the
private attribute `Client._session` (arxiv 2.1 to 4.x). `with_timeout` replaces it, and says so
loudly if it is gone rather than run without a timeout; pyproject pins `arxiv<5`, and
tests/resolve/test_arxiv_client.py fails if the attribute disappears or stops being used.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import arxiv
import requests

__all__ = ["NotAFeed", "TimeoutSession", "answered_a_feed", "make_client", "with_timeout"]

# The package logs what it skips ("Skipping entry ... missing <published>", "Malformed feed")
# as warnings; with no handler configured, Python's last-resort handler printed them as stray
# lines among anchors' own output. Its verdicts are anchors' to report: a handler that drops
# them (an application that configures logging still receives them through propagation).
logging.getLogger("arxiv").addHandler(logging.NullHandler())

#: an Atom feed with OpenSearch counts, as every answer of the arXiv API is (its own errors too)
_FEED = re.compile(rb"<feed\b[^>]*\bxmlns=[\"']http://www\.w3\.org/2005/Atom[\"']")
_COUNTS = re.compile(rb"<opensearch:totalResults\b")


class NotAFeed(Exception):
    """The API answered 200 with something that is not an arXiv Atom feed (a maintenance or
    proxy page, or `--arxiv-api` pointing elsewhere): no verdict can be read from it."""


#: the attribute of `arxiv.Client` that holds its requests.Session (private; see above)
SESSION_ATTRIBUTE = "_session"


class TimeoutSession(requests.Session):
    """requests sets no timeout by default; a stalled API must not hang the check."""

    def __init__(self, timeout: float) -> None:
        super().__init__()
        self.timeout = timeout
        #: whether the last 200 answer was an arXiv Atom feed (an empty feed is one)
        self.fed = True

    def request(self, *args: Any, **kwargs: Any) -> requests.Response:
        kwargs.setdefault("timeout", self.timeout)
        resp = super().request(*args, **kwargs)
        if resp.status_code == 200:
            head = resp.content[:8192]
            self.fed = bool(_FEED.search(head) and _COUNTS.search(head))
        return resp


def answered_a_feed(client: arxiv.Client) -> bool:
    """Whether the client's last 200 answer was an arXiv feed: "no results" means no paper
    only then; an HTML page answering 200 says nothing about any ID."""
    session = getattr(client, SESSION_ATTRIBUTE, None)
    return not isinstance(session, TimeoutSession) or session.fed


def with_timeout(client: arxiv.Client, timeout: float) -> arxiv.Client:
    """`client`, its requests sent through a session with `timeout`."""
    has_session = isinstance(getattr(client, SESSION_ATTRIBUTE, None), requests.Session)
    if not has_session:
        raise RuntimeError(
            f"arxiv {getattr(arxiv, '__version__', '?')}: arxiv.Client has no requests.Session "
            f"in {SESSION_ATTRIBUTE!r} any more, so anchors cannot give arXiv requests a "
            "timeout; install an arxiv release below 5 (pyproject.toml) or update "
            "anchors/check/resolve/arxiv_client.py"
        )
    setattr(client, SESSION_ATTRIBUTE, TimeoutSession(timeout))
    return client


def make_client(
    api_url: str,
    *,
    page_size: int,
    delay: float,
    timeout: float,
    client: arxiv.Client | None = None,
) -> arxiv.Client:
    """A client for `api_url` that spaces its requests by `delay` and never retries itself
    (`client`, when given, is set up the same way: tests replay cassettes through one)."""
    if client is None:
        client = arxiv.Client(page_size=page_size, delay_seconds=delay, num_retries=0)
    client.num_retries = 0
    client.query_url_format = api_url.rstrip("?") + "?{}"
    return with_timeout(client, timeout)
