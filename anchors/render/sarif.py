"""SARIF 2.1.0 for GitHub code scanning: persistent, dismissable alerts at `file:line`.

Each code is a rule with its description, its fix as help (text and Markdown) and a link to
its heading in docs/findings.md, all from the one catalogue; each finding a result whose
fingerprint is its code and anchor, so an alert survives the entry moving to another line and
stays dismissed once dismissed. Paths are URI references relative to the repository root
(`%SRCROOT%`), normalised and percent-encoded: a briefing named `notes, v1:final.md` is not
a URI with a scheme, and a raw `%` broke code scanning's fingerprinting.
`tests/consumers/test_sarif.py` runs Microsoft's SARIF Multitool with its GitHub rules on it.
"""

from __future__ import annotations

import hashlib
import os
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import quote

from .. import __version__
from ..catalogue import CATALOGUE, doc_anchor
from ..defaults import project_url
from ..files.repo import repository_root
from ..findings import Code, Finding, Severity
from .escape import plain
from .json import dumps
from .places import cited_lines, identity, primary

if TYPE_CHECKING:
    from ..result import CheckResult

__all__ = ["RULES", "check_result"]

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}

#: One line per code, shown by code scanning as the rule's name (from the one catalogue).
RULES = {code: doc.title for code, doc in CATALOGUE.items()}


#: the base every relative path is under: the repository code scanning checked out
ROOT = "%SRCROOT%"


def _uri(path: str, root: Path) -> tuple[str, str | None]:
    """A path as a URI reference and its base: relative to `root` where it lies inside it
    (`data/../data/registry.yaml` is `data/registry.yaml`), else an absolute file URI; each
    segment percent-encoded (space, `%`, `:`, `#`, non-ASCII)."""
    full = Path(os.path.abspath(path))
    try:
        rel = full.relative_to(root)
    except ValueError:
        return full.as_uri(), None
    return "/".join(quote(part, safe="") for part in rel.parts), ROOT


def _location(file: str, line: int | None, root: Path) -> dict[str, object]:
    uri, base = _uri(file, root)
    art: dict[str, object] = {"uri": uri, "uriBaseId": base} if base else {"uri": uri}
    loc: dict[str, object] = {"artifactLocation": art}
    if line:
        loc["region"] = {"startLine": line}
    return {"physicalLocation": loc}


@cache
def repository_url() -> str | None:
    """The project's repository, as its package metadata names it (`[project.urls]`)."""
    return project_url("repository", "source")


def _rule(code: Code, home: str | None) -> dict[str, object]:
    doc = CATALOGUE[code]
    link = f"{home}/blob/main/{doc_anchor(code)}" if home else None
    more = f"\n\nMore: [{doc_anchor(code)}]({link})" if link else ""
    rule: dict[str, object] = {
        "id": code.value,
        "shortDescription": {"text": doc.title},
        "fullDescription": {"text": doc.description},
        "help": {
            "text": f"{doc.description}\n\nExample: {doc.example}\n\nFix: {doc.fix}",
            "markdown": f"{doc.description}\n\n**Example:** {doc.example}\n\n"
            f"**Fix:** {doc.fix}{more}",
        },
        "defaultConfiguration": {"level": _LEVEL[code.severity]},
    }
    if link:
        rule["helpUri"] = link
    return rule


def _result(f: Finding, index: dict[Code, int], root: Path) -> dict[str, object]:
    anchor = f"{plain(f.anchor)}: " if f.anchor else ""
    one = identity(f)  # a figure's finding: its claim, apart from its anchor's others
    key = hashlib.sha256(f"{f.code.value}\0{f.anchor}{one and chr(0) + one}".encode())
    file, line, briefing = primary(f)
    related = [_location(cited.file, cited.line, root) for cited in cited_lines(f)]
    if briefing:  # the figure is fixed in the briefing; its registry entry is beside it
        related.append(_location(f.file, f.line, root))
    extra = (
        {"relatedLocations": [dict(loc, id=i) for i, loc in enumerate(related)]} if related else {}
    )
    return {
        **extra,
        "ruleId": f.code.value,  # a code without a RULES line still renders (its id as text)
        "ruleIndex": index[f.code],
        "level": _LEVEL[f.severity],
        "message": {"text": anchor + plain(f.message)},
        "locations": [_location(file, line, root)],
        "partialFingerprints": {"anchorsFinding/v1": key.hexdigest()[:32]},
    }


def check_result(result: CheckResult) -> str:
    codes = list(Code)
    index = {c: i for i, c in enumerate(codes)}
    home = repository_url()
    root = repository_root(Path(os.path.abspath(result.registries[0])).parent)
    driver: dict[str, object] = {"name": "anchors", "version": __version__}
    if home:
        driver["informationUri"] = home
    driver["rules"] = [_rule(c, home) for c in codes]
    run = {
        "tool": {"driver": driver},
        "originalUriBaseIds": {ROOT: {"uri": root.as_uri() + "/"}},
        "results": [_result(f, index, root) for f in result.findings],
        "columnKind": "unicodeCodePoints",
    }
    return dumps({"$schema": SCHEMA, "version": "2.1.0", "runs": [run]})
