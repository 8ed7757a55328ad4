"""Figures and quotes against their sources: the issue's four rates on the labelled set.

Runs the pure pipeline (extraction, attribution by line or block, one verdict each) over
tests/data/figures and prints the set's size by label and language, the rates against their
goals, and the cases whose verdict differs from their label.

    python bench/figures.py [--misses]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.figureset import LABELS, Outcome, load, rates, run


def _row(name: str, value: float, goal: str, ok: bool) -> str:
    return f"| {name} | {value:.1%} | {goal} | {'met' if ok else 'NOT MET'} |"


def _count(name: str, count: int) -> str:
    return f"| {name} | {count} | 0 | {'met' if count == 0 else 'NOT MET'} |"


def table(outcomes: list[Outcome]) -> str:
    r = rates(outcomes)
    goals = r.goals
    size = ["| label | figure-zh | figure-en | quote-zh | quote-en |", "|---|---|---|---|---|"]
    for label in LABELS:
        cells = [
            str(r.counts.get((label, w), 0))
            for w in ("figure-zh", "figure-en", "quote-zh", "quote-en")
        ]
        size.append(f"| {label} | " + " | ".join(cells) + " |")
    rows = [
        "| rate | value | goal | |",
        "|---|---|---|---|",
        _row(
            "supported found", r.supported_found, ">= 90%", goals["supported figures found >= 90%"]
        ),
        _row(
            "supported called not-found",
            r.supported_not_found,
            "<= 2%",
            goals["supported called not-found <= 2%"],
        ),
        _row(
            "unsupported flagged not-found",
            r.unsupported_flagged,
            ">= 75%",
            goals["unsupported flagged not-found >= 75%"],
        ),
        _row(
            "unsupported called supported",
            r.unsupported_supported,
            "<= 5%",
            goals["unsupported called supported <= 5%"],
        ),
        _count("unverifiable called not-found", r.unverifiable_not_found),
        _count("non-figures given a verdict", r.nonfigure_verdicts),
        _count("figures in two-citation sentences given a verdict", r.unattributed_verdicts),
        f"| derived found (info) | {r.derived_found:.1%} | | |",
    ]
    return "\n".join(size) + "\n\n" + "\n".join(rows)


def misses(outcomes: list[Outcome]) -> list[str]:
    out = []
    for o in outcomes:
        got = o.verdict.kind.value if o.verdict else "no verdict"
        want = o.expect.label
        if (want in ("none", "unattributed") and o.verdict is None) or got == want:
            continue
        out.append(
            f"- {o.case.id}: {o.expect.claim!r} labelled {want}, got {got}"
            + (f" ({o.verdict.message})" if o.verdict else "")
        )
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--misses", action="store_true", help="list the cases whose verdict differs")
    args = ap.parse_args()
    sources, cases = load()
    outcomes = run(cases, sources)
    print(f"{len(sources)} sources, {len(cases)} cases, {len(outcomes)} labelled claims\n")
    print(table(outcomes))
    if args.misses:
        print("\nCases whose verdict differs from their label:")
        print("\n".join(misses(outcomes)) or "(none)")


if __name__ == "__main__":
    main()
