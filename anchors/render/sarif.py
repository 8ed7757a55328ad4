"""SARIF 2.1.0 for GitHub code scanning: persistent, dismissable alerts at `file:line`.

Each code is a rule; each finding a result whose fingerprint is its code and anchor, so an
alert survives the entry moving to another line and stays dismissed once dismissed.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import __version__
from ..catalogue import CATALOGUE
from ..findings import Code, Finding, Severity
from .escape import plain
from .json import dumps

if TYPE_CHECKING:
    from ..result import CheckResult

__all__ = ["RULES", "check_result"]

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}

#: One line per code, shown by code scanning as the rule's name (from the one catalogue).
RULES = {code: doc.title for code, doc in CATALOGUE.items()}


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
