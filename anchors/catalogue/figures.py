"""Codes about figures and quotes a briefing attributes to a paper or a thread, read in it.

One entry per code; `anchors.catalogue` gathers them into `CATALOGUE`.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..findings import Code
from .codedoc import CodeDoc

__all__ = ["FIGURES"]

_C = CodeDoc
FIGURES: Mapping[Code, CodeDoc] = {
    Code.FIGURE_NOT_FOUND: _C(
        "Figure not in the source it is attributed to",
        "A figure a briefing line attributes to one arXiv paper or GitHub issue/PR (kept by "
        "`add`) is in none of it: the whole source was read (the cited version's abstract and "
        "HTML full text, or the thread's body and every comment page), the figure has a known "
        "unit, and no number of that unit lies within half a unit of its last digit (hedges "
        "widen), no ratio or difference of two numbers in one sentence or row gives it, and "
        "none comes close. Where anything was not read, the verdict is `unverifiable`, never this.",
        "`vLLM 吞吐提升 2-24×` attributed to `2309.06180`, whose abstract says `2-4×`; the "
        "finding gives the nearest numbers (`2-4× (abstract v1)`) and what was read.",
        "Correct the figure in the briefing (a typo, the wrong source), or cite where it is "
        "said; `check --verbose` lists every verdict with its evidence.",
    ),
    Code.QUOTE_NOT_FOUND: _C(
        "Quote not in the source it is attributed to",
        "A quotation of at least 12 Latin characters attributed to one arXiv paper or GitHub "
        "issue/PR is not in it, not even as one contiguous run of 85% of it (case, spacing, "
        "quote and dash forms aside); the whole source was read. A Chinese sentence quoting an "
        "English source is a translation (`unverifiable`), never this.",
        '`"we never saw a regression on H100"` attributed to an issue whose thread never says '
        "it; the finding gives the longest run found.",
        "Quote the source's words, or paraphrase without quotation marks.",
    ),
    Code.SOURCE_CHANGED: _C(
        "A figure or quote supported before is no longer in its source",
        "An earlier check found the figure or quote (its passage is kept in the history, "
        "`.anchors/`), and the passage has since changed or gone: a comment was edited, a new "
        "arXiv version replaced the text. Seen by the first check after the cached source "
        "expires; a history anchors does not trust (committed to the repository) is not read, "
        "so without one this is never reported.",
        "`~70%` supported by `comment 1234567890` on 2026-09-24; the comment now says 60%.",
        "Read the source again: update the figure, or pin the version (`2309.06180v1`) that "
        "says it.",
    ),
}
