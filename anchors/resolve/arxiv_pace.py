"""arXiv's pace, shared by every arXiv request of a run: the API's and the HTML pages'.

arXiv's terms of use ask for one request at a time and no more than one every three seconds,
across all of a client's requests; the HTML full text (`/html/<id>vN`) has no rule of its own,
so it is held to the same one. Each request takes its `turn`: it waits until `interval` has
passed since the previous one ended (whichever client sent it), and holds the turn until its
own answer is read. The `arxiv` package's own spacing still applies to its requests; this only
ever adds the wait an HTML page in between calls for.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterator

from ..defaults import ARXIV_MIN_INTERVAL

__all__ = ["ArxivPace"]


class ArxivPace:
    """One arXiv request at a time, `interval` seconds apart; `clock` and `sleep` are the
    thread's own (tests pass virtual ones)."""

    def __init__(
        self,
        interval: float = ARXIV_MIN_INTERVAL,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.interval = interval
        self.clock = clock
        self.sleep = sleep
        self._lock = threading.Lock()
        self._last: float | None = None
        #: requests that took a turn, and the waits asked for before them
        self.turns = 0
        self.waits: list[float] = []

    @contextlib.contextmanager
    def turn(self) -> Iterator[None]:
        """Wait for this request's turn, and hold it until the request is done."""
        with self._lock:
            if self._last is not None:
                wait = self._last + self.interval - self.clock()
                if wait > 0:
                    self.waits.append(wait)
                    self.sleep(wait)
            self.turns += 1
            try:
                yield
            finally:
                self._last = self.clock()
