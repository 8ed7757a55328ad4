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


def claims_of(anchor: Anchor, briefing: Claims | None = None) -> Claims:
    """The entry's own claims (title, version, notes), then the latest claims its briefings
    made (kept in the entry by `add`), then an ad-hoc briefing's (`--briefing`) on top."""
    github = anchor.key is not None and anchor.key.kind is AnchorKind.GITHUB
    title = None if (github and anchor.title_inferred) else anchor.title
    # an issue's title is not a claim about its state ("Open file leak"); its notes may be
    said = anchor.notes if github else " ".join(filter(None, [anchor.title, anchor.notes]))
    out = claims_in(said or "", title=title, version=anchor.version, github=github)
    for over in (latest(anchor.claims), briefing):
        if over is not None:
            out = _over(out, over)
    return out


def _over(under: Claims, over: Claims) -> Claims:
    """`over`'s values where it has them; a state keeps its own day and place."""
    values = {
        name: value
        for name in ("title", "state", "state_text", "date", "venue", "version")
        if (value := getattr(over, name)) is not None
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


def _f(code: Code, path: str, anchor: Anchor, message: str, details: Details) -> Finding:
    return Finding(code, anchor.label, path, anchor.line, message, details)


def findings(
    path: str,
    anchor: Anchor,
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
            return _title(path, anchor, facts.title, claims, follow) + _arxiv(
                path, anchor, facts, claims, before
            )
        case DoiFacts():
            return _title(path, anchor, facts.title, claims, follow) + _doi_updates(
                path, anchor, facts
            )
        case IssueFacts():
            before_ = earlier if isinstance(earlier, IssueFacts) else None
            return state_findings(path, anchor, facts, claims, before_) + target_findings(
                path, anchor, facts, claims
            )
        case RepoFacts():
            return _repo(path, anchor, facts)
        case _:
            assert_never(facts)


def _title(
    path: str, anchor: Anchor, title: str | None, claims: Claims, follow: FollowUp | None
) -> list[Finding]:
    """The written title against the paper's: the same (nothing), unconfirmable (no English
    title to compare), the one an earlier version had (retitled), or another paper's."""
    if not claims.title or not title:
        return []
    verdict = compare_titles(claims.title, title)
    if verdict is TitleVerdict.SAME:
        return []
    if verdict is TitleVerdict.UNCONFIRMABLE:
        return [_unconfirmable(path, anchor, claims.title, title)]
    earlier = follow.cited_title if follow else None
    if follow and earlier and compare_titles(claims.title, earlier) is TitleVerdict.SAME:
        return [_retitled(path, anchor, claims.title, title, follow.cited_version, earlier)]
    return [_other_paper(path, anchor, claims.title, title, follow)]


def _unconfirmable(path: str, anchor: Anchor, written: str, title: str) -> Finding:
    """A written title with no English words (a Chinese-only description) cannot be held
    against the paper's: the finding says so, and gives the paper's title to write."""
    return _f(
        Code.TITLE_MISMATCH,
        path,
        anchor,
        f"the registry's title has no English title to confirm; the real title is: {title}",
        TitleMismatch(written, title, title),
    )


def _retitled(
    path: str, anchor: Anchor, written: str, title: str, version: int | None, earlier: str
) -> Finding:
    """The written title is the one the cited version had: the paper was renamed since."""
    return _f(
        Code.RETITLED,
        path,
        anchor,
        f"retitled since v{version}: {earlier!r} is now {title!r}",
        Retitled(written, title, version, earlier),
    )


def _other_paper(
    path: str, anchor: Anchor, written: str, title: str, follow: FollowUp | None
) -> Finding:
    """The written title is another paper's; arXiv's search may say which one was meant."""
    message = f"the registry's title is not the paper's; the real title is: {title}"
    suggested = None
    if follow and follow.suggested:
        suggested_id, suggested_title = follow.suggested
        message += f"; did you mean {suggested_id} ({suggested_title})?"
        suggested = Suggestion(suggested_id, suggested_title)
    return _f(
        Code.TITLE_MISMATCH,
        path,
        anchor,
        message,
        TitleMismatch(written, title, title, suggested),
    )


def _arxiv(
    path: str, anchor: Anchor, facts: ArxivFacts, claims: Claims, earlier: ArxivFacts | None
) -> list[Finding]:
    """An arXiv paper's news (published in a venue) and the briefing's date and venue
    against its metadata."""
    out: list[Finding] = []
    if (facts.journal_ref or facts.doi) and not (earlier and (earlier.journal_ref or earlier.doi)):
        where = "; ".join(
            filter(None, [facts.journal_ref, f"DOI {facts.doi}" if facts.doi else None])
        )
        out.append(
            _f(
                Code.PUBLISHED,
                path,
                anchor,
                f"published: {where}; cite the venue version",
                Published(facts.journal_ref, facts.doi),
            )
        )
    return (
        out + _arxiv_date(path, anchor, facts, claims) + _arxiv_venue(path, anchor, facts, claims)
    )


def _arxiv_date(path: str, anchor: Anchor, facts: ArxivFacts, claims: Claims) -> list[Finding]:
    """The briefing's date against v1's and, when the latest version is cited, its update's;
    a day apart still agrees."""
    if not (claims.date and facts.published):
        return []
    cited_is_latest = not anchor.version or anchor.version == facts.version
    dates = [day for day in (facts.published, facts.updated if cited_is_latest else None) if day]
    if not all(abs((date.fromisoformat(day) - claims.date).days) > 1 for day in dates):
        return []
    return [
        _f(
            Code.CLAIM_MISMATCH,
            path,
            anchor,
            f"the briefing dates it {claims.date}; arXiv has v1 on {facts.published}",
            ClaimMismatch("date", claims.date.isoformat(), facts.published),
        )
    ]


def _arxiv_venue(path: str, anchor: Anchor, facts: ArxivFacts, claims: Claims) -> list[Finding]:
    """The briefing's venue against the venues arXiv's comment and journal reference name
    (none named: silence, never a contradiction)."""
    if not claims.venue:
        return []
    said = venues_in(" ".join(filter(None, [facts.comment, facts.journal_ref])))
    if not said or any(_agrees(claims.venue, venue) for venue in said):
        return []
    actual = ", ".join(map(str, said))
    return [
        _f(
            Code.CLAIM_MISMATCH,
            path,
            anchor,
            f"cited as {claims.venue}; arXiv's metadata says {actual}",
            ClaimMismatch("venue", str(claims.venue), actual),
        )
    ]


def _agrees(claim: Venue, said: Venue) -> bool:
    return claim.name.casefold() == said.name.casefold() and (
        said.year is None or claim.year is None or said.year == claim.year
    )


def _repo(path: str, anchor: Anchor, facts: RepoFacts) -> list[Finding]:
    out: list[Finding] = []
    if facts.archived:
        out.append(
            _f(
                Code.REPO_ARCHIVED,
                path,
                anchor,
                f"the repository {facts.title} is archived (read-only)",
                RepoArchived(facts.title),
            )
        )
    if facts.moved_to:
        out.append(
            _f(
                Code.REDIRECT,
                path,
                anchor,
                f"the repository is now {facts.title}; cite {facts.moved_to}",
                Moved(facts.moved_to, str(anchor.key), facts.title),
            )
        )
    return out


def _doi_updates(path: str, anchor: Anchor, facts: DoiFacts) -> list[Finding]:
    out: list[Finding] = []
    for kind, notice in facts.updates:
        if kind in ("retraction", "withdrawal", "removal"):
            out.append(
                _f(
                    Code.RETRACTED,
                    path,
                    anchor,
                    f"the publisher issued a {kind} notice ({notice}); do not cite it as sound",
                    PublisherNotice(kind, notice),
                )
            )
        elif kind in ("correction", "erratum", "corrigendum", "addendum", "clarification"):
            out.append(
                _f(
                    Code.CORRECTED,
                    path,
                    anchor,
                    f"the publisher issued a {kind} ({notice})",
                    PublisherNotice(kind, notice),
                )
            )
    return out
