"""Codes about the registry's entries and their identifiers, found without asking any service.

One entry per code; `anchors.catalogue` gathers them into `CATALOGUE`.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..findings import Code
from .codedoc import CodeDoc

__all__ = ["ENTRIES"]

_C = CodeDoc
ENTRIES: Mapping[Code, CodeDoc] = {
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
    Code.LATER_THAN_BRIEFING: _C(
        "arXiv identifier newer than its first anchoring",
        "An arXiv ID newer than the month it was first anchored in; in `add`, newer than its "
        "briefing's own month (still written).",
        '`arxiv: "2611.00001"` with `first_anchored: 2026-09-24`.',
        "Correct the ID or the `first_anchored` date, whichever is wrong.",
    ),
    Code.UNBACKED_CLAIM: _C(
        "Continuity claim the registry does not back",
        "In `add`, a briefing says `9-22锚定`/`续立`/`续用` (anchored before, on that date) "
        "but the registry does not hold the anchor, or holds it with a later first date; the "
        "date is still lowered, never silently. Only in a registry that already had entries: "
        "a new or empty one takes the briefings' history as its starting point, and says so.",
        "`续立` for `2609.18063` when the registry has never held it; JSON `claimed` "
        "`2026-09-22`, `actual` null.",
        "Correct the briefing's claim, or add the earlier briefing first; `--strict` fails on it.",
    ),
}
