"""anchors: a citation and arXiv anchor registry with link checking.

The library is the product; the CLI is a veneer over these names. They are loaded on first
use (PEP 562), so `anchors add` does not pay for the network stack.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # what `__getattr__` loads, as type checkers and editors see it
    from .check.run import Services, check_online
    from .errors import AnchorsError
    from .extract import Citation, read_briefing
    from .findings import Code, Finding, Outcome, Severity
    from .ids import ArxivId, Doi, GithubRef, InvalidId, WebUrl, canonical_url, parse_anchor
    from .merging.merge import add, merge
    from .merging.result import MergeResult
    from .net.links import LinkChecker
    from .net.netguard import NetGuard
    from .registry.loader import load
    from .registry.model import Registry
    from .registry.validate import check_offline
    from .report.weekly import Report
    from .report.weekly import build as build_report
    from .result import CheckResult

__version__ = "1.0.0.dev0"

_EXPORTS = {
    "ArxivId": "ids",
    "Doi": "ids",
    "GithubRef": "ids",
    "InvalidId": "ids",
    "WebUrl": "ids",
    "parse_anchor": "ids",
    "canonical_url": "ids",
    "Citation": "extract",
    "read_briefing": "extract",
    "Registry": "registry.model",
    "load": "registry.loader",
    "MergeResult": "merging.result",
    "add": "merging.merge",
    "merge": "merging.merge",
    "Code": "findings",
    "Finding": "findings",
    "Outcome": "findings",
    "Severity": "findings",
    "CheckResult": "result",
    "check_offline": "registry.validate",
    "Services": "check.run",
    "check_online": "check.run",
    "LinkChecker": "net.links",
    "NetGuard": "net.netguard",
    "Report": "report.weekly",
    "build_report": "report.weekly",
    "AnchorsError": "errors",
}
_RENAMED = {"build_report": "build"}

#: the keys of _EXPORTS, spelled out for tools that read `__all__` statically
__all__ = [
    "AnchorsError",
    "ArxivId",
    "CheckResult",
    "Citation",
    "Code",
    "Doi",
    "Finding",
    "GithubRef",
    "InvalidId",
    "LinkChecker",
    "MergeResult",
    "NetGuard",
    "Outcome",
    "Registry",
    "Report",
    "Services",
    "Severity",
    "WebUrl",
    "add",
    "build_report",
    "canonical_url",
    "check_offline",
    "check_online",
    "load",
    "merge",
    "parse_anchor",
    "read_briefing",
]


def __getattr__(name: str) -> object:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'anchors' has no attribute {name!r}")
    value = getattr(import_module(f"anchors.{module}"), _RENAMED.get(name, name))
    globals()[name] = value
    return value
