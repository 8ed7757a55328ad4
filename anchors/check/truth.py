"""Citation truth: the claims a citation carries against the live facts, one comparison.

Every disagreement becomes a finding with both sides in its details: `claimed` (what the
registry or briefing says) and `actual` (what the service says now), plus `suggested` when
a better citation was found. Silence is never a contradiction: a claim the metadata does not
speak to produces nothing.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from typing import assert_never

from ..details import (
    ClaimMismatch,
    Details,
    Moved,
    Published,
    PublisherNotice,
    RepoArchived,
    Retitled,
    Suggestion,
    TitleMismatch,
)
from ..extract.claims import claims_in, venues_in
from ..findings import Code, Finding
from ..history.facts import ArxivFacts, DoiFacts, Facts, IssueFacts, RepoFacts
from ..ids.model import AnchorKind
from ..registry.claims import Claims, Venue, latest
from ..registry.model import Anchor
from ..resolve.base import FollowUp
from ..titles import TitleVerdict, compare_titles
from .issues import state_findings, target_findings

__all__ = ["claims_of", "findings", "is_title_mismatch"]


def claims_of(a: Anchor, briefing: Claims | None = None) -> Claims:
    """The entry's own claims (title, version, notes), then the latest claims its briefings
    made (kept in the entry by `add`), then an ad-hoc briefing's (`--briefing`) on top."""
    github = a.key is not None and a.key.kind is AnchorKind.GITHUB
    title = None if (github and a.title_inferred) else a.title
    # an issue's title is not a claim about its state ("Open file leak"); its notes may be
    said = a.notes if github else " ".join(filter(None, [a.title, a.notes]))
    out = claims_in(said or "", title=title, version=a.version, github=github)
    for over in (latest(a.claims), briefing):
        if over is not None:
            out = _over(out, over)
    return out


def _over(under: Claims, over: Claims) -> Claims:
    """`over`'s values where it has them; a state keeps its own day and place."""
    values = {
        k: v
        for k in ("title", "state", "state_text", "date", "venue", "version")
        if (v := getattr(over, k)) is not None
    }
    if over.state is not None:
        values.update(said_on=over.said_on, path=over.path, line=over.line)
    return replace(under, **values)


def is_title_mismatch(written: str | None, actual: str | None) -> bool:
    """True when both titles are known and the written one is positively another title."""
    return (
        bool(written and actual)
        and compare_titles(written or "", actual or "") is TitleVerdict.DIFFERENT
    )


def _f(code: Code, path: str, a: Anchor, message: str, details: Details) -> Finding:
    return Finding(code, a.label, path, a.line, message, details)


def findings(
    path: str,
    a: Anchor,
    facts: Facts,
    claims: Claims,
    follow: FollowUp | None = None,
    earlier: Facts | None = None,
) -> list[Finding]:
    """Every claim-vs-fact finding for one resolved anchor, from the facts its lookup found;
    `earlier` are the facts the last run learnt, so news (a close, a publication) is noted
    once, by the run that first sees it."""
    match facts:
        case ArxivFacts():
            before = earlier if isinstance(earlier, ArxivFacts) else None
            return _title(path, a, facts.title, claims, follow) + _arxiv(
                path, a, facts, claims, before
            )
        case DoiFacts():
            return _title(path, a, facts.title, claims, follow) + _doi_updates(path, a, facts)
        case IssueFacts():
            before_ = earlier if isinstance(earlier, IssueFacts) else None
            return state_findings(path, a, facts, claims, before_) + target_findings(
                path, a, facts, claims
            )
        case RepoFacts():
            return _repo(path, a, facts)
        case _:
            assert_never(facts)


def _title(
    path: str, a: Anchor, title: str | None, c: Claims, follow: FollowUp | None
) -> list[Finding]:
    if not c.title or not title:
        return []
    verdict = compare_titles(c.title, title)
    if verdict is TitleVerdict.SAME:
        return []
    if verdict is TitleVerdict.UNCONFIRMABLE:
        return [
            _f(
                Code.TITLE_MISMATCH,
                path,
                a,
                f"the registry's title has no English title to confirm; the real title is: {title}",
                TitleMismatch(c.title, title, title),
            )
        ]
    if (
        follow
        and follow.cited_title
        and compare_titles(c.title, follow.cited_title) is TitleVerdict.SAME
    ):
        return [
            _f(
                Code.RETITLED,
                path,
                a,
                f"retitled since v{follow.cited_version}: {follow.cited_title!r} is now {title!r}",
                Retitled(c.title, title, follow.cited_version, follow.cited_title),
            )
        ]
    msg = f"the registry's title is not the paper's; the real title is: {title}"
    suggested = None
    if follow and follow.suggested:
        sid, stitle = follow.suggested
        msg += f"; did you mean {sid} ({stitle})?"
        suggested = Suggestion(sid, stitle)
    return [
        _f(
            Code.TITLE_MISMATCH,
            path,
            a,
            msg,
            TitleMismatch(c.title, title, title, suggested),
        )
    ]


def _arxiv(
    path: str, a: Anchor, r: ArxivFacts, c: Claims, earlier: ArxivFacts | None
) -> list[Finding]:
    out: list[Finding] = []
    if (r.journal_ref or r.doi) and not (earlier and (earlier.journal_ref or earlier.doi)):
        where = "; ".join(filter(None, [r.journal_ref, f"DOI {r.doi}" if r.doi else None]))
        out.append(
            _f(
                Code.PUBLISHED,
                path,
                a,
                f"published: {where}; cite the venue version",
                Published(r.journal_ref, r.doi),
            )
        )
    if c.date and r.published:
        dates = [
            d
            for d in (r.published, r.updated if (not a.version or a.version == r.version) else None)
            if d
        ]
        if all(abs((date.fromisoformat(d) - c.date).days) > 1 for d in dates):
            out.append(
                _f(
                    Code.CLAIM_MISMATCH,
                    path,
                    a,
                    f"the briefing dates it {c.date}; arXiv has v1 on {r.published}",
                    ClaimMismatch("date", c.date.isoformat(), r.published),
                )
            )
    if c.venue:
        said = venues_in(" ".join(filter(None, [r.comment, r.journal_ref])))
        if said and not any(_agrees(c.venue, v) for v in said):
            actual = ", ".join(map(str, said))
            out.append(
                _f(
                    Code.CLAIM_MISMATCH,
                    path,
                    a,
                    f"cited as {c.venue}; arXiv's metadata says {actual}",
                    ClaimMismatch("venue", str(c.venue), actual),
                )
            )
    return out


def _agrees(claim: Venue, said: Venue) -> bool:
    return claim.name.casefold() == said.name.casefold() and (
        said.year is None or claim.year is None or said.year == claim.year
    )


def _repo(path: str, a: Anchor, r: RepoFacts) -> list[Finding]:
    out: list[Finding] = []
    if r.archived:
        out.append(
            _f(
                Code.REPO_ARCHIVED,
                path,
                a,
                f"the repository {r.title} is archived (read-only)",
                RepoArchived(r.title),
            )
        )
    if r.moved_to:
        out.append(
            _f(
                Code.REDIRECT,
                path,
                a,
                f"the repository is now {r.title}; cite {r.moved_to}",
                Moved(r.moved_to, str(a.key), r.title),
            )
        )
    return out


def _doi_updates(path: str, a: Anchor, r: DoiFacts) -> list[Finding]:
    out: list[Finding] = []
    for kind, notice in r.updates:
        if kind in ("retraction", "withdrawal", "removal"):
            out.append(
                _f(
                    Code.RETRACTED,
                    path,
                    a,
                    f"the publisher issued a {kind} notice ({notice}); do not cite it as sound",
                    PublisherNotice(kind, notice),
                )
            )
        elif kind in ("correction", "erratum", "corrigendum", "addendum", "clarification"):
            out.append(
                _f(
                    Code.CORRECTED,
                    path,
                    a,
                    f"the publisher issued a {kind} ({notice})",
                    PublisherNotice(kind, notice),
                )
            )
    return out
