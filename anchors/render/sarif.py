"""SARIF 2.1.0 for GitHub code scanning: persistent, dismissable alerts at `file:line`.

Each code is a rule; each finding a result whose fingerprint is its code and anchor, so an
alert survives the entry moving to another line and stays dismissed once dismissed.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import __version__
from ..findings import Code, Finding, Severity
from .escape import plain
from .json import dumps

if TYPE_CHECKING:
    from ..registry.validate import CheckResult

__all__ = ["RULES", "check_result"]

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}

#: One line per code, shown by code scanning as the rule's description.
RULES = {
    Code.INVALID_ID: "Malformed arXiv identifier",
    Code.FUTURE_ID: "arXiv identifier later than today",
    Code.DUPLICATE: "The same anchor in two entries",
    Code.CONFLICT: "Two mentions disagree on a title or section",
    Code.SCHEMA: "Missing or invalid registry field",
    Code.NOT_FOUND: "Identifier, version, issue or DOI that does not exist",
    Code.TITLE_MISMATCH: "Registry title is not the resolved title",
    Code.WITHDRAWN: "arXiv paper withdrawn",
    Code.DEAD_LINK: "Dead link",
    Code.UNREACHABLE: "Link unreachable through retries",
    Code.UNVERIFIABLE: "Site refuses link checkers",
    Code.RATE_LIMITED: "Rate-limited through retries",
    Code.REDIRECT: "Permanent redirect or moved issue",
    Code.ISSUE_STATE: "GitHub issue or pull request closed or merged",
    Code.TLS_ERROR: "Invalid TLS certificate",
    Code.BLOCKED_URL: "Not http(s), or a private address",
    Code.LATER_THAN_BRIEFING: "arXiv identifier newer than its first anchoring",
    Code.UNBACKED_CLAIM: "Continuity claim the registry does not back",
    Code.ARCHIVE_UNAVAILABLE: "No archived snapshot of a URL",
    Code.ARCHIVE_CAPTURE: "Save Page Now capture of a URL",
    Code.RETITLED: "arXiv title changed since the cited version",
    Code.STALE_CLAIM: "Claimed issue state contradicted by its live state",
    Code.WRONG_TARGET: "Issue or PR title shares nothing with the one cited",
    Code.REPO_ARCHIVED: "GitHub repository archived",
    Code.PUBLISHED: "Preprint has a journal reference or venue DOI",
    Code.CLAIM_MISMATCH: "Claimed date or venue contradicted by arXiv",
    Code.RETRACTED: "DOI retracted or withdrawn",
    Code.CORRECTED: "DOI has a correction or erratum",
}


def _uri(path: str) -> str:
    """Relative to the working directory (the repository root in CI), with forward slashes."""
    p = Path(path)
    try:
        p = p.resolve().relative_to(Path.cwd().resolve()) if p.is_absolute() else p
    except ValueError:
        return p.resolve().as_uri()
    return p.as_posix()


def _location(file: str, line: int | None) -> dict[str, Any]:
    loc: dict[str, Any] = {"artifactLocation": {"uri": _uri(file)}}
    if line:
        loc["region"] = {"startLine": line}
    return {"physicalLocation": loc}


def _result(f: Finding, index: dict[Code, int]) -> dict[str, Any]:
    anchor = f"{plain(f.anchor)}: " if f.anchor else ""
    key = hashlib.sha256(f"{f.code.value}\0{f.anchor}".encode()).hexdigest()[:32]
    related = [_location(str(at["file"]), int(at["line"])) for at in f.details.get("cited_at", ())]
    extra = (
        {"relatedLocations": [dict(loc, id=i) for i, loc in enumerate(related)]} if related else {}
    )
    return {
        **extra,
        "ruleId": f.code.value,  # a code without a RULES line still renders (its id as text)
        "ruleIndex": index[f.code],
        "level": _LEVEL[f.severity],
        "message": {"text": anchor + plain(f.message)},
        "locations": [_location(f.file, f.line)],
        "partialFingerprints": {"anchorsFinding/v1": key},
    }


def check_result(r: CheckResult) -> str:
    codes = list(Code)
    index = {c: i for i, c in enumerate(codes)}
    rules = [
        {
            "id": c.value,
            "shortDescription": {"text": RULES.get(c, c.value)},
            "defaultConfiguration": {"level": _LEVEL[c.severity]},
        }
        for c in codes
    ]
    run = {
        "tool": {"driver": {"name": "anchors", "version": __version__, "rules": rules}},
        "results": [_result(f, index) for f in r.findings],
        "columnKind": "unicodeCodePoints",
    }
    return dumps({"$schema": SCHEMA, "version": "2.1.0", "runs": [run]})
