"""What each finding code means and how to fix it: the one text docs/findings.md and SARIF read.

A new `Code` needs its entry here (tests/test_docs.py fails until it has one); then rerun
`python scripts/gen_docs.py` to regenerate docs/findings.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .findings import Code

__all__ = ["CATALOGUE", "DOCS_PAGE", "CodeDoc", "describe", "doc_anchor"]

#: the page, relative to the repository root, that documents every code under its own heading
DOCS_PAGE = "docs/findings.md"


@dataclass(frozen=True, slots=True)
class CodeDoc:
    """One code's documentation; each field is one sentence of plain text (Markdown `code` ok)."""

    #: a few words, as a rule name (SARIF `shortDescription`)
    title: str
    #: when it is reported (SARIF `fullDescription`)
    description: str
    #: a situation that gives it
    example: str
    #: what to do about it (SARIF `help`)
    fix: str


def describe(code: Code) -> CodeDoc:
    return CATALOGUE[code]


def doc_anchor(code: Code) -> str:
    """`docs/findings.md#dead-link`: the heading of the code on its page (a SARIF `helpUri`)."""
    return f"{DOCS_PAGE}#{code.value}"


_C = CodeDoc
CATALOGUE: Mapping[Code, CodeDoc] = {
    Code.INVALID_ID: _C(
        "Malformed arXiv identifier",
        "An arXiv ID with the wrong digit count for its era, an impossible month, an unknown "
        "archive or a version 0; `add` also reports a malformed DOI or GitHub reference.",
        '`arxiv: "2609.1806"` (IDs since 2015 have five digits after the dot).',
        "Copy the ID from the paper's arXiv page; `add` writes no invalid citation, so correct "
        "the briefing and add it again.",
    ),
    Code.FUTURE_ID: _C(
        "arXiv identifier later than today",
        "The ID's YYMM is later than today (`--today` overrides the date).",
        '`arxiv: "2709.00001"` checked on 2026-12-02.',
        "The ID is mistyped (often the year); correct it from the paper's arXiv page.",
    ),
    Code.DUPLICATE: _C(
        "The same anchor in two entries",
        "The same canonical anchor in two entries (`2609.18063`, `2609.18063v2` and its "
        "abs URL are one; so are `/issues/N` and `/pull/N`), or a duplicate YAML key; in `add`, "
        "one anchor listed twice in a briefing (a warning there: it is merged into one entry).",
        "`2609.18063` on lines 169 and 188 of one briefing; JSON `lines` lists every line.",
        "Merge the entries by hand, keeping the earliest `first_anchored` and every `cited_in`.",
    ),
    Code.CONFLICT: _C(
        "Two mentions disagree on a title or section",
        "In `add`, two mentions in a briefing, or a briefing and the registry, give different "
        "written titles or sections; the registry's (or the first) value is kept.",
        "`title` `Edge0: MoE SSD 卸载预路由` on line 188 against `Edge0: …` on line 169; JSON "
        "gives `field`, `kept`, `other` and `against`.",
        "Decide which is right and edit the registry entry (or the briefing); the registry's "
        "value is never overwritten by `add`.",
    ),
    Code.SCHEMA: _C(
        "Missing or invalid registry field",
        "A missing or invalid field, a bad status or date, an unknown field, an unquoted "
        "numeric ID, or YAML aliases or merge keys.",
        "`arxiv: 2609.10000` unquoted (YAML reads 2609.1), or `status: old`.",
        "Edit the entry as [the registry format](registry.md) says; quote every arXiv ID.",
    ),
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
    Code.DEAD_LINK: _C(
        "Dead link",
        "After retries: 404/410 or another 4xx, a name that does not exist (NXDOMAIN, when "
        "other names resolve), connection refused, a redirect loop or more than 10 hops.",
        "`https://example.org/gone` answers HTTP 404.",
        "Find where the page went, or link its archived copy (`check --archive`, then "
        "`fix --only archive`).",
    ),
    Code.UNREACHABLE: _C(
        "Link unreachable through retries",
        "Timeouts, resets, temporary resolver failures or 5xx that persisted through retries; "
        "never called dead. Also an unknown name or a refused connection in a run where no host "
        "answered, or an unknown name where no other name resolved: that is the network's "
        "silence, not evidence, and it is not recorded.",
        "A host that times out on all three tries.",
        "Usually nothing: check again later; `report` shows whether it persists.",
    ),
    Code.UNVERIFIABLE: _C(
        "Site refuses link checkers",
        "401/403/451/999 or a bot-challenge page; never called dead (a 404 behind a refused "
        "HEAD is still dead). Also a cited `#fragment` that could not be looked for: the page "
        "is longer than the 2 MiB read, did not arrive before the timeout, or GitHub could not "
        "answer for the comment or lines (JSON `fragment` is set then).",
        "A site behind a bot challenge that answers 403.",
        "Open it in a browser; if it is fine, accept the status for the entry (`accept: [403]`) "
        "or everywhere (`accept` in [the configuration](configuration.md)).",
    ),
    Code.RATE_LIMITED: _C(
        "Rate-limited",
        "A 429 that persisted through retries, or a `Retry-After` beyond `--retry-after-cap` "
        "(not waited for, so the server saw one request); never called dead.",
        "A host answering 429 with `Retry-After: 3600`.",
        "Check again later, or lower `--per-host`; set `GITHUB_TOKEN` for GitHub's API.",
    ),
    Code.REDIRECT: _C(
        "Permanent redirect or moved issue",
        "A permanent redirect (301/308 first hop) or a moved GitHub issue, with the new URL; a "
        "redirect to a login page or the site's home page is a soft 404 (`soft_404: true`).",
        "`https://www.lmsys.org/blog/…` moved permanently to `https://lmsys.org/blog/…/`.",
        "`anchors fix --dry-run`, then `anchors fix` moves the entry (never for a soft 404: "
        "find where the page went).",
    ),
    Code.ISSUE_STATE: _C(
        "GitHub issue or pull request closed or merged",
        "A cited GitHub issue or PR is closed or merged (with its `state_reason`); noted once, by "
        "the check that first sees it (the history's earlier runs), then only in the report's "
        '"What changed".',
        "`vllm-project/vllm#8242` closed (completed).",
        "Nothing, unless a briefing still calls it open (then `stale-claim` says so).",
    ),
    Code.TLS_ERROR: _C(
        "Invalid TLS certificate",
        "An invalid, expired or wrong-name certificate; neither dead nor fine.",
        "A site whose certificate expired last week.",
        "Check the site later; link another copy if it stays broken.",
    ),
    Code.BLOCKED_URL: _C(
        "Not http(s), or a private address",
        "A URL that is not http(s), or whose name resolves to a loopback, private, link-local "
        "or other non-public address; not requested unless `--allow-private`.",
        "`http://169.254.169.254/latest/meta-data`, or an intranet host.",
        "Cite a public URL, or check with `--allow-private` from a machine that should reach it.",
    ),
    Code.LATER_THAN_BRIEFING: _C(
        "arXiv identifier newer than its first anchoring",
        "An arXiv ID newer than the month it was first anchored in; in `add`, newer than its "
        "briefing's own month (still written).",
        '`arxiv: "2611.00001"` with `first_anchored: 2026-09-24`.',
        "Correct the ID or the `first_anchored` date, whichever is wrong.",
    ),
    Code.ARCHIVE_UNAVAILABLE: _C(
        "No archived snapshot of a URL",
        "With `check --archive`, the Wayback Machine failed, refused or was too slow; the URLs "
        "not looked up are counted and nothing is held up.",
        "The availability API answers 503 through its retries.",
        "Nothing: the next `check --archive` asks again.",
    ),
    Code.ARCHIVE_CAPTURE: _C(
        "Save Page Now capture of a URL",
        "With `check --archive-save`, what became of a capture asked of Save Page Now "
        "(captured, with its snapshot; not finished yet; or not captured, with SPN2's code).",
        "`captured: https://web.archive.org/web/20260924120000/https://…`.",
        "`anchors fix --only archive` stores a captured snapshot in the registry.",
    ),
    Code.UNBACKED_CLAIM: _C(
        "Continuity claim the registry does not back",
        "In `add`, a briefing says `9-22锚定`/`续立`/`续用` (anchored before, on that date) "
        "but the registry does not hold the anchor, or holds it with a later first date; the "
        "date is still lowered, never silently.",
        "`续立` for `2609.18063` when the registry has never held it; JSON `claimed` "
        "`2026-09-22`, `actual` null.",
        "Correct the briefing's claim, or add the earlier briefing first; `--strict` fails on it.",
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
    Code.UNREGISTERED: _C(
        "Living document cites an anchor the registry lacks",
        "With `--document`, the document cites an arXiv ID, DOI, GitHub issue or URL that no "
        "registry entry holds (compared as duplicates are: a version or an abs URL is the same "
        "paper); reported once, at the document's line of its first citation. An online check "
        "checks it too, once, and reports its verdict at that line.",
        "`inference.md` cites `https://arxiv.org/abs/2609.25053` that no briefing was added for.",
        "`anchors add` the briefing the citation came from, or remove the citation from the "
        "document.",
    ),
    Code.NOT_IN_DOCUMENT: _C(
        "Registered anchor not yet in its section",
        "With `--document`, the entry's `section` is a heading of the document, and the document "
        "does not cite the anchor anywhere yet.",
        "An anchor added on 09-24 for `§1.3 KV Cache` that the writer has not reached.",
        "Write it into its section; after `--pending-days` days it becomes `overdue`.",
    ),
    Code.OVERDUE: _C(
        "Registered anchor waiting too long for the document",
        "With `--document`, an entry that would be `not-in-document`, or `new-section` and "
        "cited nowhere in the document, whose latest citation (`cited_in`, else "
        "`first_anchored`) is more than `--pending-days` days before `--today` (14 by default).",
        "An anchor registered for `§1.3 KV Cache` on 09-01 and still absent on 10-01.",
        "Write it into its section, or drop the entry's `section` if it will not go in.",
    ),
    Code.SECTION_MISMATCH: _C(
        "Document cites an anchor under another section",
        "With `--document`, the entry's `section` is a heading, but the document cites the "
        "anchor only under other sections; reported at the document's line, JSON gives both "
        "sections (`section`, `document_section`) and the entry (`registry`, `registry_line`).",
        "Registered for `§1.3 KV Cache`, cited under `§1.1 框架格局`.",
        "Move the citation to its section, or correct the entry's `section`.",
    ),
    Code.UNKNOWN_SECTION: _C(
        "Section is no heading of the document",
        "With `--document`, the entry's `section` is no heading of the document, while a heading "
        "of the same name stands under another number: the document was renumbered (JSON "
        "`suggestion`; `candidates` when several headings have the name). Also a briefing's "
        "`inference.md §N` (seen by `add` and `check --briefing`) that is no heading of the "
        "document of that file name, at the briefing's line.",
        "`section: §1.3 KV Cache` after the document made it `§1.4 KV Cache`.",
        "`anchors fix --document DOC` rewrites the entries' `section` (a reviewable diff); with "
        "several candidates, choose by hand. Correct a briefing's reference in the briefing.",
    ),
    Code.NEW_SECTION: _C(
        "Section the document does not have yet",
        "With `--document`, the entry's `section` is no heading of the document and no heading "
        "has its name: a section a briefing proposed.",
        "`建议归入章节：§2.5 Agents` before the document has a §2.5.",
        "Create the section in the document, or file the anchor under an existing one.",
    ),
    Code.MISSING_FRAGMENT: _C(
        "Cited #fragment not in the page",
        "A link cited with a `#fragment` works, but the page has no element with that `id`, no "
        "`<a name>`, no GitHub `user-content-` id and no heading whose slug it is (read up to "
        "2 MiB); or the GitHub comment (`#issuecomment-M`, `#discussion_rM`) is gone or belongs "
        "to another issue, or the file has fewer lines than `#L10-L20` names. Text fragments "
        "(`#:~:text=`) and client-side routes (`#/…`) are not checked.",
        "`https://example.org/docs#install` after the page renamed its heading to "
        "`#installation`; JSON `fragment` gives the fragment.",
        "Point the citation at the place's new name (or drop the fragment); the link itself is "
        "fine.",
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
