"""Property: generated Markdown that embeds known anchors in tables, lists, links, badges, HTML,
reference definitions and Chinese prose with full-width punctuation gives back every anchor
exactly once, on its line."""

from __future__ import annotations

from collections import Counter
from datetime import date

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from anchors.extract import extract
from anchors.ids import ArxivId, Doi, GithubRef

from .examples import examples

Anchor = tuple[str, str]  # (kind, value as scored: canonical ID, owner/repo#n, doi, raw URL)
FULLWIDTH = str.maketrans("0123456789.", "０１２３４５６７８９．")

name = st.text("abcdefghijklmnopqrstuvwxyz", min_size=2, max_size=8)
cjk = st.text("论文推理缓存模型注意力调度显存", min_size=1, max_size=6)


@st.composite
def arxiv(draw: st.DrawFn) -> tuple[Anchor, list[str]]:
    year = draw(st.integers(15, 26))
    yymm = f"{year:02d}{draw(st.integers(1, 12)):02d}"
    ident = f"{yymm}.{draw(st.integers(1, 99999)):05d}"
    v = draw(st.sampled_from(["", "v1", "v3"]))
    forms = [
        ident + v,
        f"arXiv:{ident}{v}",
        f"https://arxiv.org/abs/{ident}{v}",
        f"https://arxiv.org/pdf/{ident}{v}.pdf",
        f"https://browse.arxiv.org/pdf/{ident}",
        f"https://www.alphaxiv.org/abs/{ident}",
        ident.translate(FULLWIDTH),
    ]
    return ("arxiv", ident), forms


@st.composite
def github(draw: st.DrawFn) -> tuple[Anchor, list[str]]:
    owner, repo, n = draw(name), draw(name), draw(st.integers(1, 99999))
    forms = [
        f"{owner}/{repo}#{n}",
        f"https://github.com/{owner}/{repo}/issues/{n}",
        f"https://github.com/{owner}/{repo}/pull/{n}/files",
    ]
    return ("github", f"{owner}/{repo}#{n}"), forms


@st.composite
def doi(draw: st.DrawFn) -> tuple[Anchor, list[str]]:
    prefix = f"10.{draw(st.integers(1000, 99999))}"
    suffix = f"{draw(name)}.{draw(st.integers(1, 9999))}"
    value = f"{prefix}/{suffix}"
    return ("doi", value), [value, f"https://doi.org/{value}", f"doi:{value}"]


@st.composite
def url(draw: st.DrawFn) -> tuple[Anchor, list[str]]:
    path = "/".join(draw(st.lists(st.one_of(name, cjk), min_size=0, max_size=3)))
    query = draw(st.sampled_from(["", "?q=1", "?a=b&c=d"]))
    raw = (
        f"https://{draw(name)}.example/{path}{query}".rstrip("/")
        if path or query
        else f"https://{draw(name)}.example/p"
    )
    return ("url", raw), [raw]


anchor = st.one_of(arxiv(), github(), doi(), url())


@st.composite
def placed(draw: st.DrawFn) -> tuple[str, list[Anchor]]:
    """One line holding one or two anchors in a Markdown or Chinese-prose setting."""
    (kind, value), forms = draw(anchor)
    form = draw(st.sampled_from(forms))
    is_url = form.startswith("https://")
    found = [(kind, value)]
    title = draw(cjk)
    if is_url and draw(st.booleans()):  # the link syntax decides where the URL ends
        target = form + "（" + draw(cjk) + "）" if kind == "url" else form
        found = [(kind, value if kind != "url" else target)]
        setting = draw(st.sampled_from(["link", "badge", "glued", "table-link", "html", "refdef"]))
        if setting == "html":
            return f'<p><a href="{target}">{title}</a>，继续</p>', found
        if setting == "refdef":
            return f'[{draw(st.integers(1, 99))}]: {target} "{title}"', found
        if setting == "link":
            return f"- [{title}]({target})。", found
        if setting == "badge":
            img = f"https://img.shields.io/badge/{draw(name)}-blue"
            return f"[![{title}]({img})]({target})", [("url", img), *found]
        if setting == "glued":
            other = f"https://{draw(name)}.example/glued"
            return f"参考[{title}]({target})或[PR]({other})。", [*found, ("url", other)]
        return f"| [{title}]({target}) | 高 | 本次新增 |", found
    setting = draw(st.sampled_from(["table", "list", "prose", "prose-paren", "label"]))
    if setting == "table":
        return f"| {form} | {title} | 高 |", found
    if setting == "list":
        return f"- {form} {title}", found
    if setting == "prose":
        return f"根据{title} {form}，我们发现{draw(cjk)}。", found
    if setting == "prose-paren":
        return f"见{form}（{draw(cjk)}）；继续", found
    return f"- 链接：{form}", found


def as_pair(c: object) -> Anchor:
    key = c.key  # type: ignore[attr-defined]
    if isinstance(key, ArxivId):
        return "arxiv", key.canonical
    if isinstance(key, GithubRef):
        return "github", f"{key.owner}/{key.repo}#{key.number}".lower()
    if isinstance(key, Doi):
        return "doi", key.doi.lower()
    return "url", c.raw  # type: ignore[attr-defined]


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(placed(), min_size=1, max_size=12), st.sampled_from(["## 论文\n", "# Notes\n\n"]))
@pytest.mark.slow
def test_every_embedded_anchor_is_found_once_on_its_line(
    rows: list[tuple[str, list[Anchor]]], header: str
) -> None:
    text = header + "\n".join(line for line, _ in rows) + "\n"
    first = header.count("\n") + 1
    want = Counter(
        (first + i, k, v.lower() if k in ("github", "doi") else v)
        for i, (_, anchors) in enumerate(rows)
        for k, v in dict.fromkeys(anchors)
    )
    b = extract(text, "gen.md", date(2026, 12, 1))
    got = Counter((c.line, *as_pair(c)) for c in b.citations)
    assert b.invalid == []
    assert got == want
