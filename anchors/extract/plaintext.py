"""Titles as plain text: Markdown, HTML, emoji decorations and back-links stripped.

A title is what the document says about a citation, so it comes from a link's text, a table
cell, the text beside the ID or the heading above, never from the URL. Candidates that say
nothing (`pdf`, `[code]`, `链接`, an ID, a fragment of the URL itself) are refused.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["markdown_to_text", "useful_title"]

# Linear on any line: no part reads past the next `[` (where the next try starts), and a run of
# spaces is read from its first character only (`(?<!\s)\s++`), never again from each of its
# characters; tests/test_regex_linear.py measures each pattern here.
_IMAGE_RE = re.compile(r"!\[[^\[\]]{0,300}\]\([^)\s\[]{0,2000}(?:\s[^)\[]{0,300})?\)")
_BACKLINK_RE = re.compile(r"(?:\(\s*+)?\[[^\[\]]{0,100}\]\(#[^)\[]{0,200}\)\s*+\)?")
_LINK_RE = re.compile(r"\[([^\[\]]{0,500})\]\([^)\[]{0,2000}\)")
_BRACKETS_RE = re.compile(r"\[([^\[\]]{0,300})\]")
_MARKED_RE = re.compile(r"\*|__|`|~~|[^\w\s.,:;'’/+&()\[\]-]")
_TAG_RE = re.compile(r"<[^<>]{0,500}>")
_EMPHASIS_RE = re.compile(r"\*\*|__|~~|`|(?<!\w)[*_](?=\S)|(?<=\S)[*_](?!\w)")
_SPACE_RE = re.compile(r"\s+")
#: brackets left empty once what was inside them is gone (`Title ()`)
_EMPTY_PAIR_RE = re.compile(r"(?<!\w)[(（\[]\s*[)）\]]")
_GLOSS_RE = re.compile(
    r"(?<!\s)\s++[·•]\s+|(?:(?<!\s)\s++)?[（(][^（）()⭐]*+⭐[^（）()]*+[）)]\s*+$"
)
_EDGE = " \t-—–:：|,，;；、.。"
_URL_RE = re.compile(r"https?://\S*|www\.\S+", re.IGNORECASE)
_ID_RE = re.compile(
    r"(?i:arxiv:?\s*)?(?:[0-9]{4}\.[0-9]{4,5}(?:v[0-9]+)?|[a-z-]+(?:\.[A-Z]{2})?/[0-9]{7})"
    r"|(?i:doi:?\s*)?10\.[0-9]{4,9}/\S+|[\w.-]+/[\w.-]+#[0-9]+"
)
#: Link texts and cells that name a kind of link, not a work.
_GENERIC = frozenset(
    {
        "pdf",
        "paper",
        "arxiv",
        "abs",
        "html",
        "link",
        "links",
        "url",
        "code",
        "github",
        "repo",
        "repository",
        "project",
        "homepage",
        "page",
        "website",
        "site",
        "blog",
        "post",
        "slides",
        "video",
        "demo",
        "doi",
        "here",
        "this",
        "source",
        "official",
        "openreview",
        "download",
        "pr",
        "issue",
        "commit",
        "release",
        "论文",
        "链接",
        "代码",
        "地址",
        "原文",
        "官方",
        "项目",
        "主页",
        "博客",
        "这里",
        "此处",
        "网址",
        "下载",
        "全文",
        "视频",
    }
)
_DECORATION = frozenset({"So", "Sk", "Cf", "Me", "Mn", "Co"})


def markdown_to_text(md: str) -> str:
    """Plain text of a Markdown/HTML snippet: images and back-links dropped, links to their
    text, tags and emphasis removed, emoji and other symbols removed, spaces collapsed."""
    text = _IMAGE_RE.sub(" ", md)
    text = _BACKLINK_RE.sub(" ", text)
    for _ in range(3):  # links inside link text (`[[pdf]](…)`) unwrap one level per pass
        new = _LINK_RE.sub(lambda bracket: bracket[1], text)
        if new == text:
            break
        text = new
    # `[**Name**] Title` is a name in brackets, unwrapped; a plain tag (`[CI]`, `[Technical
    # Report]`) is part of the title as written
    text = _BRACKETS_RE.sub(
        lambda bracket: bracket[1] if _MARKED_RE.search(bracket[1]) else bracket[0], text
    )
    text = _TAG_RE.sub(" ", text)
    text = _EMPHASIS_RE.sub("", text)
    text = "".join(
        " " if unicodedata.category(c) in _DECORATION and not _combining_letter(c) else c
        for c in text
    )
    text = text.replace("\\", "")
    text = _SPACE_RE.sub(" ", text)
    text = _EMPTY_PAIR_RE.sub(" ", text)
    return _SPACE_RE.sub(" ", text).strip(_EDGE + " ")


def _combining_letter(char: str) -> bool:
    """Combining marks inside words (Devanagari vowel signs, accents) are text, not emoji."""
    return unicodedata.category(char) == "Mn" and not ("\ufe00" <= char <= "\ufe0f")


def useful_title(candidate: str | None, urls: tuple[str, ...] = ()) -> str | None:
    """`candidate` as a title, or None when it says nothing about the work it stands beside."""
    if not candidate:
        return None
    text = markdown_to_text(_cut_gloss(candidate))
    text = _cut_gloss(text)
    text = _URL_RE.sub(" ", text)
    text = _strip_brackets(_SPACE_RE.sub(" ", text).strip(_EDGE))
    if len(text) < 2 or not any(c.isalpha() for c in text):
        return None
    if _ID_RE.fullmatch(text) or text.lower().strip("[]() ") in _GENERIC:
        return None
    if any(text in u for u in urls):  # a piece of the URL, such as `768` or `6.pdf`
        return None
    return text


def _cut_gloss(text: str) -> str:
    """Drop ` · gloss` tails and a trailing `（… ⭐⭐⭐ …）` rating."""
    gloss = _GLOSS_RE.search(text)
    return text[: gloss.start()] if gloss else text


def _strip_brackets(text: str) -> str:
    """Drop brackets at either end that the text does not balance: `(MLA)` stays, `(x` goes."""
    pairs = {"(": ")", "（": "）", "[": "]", "【": "】"}
    closers = {v: k for k, v in pairs.items()}
    changed = True
    while text and changed:
        changed = False
        if text[0] in pairs and text.count(text[0]) > text.count(pairs[text[0]]):
            text, changed = text[1:].strip(_EDGE), True
        if text and text[-1] in closers and text.count(text[-1]) > text.count(closers[text[-1]]):
            text, changed = text[:-1].strip(_EDGE), True
    return text
