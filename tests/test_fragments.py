"""Cited fragments: which ones are places in a page, and whether a page has the place."""

from __future__ import annotations

from pathlib import Path

import pytest

from anchors.check.fragments import (
    FRAGMENT_BODY_LIMIT,
    FragmentKind,
    fragment_kind,
    github_target,
    page_has_fragment,
    slug,
)

PAGE = """<html><body>
<h1 id="top">Docs</h1>
<h2>Quick start &amp; install</h2>
<h2>Quick start &amp; install</h2>
<a name="legacy"></a>
<div id="user-content-setup"><h3>安装 指南</h3></div>
</body></html>"""


@pytest.mark.parametrize(
    ("fragment", "present"),
    [
        ("top", True),
        ("legacy", True),
        ("setup", True),  # GitHub's rendered Markdown prefixes ids with user-content-
        ("user-content-setup", True),
        ("quick-start--install", True),  # a heading's generated slug
        ("quick-start--install-1", True),  # the second heading of that name
        ("quick-start--install-2", False),
        ("%E5%AE%89%E8%A3%85-%E6%8C%87%E5%8D%97", True),  # percent-encoded 安装-指南
        ("top:~:text=Docs", True),
        ("missing", False),
        ("Top", True),  # typed by hand in another case: not called missing
    ],
)
def test_a_page_has_the_places_it_names(fragment: str, present: bool) -> None:
    assert page_has_fragment([PAGE[:50], PAGE[50:]], fragment) is present


@pytest.mark.parametrize(
    ("url", "kind"),
    [
        ("https://example.org/page", FragmentKind.NONE),
        ("https://example.org/page#", FragmentKind.NONE),
        ("https://example.org/page#:~:text=hello", FragmentKind.NONE),
        ("https://app.example.org/#/settings/keys", FragmentKind.NONE),
        ("https://example.org/#!/route", FragmentKind.NONE),
        ("https://rust-lang.zulipchat.com/#narrow/stream/1-general", FragmentKind.NONE),
        ("https://example.org/page#install", FragmentKind.HTML),
        ("https://github.com/o/r/issues/5#issuecomment-123", FragmentKind.GITHUB),
        ("https://github.com/o/r/pull/5#discussion_r77", FragmentKind.GITHUB),
        ("https://github.com/o/r/blob/main/a/b.py#L10-L20", FragmentKind.GITHUB),
        ("https://github.com/o/r#readme", FragmentKind.HTML),
    ],
)
def test_which_fragments_are_checked_and_how(url: str, kind: FragmentKind) -> None:
    assert fragment_kind(url) is kind


def test_github_fragments_name_a_comment_or_lines() -> None:
    c = github_target("https://github.com/o/r/issues/5#issuecomment-123")
    assert c is not None and (c.repo, c.kind, c.where, c.comment) == (
        "o/r",
        "issue-comment",
        "5",
        123,
    )
    r = github_target("https://github.com/o/r/pull/9/files#discussion_r77")
    assert r is not None and (r.kind, r.where, r.comment) == ("review-comment", "9", 77)
    lines = github_target("https://github.com/o/r/blob/v1.2/src/x.py#L10-L20")
    assert lines is not None and (lines.where, lines.first, lines.last) == ("v1.2/src/x.py", 10, 20)
    one = github_target("https://github.com/o/r/blob/main/x.py#L7")
    assert one is not None and (one.first, one.last) == (7, 7)
    assert github_target("https://github.com/o/r/issues/5#discussion_r1") is None


def test_slugs_keep_letters_of_every_script() -> None:
    assert slug("Quick start & install") == "quick-start--install"
    assert slug("安装 指南") == "安装-指南"
    assert slug("What's `new`?") == "whats-new"


def test_the_read_bound_is_at_least_a_mebibyte_and_documented_as_it_is() -> None:
    """The issue asks for at least 1 MiB; the docs state the bound the code applies."""
    mib = 1024 * 1024
    assert FRAGMENT_BODY_LIMIT >= mib and FRAGMENT_BODY_LIMIT % mib == 0
    said = f"{FRAGMENT_BODY_LIMIT // mib} MiB"
    docs = Path(__file__).resolve().parent.parent / "docs"
    findings = (docs / "findings.md").read_text(encoding="utf-8")
    for code in ("missing-fragment", "unverifiable"):
        entry = findings.split(f"### {code}\n", 1)[1].split("\n### ", 1)[0]
        assert said in entry, code
    for page in ("security.md", "commands.md", "living-document.md"):
        assert said in (docs / page).read_text(encoding="utf-8"), page
