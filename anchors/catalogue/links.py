"""Codes about fetching a cited URL: the link, its #fragment, and its archived copy.

One entry per code; `anchors.catalogue` gathers them into `CATALOGUE`.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..findings import Code
from .codedoc import CodeDoc

__all__ = ["LINKS"]

_C = CodeDoc
LINKS: Mapping[Code, CodeDoc] = {
    Code.DEAD_LINK: _C(
        "Dead link",
        "After retries: 404/410 or another 4xx, a name that does not exist (NXDOMAIN, when "
        "public names resolve), connection refused, a redirect loop or more than 10 hops.",
        "`https://example.org/gone` answers HTTP 404.",
        "Find where the page went, or link its archived copy (`check --archive`, then "
        "`fix --only archive`).",
    ),
    Code.UNREACHABLE: _C(
        "Link unreachable through retries",
        "Timeouts, resets, temporary resolver failures or 5xx that persisted through retries; "
        "never called dead. Also an unknown name or a refused connection in a run where no host "
        "answered (not recorded), or an unknown name where no public name resolved to a public "
        "address (recorded as unreachable; a hosts-file, loopback or refused name proves "
        "nothing): that is the network's silence, not evidence.",
        "A host that times out on all three tries.",
        "Usually nothing: check again later; `report` shows whether it persists.",
    ),
    Code.UNVERIFIABLE: _C(
        "Site refuses link checkers",
        "401/403/451/999 or a bot-challenge page; never called dead (a 404 behind a refused "
        "HEAD is still dead). Also a cited `#fragment` that could not be looked for: the page "
        "is longer than the 2 MiB read, did not arrive before the timeout, or GitHub could not "
        "answer for the comment or lines (JSON `fragment` is set then).",
        "A site behind a bot challenge that answers 403.",
        "Open it in a browser; if it is fine, accept the status for the entry (`accept: [403]`) "
        "or everywhere (`accept` in [the configuration](configuration.md)).",
    ),
    Code.RATE_LIMITED: _C(
        "Rate-limited",
        "A 429 that persisted through retries, or a `Retry-After` beyond `--retry-after-cap` "
        "(not waited for, so the server saw one request); never called dead.",
        "A host answering 429 with `Retry-After: 3600`.",
        "Check again later, or lower `--per-host`; set `GITHUB_TOKEN` for GitHub's API.",
    ),
    Code.REDIRECT: _C(
        "Permanent redirect or moved issue",
        "A permanent redirect (301/308 first hop) or a moved GitHub issue, with the new URL; a "
        "redirect to a login page or the site's home page is a soft 404 (`soft_404: true`).",
        "`https://www.lmsys.org/blog/…` moved permanently to `https://lmsys.org/blog/…/`.",
        "`anchors fix --dry-run`, then `anchors fix` moves the entry (never for a soft 404: "
        "find where the page went).",
    ),
    Code.TLS_ERROR: _C(
        "Invalid TLS certificate",
        "An invalid, expired or wrong-name certificate; neither dead nor fine.",
        "A site whose certificate expired last week.",
        "Check the site later; link another copy if it stays broken.",
    ),
    Code.BLOCKED_URL: _C(
        "Not http(s), or a private address",
        "A URL that is not http(s), or whose name resolves to a loopback, private, link-local "
        "or other non-public address; not requested unless `--allow-private`.",
        "`http://169.254.169.254/latest/meta-data`, or an intranet host.",
        "Cite a public URL, or check with `--allow-private` from a machine that should reach it.",
    ),
    Code.MISSING_FRAGMENT: _C(
        "Cited #fragment not in the page",
        "A link cited with a `#fragment` works, but the page has no element with that `id`, no "
        "`<a name>`, no GitHub `user-content-` id and no heading whose slug it is (read up to "
        "2 MiB); or the GitHub comment (`#issuecomment-M`, `#discussion_rM`) is gone or belongs "
        "to another issue, or the file has fewer lines than `#L10-L20` names. Text fragments "
        "(`#:~:text=`) and client-side routes (`#/…`) are not checked.",
        "`https://example.org/docs#install` after the page renamed its heading to "
        "`#installation`; JSON `fragment` gives the fragment.",
        "Point the citation at the place's new name (or drop the fragment); the link itself is "
        "fine.",
    ),
    Code.ARCHIVE_UNAVAILABLE: _C(
        "No archived snapshot of a URL",
        "With `check --archive`, the Wayback Machine failed, refused or was too slow; the URLs "
        "not looked up are counted and nothing is held up.",
        "The availability API answers 503 through its retries.",
        "Nothing: the next `check --archive` asks again.",
    ),
    Code.ARCHIVE_CAPTURE: _C(
        "Save Page Now capture of a URL",
        "With `check --archive-save`, what became of a capture asked of Save Page Now "
        "(captured, with its snapshot; not finished yet; or not captured, with SPN2's code).",
        "`captured: https://web.archive.org/web/20260924120000/https://…`.",
        "`anchors fix --only archive` stores a captured snapshot in the registry.",
    ),
}
