"""The settings each command takes as flags, and the one decorator that adds them to it.

A setting flag (`--timeout`, `--history`, …) is also read from the environment and config
files, so a command hands it on untouched, as `options.Flags`; declared once in a table here
(sqlite-utils' shared option decorators, for typer), it reaches the command as `**settings`.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from typing import TypeVar

from . import network as net
from . import options as opt

__all__ = [
    "ADD_SETTINGS",
    "CHECK_SETTINGS",
    "EXPORT_SETTINGS",
    "FIX_SETTINGS",
    "REPORT_SETTINGS",
    "with_settings",
]

Command = TypeVar("Command", bound=Callable[..., None])

#: each setting flag's declaration (its typer `Annotated` alias), by setting name
CHECK_SETTINGS: Mapping[str, object] = {
    "concurrency": net.Concurrency,
    "per_host": net.PerHost,
    "timeout": net.Timeout,
    "retry_after_cap": net.RetryAfterCap,
    "max_unreachable": net.MaxUnreachable,
    "allow_private": net.AllowPrivate,
    "arxiv_api": net.ArxivApi,
    "arxiv_html": net.ArxivHtml,
    "arxiv_delay": net.ArxivDelay,
    "github_api": net.GithubApi,
    "doi_api": net.DoiApi,
    "archive": net.Archive,
    "wayback_api": net.WaybackApi,
    "archive_save": net.ArchiveSave,
    "save_api": net.SaveApi,
    "crossref_api": net.CrossrefApi,
    "arxiv_searches": net.ArxivSearches,
    "exclude": net.Exclude,
    "accept": net.Accept,
    "cache_dir": opt.CacheDir,
    "history": opt.HistoryOpt,
    "document": opt.DocumentOpt,
    "pending_days": opt.PendingDays,
}
ADD_SETTINGS: Mapping[str, object] = {"document": opt.AddDocumentOpt}
REPORT_SETTINGS: Mapping[str, object] = {
    "history": opt.HistoryOpt,
    "document": opt.DocumentOpt,
    "pending_days": opt.PendingDays,
}
EXPORT_SETTINGS: Mapping[str, object] = {"cache_dir": opt.CacheDir}
FIX_SETTINGS: Mapping[str, object] = {
    "history": opt.HistoryOpt,
    "cache_dir": opt.CacheDir,
    "document": opt.DocumentOpt,
}


def with_settings(settings: Mapping[str, object], after: str) -> Callable[[Command], Command]:
    """Add the `settings` flags to a command taking `**settings`, in `--help` after the
    parameter `after`; each is None (or False) when not given, as `load_settings` expects."""

    def decorate(command: Command) -> Command:
        own = inspect.signature(command, eval_str=True).parameters.values()
        named = [
            param.replace(kind=param.KEYWORD_ONLY)
            for param in own
            if param.kind is not param.VAR_KEYWORD
        ]
        where = [param.name for param in named].index(after) + 1
        added = [
            inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=None, annotation=flag)
            for name, flag in settings.items()
        ]
        # typer reads a command's flags from its signature; the added ones arrive in **settings
        command.__signature__ = inspect.Signature([*named[:where], *added, *named[where:]])  # type: ignore[attr-defined]
        return command

    return decorate
