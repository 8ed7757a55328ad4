"""`check`'s options that reach the network: how much at once, which endpoints, the archive.

Each is a setting too (also read from the environment and config files, as `--help` shows);
`options` re-exports them with the options every command shares.
"""

from __future__ import annotations

from typing import Annotated

import typer

from ..config import ENV
from ..defaults import (
    DEFAULT_CONCURRENCY,
    DEFAULT_MAX_UNREACHABLE,
    DEFAULT_PER_HOST,
    DEFAULT_RETRY_AFTER_CAP,
    DEFAULT_TIMEOUT,
)

__all__ = [
    "Accept",
    "AllowPrivate",
    "Archive",
    "ArchiveSave",
    "ArxivApi",
    "ArxivDelay",
    "ArxivHtml",
    "ArxivSearches",
    "Concurrency",
    "CrossrefApi",
    "DoiApi",
    "Exclude",
    "GithubApi",
    "MaxUnreachable",
    "PerHost",
    "RetryAfterCap",
    "SaveApi",
    "Timeout",
    "WaybackApi",
]


def env(name: str) -> dict[str, object]:
    """The option's environment variable, the config table's, shown in `--help`."""
    return {"envvar": ENV[name], "show_envvar": True}


Concurrency = Annotated[
    int | None,
    typer.Option(
        metavar="N",
        **env("concurrency"),
        help=f"Requests in flight at most (default {DEFAULT_CONCURRENCY}).",
    ),
]
PerHost = Annotated[
    int | None,
    typer.Option(
        metavar="N",
        **env("per_host"),
        help=f"Requests in flight per host at most (default {DEFAULT_PER_HOST}).",
    ),
]
Timeout = Annotated[
    float | None,
    typer.Option(
        metavar="SECONDS",
        **env("timeout"),
        help=f"For one request, body included (default {DEFAULT_TIMEOUT:g}).",
    ),
]
RetryAfterCap = Annotated[
    float | None,
    typer.Option(
        metavar="SECONDS",
        **env("retry_after_cap"),
        help=f"Longest Retry-After honoured (default {DEFAULT_RETRY_AFTER_CAP:g}).",
    ),
]
MaxUnreachable = Annotated[
    str | None,
    typer.Option(
        metavar="SHARE",
        **env("max_unreachable"),
        help="Exit 2 when more than this share of the anchors checked online got no answer at "
        f"all, from 3 hosts or more (0 to 1, or a percentage; default {DEFAULT_MAX_UNREACHABLE:g}"
        "; not from a config file).",
    ),
]
AllowPrivate = Annotated[
    bool | None,
    typer.Option(
        "--allow-private", **env("allow_private"), help="Check loopback and private addresses too."
    ),
]
ArxivApi = Annotated[
    str | None, typer.Option(metavar="URL", **env("arxiv_api"), help="arXiv API endpoint.")
]
ArxivHtml = Annotated[
    str | None,
    typer.Option(
        metavar="URL",
        **env("arxiv_html"),
        help="Root of arXiv's HTML full texts, read for a figure not in the abstract.",
    ),
]
ArxivDelay = Annotated[
    float | None,
    typer.Option(
        metavar="SECONDS",
        **env("arxiv_delay"),
        help="Between arXiv API requests (arXiv asks for 3; lower only for a mirror).",
    ),
]
GithubApi = Annotated[
    str | None, typer.Option(metavar="URL", **env("github_api"), help="GitHub REST API root.")
]
DoiApi = Annotated[
    str | None, typer.Option(metavar="URL", **env("doi_api"), help="DOI resolver root.")
]
Archive = Annotated[
    bool | None,
    typer.Option(
        "--archive",
        **env("archive"),
        help="Also look up Wayback snapshots for URL anchors (see `fix`).",
    ),
]
WaybackApi = Annotated[
    str | None,
    typer.Option(metavar="URL", **env("wayback_api"), help="Wayback availability API endpoint."),
]
ArchiveSave = Annotated[
    bool | None,
    typer.Option(
        "--archive-save",
        **env("archive_save"),
        help="Implies --archive; also ask Save Page Now to capture live pages it has none of "
        "(your archive.org keys in ANCHORS_IA_ACCESS_KEY and ANCHORS_IA_SECRET_KEY).",
    ),
]
SaveApi = Annotated[
    str | None,
    typer.Option(
        metavar="URL", **env("save_api"), help="Save Page Now endpoint (https, or loopback)."
    ),
]
CrossrefApi = Annotated[
    str | None,
    typer.Option(
        metavar="URL",
        **env("crossref_api"),
        help="Crossref REST API root, for retractions and corrections.",
    ),
]
ArxivSearches = Annotated[
    int | None,
    typer.Option(
        metavar="N", help='Title searches ("did you mean") per run at most; 0 turns them off.'
    ),
]
Exclude = Annotated[
    list[str] | None,
    typer.Option(
        "--exclude",
        metavar="REGEX",
        show_default=False,
        help="Do not check URLs this regular expression matches (searched anywhere in the URL; "
        "RE2 syntax, linear in the URL: no look-around or back-references); repeatable, added "
        "to the config's `exclude`.",
    ),
]
Accept = Annotated[
    list[str] | None,
    typer.Option(
        "--accept",
        metavar="CODES",
        show_default=False,
        help="HTTP statuses that count as fine for every URL (comma-separated, e.g. 403,429); "
        "added to the config's `accept`.",
    ),
]
