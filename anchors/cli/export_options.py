"""The options only `export` and `fix` take: which anchors, in which bibliography style, and
which fixes (the options every command shares are in `options`)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from .formats import BibStyle, ExportFormat

__all__ = [
    "BibStyleOpt",
    "CitedWithin",
    "ExportFormatOpt",
    "ExportOutput",
    "FixDryRun",
    "FixKinds",
    "Refresh",
    "Section",
    "StatusOpt",
]

ExportFormatOpt = Annotated[ExportFormat, typer.Option("--format", "-f")]
Section = Annotated[
    str | None,
    typer.Option(
        metavar="SECTION",
        help='Only this section, by number or name: "§1.3" or "1.3" (and its subsections), "§1" '
        '(the chapter), "KV Cache", "§1.3 KV"; none matching is exit 2, listing the sections. '
        "Default: all, grouped.",
    ),
]
CitedWithin = Annotated[
    str | None,
    typer.Option(
        metavar="DURATION",
        help="Only anchors cited in a briefing within this long before today: 7d, 2w.",
    ),
]
StatusOpt = Annotated[
    str | None, typer.Option(metavar="STATUS", help="Only new or continued anchors.")
]
BibStyleOpt = Annotated[
    BibStyle,
    typer.Option(
        "--bib-style",
        help=(
            "BibTeX for classic styles (plain, unsrt, alpha, natbib's; links in howpublished "
            "and note) or for biblatex/biber (url, urldate, doi, eprint)."
        ),
    ),
]
ExportOutput = Annotated[
    Path | None, typer.Option("--output", "-o", metavar="FILE", help="Write here, not stdout.")
]
Refresh = Annotated[
    bool,
    typer.Option(
        "--refresh",
        help="First look up arXiv/GitHub/DOI metadata missing from the cache (network).",
    ),
]
FixDryRun = Annotated[bool, typer.Option("--dry-run", help="Print the diff, write nothing.")]
FixKinds = Annotated[
    str | None,
    typer.Option(
        metavar="KINDS",
        help="Only these fixes: redirect,renamed-repo,moved-issue,archive,section.",
    ),
]
