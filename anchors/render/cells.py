"""Table cells of the weekly report: one spelling of a target, bounded widths, safe links.

Every table of the report names a target through `target_cell`, so a link reads the same in
"Dead" and in "What changed": its address decoded to the characters it stands for (a
percent-encoded path is unreadable and cannot wrap, so it pushes a table off the screen), cut
in the middle when long. A web link is a link a reader can click, except a GitHub issue or
pull request: a link to one from the rolling issue posts a cross-reference into that tracker,
so it stays code (DECISIONS: dead GitHub issue/PR targets stay non-linking).
"""

from __future__ import annotations

import re
from urllib.parse import unquote, urlsplit

from ..ids.github import GithubRef
from ..ids.urls import key_from_url
from .escape import markdown, markdown_code, markdown_url, plain

__all__ = ["cited", "clip", "readable", "target_cell", "text_cell"]

#: the longest text a cell shows (a title, an error) and the longest address, in characters:
#: with five columns, a table then fits a GitHub issue's width without a scroll bar
TEXT_WIDTH = 80
ADDRESS_WIDTH = 48
#: what decoding may not produce in a shown address: white space, controls, format marks
_UNSHOWABLE = re.compile(r"[\s\x00-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u206f]")


def clip(text: str, width: int = TEXT_WIDTH) -> str:
    """At most `width` characters, the cut marked with an ellipsis."""
    return text if len(text) <= width else text[: width - 1].rstrip() + "…"


def _middle(text: str, width: int) -> str:
    """An address cut in its middle, keeping the host and the last path segment in view."""
    if len(text) <= width:
        return text
    tail = max(12, width // 3)
    return text[: width - tail - 1] + "…" + text[-tail:]


def readable(url: str) -> str:
    """The address as a person reads it: percent-escapes of UTF-8 text decoded, the scheme of
    an http(s) link dropped. An escape that would decode to a space or an invisible character
    stays escaped (it is there for a reason), as does one that is not UTF-8."""
    decoded = unquote(url, errors="strict") if "%" in url else url
    try:
        decoded.encode("utf-8")
    except UnicodeEncodeError:
        decoded = url
    if _UNSHOWABLE.search(decoded):
        decoded = url
    parts = urlsplit(decoded)
    if parts.scheme in ("http", "https") and parts.netloc:
        decoded = decoded.split("://", 1)[1]
    return decoded


def _github_thread(url: str) -> bool:
    """An issue, pull request or discussion page on GitHub: a link to it is a mention there."""
    try:
        if isinstance(key_from_url(url), GithubRef):
            return True
    except ValueError:  # not an identifier GitHub could have issued
        pass
    parts = urlsplit(url)
    segs = [s for s in parts.path.split("/") if s]
    return (parts.hostname or "").removeprefix("www.") == "github.com" and segs[2:3] == [
        "discussions"
    ]


def target_cell(kind: str, target: str, anchor: str) -> str:
    """A tracked thing as a cell: a web link by its readable address (a link, except to a
    GitHub issue or pull request), an arXiv ID, DOI or GitHub reference as written."""
    if kind != "url":  # an ID as written; a GitHub issue's URL as the tables spell addresses
        return markdown_code(_middle(plain(readable(anchor)), ADDRESS_WIDTH))
    shown = _middle(plain(readable(target)), ADDRESS_WIDTH)
    if _github_thread(target) or urlsplit(target).scheme not in ("http", "https"):
        return markdown_code(shown)
    return f"[{markdown(shown)}](<{markdown_url(target)}>)"


def cited(dates: tuple[str, ...]) -> str | None:
    """The briefings' dates, as the tables' last cell says them."""
    return f"cited {', '.join(dates)}" if dates else None


def text_cell(*parts: str | None) -> str:
    """Untrusted text pieces (a title, a section, dates) in one cell, each clipped, joined by
    a middle dot."""
    return " · ".join(markdown(clip(p)) for p in parts if p)
