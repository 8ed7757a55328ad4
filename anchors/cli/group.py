"""The click classes behind `anchors`: one error style and plain, clean help.

Every usage error, whether typer's, click's or ours, is one line `anchors: error: …` and
exit 2, never a box; help is click's plain layout (no `<bool>` metavars, no boxes).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

import typer

try:  # NOTE: recent typer vendors click as typer._click; its usage errors are those classes
    from typer._click.exceptions import (  # type: ignore[import-not-found,no-redef,unused-ignore]
        ClickException,
        NoArgsIsHelpError,
    )
except ImportError:  # typer releases that use the click package
    from click.exceptions import (  # type: ignore[import-not-found,no-redef,assignment,unused-ignore]
        ClickException,
        NoArgsIsHelpError,
    )
from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption

from ..errors import AnchorsError, StorageError
from ..findings import ExitCode
from ..render.escape import plain
from .crash import internal_error

__all__ = ["Command", "Group", "error_line"]

PROG = "anchors"


def error_line(message: str) -> str:
    # typer words a bad choice "Value error, 'x' is not one of …"; the first two words say nothing
    return f"{PROG}: error: {plain(message.replace('Value error, ', ''))}\n"


class Group(TyperGroup):
    # Any: click's own signature for `main`, which this overrides
    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        windows_expand_args: bool = True,
        **extra: Any,
    ) -> Any:
        try:
            rv = super().main(
                args,
                PROG,
                complete_var,
                standalone_mode=False,  # also `python -m`
                windows_expand_args=windows_expand_args,
                **extra,
            )
            code = rv if isinstance(rv, int) else ExitCode.OK
        except NoArgsIsHelpError as exc:
            sys.stdout.write(exc.ctx.get_help() + "\n" if exc.ctx else "")
            code = ExitCode.OK
        except ClickException as exc:
            hint = ""
            ctx = getattr(exc, "ctx", None)
            if ctx is not None:
                hint = f" (see `{ctx.command_path} --help`)"
            sys.stderr.write(error_line(exc.format_message() + hint))
            code = ExitCode.USAGE
        except typer.Abort:
            sys.stderr.write(f"{PROG}: interrupted\n")
            code = ExitCode.INTERRUPTED
        except Exception as exc:  # noqa: BLE001 (a bug: exit 70 and where to report it, never 1)
            code = internal_error(exc, sys.argv[1:] if args is None else args)
        if not standalone_mode:
            return code
        sys.exit(code)


class Command(TyperCommand):
    # Any below: click's Context and HelpFormatter, which typer vendors under another module
    # name in some of the versions it supports (see the import above)
    def invoke(self, ctx: Any) -> Any:
        """The one place an error becomes `anchors: error: <what, where>` and exit 2.

        Library code raises the AnchorsError family (errors.py) and turns OSError into
        StorageError where it knows what it was doing; a stray OSError still gets the same line.
        """
        try:
            return super().invoke(ctx)
        except AnchorsError as exc:
            sys.stderr.write(error_line(str(exc)))
        except OSError as exc:
            sys.stderr.write(error_line(str(StorageError.from_os(exc, "continue"))))
        raise typer.Exit(ExitCode.USAGE)

    def format_options(self, ctx: Any, formatter: Any) -> None:
        """Arguments by name and help only; options as click writes them."""
        args = [
            (param.metavar or (param.name or "").upper(), getattr(param, "help", None) or "")
            for param in self.params
            if isinstance(param, TyperArgument)
        ]
        opts = [
            record[:2]
            for param in self.params
            if isinstance(param, TyperOption)
            if (record := param.get_help_record(ctx))
        ]
        help_option = self.get_help_option(ctx)
        if help_option is not None and (record := help_option.get_help_record(ctx)):
            opts.append(record[:2])
        if args:
            with formatter.section("Arguments"):
                formatter.write_dl(args)
        with formatter.section("Options"):
            formatter.write_dl(opts)

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        """`[OPTIONS] BRIEFING...` or `[OPTIONS] [REGISTRY]`, without typer's braces."""
        pieces = [self.options_metavar or "[OPTIONS]"]
        for param in self.params:
            if isinstance(param, TyperArgument):
                name = param.metavar or (param.name or "").upper()
                name = name if param.required else f"[{name}]"
                pieces.append(name + ("..." if param.nargs != 1 else ""))
        return pieces
