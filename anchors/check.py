"""The check orchestrator: registry in, findings out. It prints nothing and writes no registry."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date

from .findings import Code, Finding
from .registry import Registry
from .validate import offline

__all__ = ["CheckResult", "check_offline", "only"]


@dataclass(slots=True)
class CheckResult:
    registry: str
    today: date
    anchors: int
    findings: list[Finding] = field(default_factory=list)
    online: bool = False


def only(findings: Iterable[Finding], codes: frozenset[Code] | None) -> list[Finding]:
    return [f for f in findings if codes is None or f.code in codes]


def check_offline(reg: Registry, today: date) -> CheckResult:
    return CheckResult(reg.path, today, len(reg.anchors), list(offline(reg, today)))
