"""The labelled set of figures and quotes (tests/data/figures/*.yaml) and the pure pipeline run
over it: each case's lines as a briefing -> extraction's attributed figures and quotes -> one
verdict each against the case's sources. tests/test_figures_labelled.py asserts the issue's
goals on it; bench/figures.py prints the same rates as a table.

The data keeps facts from real public documents (URL and place, numbers, units, layout); arXiv
abstracts are CC0 and kept as text; thread and full-text passages are written in our own words
around the same numbers. See tests/data/figures/README.md.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

import yaml

from anchors.extract import extract
from anchors.extract.model import Attributed
from anchors.figures.model import Attribution, Figure, Quote
from anchors.figures.parse import figures_in
from anchors.figures.passages import Passage, PassageKind, SourceText
from anchors.figures.verdict import ClaimKind, Verdict, VerdictKind, judge, judge_block, unread
from anchors.ids.kinds import AnchorKind, split_key

DATA = Path(__file__).resolve().parent / "data" / "figures"
DAY = date(2026, 9, 24)
LABELS = ("supported", "derived", "not-found", "unverifiable", "none", "unattributed")


@dataclass(frozen=True)
class Expect:
    claim: str
    label: str
    reason: str | None = None
    tag: str | None = None


@dataclass(frozen=True)
class Case:
    id: str
    lines: tuple[str, ...]
    lang: str
    expects: tuple[Expect, ...]
    variant: str | None = None


@dataclass(frozen=True)
class Outcome:
    case: Case
    expect: Expect
    #: None when the pipeline found no such claim on the case's lines
    verdict: Verdict | None
    #: every claim the pipeline found on the case's lines
    found: tuple[str, ...] = ()


@dataclass
class Source:
    key: str
    url: str
    scope: str
    passages: list[tuple[str, str, PassageKind, str]]  # where, text, kind, part
    gaps: tuple[str, ...] = ()
    variants: dict[str, dict[str, Any]] = field(default_factory=dict)

    def text(self, variant: str | None) -> SourceText:
        """The source as read, or as one of its variants (a part not read, with its gaps)."""
        if variant is None or variant not in self.variants:
            kept = self.passages
            return SourceText(tuple(Passage(t, w, k) for t, w, k, _ in kept), self.scope, self.gaps)
        spec = self.variants[variant]
        drop = set(spec.get("drop", ()))
        kept = [p for p in self.passages if p[3] not in drop]
        scope = str(spec.get("scope", self.scope))
        gaps = tuple(str(g) for g in spec.get("gaps", ()))
        return SourceText(tuple(Passage(t, w, k) for t, w, k, _ in kept), scope, gaps)


def load() -> tuple[dict[str, Source], list[Case]]:
    sources: dict[str, Source] = {}
    cases: list[Case] = []
    for path in sorted(DATA.glob("*.yaml")):
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
        for s in doc.get("sources", []):
            passages = [
                (p["text"], p["where"], PassageKind(p.get("kind", "prose")), p.get("part", ""))
                for p in s["passages"]
            ]
            variants = s.get("variants", {}) or {}
            sources[s["key"]] = Source(
                s["key"], s["url"], s["scope"], passages, tuple(s.get("gaps", ())), variants
            )
        for c in doc.get("cases", []):
            lines = c["lines"] if "lines" in c else [c["line"]]
            expects = tuple(Expect(**e) for e in c["expect"])
            cases.append(Case(f"{path.stem}:{c['id']}", tuple(lines), c["lang"], expects,
                              c.get("variant")))  # fmt: skip
    return sources, cases


def _claim(a: Attributed) -> Figure | Quote:
    if a.what is ClaimKind.QUOTE:
        return Quote(a.words)
    figures = figures_in(a.words)
    assert len(figures) == 1, f"{a.words!r} does not read back as one figure: {figures}"
    return figures[0]


def _verdicts(case: Case, sources: dict[str, Source]) -> dict[str, Verdict]:
    """Each claim the pipeline attributes on the case's lines, and its verdict."""
    text = "\n".join(case.lines) + "\n"
    found = extract(text, f"{case.id}.md", DAY).figures
    groups: dict[tuple[int, str, str], list[Attributed]] = {}
    for a in found:
        groups.setdefault((a.line, a.what.value, a.words), []).append(a)
    out: dict[str, Verdict] = {}
    for (_, _, words), items in groups.items():
        claim = _claim(items[0])
        if items[0].by is Attribution.BLOCK:
            texts = [sources[a.anchor].text(case.variant) for a in items if a.anchor in sources]
            verdict = judge_block(claim, texts)
        else:
            verdict = _by_line(claim, items[0], sources, case.variant)
        out.setdefault(words, verdict)
    return out


def _by_line(
    claim: Figure | Quote, a: Attributed, sources: dict[str, Source], variant: str | None
) -> Verdict:
    if a.anchor in sources:
        return judge(claim, sources[a.anchor].text(variant))
    kind, _ = split_key(a.anchor)
    assert kind not in (AnchorKind.ARXIV, AnchorKind.GITHUB), f"no source for {a.anchor}"
    return unread(a.words, a.what)


def run(cases: Iterable[Case], sources: dict[str, Source]) -> list[Outcome]:
    outcomes = []
    for case in cases:
        verdicts = _verdicts(case, sources)
        for e in case.expects:
            if e.label in ("none", "unattributed"):
                hit = next((w for w in verdicts if e.claim in w or w in e.claim), None)
                outcomes.append(
                    Outcome(case, e, verdicts.get(hit) if hit else None, tuple(verdicts))
                )
            else:
                outcomes.append(Outcome(case, e, verdicts.get(e.claim), tuple(verdicts)))
    return outcomes


@dataclass(frozen=True)
class Rates:
    supported_found: float
    supported_not_found: float
    unsupported_flagged: float
    unsupported_supported: float
    unverifiable_not_found: int
    nonfigure_verdicts: int
    unattributed_verdicts: int
    derived_found: float
    counts: Counter[tuple[str, str]]

    @property
    def goals(self) -> dict[str, bool]:
        return {
            "supported figures found >= 90%": self.supported_found >= 0.90,
            "supported called not-found <= 2%": self.supported_not_found <= 0.02,
            "unsupported flagged not-found >= 75%": self.unsupported_flagged >= 0.75,
            "unsupported called supported <= 5%": self.unsupported_supported <= 0.05,
            "unverifiable never not-found": self.unverifiable_not_found == 0,
            "non-figures never a verdict": self.nonfigure_verdicts == 0,
            "two citations in a sentence attribute nothing": self.unattributed_verdicts == 0,
        }


def _kind(o: Outcome) -> VerdictKind | None:
    return o.verdict.kind if o.verdict is not None else None


def _share(items: list[Outcome], kind: VerdictKind) -> float:
    return sum(1 for o in items if _kind(o) is kind) / len(items) if items else 0.0


def rates(outcomes: list[Outcome]) -> Rates:
    by = {label: [o for o in outcomes if o.expect.label == label] for label in LABELS}
    return Rates(
        supported_found=_share(by["supported"], VerdictKind.SUPPORTED),
        supported_not_found=_share(by["supported"], VerdictKind.NOT_FOUND),
        unsupported_flagged=_share(by["not-found"], VerdictKind.NOT_FOUND),
        unsupported_supported=_share(by["not-found"], VerdictKind.SUPPORTED),
        unverifiable_not_found=sum(
            1 for o in by["unverifiable"] if _kind(o) is VerdictKind.NOT_FOUND
        ),
        nonfigure_verdicts=sum(1 for o in by["none"] if o.verdict is not None),
        unattributed_verdicts=sum(1 for o in by["unattributed"] if o.verdict is not None),
        derived_found=_share(by["derived"], VerdictKind.DERIVED),
        counts=Counter((o.expect.label, _what(o)) for o in outcomes),
    )


def _what(o: Outcome) -> str:
    """`figure-zh`, `quote-en`…: what the case counts as, by the language it is written in."""
    quote = o.expect.tag == "quote" or (o.verdict is not None and o.verdict.what is ClaimKind.QUOTE)
    return f"{'quote' if quote else 'figure'}-{o.case.lang}"
