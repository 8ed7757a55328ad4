"""JUnit XML, the test report Jenkins, GitLab, Gitea/Forgejo and most CI servers read.

`check`: one `testsuite` per registry file and per living document, one `testcase` per anchor
(classname its kind, name the anchor as cited). An error is a `failure`; an anchor the check
could not judge (unverified) or did not look at (not checked) is `skipped` with the reason,
never a pass; a warning is a `failure` only with `--strict`, as the exit code has it. Every
finding's message is in the case's `system-out`, and `time` is the link check's where this run
asked the network. A registry suite's counts are the summary line's (`CheckResult.assess`);
findings about no anchor (the file itself, a briefing) are one more case per file.
`report`: one case per failing link. Shaped after the Jenkins/Ant `junit-10.xsd`
(tests/data/junit-10.xsd is our copy of its shape; tests/test_junit.py validates against it).
The text is ASCII, every other character a reference: it fits any stream.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import defaultdict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..findings import Finding, Severity, State, Unchecked, state_of
from ..result import Assessed
from .escape import plain
from .places import primary

if TYPE_CHECKING:
    from ..report.weekly import Report, ReportRow
    from ..result import CheckResult, Cited

__all__ = ["check_result", "report"]

#: why an anchor was not checked, as a skipped case says it
_WHY = {
    Unchecked.SKIPPED: "`check: skip` in its entry",
    Unchecked.UNCHANGED: "unchanged since the --changed-since ref",
    Unchecked.EXCLUDED: "its URL matches an `exclude` pattern",
    Unchecked.FILTERED: "what was found of it is not among the --only codes",
    Unchecked.RATE_LIMIT: "the service's rate limit was spent before it was asked",
}


@dataclass(slots=True)
class _Suite:
    name: str
    cases: list[ET.Element] = field(default_factory=list)
    failures: int = 0
    skipped: int = 0
    seconds: float = 0.0

    def add(self, case: ET.Element) -> None:
        self.cases.append(case)
        self.failures += case.find("failure") is not None
        self.skipped += case.find("skipped") is not None
        self.seconds += float(case.get("time", "0"))

    def element(self) -> ET.Element:
        suite = ET.Element(
            "testsuite",
            name=plain(self.name),
            tests=str(len(self.cases)),
            failures=str(self.failures),
            errors="0",
            skipped=str(self.skipped),
            time=f"{self.seconds:.3f}",
        )
        suite.extend(self.cases)
        return suite


def _line(f: Finding) -> str:
    file, line, _ = primary(f)  # a figure's: the briefing line it came from
    where = f"{file}:{line}" if line else file
    return plain(f"{where}: {f.severity.value} {f.code.value}: {f.message}")


def _case(name: str, kind: str, ms: int | None = None) -> ET.Element:
    case = ET.Element("testcase", name=plain(name), classname=kind or "invalid")
    if ms is not None:
        case.set("time", f"{ms / 1000:.3f}")
    return case


def _verdict(case: ET.Element, tag: str, first: Finding | None, message: str) -> None:
    el = ET.SubElement(case, tag, message=plain(message))
    if first is not None:
        el.set("type", first.code.value)


def _judged(case: ET.Element, state: State, one: Assessed, strict: bool) -> None:
    """The case's verdict: the anchor's state, as the exit code weighs it."""
    fails = {Severity.ERROR, Severity.WARNING} if strict else {Severity.ERROR}
    bad = sorted((f for f in one.findings if f.severity in fails), key=lambda f: f.severity.rank)
    if bad:
        _verdict(case, "failure", bad[0], f"{bad[0].code.value}: {bad[0].message}")
    elif state is State.UNVERIFIED:
        first = next(f for f in one.findings if f.severity is Severity.WARNING)
        _verdict(case, "skipped", first, f"unverified: {first.code.value}: {first.message}")
    elif state is State.NOT_CHECKED:
        why = _WHY[one.unchecked] if one.unchecked else "not looked at this run"
        _verdict(case, "skipped", None, f"not checked: {why}")
    if one.findings:
        ET.SubElement(case, "system-out").text = "\n".join(_line(f) for f in one.findings)


def _loose_case(file: str, findings: list[Finding], strict: bool) -> ET.Element:
    """The findings about no anchor of one file: one case named after the file."""
    case = _case(file, "file")
    one = Assessed(state_of(findings), tuple(findings))
    _judged(case, one.state, one, strict)
    return case


def _suites(result: CheckResult, strict: bool) -> list[_Suite]:
    assessed, loose = result.assess()
    suites = {name: _Suite(name) for name in [*result.registries, *result.documents]}
    for (file, line), one in assessed.items():
        cited = result.cited.get((file, line))
        name = cited.anchor if cited else f"line {line}"
        case = _case(name, _kind(cited), result.answer_ms.get((file, line)))
        _judged(case, one.state, one, strict)
        suites.setdefault(file, _Suite(file)).add(case)
    docs = set(result.documents)
    at_line: dict[tuple[str, int], list[Finding]] = defaultdict(list)
    rest: dict[str, list[Finding]] = defaultdict(list)
    for f in loose:
        cited = result.cited.get((f.file, f.line or 0)) if f.file in docs else None
        (at_line[f.file, f.line or 0] if cited else rest[f.file]).append(f)
    for (file, line), cited in sorted(result.cited.items()):
        if file in docs:
            mine = tuple(at_line.get((file, line), ()))
            case = _case(cited.anchor, _kind(cited), result.answer_ms.get((file, line)))
            _judged(case, state_of(mine), Assessed(state_of(mine), mine), strict)
            suites[file].add(case)
    for file, findings in rest.items():
        suites.setdefault(file, _Suite(file)).add(_loose_case(file, findings, strict))
    return list(suites.values())


def _kind(cited: Cited | None) -> str:
    return cited.kind if cited is not None else ""


def _document(name: str, suites: list[_Suite]) -> str:
    root = ET.Element(
        "testsuites",
        name=name,
        tests=str(sum(len(s.cases) for s in suites)),
        failures=str(sum(s.failures for s in suites)),
        errors="0",
        time=f"{sum(s.seconds for s in suites):.3f}",
    )
    root.extend(s.element() for s in suites)
    ET.indent(root)
    body = ET.tostring(root, encoding="unicode")
    text = '<?xml version="1.0" encoding="UTF-8"?>\n' + body + "\n"
    return text.encode("ascii", "xmlcharrefreplace").decode("ascii")


def check_result(result: CheckResult, strict: bool = False) -> str:
    return _document("anchors check", _suites(result, strict))


def _report_case(row: ReportRow, failed: bool) -> ET.Element:
    case = _case(row.target, row.kind.value)
    error = row.last_error or row.last_outcome.value
    what = f"{row.section.value}: {error} ({row.failing_runs} of {row.runs} runs)"
    tag = "failure" if failed else "skipped"
    ET.SubElement(case, tag, message=plain(what), type=row.section.value)
    where = f"{row.line}: " if row.line else ""
    ET.SubElement(case, "system-out").text = plain(f"{where}{row.anchor}: {what}")
    return case


def report(rep: Report, registry: str) -> str:
    """One case per failing link: dead and newly dead fail (as the exit code does); flaky and
    not-dead links are skipped, their evidence partial."""
    # start-up: the report's rules read the history's (~0.1 s to import); `check` needs neither
    from ..report.classify import FAILING, Section

    suite = _Suite(registry)
    for row in rep.rows:
        if row.section in FAILING:
            suite.add(_report_case(row, row.section in (Section.DEAD, Section.NEWLY_DEAD)))
    return _document("anchors report", [suite])
