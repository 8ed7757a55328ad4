"""Codes about what arXiv, GitHub and Crossref answer for a cited paper, issue or DOI.

One entry per code; `anchors.catalogue` gathers them into `CATALOGUE`.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..findings import Code
from .codedoc import CodeDoc

__all__ = ["SOURCES"]

_C = CodeDoc
SOURCES: Mapping[Code, CodeDoc] = {
    Code.NOT_FOUND: _C(
        "Identifier, version, issue or DOI that does not exist",
        "A well-formed arXiv ID arXiv does not have (asked twice), a pinned version that does "
        "not exist, or a GitHub issue/PR or DOI that does not exist.",
        '`arxiv: "2609.99999"`, or `version: 9` of a paper at v2.',
        "Find the right identifier (a typo, a wrong repository) and correct the entry.",
    ),
    Code.TITLE_MISMATCH: _C(
        "Registry title is not the resolved title",
        "An arXiv or DOI title that is not the paper's title or its main title (case, "
        "punctuation, dashes, TeX/HTML spellings, a dropped subtitle and a gloss are "
        "tolerated; a changed, added or reordered word is not).",
        "Claimed `…Model Training with PagedAttention`, actual `…Model Serving with "
        "PagedAttention`; JSON gives `claimed`, `actual` and, when found, `suggested`.",
        "Correct the title, or the ID when `suggested` names the paper the title meant.",
    ),
    Code.WITHDRAWN: _C(
        "arXiv paper withdrawn",
        "arXiv's latest version of the paper is a withdrawal notice.",
        "A paper whose v3 comment reads `This paper has been withdrawn by the author`.",
        "Stop citing it, or pin the version you relied on and say why in `notes`.",
    ),
    Code.ISSUE_STATE: _C(
        "GitHub issue or pull request closed or merged",
        "A cited GitHub issue or PR is closed or merged (with its `state_reason`); noted once, by "
        "the check that first sees it (the history's earlier runs), then only in the report's "
        '"What changed".',
        "`vllm-project/vllm#8242` closed (completed).",
        "Nothing, unless a briefing still calls it open (then `stale-claim` says so).",
    ),
    Code.RETITLED: _C(
        "arXiv title changed since the cited version",
        "An arXiv title that is not the latest but is the cited version's (`idvN`, v1 when "
        "unpinned).",
        "Claimed `Efficiently Programming Large Language Models using SGLang`, actual "
        "`SGLang: Efficient Execution of Structured Language Model Programs`.",
        "Nothing; update the title if the living document should use the new one.",
    ),
    Code.STALE_CLAIM: _C(
        "Claimed issue state contradicted by its live state",
        "A briefing (its claims kept by `add`, or `--briefing`) or the entry's notes say open, "
        "closed, merged or fixed (`仍 open`, `已关闭`, `已合并`, `已修复`…), and a change before "
        "the briefing's day says otherwise (a change on or after it is news, not this).",
        "Claimed `open`, actual `closed (completed) on 2012-05-26`.",
        "Update the claim in the living document; no claim, no finding.",
    ),
    Code.WRONG_TARGET: _C(
        "Issue or PR title shares nothing with the one cited",
        "The issue/PR title written in the briefing (or the words of a list item citing it by "
        "number only, `- Fix X ([#N](url))`) shares no content word with the live title "
        "in any form (identifiers in parts, `proxy`/`proxies`, `typing`/`type`; stop words, "
        "kinds of change such as `fix`/`chore`/`minor` and the repository name aside). A live "
        "title of three words or fewer, or a one-word description, is too short to judge.",
        "Claimed `vLLM prefix caching GPU utilization`, actual "
        "`Docs: repair broken links in the quickstart guide`.",
        "The number or repository is wrong: find the issue the briefing meant.",
    ),
    Code.REPO_ARCHIVED: _C(
        "GitHub repository archived",
        "A GitHub repository cited by URL is archived (one REST call per repository, cached); "
        "a renamed or transferred one is `redirect`.",
        "`https://github.com/owner/old-tool`, archived by its owner.",
        "Nothing, or say in the living document that it is no longer maintained.",
    ),
    Code.PUBLISHED: _C(
        "Preprint has a journal reference or venue DOI",
        "The arXiv preprint has a journal reference or venue DOI (from the same answer, no "
        "extra request); noted once, by the check that first sees it, then only in the report's "
        '"What changed".',
        "`published: ActaAstron.56:1-50,2006`.",
        "Cite the published version too if the living document should.",
    ),
    Code.CLAIM_MISMATCH: _C(
        "Claimed date or venue contradicted by arXiv",
        "A date next to the ID more than a day from v1 (or the cited version), or a venue with "
        "its year that arXiv's comment or journal reference contradicts; `field` says which.",
        "Claimed `OSDI 2024`, actual `SOSP 2023`.",
        "Correct the date or venue in the briefing or the entry's notes.",
    ),
    Code.RETRACTED: _C(
        "DOI retracted or withdrawn",
        "Crossref's update relations (`updated-by`) hold a retraction, withdrawal or removal "
        "notice for the DOI; the notice's DOI is given.",
        "A DOI whose Crossref record is `updated-by` a retraction notice.",
        "Stop relying on the paper; say so in the living document and the entry's notes.",
    ),
    Code.CORRECTED: _C(
        "DOI has a correction or erratum",
        "Crossref's update relations hold a correction, erratum or addendum for the DOI; the "
        "notice's DOI is given.",
        "A DOI `updated-by` an erratum.",
        "Read the correction; cite it too if it changes what the living document says.",
    ),
    Code.SAME_WORK: _C(
        "Preprint and published version both registered",
        "An arXiv preprint and a DOI in the registry are one work: arXiv's answer gives that "
        "DOI as the published version, or Crossref's `has-preprint` relation names the arXiv "
        "ID (answers already fetched, no extra request); JSON `other` and `other_line` name the "
        "second entry.",
        "`2106.09685` on line 12 and `10.1145/3600006.3613165` on line 40.",
        "Count the work once in the living document; `export` keeps both keys, linking each "
        "entry to the other (`eprint` on the published one, `doi` on the preprint).",
    ),
}
