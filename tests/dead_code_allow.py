"""What vulture cannot see used in anchors/ (tests/test_dead_code.py passes this file with it).

Each name below is read or called by something outside the package's own code: a framework, the
standard library, a third-party object, or the tests. Dead code is removed, not listed here.
"""

from __future__ import annotations

import sqlite3

import arxiv
import re2
import requests
from tenacity import Retrying

import anchors
from anchors.check.arrivals import Progress
from anchors.cli.app import _root
from anchors.cli.formats import AddFormat, BibStyle, ExportFormat, ReportFormat
from anchors.cli.group import Group
from anchors.details import (
    AlsoRegistered,
    CitedElsewhere,
    Conflict,
    DuplicateEntry,
    LatestVersion,
    NotLookedUp,
    SectionStanding,
    TitleMismatch,
)
from anchors.export.item import ExportFormat as ExportItemFormat
from anchors.history.read import Stats
from anchors.net.transport import NoCookies
from anchors.net.workers import DaemonExecutor
from anchors.render import OutputFormat
from anchors.render.outputs import Pieces, Renderer
from anchors.resolve.arxiv_html import ArxivHtml
from anchors.resolve.arxiv_pace import ArxivPace
from anchors.resolve.github_api import GithubApi

__all__ = ["used_outside_anchors"]


class Signed:
    """A command the setting flags' decorator has signed."""

    __signature__: object


def used_outside_anchors(
    html: ArxivHtml,
    api: GithubApi,
    pace: ArxivPace,
    stats: Stats,
    db: sqlite3.Connection,
    options: re2.Options,
    answer: requests.Response,
    client: arxiv.Client,
    signed: Signed,
) -> tuple[object, ...]:
    # called by name by their frameworks: PEP 562's module __getattr__, the Protocols' calls,
    # typer's root callback, click's help hooks, httpx's cookie jar, the executor's shutdown
    called = (
        anchors.__getattr__,
        Progress.__call__,
        Renderer.__call__,
        Pieces.__call__,
        _root,
        Group.format_options,
        Group.collect_usage_pieces,
        NoCookies.extract_cookies,
        NoCookies.add_cookie_header,
        DaemonExecutor.shutdown,
    )

    # the parameters those overrides keep to match their base classes' signatures
    def parameters(prog_name: object, response: object, cancel_futures: object) -> object:
        return prog_name, response, cancel_futures

    # members chosen by value (a flag's choice), never named in the code
    members = (
        AddFormat.JSON,
        ReportFormat.JSON,
        ReportFormat.JUNIT,
        ExportFormat.BIBTEX,
        ExportFormat.CSL_JSON,
        BibStyle.BIBLATEX,
        OutputFormat.JSON,
        OutputFormat.SARIF,
        OutputFormat.JUNIT,
        OutputFormat.GITLAB,
        ExportItemFormat.BIBTEX,
        ExportItemFormat.CSL_JSON,
    )
    # attributes set for a library to read: sqlite3's text_factory, RE2's Options.log_errors,
    # requests' Response._content_consumed, arxiv.Client's num_retries and query_url_format
    library = (
        db.text_factory,
        options.log_errors,
        answer._content_consumed,
        client.num_retries,
        client.query_url_format,
    )
    # counters the tests hold a run to (requests answered 304, arXiv's turns, history queries)
    counters = (html.not_modified, api.not_modified, pace.turns, stats.queries)
    # the findings' details fields only the JSON writer reads, walking each dataclass's fields
    # (`Details.as_json`), and the keyword arguments a TypedDict hands on (`**facts`)
    details = (
        LatestVersion.latest_version,
        TitleMismatch.resolved_title,
        DuplicateEntry.first_line,
        Conflict.registry_line,
        CitedElsewhere.registry_line,
        SectionStanding.candidates,
        SectionStanding.candidates_total,
        SectionStanding.heading_line,
        AlsoRegistered.other_line,
        NotLookedUp.not_looked_up,
    )
    # tenacity's keyword argument (the retry policy is a TypedDict of them), and the signature
    # the setting flags' decorator gives a command for typer to read (`inspect.signature`)
    keywords = (Retrying.retry_error_callback, signed.__signature__)
    return called, parameters, members, library, counters, details, keywords
