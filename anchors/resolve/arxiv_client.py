"""The `arxiv` package's Client, set up for anchors: the one place that knows its internals.

What the client supports is used as it is documented: `page_size`, `delay_seconds` (its own
spacing between requests, arXiv's 3 s), `num_retries` (set to 0: anchors' retry policy decides
what is tried again, anchors.net.retry), and `query_url_format` (documented as the endpoint;
set on the instance, it points this client only at a mirror or a test server).

What it does not support is a request timeout: it sends through a plain `requests.Session`,
which waits forever by default, so a stalled API would hang the check. The session is the
private attribute `Client._session` (arxiv 2.1 to 4.x). `with_timeout` replaces it, and says so
loudly if it is gone rather than run without a timeout; pyproject pins `arxiv<5`, and
tests/resolve/test_arxiv_client.py fails if the attribute disappears or stops being used.

`TimeoutSession` bounds each request as every service answer is bounded (anchors.net.bounded):
a total deadline, headers and body included (requests' own timeout is per read, which a byte
every few seconds never trips), at most `MAX_ANSWER_BYTES` decoded, redirects only on the API's
own host, and an end as soon as the run is stopped (SIGTERM, Ctrl-C), whatever the server does.
"""

from __future__ import annotations

import contextlib
import logging
import re
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any
from urllib.parse import urljoin, urlsplit

import arxiv
import httpx
import requests
import urllib3

from ..defaults import MAX_ANSWER_BYTES
from ..net.bounded import AnswerTooLarge, read_bounded
from .arxiv_pace import ArxivPace

__all__ = [
    "ArxivAnswerTooLarge",
    "NotAFeed",
    "RedirectedOffHost",
    "TimeoutSession",
    "UnreadableFeed",
    "answered_a_feed",
    "make_client",
    "with_timeout",
]

# The package logs what it skips ("Skipping entry ... missing <published>", "Malformed feed")
# as warnings; with no handler configured, Python's last-resort handler printed them as stray
# lines among anchors' own output. Its verdicts are anchors' to report: a handler that drops
# them (an application that configures logging still receives them through propagation).
logging.getLogger("arxiv").addHandler(logging.NullHandler())

#: an Atom feed with OpenSearch counts, as every answer of the arXiv API is (its own errors too):
#: a `<feed` tag, then the Atom namespace among its attributes. Two patterns, not one: in one,
#: each `<feed` with no `>` after it was scanned to the end again (quadratic in the head)
_FEED_TAG = re.compile(rb"<feed\b[^>]*")
_ATOM = re.compile(rb"\bxmlns=[\"']http://www\.w3\.org/2005/Atom[\"']")
_COUNTS = re.compile(rb"<opensearch:totalResults\b")


class NotAFeed(Exception):
    """The API answered 200 with something that is not an arXiv Atom feed (a maintenance or
    proxy page, or `--arxiv-api` pointing elsewhere): no verdict can be read from it."""


class UnreadableFeed(Exception):
    """A feed the `arxiv` package could not read into results: it raises ValueError (or
    OverflowError) for an entry's date no calendar has, where a verdict was expected."""


#: the attribute of `arxiv.Client` that holds its requests.Session (private; see above)
SESSION_ATTRIBUTE = "_session"


class ArxivAnswerTooLarge(requests.exceptions.ContentDecodingError):
    """An arXiv answer over the cap, counted in decoded bytes (`bounded.AnswerTooLarge`)."""


class RedirectedOffHost(requests.exceptions.InvalidURL):
    """The API redirected to another host; not followed (only the API's host is the user's)."""


class TimeoutSession(requests.Session):
    """A session whose every request ends within `timeout` seconds in all, reads at most
    `max_bytes` decoded bytes, follows redirects only on the first request's host, and gives
    up at once when `stop` is set (the run was cancelled); with `pace`, each request waits for
    its turn among all of the run's arXiv requests (`arxiv_pace`)."""

    def __init__(
        self,
        timeout: float,
        *,
        max_bytes: int = MAX_ANSWER_BYTES,
        stop: threading.Event | None = None,
        pace: ArxivPace | None = None,
    ) -> None:
        super().__init__()
        self.timeout = timeout
        self.max_bytes = max_bytes
        self.stop = stop or threading.Event()
        self.pace = pace
        self.max_redirects = 5
        #: the API's host: the only one a redirect may lead to
        self.host: str | None = None
        #: whether the last 200 answer was an arXiv Atom feed (an empty feed is one)
        self.fed = True

    # Any: requests' own `Session.request` arguments, as the `arxiv` package passes them, handed
    # on untouched (the boundary with a library whose signature this override must accept)
    def request(self, method: Any, url: Any, *args: Any, **kwargs: Any) -> requests.Response:
        if self.host is None:
            self.host = urlsplit(str(url)).hostname
        kwargs["stream"] = True
        kwargs.setdefault("timeout", self.timeout)
        with self.pace.turn() if self.pace is not None else contextlib.nullcontext():
            resp = _within(
                self.timeout,
                self.stop,
                lambda gone: self._fetch(gone, method, url, *args, **kwargs),
            )
        if resp.status_code == 200:
            head = resp.content[:8192]
            self.fed = _is_feed(head) and bool(_COUNTS.search(head))
        return resp

    def _fetch(  # Any: requests' arguments, as in `request`
        self, gone: threading.Event, method: Any, url: Any, *args: Any, **kwargs: Any
    ) -> requests.Response:
        resp = super().request(method, url, *args, **kwargs)
        self._read(resp, gone)
        return resp

    def _read(self, resp: requests.Response, gone: threading.Event | None = None) -> None:
        """Read the body boundedly, decoded, into the response (requests' own `_content`)."""
        chunks = _until(gone, resp.raw.stream(1 << 16, decode_content=False))
        try:
            body = read_bounded(chunks, resp.headers.get("content-encoding"), self.max_bytes)
        except AnswerTooLarge as exc:
            resp.close()
            raise ArxivAnswerTooLarge(str(exc)) from None
        except httpx.DecodingError as exc:  # a broken gzip stream
            resp.close()
            raise requests.exceptions.ContentDecodingError(str(exc)) from None
        except (urllib3.exceptions.HTTPError, OSError) as exc:  # what requests would wrap
            resp.close()
            raise requests.exceptions.ConnectionError(str(exc)) from None
        resp._content = body  # NOTE: requests keeps a read body here (Response.content)
        resp._content_consumed = True
        resp.headers.pop("content-encoding", None)

    def get_redirect_target(self, resp: requests.Response) -> str | None:
        """Redirects stay on the API's host (the user's choice); any other is refused."""
        target = super().get_redirect_target(resp)
        if target is None:
            return None
        host = urlsplit(urljoin(resp.url, target)).hostname
        if host != self.host:
            resp.close()
            raise RedirectedOffHost(f"the arXiv API redirected to {host}; not followed")
        self._read(resp)  # requests reads a redirect's body to reuse the connection
        return target


def _is_feed(head: bytes) -> bool:
    """Whether `head` opens an Atom feed; each `<feed` tag is read once (matches do not overlap)."""
    return any(_ATOM.search(tag.group()) for tag in _FEED_TAG.finditer(head))


def _until(gone: threading.Event | None, chunks: Iterator[bytes]) -> Iterator[bytes]:
    for chunk in chunks:
        if gone is not None and gone.is_set():
            raise requests.exceptions.ConnectionError("abandoned")
        yield chunk


def _within(
    deadline: float,
    stop: threading.Event,
    fetch: Callable[[threading.Event], requests.Response],
) -> requests.Response:
    """`fetch()` run in a daemon thread and waited for at most `deadline` seconds, or until
    `stop` is set: a request that cannot be interrupted (a read blocked on a trickle) is left
    behind, told through the event it is given to stop reading, and never delays the exit."""
    done, gone = threading.Event(), threading.Event()
    got: list[requests.Response | BaseException] = []

    def run() -> None:
        try:
            got.append(fetch(gone))
        except BaseException as exc:  # noqa: BLE001 (re-raised in the waiting thread)
            got.append(exc)
        finally:
            done.set()

    threading.Thread(target=run, name="anchors-arxiv-request", daemon=True).start()
    end = time.monotonic() + deadline
    while not done.wait(0.1):
        if stop.is_set() or time.monotonic() >= end:
            gone.set()
            if stop.is_set():
                raise requests.exceptions.ConnectionError("stopped: the run was cancelled")
            raise requests.exceptions.Timeout(f"no complete answer within {deadline:g} s")
    if isinstance(got[0], BaseException):
        raise got[0]
    return got[0]


def answered_a_feed(client: arxiv.Client) -> bool:
    """Whether the client's last 200 answer was an arXiv feed: "no results" means no paper
    only then; an HTML page answering 200 says nothing about any ID."""
    session = getattr(client, SESSION_ATTRIBUTE, None)
    return not isinstance(session, TimeoutSession) or session.fed


def with_timeout(
    client: arxiv.Client,
    timeout: float,
    stop: threading.Event | None = None,
    pace: ArxivPace | None = None,
) -> arxiv.Client:
    """`client`, its requests sent through a session with `timeout` (and `stop`, `pace`)."""
    has_session = isinstance(getattr(client, SESSION_ATTRIBUTE, None), requests.Session)
    if not has_session:
        raise RuntimeError(
            f"arxiv {getattr(arxiv, '__version__', '?')}: arxiv.Client has no requests.Session "
            f"in {SESSION_ATTRIBUTE!r} any more, so anchors cannot give arXiv requests a "
            "timeout; install an arxiv release below 5 (pyproject.toml) or update "
            "anchors/resolve/arxiv_client.py"
        )
    setattr(client, SESSION_ATTRIBUTE, TimeoutSession(timeout, stop=stop, pace=pace))
    return client


def make_client(
    api_url: str,
    *,
    page_size: int,
    delay: float,
    timeout: float,
    client: arxiv.Client | None = None,
    stop: threading.Event | None = None,
    pace: ArxivPace | None = None,
) -> arxiv.Client:
    """A client for `api_url` that spaces its requests by `delay` and never retries itself
    (`client`, when given, is set up the same way: tests replay cassettes through one); each
    request ends within `timeout` seconds, or when `stop` is set, and takes its turn in
    `pace` when given (shared with the HTML full text's requests)."""
    if client is None:
        client = arxiv.Client(page_size=page_size, delay_seconds=delay, num_retries=0)
    client.num_retries = 0
    client.query_url_format = api_url.rstrip("?") + "?{}"
    return with_timeout(client, timeout, stop, pace)
