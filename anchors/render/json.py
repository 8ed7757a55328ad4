"""JSON output: one object per run, with a stable schema (anchors/schema/, docs/formats.md)."""

from __future__ import annotations

import codecs
import json
import re
from dataclasses import asdict
from datetime import UTC, datetime
from typing import TYPE_CHECKING, TypeVar

from .. import __version__
from ..details import Conflict, Details, DuplicateLines, Unbacked
from ..findings import Code, Finding
from .changes import json_changes
from .claims import json_claims
from .waiting import json_waiting

if TYPE_CHECKING:
    from ..merging.merge import MergeResult
    from ..report.weekly import Report
    from ..result import CheckResult

__all__ = [
    "REPORT_SCHEMA_VERSION",
    "SCHEMA_VERSION",
    "add_result",
    "check_result",
    "dumps",
    "fit",
    "report",
]


#: Bumped when a field changes meaning or goes away; new fields do not bump it.
SCHEMA_VERSION = 1
#: `report`'s own: 2 since the trend's middle count is `failing` (it was `flaky`, which is also
#: a section of the report meaning something else)
REPORT_SCHEMA_VERSION = 2
# Text stays readable (§, 中文 as themselves); only controls, bidi and line separators that
# could act on a terminal or an editor are \u escapes.
_UNSAFE_RE = re.compile("[\x7f-\x9f\u200b-\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def fit(text: str, stream: object) -> str:
    """JSON for `stream`: non-ASCII as \\u escapes when its encoding cannot hold it, so it fits."""
    try:
        name = codecs.lookup(getattr(stream, "encoding", None) or "utf-8").name
    except LookupError:
        name = "ascii"
    return text if name.startswith("utf") or text.isascii() else _ascii(text)


def _ascii(text: str) -> str:
    out = []
    for ch in text:
        n = ord(ch)
        if n < 0x80:
            out.append(ch)
        elif n < 0x10000:
            out.append(f"\\u{n:04x}")
        else:  # JSON writes astral characters as a surrogate pair
            n -= 0x10000
            out.append(f"\\u{0xD800 + (n >> 10):04x}\\u{0xDC00 + (n & 0x3FF):04x}")
    return "".join(out)


def dumps(obj: object) -> str:
    text = json.dumps(obj, ensure_ascii=False, indent=2, sort_keys=False)
    return _UNSAFE_RE.sub(lambda match: f"\\u{ord(match[0]):04x}", text) + "\n"


def add_result(result: MergeResult, dry_run: bool) -> str:
    entries = []
    for (key, e), change in zip(result.entries.items(), result.change_of().values(), strict=True):
        entries.append(
            {
                "anchor": str(e.key),
                "key": key,
                "kind": e.id_field,
                "change": change.value,
                "first_anchored": e.first_anchored.isoformat(),
                "status": e.status.value,
                "section": e.section,
                "title": e.title,
                "cited_in": [d.isoformat() for d in e.cited_in],
            }
        )
    return dumps(
        {
            "schema_version": SCHEMA_VERSION,
            "anchors_version": __version__,
            "registry": result.registry,
            "dry_run": dry_run,
            "written": result.written,
            "up_to_date": result.up_to_date,
            "starting_point": result.starting_point,
            "anchors": entries,
            "findings": [f.as_dict() for f in result.findings],
            **_add_by_kind(result),
            "summary": result.counts(),
        }
    )


_D = TypeVar("_D", bound=Details)


def _add_by_kind(result: MergeResult) -> dict[str, object]:
    """The findings again, in the per-kind lists `add` printed before it had `findings`.

    Kept so scripts written against schema version 1 go on working; same facts, same order.
    """

    def loc(f: Finding) -> dict[str, object]:
        return {"anchor": f.anchor, "file": f.file, "line": f.line}

    def kind(f: Finding, details: type[_D]) -> _D:
        if not isinstance(f.details, details):
            raise TypeError(f"a {f.code.value} finding without its details")
        return f.details

    return {
        "duplicates": [
            {"anchor": f.anchor, "file": f.file, "lines": list(kind(f, DuplicateLines).lines)}
            for f in result.of(Code.DUPLICATE)
        ],
        "conflicts": [{**loc(f), **_conflict(kind(f, Conflict))} for f in result.of(Code.CONFLICT)],
        "invalid": [
            {"text": f.anchor, "file": f.file, "line": f.line, "reason": f.message}
            for f in result.of(Code.INVALID_ID, Code.FUTURE_ID)
        ],
        "warnings": [{**loc(f), "message": f.message} for f in result.of(Code.LATER_THAN_BRIEFING)],
        "unbacked_claims": [
            {
                "code": f.code.value,
                "severity": f.severity.value,
                **loc(f),
                "message": f.message,
                "claimed": (unbacked := kind(f, Unbacked)).claimed,
                "actual": unbacked.actual,
            }
            for f in result.of(Code.UNBACKED_CLAIM)
        ],
    }


def _conflict(conflict: Conflict) -> dict[str, object]:
    return {
        "field": conflict.field,
        "kept": conflict.kept,
        "other": conflict.other,
        "against": conflict.against,
    }


def check_result(result: CheckResult) -> str:
    return dumps(
        {
            "schema_version": SCHEMA_VERSION,
            "anchors_version": __version__,
            "registry": result.registry,
            "registries": result.registries,
            "today": result.today.isoformat(),
            "anchors": result.anchors,
            "online": result.online,
            "findings": [f.as_dict() for f in result.findings],
            "summary": result.counts(),
            "states": {s.value: n for s, n in result.states().items()},
            "not_checked": {u.value: n for u, n in result.not_checked().items()},
            "stats": {
                "checked": result.checked,
                "cached": result.cached,
                "skipped": result.skipped,
                "excluded": result.excluded,
                "elapsed_s": round(result.elapsed, 3),
            },
            "hosts": _hosts(result),
            "claims": json_claims(result),
        }
    )


def _hosts(result: CheckResult) -> list[dict[str, object]]:
    """Per site, an online run's anchors in the summary's states (they add up to it)."""
    if not result.online:
        return []
    # report.hosts reads the history's rules (~0.1 s to import): only an online check has sites
    from ..report.hosts import of_check

    return [asdict(h) for h in of_check(result)]


def _iso(ts: float | None) -> str | None:
    return None if ts is None else datetime.fromtimestamp(ts, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def report(report: Report, registry: str) -> str:
    return dumps(
        {
            "schema_version": REPORT_SCHEMA_VERSION,
            "anchors_version": __version__,
            "registry": registry,
            "window": {
                "start": _iso(report.start),
                "end": _iso(report.now),
                "runs": report.runs,
                "partial_runs": report.partial_runs,
            },
            "targets": report.targets,
            "states": {s.value: n for s, n in report.states.items()},
            "summary": report.counts(),
            "rows": [
                {
                    "section": row.section.value,
                    "target": row.target,
                    "anchor": row.anchor,
                    "kind": row.kind,
                    "runs": row.runs,
                    "failing_runs": row.failing_runs,
                    "first_failure": _iso(row.first_failure),
                    "last_success": _iso(row.last_success),
                    "last_outcome": row.last_outcome,
                    "last_status": row.last_status,
                    "last_error": row.last_error,
                    "final_url": row.final_url,
                    "title": row.title,
                    "registry_section": row.registry_section,
                    "cited_in": list(row.cited_in),
                    "line": row.line,
                    "archived": {"url": row.archived[0], "date": row.archived[1]}
                    if row.archived
                    else None,
                    "dead_since": _iso(row.dead_since),
                    "soft_404": row.soft_404,
                }
                for row in report.rows
            ],
            **json_changes(report),
            **json_waiting(report),
            "hosts": _report_hosts(report),
        }
    )


def _report_hosts(rep: Report) -> list[dict[str, object]]:
    from ..report.hosts import of_report  # as in `_hosts`: ~0.1 s, only for a report

    return [asdict(h) for h in of_report(rep)]
