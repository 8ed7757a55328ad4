"""What an unexpected exception becomes: one line and exit 70, never exit 1.

Exit 1 means findings (for `report`: dead links), so a bug must not look like one to a CI
script. The line says what broke and where to report it; the traceback is shown only when
asked for (`anchors --debug …` or `ANCHORS_DEBUG=1`), as it can be long and quote file data.
"""

from __future__ import annotations

import os
import sys
import traceback
from collections.abc import Sequence
from pathlib import Path

from ..defaults import project_url
from ..findings import ExitCode
from ..render.escape import plain

__all__ = ["DEBUG_ENV", "debugging", "internal_error"]

DEBUG_ENV = "ANCHORS_DEBUG"
#: an exception's message is quoted up to this many characters (it may hold file data)
_MESSAGE_CHARS = 200
_PACKAGE = Path(__file__).resolve().parent.parent


def debugging(args: Sequence[str]) -> bool:
    """Whether the traceback was asked for: `--debug` before the command, or ANCHORS_DEBUG."""
    if os.environ.get(DEBUG_ENV, "").strip().lower() not in ("", "0", "false", "no"):
        return True
    for arg in args:
        if arg == "--debug":
            return True
        if not arg.startswith("-"):  # the command: its own options follow
            return False
    return False


def internal_error(exc: BaseException, args: Sequence[str]) -> ExitCode:
    """Say `anchors: internal error: <what>; please report it at <issues>` (and the traceback
    when debugging) on stderr; the exit code of an internal error."""
    what = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    if len(what) > _MESSAGE_CHARS:
        what = what[: _MESSAGE_CHARS - 1] + "…"
    where = _where(exc)
    issues = project_url("issues", "bug tracker") or "the anchors project's issue tracker"
    at = f" (at {where})" if where else ""
    line = f"internal error: {what}{at}; please report it at {issues}"
    debug = debugging(args)
    hint = "" if debug else f" (`anchors --debug …` or {DEBUG_ENV}=1 shows the traceback)"
    sys.stderr.write(f"anchors: {plain(line)}{hint}\n")
    if debug:
        sys.stderr.write("".join(traceback.format_exception(exc)))
    return ExitCode.INTERNAL


def _where(exc: BaseException) -> str | None:
    """The innermost place in anchors' own code the exception passed, as `anchors/x.py:12`."""
    found = None
    for frame in traceback.extract_tb(exc.__traceback__):
        path = Path(frame.filename)
        if path.is_relative_to(_PACKAGE):
            found = f"{path.relative_to(_PACKAGE.parent).as_posix()}:{frame.lineno}"
    return found
