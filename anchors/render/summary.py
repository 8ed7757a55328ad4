"""The one-line summaries each command prints once, on stderr, with plurals that agree.

Each line names files the repository chose (a registry path from a config file may hold a
newline and `::error::`), so each is passed through `escape.plain` before it is returned: one
line, no control character, no workflow command.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from ..findings import Severity, State
from .escape import plain

if TYPE_CHECKING:
    from pathlib import Path

    from ..export import ExportItem
    from ..extract.citations import Briefing
    from ..fix import FixResult
    from ..merging.merge import MergeResult
    from ..report.weekly import Report
    from ..result import CheckResult

__all__ = [
    "add_line",
    "add_warnings",
    "anchor_states",
    "check_line",
    "export_line",
    "export_warnings",
    "findings_counts",
    "fix_line",
    "fix_skipped",
    "host_lines",
    "plural",
    "report_line",
    "runs_words",
    "starting_point_line",
    "state_words",
]

_IRREGULAR = {"anchor": "anchors", "duplicate": "duplicates", "was": "were"}


def plural(n: int, word: str, many: str | None = None) -> str:
    """`1 error`, `2 errors`, `0 errors`; `many` for words that do not just take an s."""
    return f"{n} {word if n == 1 else many or _IRREGULAR.get(word, word + 's')}"


#: how each state reads in a sentence, in the order the states are told
_STATE_WORDS = {
    State.OK: "OK",
    State.REDIRECTED: "redirected",
    State.WARNED: "with warnings",
    State.UNVERIFIED: "unverified",
    State.FAILING: "failing",
    State.NOT_CHECKED: "not checked",
}


def anchor_states(result: CheckResult) -> str:
    """`8 OK, 2 redirected, 3 failing, 2 not checked (1 skipped, 1 excluded)`: each anchor
    counted once, so the numbers sum to the anchors; OK always, the other states when any."""
    states, why = result.states(), result.not_checked()
    out = state_words(states)
    if states[State.NOT_CHECKED]:
        out += " (" + ", ".join(f"{n} {u.value}" for u, n in why.items() if n) + ")"
    return out


def state_words(states: Mapping[State, int]) -> str:
    """`8 OK, 2 redirected, 3 failing`: OK always, the other states when any (the words
    `check` and `report` both count anchors in)."""
    return ", ".join(
        f"{states.get(s, 0)} {word}"
        for s, word in _STATE_WORDS.items()
        if states.get(s, 0) or s is State.OK
    )


def findings_counts(result: CheckResult) -> str:
    """`5 errors, 4 warnings, 2 notes`: findings, not anchors (one anchor may have several)."""
    counts = result.counts()
    return ", ".join(
        plural(counts[s.value], w)
        for s, w in zip(Severity, ("error", "warning", "note"), strict=True)
    )


def check_line(result: CheckResult) -> str:
    """What a user asks first: how many, in which state, what was found, how long."""
    many = f" in {len(result.registries)} registries" if len(result.registries) > 1 else ""
    head = f"{plural(result.anchors, 'anchor')}{many}{'' if result.online else ' (offline)'}"
    extra = []
    if result.online:
        extra.append(f"{result.checked} checked online")
        if result.cached:
            extra.append(f"{result.cached} from cache")
    extra.append(f"{result.elapsed:.1f} s")
    return plain(
        f"{head}: {anchor_states(result)}; findings: {findings_counts(result)}; {', '.join(extra)}"
    )


def host_lines(result: CheckResult) -> list[str]:
    """`--verbose`: one line per site of an online check, most failing first; their figures
    add up to the summary line's (`report.hosts.of_check`). Offline, no site was asked."""
    if not result.online:
        return []
    from ..report.hosts import of_check  # start-up: ~0.1 s to import, only for `--verbose`

    out = []
    for host in of_check(result):
        median = "no link checked" if host.median_ms is None else f"median {host.median_ms:.0f} ms"
        out.append(
            f"{host.host or '(no valid identifier)'}: {plural(host.anchors, 'anchor')}, "
            f"{host.checked} checked, {host.failing} failing, {host.unverified} unverified, "
            f"{host.rate_limited} rate-limited; {median}"
        )
    return [plain(line) for line in out]


def add_line(result: MergeResult, dry_run: bool = False, gate: bool = False) -> str:
    """The one stderr line of `anchors add`: what was (or would be) written, or that nothing was.

    With `gate` (`add --check`) it says whether the registry is up to date with the briefings.
    """
    n = result.counts()
    dup, con = plural(n["duplicates"], "duplicate"), plural(n["conflicts"], "conflict")
    briefing = "briefing" if result.briefings == 1 else "briefings"
    per = n["continued_per_briefing"]
    added = f"{n['added']} added" + (f" ({per} continued per the {briefing})" if per else "")
    if gate and not result.up_to_date:
        what = "does not exist" if result.new_file else "is not up to date with the briefings"
        return plain(
            f"{result.registry} {what}: {len(result.added)} would be added, {len(result.extended)} "
            f"continued; run `anchors add` with these briefings and commit the registry"
        )
    if result.up_to_date and not result.new_file:
        cited = plural(len(result.entries), "cited anchor")
        return plain(
            f"{result.registry} is already up to date: its {cited}"
            f" {'is' if len(result.entries) == 1 else 'are'} all recorded, nothing to add or "
            f"continue ({dup}, {con}, {n['invalid']} invalid)"
        )
    if result.new_file:
        verb = "would create" if dry_run else "created" if result.written else "did not create"
    else:
        verb = "would change" if dry_run else "wrote" if result.written else "no change to"
    if result.starting_point:  # nothing could be continued, and no claim could be unbacked
        return plain(f"{verb} {result.registry}: {added}, {dup}, {con}, {n['invalid']} invalid")
    return plain(
        f"{verb} {result.registry}: {added}, {n['continued']} continued, {dup}, "
        f"{con}, {n['invalid']} invalid, {plural(n['unbacked_claims'], 'unbacked claim')}"
    )


def starting_point_line(result: MergeResult, dry_run: bool = False) -> str | None:
    """Said once when a new or empty registry took the briefings' history of its anchors
    (`9-21锚定；续立`) as its starting point, in place of an `unbacked-claim` for each."""
    taken = len(result.continued_per_briefing)
    if not result.starting_point or not taken:
        return None
    was = "is new" if result.new_file else "was empty"
    verb = "would take" if dry_run else "took"
    briefing = "briefing" if result.briefings == 1 else "briefings"
    return plain(
        f"{result.registry} {was}: {verb} the first-anchored dates of "
        f"{plural(taken, 'anchor')} from the {briefing} as its starting point"
    )


def runs_words(rep: Report) -> str:
    """`3 runs`, or `3 runs (1 interrupted)` when some did not finish."""
    partial = f" ({rep.partial_runs} interrupted)" if rep.partial_runs else ""
    return f"{plural(rep.runs, 'run')}{partial}"


def report_line(rep: Report) -> str:
    """The runs, the failing sections, and each registry entry as last checked (in `check`'s
    states: after a check, the same numbers as its own line)."""
    counts = rep.counts()
    line = (
        f"{runs_words(rep)}: {counts['newly-dead']} newly dead, {counts['dead']} dead, "
        f"{counts['flaky']} flaky, {counts['recovered']} recovered"
    )
    if rep.states:
        n = sum(rep.states.values())
        line += f"; {plural(n, 'anchor')} as last checked: {state_words(rep.states)}"
    return line


def fix_line(res: FixResult, registry: Path, dry_run: bool) -> str:
    verb = "would fix" if dry_run else "fixed" if res.written else "nothing to fix in"
    return plain(f"{verb} {registry}: {plural(len(res.fixes), 'change')}")


def fix_skipped(res: FixResult, registry: Path) -> list[str]:
    """One warning per redirect not applied, saying why (a soft 404 is not a move)."""
    return [
        plain(f"{registry}:{line}: not moved: {url} {why} ({new})")
        for url, line, new, why in res.skipped
    ]


def export_line(items: list[ExportItem]) -> str:
    return f"exported {plural(len(items), 'anchor')}"


def export_warnings(items: list[ExportItem], registry: Path) -> list[str]:
    """Two entries that met on one citation key: both are written, the later under a longer key.
    An entry the latest check found gone is written too, but not silently."""
    out = []
    for it in items:
        if it.clash:
            out.append(
                f"{registry}:{it.line}: citation key {it.clash[0]} is also the key of the entry "
                f"on line {it.clash[1]}; this one is written as {it.cite_key}"
            )
        if it.gone:
            out.append(
                f"{registry}:{it.line}: {it.anchor} was found gone by the latest check "
                f"({it.gone}); exported anyway, fix or remove it before citing it"
            )
    return [plain(line) for line in out]


def add_warnings(briefings: list[Briefing]) -> list[str]:
    """A briefing where nothing looked like a citation: often the wrong file, or a new format;
    or an empty file (said so, not asked for a date it cannot need)."""
    return [
        plain(f"{b.path}: {'empty: nothing to add' if b.empty else 'no citations found'}")
        for b in briefings
        if not b.citations and not b.invalid
    ]
