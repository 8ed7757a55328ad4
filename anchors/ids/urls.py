"""URL to anchor key: which URLs name an arXiv paper, a GitHub issue or a DOI, and which are pages.

A URL only becomes an identifier when its path is an article path holding something shaped like
an identifier; everything else on those sites (`arxiv.org/list/…`, `arxiv.org/tb/recent`,
`doi.org/10/gf4gqc`, `www.doi.org/factsheets/…`) is a web page to link-check, never an invalid
ID. Something shaped like an ID on an article path is parsed strictly, so a malformed one is
still reported.
"""

from __future__ import annotations

import re
from urllib.parse import unquote, urlsplit

from ..numbers import whole
from .arxiv import ArxivId
from .doi import Doi
from .github import GithubRef
from .kinds import InvalidId
from .model import AnchorKey
from .web import WebUrl, canonical_url

__all__ = ["ARXIV_MIRRORS", "key_from_url"]

#: Paths under which arXiv serves one article: abstract, PDF, HTML, formats, source, PostScript,
#: DVI and trackbacks (`/tb/ID`; `/tb/recent` is a site page).
_ARTICLE_PATHS = frozenset({"abs", "pdf", "html", "format", "src", "e-print", "ps", "dvi", "tb"})
#: Hosts that are arXiv itself though not under arxiv.org (the original LANL name, ar5iv).
_ARXIV_OTHER_HOSTS = frozenset({"xxx.lanl.gov", "ar5iv.org"})
#: Sites that are not arXiv but whose paths name an arXiv article; each is documented in
#: docs/extraction.md, because a citation of one is registered as the arXiv paper itself.
ARXIV_MIRRORS: dict[str, frozenset[str]] = {
    "alphaxiv.org": frozenset({"abs", "overview", "pdf"}),
    "huggingface.co": frozenset({"papers"}),
}
_GITHUB_HOSTS = frozenset({"github.com", "www.github.com"})
_DOI_HOSTS = frozenset({"doi.org", "dx.doi.org", "www.doi.org"})
_ARCHIVE_SEG = re.compile(r"[a-z]+(?:-[a-z]+)?(?:\.[A-Za-z]{2})?")
_DOI_PATH = re.compile(r"10\.[0-9]")
_ARXIV_PREFIX = re.compile(r"^arxiv:", re.IGNORECASE)


def key_from_url(text: str) -> AnchorKey:
    """The anchor a URL names; raises InvalidId for non-URLs and malformed IDs in article paths."""
    canon = canonical_url(text)
    parts = urlsplit(canon)
    host = parts.hostname or ""
    path = unquote(parts.path)
    segs = [s for s in path.split("/") if s]
    if _is_arxiv_host(host):
        ident = _arxiv_article(segs)
    else:
        paths = ARXIV_MIRRORS.get(host.removeprefix("www."))
        ident = _id_after(segs[1:]) if paths and segs and segs[0] in paths else None
    if ident is not None:
        return ArxivId.parse(ident)
    if (
        host in _GITHUB_HOSTS
        and len(segs) >= 4
        and segs[2] in ("issues", "pull")
        and segs[3].isascii()
        and segs[3].isdigit()
    ):
        number = whole(segs[3])
        if number is None:
            raise InvalidId(text, f"no GitHub issue has a number of {len(segs[3])} digits")
        return GithubRef.checked(segs[0], segs[1], number, text)
    if host in _DOI_HOSTS and _DOI_PATH.match(path.lstrip("/")):
        return Doi.parse(path.lstrip("/"))
    return WebUrl(canon)


def _is_arxiv_host(host: str) -> bool:
    return host == "arxiv.org" or host.endswith(".arxiv.org") or host in _ARXIV_OTHER_HOSTS


def _arxiv_article(segs: list[str]) -> str | None:
    """The ID an arXiv path names (`/abs/ID`, `/pdf/ID.pdf`, `/ftp/arxiv/papers/YYMM/ID.pdf`)."""
    if len(segs) >= 5 and segs[0] == "ftp" and segs[2] == "papers":
        archive, name = segs[1], _strip_ext(segs[4])
        return name if archive == "arxiv" else f"{archive}/{name}"
    if len(segs) >= 2 and segs[0] in _ARTICLE_PATHS:
        return _id_after(segs[1:])
    return None


def _id_after(segs: list[str]) -> str | None:
    """The identifier at the start of `segs`, or None when they name a page, not an article."""
    if not segs:
        return None
    # arXiv serves `/abs/arXiv:1310.2590` and `/abs/arxiv:physics/9707012` as the paper itself
    first = _strip_ext(_ARXIV_PREFIX.sub("", segs[0], count=1))
    if first[:1].isdigit():
        return first
    if len(segs) >= 2 and _ARCHIVE_SEG.fullmatch(first) and segs[1][:1].isdigit():
        return f"{first}/{_strip_ext(segs[1])}"
    return None


def _strip_ext(name: str) -> str:
    for ext in (".pdf", ".ps.gz", ".ps", ".tar.gz", ".gz"):
        if name.endswith(ext):
            return name[: -len(ext)]
    return name
