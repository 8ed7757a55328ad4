"""JSON output: one object per run, with a stable documented schema (README, "JSON output")."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from ..findings import summary
from .changes import json_changes

if TYPE_CHECKING:
    from ..merge import MergeResult
    from ..report import Report
    from ..validate import CheckResult

__all__ = ["add_result", "check_result", "dumps", "report"]


def dumps(obj: Any) -> str:
    # ensure_ascii keeps terminal control and bidi characters as \u escapes.
    return json.dumps(obj, ensure_ascii=True, indent=2, sort_keys=False) + "\n"


def add_result(r: MergeResult, dry_run: bool) -> str:
    entries = []
    extended = set(r.extended)
    for key, e in r.entries.items():
        entries.append({
            "anchor": str(e.key), "key": key, "kind": e.id_field,
            "change": "added" if key in r.added else "continued" if key in extended
            else "unchanged",
            "first_anchored": e.first_anchored.isoformat(), "status": e.status.value,
            "section": e.section, "title": e.title,
            "cited_in": [d.isoformat() for d in e.cited_in],
        })
    return dumps({
        "registry": r.registry,
        "dry_run": dry_run,
        "written": r.written,
        "up_to_date": r.up_to_date,
        "anchors": entries,
        "duplicates": [{"anchor": d.anchor, "file": d.path, "lines": list(d.lines)}
                       for d in r.duplicates],
        "conflicts": [{"anchor": c.anchor, "file": c.path, "line": c.line, "field": c.field,
                       "kept": c.kept, "other": c.other, "against": c.against}
                      for c in r.conflicts],
        "invalid": [{"text": i.raw, "file": i.path, "line": i.line, "reason": i.reason}
                    for i in r.invalid],
        "warnings": [{"anchor": raw, "file": p, "line": ln,
                      "message": "later than the briefing's own month"} for raw, p, ln in r.later],
        "unbacked_claims": [{"code": "unbacked-claim", "severity": "warning", "anchor": u.anchor,
                             "file": u.path, "line": u.line, "message": u.message,
                             "claimed": u.claimed.isoformat() if u.claimed else "continued",
                             "actual": u.registry.isoformat() if u.registry else None}
                            for u in r.unbacked],
        "summary": {"added": len(r.added), "continued": len(r.extended),
                    "duplicates": len(r.duplicates), "conflicts": len(r.conflicts),
                    "invalid": len(r.invalid), "unbacked_claims": len(r.unbacked)},
    })


def check_result(r: CheckResult) -> str:
    return dumps({
        "registry": r.registry,
        "registries": r.registries,
        "today": r.today.isoformat(),
        "anchors": r.anchors,
        "online": r.online,
        "findings": [f.as_dict() for f in r.findings],
        "summary": summary(r.findings),
    })


def _iso(ts: float | None) -> str | None:
    from datetime import datetime, timezone

    return None if ts is None else datetime.fromtimestamp(ts, timezone.utc).strftime(
        "%Y-%m-%dT%H:%M:%SZ")


def report(r: Report, registry: str) -> str:
    return dumps({
        "registry": registry,
        "window": {"start": _iso(r.start), "end": _iso(r.now), "runs": r.runs},
        "targets": r.targets,
        "summary": r.counts(),
        "rows": [{
            "section": row.section.value, "target": row.target, "anchor": row.anchor,
            "kind": row.kind, "runs": row.runs, "failing_runs": row.failing_runs,
            "first_failure": _iso(row.first_failure), "last_success": _iso(row.last_success),
            "last_outcome": row.last_outcome, "last_status": row.last_status,
            "last_error": row.last_error, "final_url": row.final_url, "title": row.title,
            "registry_section": row.registry_section, "cited_in": list(row.cited_in),
            "line": row.line,
            "archived": {"url": row.archived[0], "date": row.archived[1]} if row.archived else None,
        } for row in r.rows],
        **json_changes(r),
    })
