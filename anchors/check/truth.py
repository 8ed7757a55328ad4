"""Citation truth: the claims a citation carries against the live facts, one comparison.

Every disagreement becomes a finding with both sides in its details: `claimed` (what the
registry or briefing says) and `actual` (what the service says now), plus `suggested` when
a better citation was found. Silence is never a contradiction: a claim the metadata does not
speak to produces nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import date
from typing import Any, assert_never

from ..extract.claims import Claims, StateClaim, Venue, claims_in, venues_in
from ..findings import Code, Finding
from ..ids.model import AnchorKind
from ..registry.model import Anchor
from ..titles import TitleVerdict, compare_titles
from .resolve.base import Resolution

__all__ = ["FollowUp", "claims_of", "findings", "is_title_mismatch"]


@dataclass(frozen=True, slots=True)
class FollowUp:
    """What the extra arXiv requests for a title mismatch found."""

    #: the title of the cited (or first) version, when it was asked for
    cited_title: str | None = None
    cited_version: int | None = None
    #: (ID, title) of a paper whose title is the registry's, from a title search
    suggested: tuple[str, str] | None = None
    #: False when a request failed: not cached, asked again next run
    complete: bool = True

    def to_cache(self, written: str) -> dict[str, Any]:
        return {
            "written": written,
            "cited_title": self.cited_title,
            "cited_version": self.cited_version,
            "suggested": list(self.suggested) if self.suggested else None,
        }

    @classmethod
    def from_cache(cls, data: dict[str, Any], written: str) -> FollowUp | None:
        """The cached follow-up, if it was made for this same written title."""
        if data.get("written") != written:
            return None
        s = data.get("suggested")
        return cls(
            data.get("cited_title"),
            data.get("cited_version"),
            (str(s[0]), str(s[1])) if isinstance(s, list) and len(s) == 2 else None,
        )


def claims_of(a: Anchor, briefing: Claims | None = None) -> Claims:
    """The registry entry's own claims (title, version, notes), with a briefing's on top."""
    github = a.key is not None and a.key.kind is AnchorKind.GITHUB
    title = None if (github and a.title_inferred) else a.title
    # an issue's title is not a claim about its state ("Open file leak"); its notes may be
    said = a.notes if github else " ".join(filter(None, [a.title, a.notes]))
    own = claims_in(said or "", title=title, version=a.version, github=github)
    if briefing is None:
        return own
    return replace(
        own,
        **{
            k: v
            for k in ("title", "state", "state_text", "date", "venue", "version")
            if (v := getattr(briefing, k)) is not None
        },
    )


def is_title_mismatch(written: str | None, actual: str | None) -> bool:
    """True when both titles are known and the written one is positively another title."""
    return (
        bool(written and actual)
        and compare_titles(written or "", actual or "") is TitleVerdict.DIFFERENT
    )


def _f(code: Code, path: str, a: Anchor, message: str, **details: Any) -> Finding:
    return Finding(
        code, a.label, path, a.line, message, {k: v for k, v in details.items() if v is not None}
    )


def findings(
    path: str, a: Anchor, r: Resolution, claims: Claims, follow: FollowUp | None = None
) -> list[Finding]:
    """Every claim-vs-fact finding for one resolved anchor (its outcome is OK)."""
    if a.key is None:
        return []
    match a.key.kind:
        case AnchorKind.ARXIV:
            return (
                _title(path, a, r, claims, follow)
                + _arxiv(path, a, r, claims)
                + _doi_updates(path, a, r)
            )
        case AnchorKind.DOI:
            return _title(path, a, r, claims, follow) + _doi_updates(path, a, r)
        case AnchorKind.GITHUB:
            return _state(path, a, r, claims) + _target(path, a, r, claims)
        case AnchorKind.URL:
            return _repo(path, a, r)
        case _:
            assert_never(a.key)


def _title(
    path: str, a: Anchor, r: Resolution, c: Claims, follow: FollowUp | None
) -> list[Finding]:
    if not c.title or not r.title:
        return []
    verdict = compare_titles(c.title, r.title)
    if verdict is TitleVerdict.SAME:
        return []
    if verdict is TitleVerdict.UNCONFIRMABLE:
        return [
            _f(
                Code.TITLE_MISMATCH,
                path,
                a,
                "the registry's title has no English title to "
                f"confirm; the real title is: {r.title}",
                claimed=c.title,
                actual=r.title,
                resolved_title=r.title,
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
                f"retitled since v{follow.cited_version}: "
                f"{follow.cited_title!r} is now {r.title!r}",
                claimed=c.title,
                actual=r.title,
                cited_version=follow.cited_version,
                cited_title=follow.cited_title,
            )
        ]
    msg = f"the registry's title is not the paper's; the real title is: {r.title}"
    suggested = None
    if follow and follow.suggested:
        sid, stitle = follow.suggested
        msg += f"; did you mean {sid} ({stitle})?"
        suggested = {"anchor": sid, "title": stitle}
    return [
        _f(
            Code.TITLE_MISMATCH,
            path,
            a,
            msg,
            claimed=c.title,
            actual=r.title,
            resolved_title=r.title,
            suggested=suggested,
        )
    ]


def _arxiv(path: str, a: Anchor, r: Resolution, c: Claims) -> list[Finding]:
    out: list[Finding] = []
    if r.journal_ref or r.doi:
        where = "; ".join(filter(None, [r.journal_ref, f"DOI {r.doi}" if r.doi else None]))
        out.append(
            _f(
                Code.PUBLISHED,
                path,
                a,
                f"published: {where}; cite the venue version",
                journal_ref=r.journal_ref,
                doi=r.doi,
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
                    field="date",
                    claimed=c.date.isoformat(),
                    actual=r.published,
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
                    field="venue",
                    claimed=str(c.venue),
                    actual=actual,
                )
            )
    return out


def _agrees(claim: Venue, said: Venue) -> bool:
    return claim.name.casefold() == said.name.casefold() and (
        said.year is None or claim.year is None or said.year == claim.year
    )


def _live_state(r: Resolution) -> str:
    if r.merged:
        return f"merged on {r.merged_at}" if r.merged_at else "merged"
    if r.state == "closed":
        how = f" ({r.state_reason})" if r.state_reason else ""
        return f"closed{how} on {r.closed_at}" if r.closed_at else f"closed{how}"
    return "open"


def _contradicts(claim: StateClaim, r: Resolution) -> bool:
    closed = r.state == "closed"
    if claim is StateClaim.OPEN:
        return closed
    if claim is StateClaim.CLOSED:
        return not closed
    if claim is StateClaim.MERGED:
        return not r.merged
    return not closed or (r.state_reason == "not_planned" and not r.merged)  # fixed


def _state(path: str, a: Anchor, r: Resolution, c: Claims) -> list[Finding]:
    out: list[Finding] = []
    if c.state and r.state and _contradicts(c.state, r):
        live = _live_state(r)
        out.append(
            _f(
                Code.STALE_CLAIM,
                path,
                a,
                f"cited as {c.state_text or c.state.value!r}, but it is {live}",
                claimed=c.state.value,
                actual=live,
                state=r.state,
                state_reason=r.state_reason,
                closed_at=r.closed_at,
                merged_at=r.merged_at,
            )
        )
    elif r.state == "closed":
        kind = "pull request" if r.is_pull else "issue"
        out.append(
            _f(
                Code.ISSUE_STATE,
                path,
                a,
                f"the {kind} is {_live_state(r)}, not open",
                state=r.state,
                state_reason=r.state_reason,
                merged=r.merged,
            )
        )
    if r.moved_to:
        out.append(_f(Code.REDIRECT, path, a, f"moved to {r.moved_to}", final_url=r.moved_to))
    return out


_STOP = frozenset(
    [
        "a",
        "an",
        "the",
        "and",
        "or",
        "of",
        "for",
        "in",
        "on",
        "to",
        "with",
        "from",
        "by",
        "at",
        "as",
        "is",
        "are",
        "be",
        "was",
        "were",
        "it",
        "its",
        "this",
        "that",
        "these",
        "those",
        "not",
        "no",
        "via",
        "vs",
        "using",
        "use",
        "when",
        "after",
        "before",
        "into",
        "over",
        "under",
        "up",
        "down",
        "out",
        "bug",
        "bugs",
        "issue",
        "issues",
        "pr",
        "pull",
        "request",
        "feature",
        "fix",
        "fixed",
        "add",
        "adds",
        "support",
        "github",
        "error",
    ]
)
_WORD_RE = re.compile(r"[A-Za-z][A-Za-z0-9+]*")


def _content(text: str, ignore: set[str]) -> set[str]:
    words = {w.lower() for w in _WORD_RE.findall(text)}
    return {
        w.rstrip("s") if len(w) > 4 else w
        for w in words
        if len(w) > 1 and w not in _STOP and w not in ignore
    }


def _target(path: str, a: Anchor, r: Resolution, c: Claims) -> list[Finding]:
    ref = a.key
    if not c.title or not r.title or ref is None or ref.kind is not AnchorKind.GITHUB:
        return []
    ignore = {ref.owner.lower(), ref.repo.lower(), *ref.repo.lower().split("-")}
    said, live = _content(c.title, ignore), _content(r.title, ignore)
    if not said or not live or said & live:
        return []
    return [
        _f(
            Code.WRONG_TARGET,
            path,
            a,
            f"the briefing calls it {c.title!r}, but #{ref.number} is {r.title!r}",
            claimed=c.title,
            actual=r.title,
        )
    ]


def _repo(path: str, a: Anchor, r: Resolution) -> list[Finding]:
    out: list[Finding] = []
    if r.archived:
        out.append(
            _f(
                Code.REPO_ARCHIVED,
                path,
                a,
                f"the repository {r.title} is archived (read-only)",
                actual=r.title,
            )
        )
    if r.moved_to:
        out.append(
            _f(
                Code.REDIRECT,
                path,
                a,
                f"the repository is now {r.title}; cite {r.moved_to}",
                final_url=r.moved_to,
                claimed=str(a.key),
                actual=r.title,
            )
        )
    return out


def _doi_updates(path: str, a: Anchor, r: Resolution) -> list[Finding]:
    out: list[Finding] = []
    for kind, notice in r.updates:
        if kind in ("retraction", "withdrawal", "removal"):
            out.append(
                _f(
                    Code.RETRACTED,
                    path,
                    a,
                    f"the publisher issued a {kind} notice ({notice}); do not cite it as sound",
                    update=kind,
                    notice=notice,
                )
            )
        elif kind in ("correction", "erratum", "corrigendum", "addendum", "clarification"):
            out.append(
                _f(
                    Code.CORRECTED,
                    path,
                    a,
                    f"the publisher issued a {kind} ({notice})",
                    update=kind,
                    notice=notice,
                )
            )
    return out
