"""One work under two names: an arXiv preprint and its published version, both registered.

The answers already fetched say so, no other service is asked: arXiv's answer for a preprint
gives its published version's DOI (`ArxivFacts.doi`), and a DOI Crossref answers for may name
its preprint (`DoiFacts.preprints`, from `has-preprint` / `is-preprint-of`). When that DOI or
that preprint is in the registry too, the two entries are one work: `check` says so
(`same-work`, a note naming both entries, so a section does not count one paper twice), and
`export` keeps both keys, each entry naming the other (`eprint` on the published one, the DOI on
the preprint's).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ..details import AlsoRegistered
from ..findings import Code, Finding
from ..history.facts import ArxivFacts, DoiFacts, Facts
from ..ids.model import AnchorKey, ArxivId, Doi, InvalidId
from ..registry.model import Anchor

__all__ = ["SameWork", "findings", "pairs"]


@dataclass(frozen=True, slots=True)
class SameWork:
    """A preprint's key and its published version's, and who said they are one work."""

    preprint: str
    published: str
    #: "arXiv" (the preprint's answer gives the DOI) or "Crossref" (the DOI's record names it)
    said_by: str


def pairs(keys: Mapping[str, AnchorKey], facts: Mapping[str, Facts | None]) -> list[SameWork]:
    """Every preprint/published pair among `keys` (anchor key -> key) that `facts` (the
    answers by anchor key) link; each pair once, in the order of `keys`."""
    arxiv = {k.canonical: key for key, k in keys.items() if isinstance(k, ArxivId)}
    dois = {key for key, k in keys.items() if isinstance(k, Doi)}
    out: dict[tuple[str, str], SameWork] = {}
    for key in keys:
        f = facts.get(key)
        if isinstance(f, ArxivFacts) and f.doi and (doi := _doi_key(f.doi)) in dois:
            out.setdefault((key, doi), SameWork(key, doi, "arXiv"))
        elif isinstance(f, DoiFacts):
            for preprint in f.preprints:
                if preprint in arxiv:
                    out.setdefault(
                        (arxiv[preprint], key), SameWork(arxiv[preprint], key, "Crossref")
                    )
    return list(out.values())


def findings(path: str, found: list[SameWork], entries: Mapping[str, Anchor]) -> list[Finding]:
    """`same-work` on the preprint's entry, naming the published one (its anchor and line)."""
    out = []
    for pair in found:
        pre, pub = entries[pair.preprint], entries[pair.published]
        how = (
            "arXiv gives that DOI as its published version"
            if pair.said_by == "arXiv"
            else "Crossref's record of that DOI names it as the preprint"
        )
        out.append(
            Finding(
                Code.SAME_WORK,
                pre.label,
                pre.file or path,
                pre.line,
                f"one work with {pub.label} (line {pub.line}), also registered: {how}; "
                "count it once",
                AlsoRegistered(pub.label, pub.line, pair.said_by),
            )
        )
    return out


def _doi_key(text: str) -> str | None:
    try:
        key = Doi.parse(text)
    except InvalidId:
        return None
    return key.key if isinstance(key, Doi) else None
