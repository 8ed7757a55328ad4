"""Running a command's async work: SIGTERM and SIGHUP cancel it as Ctrl-C does, so `finally`
blocks run and what was checked is saved; each stop maps to its exit code (130/143/129).
"""

from __future__ import annotations

import signal
import sys
from collections.abc import Callable, Coroutine
from typing import Any, NoReturn, TypeVar

import typer

from ..findings import ExitCode
from . import streams
from .crash import internal_error
from .group import error_line

__all__ = ["STOPS", "Terminated", "on_stop", "run", "serve"]

T = TypeVar("T")

#: Signals that end a run like Ctrl-C does, keeping what was learnt: name and exit code.
STOPS = {
    signal.SIGTERM: ("terminated", ExitCode.TERMINATED),
    signal.SIGHUP: ("hung up", ExitCode.HUNG_UP),
}


def on_stop(signum: int, frame: object) -> None:
    raise Terminated(signum)


class Terminated(BaseException):
    def __init__(self, signum: int = signal.SIGTERM) -> None:
        super().__init__(signum)
        self.word, self.code = STOPS.get(
            signal.Signals(signum), ("terminated", ExitCode.TERMINATED)
        )


def serve(app: Callable[[], object]) -> NoReturn:
    """The process around the CLI: streams that fail like files, stop signals as exit codes."""
    streams.guard()
    for sig in STOPS:
        signal.signal(sig, on_stop)
    code: int | str | None = ExitCode.OK
    try:
        app()
    except SystemExit as exc:
        code = exc.code
    except KeyboardInterrupt:
        sys.stderr.write("anchors: interrupted\n")
        code = ExitCode.INTERRUPTED
    except Terminated as exc:
        sys.stderr.write(f"anchors: {exc.word}\n")
        code = exc.code
    except Exception as exc:  # noqa: BLE001 (what escaped the command group itself)
        code = internal_error(exc, sys.argv[1:])
    # a full disk behind stdout, or a reader that went away, shows here (not in a shutdown
    # traceback), and is exit 2 whatever the findings: the output did not get through
    problem, unusable = streams.settle()
    if problem is not None:
        sys.stderr.write(error_line(str(problem)))
    if unusable and code in (None, ExitCode.OK, ExitCode.FINDINGS):
        code = ExitCode.USAGE
    sys.exit(code)


# Any: asyncio.run's own signature (what the coroutine yields and is sent is its business)
def run(coro: Coroutine[Any, Any, T]) -> T:
    """asyncio.run, with SIGTERM cancelling the work like SIGINT does (finally blocks run);
    the blocking calls it hands to threads never delay the end (`net.workers`)."""
    import asyncio  # start-up: only an online run pays for the event loop

    from ..net.workers import DaemonExecutor  # only an online run pays for it

    async def main() -> T:
        task = asyncio.current_task()
        loop = asyncio.get_running_loop()
        loop.set_default_executor(DaemonExecutor())
        terminated: list[int] = []

        def on_term(signum: int) -> None:
            terminated.append(signum)
            if task is not None:
                task.cancel()

        for sig in STOPS:
            loop.add_signal_handler(sig, on_term, sig)
        try:
            return await coro
        except asyncio.CancelledError:
            if terminated:
                raise Terminated(terminated[0]) from None
            raise
        finally:
            for sig in STOPS:
                loop.remove_signal_handler(sig)

    try:
        return asyncio.run(main())
    except KeyboardInterrupt:  # --quiet silences summaries, never this line
        sys.stderr.write("anchors: interrupted; what was checked so far is saved\n")
        raise typer.Exit(ExitCode.INTERRUPTED) from None
    except Terminated as exc:
        sys.stderr.write(f"anchors: {exc.word}; what was checked so far is saved\n")
        raise typer.Exit(exc.code) from None
