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

from typing import Any

import arxiv
import requests

__all__ = ["TimeoutSession", "make_client", "with_timeout"]

#: the attribute of `arxiv.Client` that holds its requests.Session (private; see above)
SESSION_ATTRIBUTE = "_session"


class TimeoutSession(requests.Session):
    """requests sets no timeout by default; a stalled API must not hang the check."""

    def __init__(self, timeout: float) -> None:
        super().__init__()
        self.timeout = timeout

    def request(self, *args: Any, **kwargs: Any) -> requests.Response:
        kwargs.setdefault("timeout", self.timeout)
        return super().request(*args, **kwargs)


def with_timeout(client: arxiv.Client, timeout: float) -> arxiv.Client:
    """`client`, its requests sent through a session with `timeout`."""
    has_session = isinstance(getattr(client, SESSION_ATTRIBUTE, None), requests.Session)
    if not has_session:
        raise RuntimeError(
            f"arxiv {getattr(arxiv, '__version__', '?')}: arxiv.Client has no requests.Session "
            f"in {SESSION_ATTRIBUTE!r} any more, so anchors cannot give arXiv requests a "
            "timeout; install an arxiv release below 5 (pyproject.toml) or update "
            "anchors/check/resolve/arxiv_client.py")
    setattr(client, SESSION_ATTRIBUTE, TimeoutSession(timeout))
    return client


def make_client(api_url: str, *, page_size: int, delay: float, timeout: float,
                client: arxiv.Client | None = None) -> arxiv.Client:
    """A client for `api_url` that spaces its requests by `delay` and never retries itself
    (`client`, when given, is set up the same way: tests replay cassettes through one)."""
    if client is None:
        client = arxiv.Client(page_size=page_size, delay_seconds=delay, num_retries=0)
    client.num_retries = 0
    client.query_url_format = api_url.rstrip("?") + "?{}"
    return with_timeout(client, timeout)
