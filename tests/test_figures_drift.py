"""`source-changed`: supported before, not now, because the text it was found in changed or is
gone; told apart from a figure that was never there by the passage at the same place."""

from __future__ import annotations

from anchors.figures.drift import Support, claim_key, recheck, support_of
from anchors.figures.model import Attribution
from anchors.figures.parse import figures_in
from anchors.figures.passages import Passage, SourceText
from anchors.figures.verdict import ClaimKind, Reason, VerdictKind, judge

V = VerdictKind
[FIGURE] = figures_in("~70%")


def thread(body: str, comment: str, gaps: tuple[str, ...] = ()) -> SourceText:
    return SourceText(
        (Passage(body, "body"), Passage(comment, "comment 1234567890")), "body + 1 comment", gaps
    )


BEFORE = thread("Prefix caching bug.", "GPU memory use sits at around 70%, not 90%.")


def kept() -> Support:
    first = judge(FIGURE, BEFORE)
    assert first.kind is V.SUPPORTED
    support = support_of(first, seen="2026-09-24")
    assert support is not None and support.where == "comment 1234567890"
    return support


def test_an_edited_comment_is_source_changed() -> None:
    edited = thread("Prefix caching bug.", "Fixed in 0.6.1; memory use is now as configured.")
    now = judge(FIGURE, edited)
    assert now.kind is V.NOT_FOUND
    changed = recheck(now, kept(), edited)
    assert changed.kind is V.SOURCE_CHANGED and changed.kind.warning
    assert "comment 1234567890" in changed.detail and "has changed" in changed.detail
    assert "2026-09-24" in changed.detail


def test_a_new_version_without_the_passage_is_source_changed() -> None:
    support = support_of(
        judge(FIGURE, SourceText((Passage("About 70% of it.", "abstract v2"),), "abstract v2"))
    )
    assert support is not None
    v3 = SourceText((Passage("Nothing of the kind.", "abstract v3"),), "abstract v3")
    changed = recheck(judge(FIGURE, v3), support, v3)
    assert changed.kind is V.SOURCE_CHANGED and "no longer in the source" in changed.detail


def test_the_same_text_still_there_is_no_drift() -> None:
    """The passage it was found in is unchanged: a figure not found now was never the
    source's doing, so today's verdict stands (no source-changed)."""
    [other] = figures_in("~40%")
    never = judge(other, BEFORE)
    assert never.kind is V.NOT_FOUND
    assert recheck(never, kept(), BEFORE).kind is V.NOT_FOUND


def test_a_place_not_read_keeps_unverifiable() -> None:
    partial = SourceText(
        (Passage("Prefix caching bug.", "body"),), "body", ("comments page 1: HTTP 429",)
    )
    now = judge(FIGURE, partial)
    assert (now.kind, now.reason) == (V.UNVERIFIABLE, Reason.INCOMPLETE)
    assert recheck(now, kept(), partial) is now


def test_still_supported_and_block_claims_never_drift() -> None:
    now = judge(FIGURE, BEFORE)
    assert recheck(now, kept(), BEFORE) is now
    edited = thread("Prefix caching bug.", "Fixed.")
    block = judge(FIGURE, edited, Attribution.BLOCK)
    assert recheck(block, kept(), edited) is block  # a block's figure is never a warning


def test_the_stored_record_round_trips_and_rejects_what_is_not_one() -> None:
    support = kept()
    assert Support.from_json(support.to_json()) == support
    assert Support.from_json({"where": "x" * 999, "passage_sha": "ab"}) is None
    assert Support.from_json({"where": "body", "passage_sha": 7}) is None
    assert Support.from_json(["body"]) is None
    assert Support.from_json({"where": "", "passage_sha": "ab"}) is None


def test_claim_keys_fold_the_words() -> None:
    a = claim_key("github:vllm-project/vllm#8242", ClaimKind.FIGURE, "～70％", Attribution.LINE)
    b = claim_key("github:vllm-project/vllm#8242", ClaimKind.FIGURE, "~70%", Attribution.LINE)
    assert a == b
    assert a != claim_key(
        "github:vllm-project/vllm#8242", ClaimKind.FIGURE, "~70%", Attribution.BLOCK
    )
