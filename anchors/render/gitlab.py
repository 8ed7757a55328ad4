"""GitLab Code Quality: the JSON array a merge request's widget and changes view read.

Each finding is an issue at its registry line (a figure's at its briefing line, `places`), and a
dead URL also at each briefing line that cites it (as annotations and SARIF have it). The
fields are those GitLab's docs require: `description`, `check_name` (the code), `fingerprint`,
`severity`, `location.path` (relative to the repository root) and `location.lines.begin`.
GitLab shows issues with one fingerprint as one, so a fingerprint is the code, the anchor (a
figure's claim too) and the file (never the line: the entry may move), numbered where one file
holds the same again; it is the same on every run.
Severities: error -> `major`, warning -> `minor`, note -> `info`, the ranks linters use, so
anchors' findings sort beside theirs (no finding of anchors is `blocker` or `critical`).
"""

from __future__ import annotations

import hashlib
import os
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING

from ..files.repo import repository_root
from ..findings import Finding, Severity
from .escape import plain
from .json import dumps
from .places import cited_lines, identity, primary

if TYPE_CHECKING:
    from ..result import CheckResult

__all__ = ["SEVERITY", "check_result"]

#: anchors' severity -> GitLab's (`info`, `minor`, `major`, `critical`, `blocker`)
SEVERITY = {Severity.ERROR: "major", Severity.WARNING: "minor", Severity.INFO: "info"}


def _path(file: str, root: Path) -> str:
    """A repository-relative path with `/` (an absolute one for a file outside it)."""
    full = Path(os.path.abspath(file))
    try:
        return full.relative_to(root).as_posix()
    except ValueError:
        return full.as_posix()


def _issue(
    f: Finding, path: str, line: int | None, note: str, seen: Counter[str]
) -> dict[str, object]:
    # an issue about no anchor (a schema problem) is told apart by its message, a figure's by
    # its claim
    what = f"{f.anchor}\0{identity(f)}" if identity(f) else f.anchor or f.message
    key = f"{f.code.value}\0{what}\0{path}"
    n = seen[key]
    seen[key] += 1
    fingerprint = hashlib.sha256(f"{key}\0{n}".encode()).hexdigest()[:32]
    anchor = f"{plain(f.anchor)}: " if f.anchor else ""
    return {
        "description": anchor + plain(f.message) + note,
        "check_name": f.code.value,
        "fingerprint": fingerprint,
        "severity": SEVERITY[f.severity],
        "location": {"path": path, "lines": {"begin": line or 1}},
    }


def check_result(result: CheckResult) -> str:
    root = repository_root(Path(os.path.abspath(result.registries[0])).parent)
    seen: Counter[str] = Counter()
    issues = []
    for f in result.findings:
        here = _path(f.file, root)
        file, line, briefing = primary(f)
        note = plain(f" (in the registry at {here}:{f.line})") if briefing else ""
        issues.append(_issue(f, _path(file, root), line, note, seen))
        for cited in cited_lines(f):
            note = plain(f" (in the registry at {here}:{f.line})")
            issues.append(_issue(f, _path(cited.file, root), cited.line, note, seen))
    return dumps(issues)
