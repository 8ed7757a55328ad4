"""Claims against live facts, through the real clients replaying recorded answers
(`check_online`)."""

from __future__ import annotations

import asyncio
import itertools
import json
from datetime import date, datetime
from pathlib import Path
from types import SimpleNamespace

import httpx
import pytest

from anchors.check.run import Services, check_online
from anchors.extract.claims import Claims
from anchors.findings import Code
from anchors.net.cache import Cache
from anchors.registry.loader import parse_text
from anchors.render import json as rjson
from anchors.resolve.arxiv import ArxivResolver
from anchors.resolve.github import GithubResolver

from .cassettes import load
from .vtime import ArxivTime

TODAY = date(2026, 12, 2)
PYGITHUB_28 = "https://github.com/PyGithub/PyGithub/issues/28"
ZEBRA_PR = "https://github.com/ZcashFoundation/zebra/pull/8868"


def entry(field: str, value: str, *extra: str) -> str:
    more = "".join(f"    {e}\n" for e in extra)
    return (
        f'  - {field}: "{value}"\n{more}    first_anchored: 2026-09-24\n'
        '    status: new\n    cited_in: ["2026-09-24"]\n'
    )


def registry(*entries: str) -> str:
    return "version: 1\nanchors:\n" + "".join(entries)


def run(
    text: str,
    tmp: Path,
    *,
    arxiv_srv=None,
    github=None,
    cache: Cache | None = None,
    claims: dict[str, Claims] | None = None,
    **arxiv_kw,
):
    """(findings by code, result, arxiv resolver, github resolver)."""
    reg = parse_text(text.encode(), str(tmp / "registry.yaml"))

    async def go():
        gh_client = httpx.AsyncClient(transport=github.transport()) if github else None
        ax = ArxivResolver(arxiv_srv.url("/api/query"), delay=0, **arxiv_kw) if arxiv_srv else None
        gh = GithubResolver(gh_client) if gh_client else None
        try:
            res = await check_online(
                reg, TODAY, Services(arxiv=ax, github=gh), cache=cache, claims=claims
            )
        finally:
            if gh_client:
                await gh_client.aclose()
        return res, ax, gh

    res, ax, gh = asyncio.run(go())
    by: dict[Code, list] = {}
    for f in res.findings:
        by.setdefault(f.code, []).append(f)
    return by, res, ax, gh


# -- GitHub state claims ------------------------------------------------------------------


@pytest.mark.parametrize(
    "notes, stale",
    [
        ("Issue #28 仍 open，修复状态待核实", True),
        ("still open upstream", True),
        ("已关闭", False),
        ("fixed in 1.0", False),
        ("", False),
    ],
)
def test_state_claim_against_a_closed_issue(tmp_path: Path, notes: str, stale: bool) -> None:
    extra = [f'notes: "{notes}"'] if notes else []
    by, _res, _, _ = run(
        registry(entry("url", PYGITHUB_28, *extra)), tmp_path, github=load("github/issue-closed")
    )
    if stale:
        [f] = by[Code.STALE_CLAIM]
        assert f.details["claimed"] == "open"
        assert f.details["actual"] == "closed (completed) on 2012-05-26"
        assert "2012-05-26" in f.message and Code.ISSUE_STATE not in by
        # the claim is the registry's own notes here: no briefing is blamed for it
        assert f.message.startswith("cited as ") and "briefing" not in f.message
    else:
        assert Code.STALE_CLAIM not in by and [f.code for f in by[Code.ISSUE_STATE]]


@pytest.mark.parametrize(
    "notes, stale", [("已合并", False), ("merged", False), ("仍 open", True), ("closed", False)]
)
def test_state_claim_against_a_merged_pull_request(tmp_path: Path, notes: str, stale: bool) -> None:
    by, _, _, _ = run(
        registry(entry("url", ZEBRA_PR, f'notes: "{notes}"')),
        tmp_path,
        github=load("github/pull-merged"),
    )
    assert (Code.STALE_CLAIM in by) is stale
    if stale:
        assert by[Code.STALE_CLAIM][0].details["actual"] == "merged on 2024-09-19"


def test_fixed_claim_on_an_open_or_unmerged_pr_is_stale() -> None:
    from anchors.extract.claims import StateClaim
    from anchors.history.facts import IssueFacts
    from anchors.history.issuestate import contradicts as _contradicts

    open_ = IssueFacts(state="open")
    not_planned = IssueFacts(state="closed", state_reason="not_planned")
    assert _contradicts(StateClaim.FIXED, open_) and _contradicts(StateClaim.FIXED, not_planned)
    assert _contradicts(StateClaim.MERGED, not_planned) and _contradicts(StateClaim.CLOSED, open_)
    assert not _contradicts(StateClaim.OPEN, open_)


# -- what the briefing says the issue is ------------------------------------------------


@pytest.mark.parametrize(
    "said, wrong",
    [
        ("vLLM prefix caching GPU utilization drops to 70%", True),
        ("Issue created from the API", False),  # shares "created"
        ("PyGithub issue", False),  # only the repository's name and stop words: nothing to compare
    ],
)
def test_wrong_target(tmp_path: Path, said: str, wrong: bool) -> None:
    claims = {"github:pygithub/pygithub#28": Claims(title=said)}
    gh = load("github/issue-closed")
    body = json.loads(gh.interactions[0]["response"]["body"])
    # a live title long enough to judge (one of a single word abstains: see test_target_words)
    body["title"] = "Issue created by PyGithub while testing the search endpoint"
    gh.interactions[0]["response"]["body"] = json.dumps(body)
    by, res, _, _ = run(registry(entry("url", PYGITHUB_28)), tmp_path, github=gh, claims=claims)
    assert (Code.WRONG_TARGET in by) is wrong
    if wrong:
        out = next(
            f
            for f in json.loads(rjson.check_result(res))["findings"]
            if f["code"] == "wrong-target"
        )
        assert (out["claimed"], out["actual"]) == (said, body["title"])


# -- repositories --------------------------------------------------------------------------


def test_archived_and_renamed_repositories_one_lookup_each_cached(tmp_path: Path) -> None:
    text = registry(
        entry("url", "https://github.com/huggingface/text-generation-inference"),
        entry("url", "https://github.com/protoncoin/protoncoin"),
    )
    gh = load("github/repo-archived")
    gh.interactions += load("github/repo-renamed").interactions
    cache = Cache(tmp_path / "cache.json")
    by, _, _, resolver = run(text, tmp_path, github=gh, cache=cache)
    [archived] = by[Code.REPO_ARCHIVED]
    assert archived.anchor.endswith("text-generation-inference")
    [moved] = by[Code.REDIRECT]
    assert moved.details["actual"] == "padima2/protoncoin"
    assert moved.details["final_url"] == "https://github.com/padima2/protoncoin"
    assert resolver.requests == 3  # one per repository, plus the 301 hop of the renamed one
    again, _, _, resolver2 = run(text, tmp_path, github=gh, cache=Cache(tmp_path / "cache.json"))
    assert resolver2.requests == 0 and set(again) == {Code.REPO_ARCHIVED, Code.REDIRECT}


# -- arXiv: retitled, did you mean, published, date and venue claims -----------------------


def test_title_of_an_older_version_is_retitled_not_a_mismatch(tmp_path: Path) -> None:
    text = registry(
        entry(
            "arxiv",
            "2312.07104",
            'title: "Efficiently Programming Large Language Models using SGLang"',
        )
    )
    with load("arxiv/retitled").serve() as srv:
        by, _res, ax, _ = run(text, tmp_path, arxiv_srv=srv)
    assert set(by) == {Code.RETITLED} and ax.requests == 2
    f = by[Code.RETITLED][0]
    assert f.details["cited_version"] == 1
    assert (
        f.details["actual"] == "SGLang: Efficient Execution of Structured Language Model Programs"
    )


def test_valid_id_wrong_paper_suggests_the_paper_meant(tmp_path: Path) -> None:
    text = registry(
        entry(
            "arxiv",
            "2309.17453",
            'title: "Efficient Memory Management for Large '
            'Language Model Serving with PagedAttention"',
        )
    )
    with load("arxiv/did-you-mean").serve() as srv:
        by, res, ax, _ = run(text, tmp_path, arxiv_srv=srv)
    [f] = by[Code.TITLE_MISMATCH]
    assert "did you mean 2309.06180 (Efficient Memory Management" in f.message
    out = json.loads(rjson.check_result(res))["findings"][0]
    assert out["suggested"]["anchor"] == "2309.06180"
    assert out["actual"] == "Efficient Streaming Language Models with Attention Sinks"
    assert ax.requests == 3 and ax.searches == 1  # batch, cited v1, one title search


def test_title_searches_are_capped(tmp_path: Path) -> None:
    text = registry(
        entry(
            "arxiv",
            "2309.17453",
            'title: "Efficient Memory Management for Large '
            'Language Model Serving with PagedAttention"',
        )
    )
    with load("arxiv/did-you-mean").serve() as srv:
        by, _, ax, _ = run(text, tmp_path, arxiv_srv=srv, max_searches=0)
    assert "did you mean" not in by[Code.TITLE_MISMATCH][0].message
    assert ax.requests == 2 and ax.searches == 0


def test_journal_reference_is_published(tmp_path: Path) -> None:
    with load("arxiv/old-style-id").serve() as srv:
        by, _, _, _ = run(registry(entry("arxiv", "astro-ph/0601001")), tmp_path, arxiv_srv=srv)
    [f] = by[Code.PUBLISHED]
    assert f.details["journal_ref"] == "ActaAstron.56:1-50,2006" and "ActaAstron" in f.message


@pytest.mark.parametrize(
    "extra, mismatch",
    [
        (
            (
                'title: "Efficient Memory Management for Large Language Model Serving with '
                "PagedAttention · OSDI'24\""
            ),
            "venue",
        ),
        (
            (
                'title: "Efficient Memory Management for Large Language Model Serving with '
                "PagedAttention · SOSP'23\""
            ),
            None,
        ),
        (
            (
                'title: "Efficient Memory Management for Large Language Model Serving with '
                'PagedAttention · SOSP 2024"'
            ),
            "venue",
        ),
        ('notes: "arXiv 2023-10-12；续立"', "date"),
        ('notes: "arXiv 2023-09-12"', None),
        ('notes: "2023-09-13 提交"', None),  # within a day of v1
        ('notes: "NeurIPS"', None),  # a venue without its year claims nothing
    ],
)
def test_date_and_venue_claims(tmp_path: Path, extra: str, mismatch: str | None) -> None:
    with load("arxiv/venue-comment").serve() as srv:
        by, _, _, _ = run(registry(entry("arxiv", "2309.06180", extra)), tmp_path, arxiv_srv=srv)
    got = [f.details["field"] for f in by.get(Code.CLAIM_MISMATCH, [])]
    assert got == ([mismatch] if mismatch else [])
    assert Code.TITLE_MISMATCH not in by


# -- the request budget ----------------------------------------------------------------------


def test_every_arxiv_request_is_three_seconds_apart_on_an_injected_clock(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = ArxivTime(monkeypatch)
    text = registry(
        entry(
            "arxiv",
            "2309.17453",
            'title: "Efficient Memory Management for Large '
            'Language Model Serving with PagedAttention"',
        )
    )
    stamps: list[datetime] = []
    with load("arxiv/did-you-mean").serve() as srv:
        reg = parse_text(text.encode(), str(tmp_path / "registry.yaml"))
        ax = ArxivResolver(srv.url("/api/query"))  # the default delay: arXiv's 3 s
        inner = ax.client._session.request

        def request(*a, **kw):
            stamps.append(clock.now())
            return inner(*a, **kw)

        ax.client._session.request = request  # type: ignore[method-assign]
        asyncio.run(check_online(reg, TODAY, Services(arxiv=ax)))
    assert len(stamps) == 3 == ax.requests
    assert all((b - a).total_seconds() >= 3.0 for a, b in itertools.pairwise(stamps))
    assert len(clock.waits) == 2  # the clock was waited on, not the wall


# -- DOIs: Crossref update relations ---------------------------------------------------------


def test_retraction_and_correction_from_crossref(tmp_path: Path) -> None:
    from anchors.resolve.crossref import CrossrefUpdates
    from anchors.resolve.doi import DoiResolver

    cas = load("doi/retracted-crossref")
    text = registry(
        entry(
            "doi",
            "10.1016/S0140-6736(97)11096-0",
            'title: "Ileal-lymphoid-nodular hyperplasia, non-specific colitis, and '
            'pervasive developmental disorder in children"',
        )
    )

    async def go():
        async with httpx.AsyncClient(transport=cas.transport()) as c:
            cr = CrossrefUpdates(c)
            doi = DoiResolver(c, crossref=cr)
            reg = parse_text(text.encode(), str(tmp_path / "registry.yaml"))
            return await check_online(reg, TODAY, Services(doi=doi)), doi, cr

    res, doi, cr = asyncio.run(go())
    assert not cas.misses
    codes = sorted((f.code.value, f.details.get("notice")) for f in res.findings)
    assert codes == [
        ("corrected", "10.1016/s0140-6736(04)15715-2"),
        ("retracted", "10.1016/s0140-6736(10)60175-4"),
    ]  # once, though two sources
    # the publisher's "RETRACTED: " prefix is no title mismatch: `retracted` says it
    assert doi.requests == 2 and cr.requests == 1
    from anchors.findings import exit_code

    assert exit_code(res.findings) == 1


def test_a_doi_crossref_does_not_know_has_no_updates() -> None:
    from anchors.resolve.crossref import CrossrefUpdates

    from .vtime import VirtualTime

    async def go(status: int):
        t = httpx.MockTransport(lambda r: httpx.Response(status, text="Resource not found."))
        async with httpx.AsyncClient(transport=t) as c:
            cr = CrossrefUpdates(c, "https://crossref.test", policy=VirtualTime().policy())
            return await cr.updates("10.48550/arXiv.2309.06180")

    assert asyncio.run(go(404)) == () and asyncio.run(go(503)) is None


# -- the briefing's claims, from the command line ---------------------------------------------

BRIEFING = """inference · E1 预消化简报(2026-09-24)
增量 2：PyGithub issue 创建（GitHub #28 确认）
URL：https://github.com/PyGithub/PyGithub/issues/28
要点：
- 修复状态：Issue #28 仍 open，是否已修复待核实
增量 3：另一条
- vLLM #29 已合并
"""


def test_cli_compares_a_briefings_claims(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from anchors.cli.app import app

    reg = tmp_path / "registry.yaml"
    reg.write_text(registry(entry("url", PYGITHUB_28)), encoding="utf-8")
    b = tmp_path / "b.md"
    b.write_text(BRIEFING, encoding="utf-8")
    with load("github/issue-closed").serve() as gh:
        base = [
            "check",
            str(reg),
            "--github-api",
            gh.url(""),
            "-f",
            "json",
            "--today",
            "2026-12-02",
            "--no-cache",
        ]
        plain = CliRunner().invoke(app, base)
        claimed = CliRunner().invoke(app, [*base, "--briefing", str(b)])
    assert [f["code"] for f in json.loads(plain.stdout)["findings"]] == ["issue-state"]
    [f] = json.loads(claimed.stdout)["findings"]
    assert (f["code"], f["claimed"], f["actual"]) == (
        "stale-claim",
        "open",
        "closed (completed) on 2012-05-26",
    )
    assert f["closed_at"] == "2012-05-26" and claimed.exit_code == 0  # a warning


def test_seed_briefing_claims(seed: Path) -> None:
    from anchors.extract.citations import briefing_claims
    from anchors.extract.claims import StateClaim, Venue

    got = briefing_claims([str(seed)])
    assert got["github:vllm-project/vllm#8242"].state is StateClaim.OPEN
    assert got["arxiv:2609.18063"].date == date(2026, 9, 19)
    assert got["arxiv:2605.00528"].venue == Venue("HPDC", 2026)
    states = {k for k, c in got.items() if c.state}
    assert states == {"github:vllm-project/vllm#8242"}  # #35851 claims no state


def test_cli_suggests_the_paper_meant_and_caps_searches(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from anchors.cli.app import app

    reg = tmp_path / "registry.yaml"
    reg.write_text(
        registry(
            entry(
                "arxiv",
                "2309.17453",
                'title: "Efficient Memory Management '
                'for Large Language Model Serving with PagedAttention"',
            )
        ),
        encoding="utf-8",
    )
    with load("arxiv/did-you-mean").serve() as srv:
        base = [
            "check",
            str(reg),
            "--arxiv-api",
            srv.url("/api/query"),
            "--arxiv-delay",
            "0",
            "-f",
            "json",
            "--today",
            "2026-12-02",
            "--no-cache",
        ]
        r = CliRunner().invoke(app, base)
        off = CliRunner().invoke(app, [*base, "--arxiv-searches", "0"])
        asked = sum(srv.counts.values())
    [f] = [f for f in json.loads(r.stdout)["findings"] if f["code"] == "title-mismatch"]
    assert f["suggested"] == {
        "anchor": "2309.06180",
        "title": "Efficient Memory Management for Large Language Model Serving with PagedAttention",
    }
    [g] = [f for f in json.loads(off.stdout)["findings"] if f["code"] == "title-mismatch"]
    assert "suggested" not in g
    assert asked == 3 + 2  # batch, v1, search; then batch, v1 and no search


def test_real_changelog_claims_raise_no_false_alarms() -> None:
    """`Fixed … <PR URL>` lines of a real changelog against the PRs' real live facts."""
    import yaml

    from anchors.check.truth import findings as truth_findings
    from anchors.extract.citations import briefing_claims
    from anchors.extract.claims import StateClaim
    from anchors.history.facts import IssueFacts
    from anchors.registry.model import Anchor

    data = Path(__file__).parent / "data"
    live = yaml.safe_load((data / "github_live.yaml").read_text(encoding="utf-8"))
    claims = briefing_claims([str(data / "markdown" / "en-rich-changelog.md")])
    checked = 0
    for fact in live:
        c = claims.get(fact["ref"])
        if c is None:
            continue
        assert c.state is StateClaim.FIXED and c.title is None  # a description is no title
        res = IssueFacts(
            title=fact["title"], state=fact["state"], merged=fact["merged"], is_pull=True
        )
        a = Anchor(line=1, id_field="url", raw_id=fact["ref"])
        from anchors.ids import parse_anchor

        owner_repo, number = fact["ref"][7:].split("#")
        a.key = parse_anchor(f"https://github.com/{owner_repo}/pull/{number}")
        codes = {f.code for f in truth_findings("r.yaml", a, res, c)}
        assert codes == {Code.ISSUE_STATE}, (fact, codes)  # merged: "fixed" holds
        checked += 1
    assert checked == 3
    # the same "fixed" claim on the PR that was closed without merging would be stale
    from anchors.history.issuestate import contradicts as _contradicts

    assert _contradicts(StateClaim.FIXED, IssueFacts(state="closed", state_reason="not_planned"))


def test_update_relations_survive_the_cache() -> None:
    from anchors.history.facts import DoiFacts
    from anchors.ids.model import AnchorKind
    from anchors.net.links import Outcome
    from anchors.resolve.base import Resolution

    facts = DoiFacts(title="T", updates=(("retraction", "10.1/n"), ("correction", "10.1/c")))
    r = Resolution(Outcome.OK, facts, status=200)
    back = Resolution.from_cache(AnchorKind.DOI, json.loads(json.dumps(r.to_cache())))
    assert back == r


def test_an_issue_title_is_not_a_state_claim(tmp_path: Path) -> None:
    by, _, _, _ = run(
        registry(entry("url", PYGITHUB_28, 'title: "Open issue created by PyGithub"')),
        tmp_path,
        github=load("github/issue-closed"),
    )
    assert Code.STALE_CLAIM not in by and Code.ISSUE_STATE in by


def test_a_written_issue_title_is_not_a_state_claim(tmp_path: Path) -> None:
    from anchors.extract.citations import briefing_claims

    b = tmp_path / "b-2026-09-24.md"
    b.write_text(
        "- [Open file descriptor leak](https://github.com/PyGithub/PyGithub/issues/28)\n"
        "- [Crash on start](https://github.com/PyGithub/PyGithub/issues/29) still open\n",
        encoding="utf-8",
    )
    got = briefing_claims([str(b)])
    assert got["github:pygithub/pygithub#28"].state is None
    assert got["github:pygithub/pygithub#28"].title == "Open file descriptor leak"
    assert got["github:pygithub/pygithub#29"].state is not None


def test_a_repository_that_is_gone_is_not_found(tmp_path: Path) -> None:
    body = (
        Path("/work/shared/reference/fixtures/github-404.json").read_text()
        if Path("/work/shared/reference/fixtures/github-404.json").exists()
        else '{"message":"Not Found","status":"404"}'
    )
    gh = SimpleNamespace(
        transport=lambda: httpx.MockTransport(
            lambda r: httpx.Response(404, text=body, headers={"content-type": "application/json"})
        )
    )
    by, _, _, resolver = run(
        registry(entry("url", "https://github.com/nobody/gone")), tmp_path, github=gh
    )
    [f] = by[Code.NOT_FOUND]
    assert "repository nobody/gone does not exist" in f.message and resolver.requests == 1


def test_venue_doi_is_published(tmp_path: Path) -> None:
    with load("arxiv/published-doi").serve() as srv:
        by, _, ax, _ = run(registry(entry("arxiv", "2309.06180")), tmp_path, arxiv_srv=srv)
    [f] = by[Code.PUBLISHED]
    assert (
        f.details["doi"] == "10.1145/3600006.3613165" and "DOI 10.1145/3600006.3613165" in f.message
    )
    assert ax.requests == 1  # from the batch answer itself
