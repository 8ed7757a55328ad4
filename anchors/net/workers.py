"""The threads a run hands blocking calls to (name lookups, the arXiv client), none of which
can hold a stopped run.

asyncio.run waits for its default executor's threads before it returns, and the interpreter
joins a ThreadPoolExecutor's threads at exit: a name lookup stuck on a silent DNS server kept a
run stopped by SIGTERM alive for as long as the lookup took (30 s measured). Here each call runs
in a daemon thread of its own, and shutting down waits for none, so a stop ends the process at
once; a call left running has nothing to write (its answer went to the stopped loop).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import ParamSpec, TypeVar

__all__ = ["DaemonExecutor"]

P = ParamSpec("P")
T = TypeVar("T")


class DaemonExecutor(ThreadPoolExecutor):
    """An executor for `loop.set_default_executor` (which takes only ThreadPoolExecutors):
    each call in a new daemon thread, and `shutdown` returns at once. The run's own limits
    (concurrency, one arXiv client) bound how many calls are in flight."""

    def submit(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> Future[T]:
        future: Future[T] = Future()

        def work() -> None:
            if not future.set_running_or_notify_cancel():
                return
            try:
                result = fn(*args, **kwargs)
            except BaseException as exc:  # noqa: BLE001 (the caller's to see, through the future)
                future.set_exception(exc)
            else:
                future.set_result(result)

        threading.Thread(target=work, name="anchors-worker", daemon=True).start()
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        return None
