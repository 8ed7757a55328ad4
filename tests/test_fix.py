"""`anchors fix`: the latest check's facts applied to the registry, byte-preserving, under the
lock."""

from __future__ import annotations

import asyncio
import os
from datetime import date
from pathlib import Path

import httpx
import pytest
import yaml
from typer.testing import CliRunner

from anchors.check.run import Services, check_online
from anchors.cli.app import app
from anchors.extract import read_briefing
from anchors.findings import Outcome
from anchors.fix import FixKind, plan
from anchors.history import History, Observation, Snapshot
from anchors.ids.landing import soft_404
from anchors.ids.model import WebUrl, key_from_text
from anchors.ids.web import canonical_url
from anchors.merging.merge import add
from anchors.net.netguard import StaticResolver
from anchors.registry.loader import load, parse_text
from anchors.resolve.github import GithubResolver

from .cassettes import load as cassette
from .histories import LMSYS, TENSORMESH, record_urls
from .loopback import LoopbackServer, respond
from .stack import links

#: what each path answers: (status, Location)
D = "http://docs.example"
WEB = {
    "/old": (301, f"{D}/new"),
    "/old2": (308, f"{D}/new2"),
    "/new": (200, None),
    "/new2": (200, None),
    "/temp": (302, f"{D}/new"),
    "/to-login": (301, f"{D}/accounts/login?next=/to-login"),
    "/accounts/login": (200, None),
    "/to-home": (301, f"{D}/"),
    "/": (200, None),
    "/fine": (200, None),
    "/old-org/tool": (301, "http://github.com/new-org/tool"),
    "/new-org/tool": (200, None),
}

REGISTRY = """\
# anchors registry (hand-edited; comments must survive)
version: 1
anchors:
  # moved for good
  - url: http://docs.example/old   # the address the 09-20 briefing used
    title: "Old post"
    first_anchored: 2026-09-20
    status: continued
    cited_in: ["2026-09-20", "2026-09-24"]
  - {url: "http://docs.example/old2", first_anchored: 2026-09-20, status: new}
  - url: http://docs.example/temp
    first_anchored: 2026-09-20
    status: new
  - url: http://docs.example/to-login
    first_anchored: 2026-09-20
    status: new
  - url: http://docs.example/to-home
    first_anchored: 2026-09-20
    status: new
  - url: https://github.com/protoncoin/protoncoin
    first_anchored: 2026-09-20
    status: new
  - url: https://github.com/jacquev6/PyGithub/issues/28
    first_anchored: 2026-09-20
    status: new
  - url: http://docs.example/fine
    first_anchored: 2026-09-20
    status: new
"""


async def site(req, w):
    status, loc = WEB[req.path.split("?")[0]]
    return await respond(w, status, b"", {"Location": loc} if loc else {}, req=req)


def check_into(history: Path, reg_path: Path, srv: LoopbackServer) -> None:
    """A real online check: web pages on a loopback server, GitHub from a recorded cassette."""
    reg = load(reg_path)
    gh = cassette("github/moved-301")
    gh.interactions += cassette("github/repo-renamed").interactions  # the repository, by API

    async def go() -> None:
        resolver = StaticResolver({"docs.example": ["127.0.0.1"], "github.com": ["127.0.0.1"]})
        async with (
            links(resolver=resolver, allow_private=True, attempts=1, port=srv.port) as lc,
            httpx.AsyncClient(transport=gh.transport()) as api,
        ):
            h = History(history)
            try:
                await check_online(
                    reg, date(2026, 9, 30), Services(lc, github=GithubResolver(api)), history=h
                )
            finally:
                h.close()

    asyncio.run(go())


@pytest.fixture
def checked(tmp_path: Path) -> tuple[Path, Path]:
    reg, db = tmp_path / "registry.yaml", tmp_path / "history.sqlite"
    reg.write_text(REGISTRY, encoding="utf-8")
    with LoopbackServer(lambda req: site if req.path.split("?")[0] in WEB else None) as srv:
        check_into(db, reg, srv)
    return reg, db


def fix(reg: Path, db: Path, *args: str):
    return CliRunner().invoke(app, ["fix", "-r", str(reg), "--history", str(db), *args])


def test_dry_run_prints_the_diff_and_writes_nothing(checked: tuple[Path, Path]) -> None:
    reg, db = checked
    before = reg.read_bytes()
    r = fix(reg, db, "--dry-run")
    assert r.exit_code == 1, r.stderr  # something to fix
    assert reg.read_bytes() == before
    assert "-  - url: http://docs.example/old   # the address the 09-20 briefing used" in r.stdout
    assert "+  - url: http://docs.example/new   # the address the 09-20 briefing used" in r.stdout
    assert "would fix" in r.stderr and "4 changes" in r.stderr
    assert "to-login redirects to a login page" in r.stderr
    assert "to-home redirects to the site's home page" in r.stderr


def test_fix_applies_permanent_moves_only_and_keeps_every_other_byte(
    checked: tuple[Path, Path],
) -> None:
    reg, db = checked
    r = fix(reg, db)
    assert r.exit_code == 0, r.stderr
    after = reg.read_text(encoding="utf-8")
    doc = yaml.safe_load(after)["anchors"]
    urls = [e["url"] for e in doc]
    assert urls == [
        "http://docs.example/new",  # 301
        "http://docs.example/new2",  # 308, inside the flow mapping's braces
        "http://docs.example/temp",  # 302: temporary, never applied
        "http://docs.example/to-login",  # soft 404
        "http://docs.example/to-home",  # soft 404
        "https://github.com/padima2/protoncoin",  # renamed repository (GitHub API)
        "https://github.com/PyGithub/PyGithub/issues/28",  # moved issue (GitHub API html_url)
        "http://docs.example/fine",
    ]
    assert doc[0]["cited_url"] == "http://docs.example/old" and doc[1]["cited_url"].endswith(
        "/old2"
    )
    assert "cited_url" not in doc[2] and "cited_url" not in doc[7]
    # only the moved lines changed, plus one added cited_url line (or field) per moved entry
    old_lines, new_lines = REGISTRY.splitlines(), after.splitlines()
    assert [ln for ln in old_lines if ln not in new_lines] == [
        "  - url: http://docs.example/old   # the address the 09-20 briefing used",
        '  - {url: "http://docs.example/old2", first_anchored: 2026-09-20, status: new}',
        "  - url: https://github.com/protoncoin/protoncoin",
        "  - url: https://github.com/jacquev6/PyGithub/issues/28",
    ]
    assert len(new_lines) == len(old_lines) + 3
    assert not load(reg).problems
    # the fix is idempotent: nothing left to do, and the file is not rewritten
    mtime = os.stat(reg).st_mtime_ns
    again = fix(reg, db)
    assert again.exit_code == 0 and "nothing to fix" in again.stderr
    assert os.stat(reg).st_mtime_ns == mtime


def test_only_restricts_the_kinds(checked: tuple[Path, Path]) -> None:
    reg, db = checked
    r = fix(reg, db, "--only", "renamed-repo,moved-issue")
    assert r.exit_code == 0
    urls = [e["url"] for e in yaml.safe_load(reg.read_text("utf-8"))["anchors"]]
    assert (
        urls[0] == "http://docs.example/old" and urls[5] == "https://github.com/padima2/protoncoin"
    )
    assert urls[6] == "https://github.com/PyGithub/PyGithub/issues/28"
    bad = fix(reg, db, "--only", "everything")
    assert bad.exit_code == 2 and "choose from redirect, renamed-repo" in bad.stderr


def test_a_briefing_citing_the_old_url_continues_the_moved_entry(
    checked: tuple[Path, Path], tmp_path: Path
) -> None:
    reg, db = checked
    assert fix(reg, db).exit_code == 0
    brief = tmp_path / "2026-10-01.md"
    brief.write_text("# 2026-10-01\n\n- Old post: http://docs.example/old\n", encoding="utf-8")
    result = add(reg, [read_briefing(brief)], date(2026, 10, 2))
    assert result.added == [] and len(result.continued) == 1
    entry = yaml.safe_load(reg.read_text("utf-8"))["anchors"][0]
    assert entry["url"] == "http://docs.example/new" and "2026-10-01" in entry["cited_in"]


def test_archive_snapshots_from_the_history_are_added(tmp_path: Path) -> None:
    reg = parse_text(REGISTRY.encode(), str(tmp_path / "registry.yaml"))
    snap = Snapshot(
        "https://web.archive.org/web/20260919000000/http://docs.example/fine", "2026-09-19"
    )
    snaps = {"url:http://docs.example/fine": snap}
    res = plan(reg, [], snapshots=snaps)
    assert [(f.kind, f.new, f.date) for f in res.fixes] == [
        (FixKind.ARCHIVE, snap.url, "2026-09-19")
    ]
    assert plan(reg, [], frozenset({FixKind.REDIRECT}), snaps).fixes == []


@pytest.mark.parametrize(
    "new, why",
    [
        ("https://example.org/login?next=/post", "login"),
        ("https://example.org/users/sign_in", "login"),
        ("https://example.org/", "home"),
        ("https://id.example.org/oauth2/authorize?redirect_uri=x", "login"),
        ("https://example.org/en/", "home"),
        ("https://example.org/pt-br", "home"),
        ("https://example.org/zh-hans/", "home"),
        ("https://example.org/index.html", "home"),
        ("https://example.org/en-US/index.php", "home"),
        ("https://example.org/?utm_source=old-post", "home"),  # tracking noise names no page
        ("https://example.org/?lang=en", "home"),  # a query that names no page: still the home page
        ("https://example.org/?ref=404", "home"),
        ("https://example.org/?s=post", "home"),
        ("https://example.org/?error=404", "home"),
        ("https://gate.example.net/wall?continue=https://example.org/post", "login"),
        ("https://example.org/members?return_to=%2Fpost", "login"),
    ],
)
def test_soft_404s(new: str, why: str) -> None:
    assert why in (soft_404("https://example.org/post", new) or "")


@pytest.mark.parametrize(
    "new",
    [
        "https://example.org/new-post?ref=old",  # a referral tag, not a login wall
        "https://example.org/blog/post?next=2",  # pagination
        "https://example.org/2026/post?redirect=1",
    ],
)
def test_a_query_that_names_no_page_of_ours_is_a_move(new: str) -> None:
    assert soft_404("https://example.org/post", new) is None


@pytest.mark.parametrize(
    "new", ["https://example.org/go/", "https://example.org/tv", "https://example.org/?page_id=7"]
)
def test_a_section_named_in_two_letters_or_a_page_id_is_not_the_home_page(new: str) -> None:
    assert soft_404("https://example.org/post", new) is None


def test_a_real_move_is_not_a_soft_404() -> None:
    assert soft_404("https://example.org/post", "https://blog.example.org/2026/post") is None
    assert soft_404("https://example.org/", "https://www.example.org/") is None
    assert soft_404("https://example.org/", "https://example.org/en/") is None  # home to home


@pytest.mark.parametrize(
    "old, new",
    [
        ("https://example.org/post", "https://example.org/?p=123"),  # WordPress's permalink
        ("https://example.org/post", "https://example.org/index.php?page_id=5"),
        ("https://example.org/post", "https://example.org/docs/"),
        ("https://example.org/to-home", "https://example.org/en-us/to-home"),
    ],
)
def test_a_query_or_a_section_on_the_way_is_not_the_home_page(old: str, new: str) -> None:
    assert soft_404(old, new) is None


def test_a_page_named_by_a_query_on_the_root_that_goes_home_is_a_soft_404() -> None:
    assert "home" in (soft_404("https://example.org/?p=123", "https://example.org/") or "")


def test_fix_without_history_is_exit_2(tmp_path: Path) -> None:
    reg = tmp_path / "registry.yaml"
    reg.write_text(REGISTRY, encoding="utf-8")
    r = fix(reg, tmp_path / "none.sqlite")
    assert r.exit_code == 2 and "no history yet" in r.stderr


def test_documented_example_on_the_bundled_registry(tmp_path: Path) -> None:
    """The `fix` example in docs/commands.md is this command's real output on the bundled
    registry."""
    root = Path(__file__).resolve().parent.parent
    reg, db = tmp_path / "registry.yaml", tmp_path / "history.sqlite"
    reg.write_bytes((root / "registry.yaml").read_bytes())
    record_urls(  # what a weekly check would record (modelled answers)
        db,
        reg,
        1.0,
        [
            (LMSYS, "redirect", 200, "https://lmsys.org/blog/2026-08-17-advanced-cuda-graph/"),
            (TENSORMESH, "redirect", 200, "https://www.tensormesh.ai/"),
        ],
    )
    r = CliRunner().invoke(app, ["fix", "-r", str(reg), "--history", str(db), "--dry-run"])
    assert r.exit_code == 1
    page = (root / "docs" / "commands.md").read_text(encoding="utf-8")
    section = page.split("\n## anchors fix\n", 1)[1]
    assert f"```diff\n{r.stdout}```" in section, r.stdout
    # and its stderr, as a user sees it (the path as the example names it)
    assert f"```\n{r.stderr.replace(str(reg), 'registry.yaml')}```" in section, r.stderr


def test_fix_reads_snapshots_from_the_history_the_check_was_told_to_use(tmp_path: Path) -> None:
    """`check --archive --cache-dir D` keeps its snapshots in D's history: `fix --cache-dir D`
    finds them there, with no cache at all."""
    reg, state = tmp_path / "registry.yaml", tmp_path / "elsewhere"
    reg.write_text(REGISTRY, encoding="utf-8")
    state.mkdir()
    h = History(state / "history.sqlite")
    fine = Observation(WebUrl("http://docs.example/fine"), "", Outcome.OK, 200, checked_at=1.0)
    h.record(h.start_run(str(reg), 1.0), [fine])
    snap = "https://web.archive.org/web/20260919000000/http://docs.example/fine"
    h.keep_snapshots(str(reg), [(fine.key, Snapshot(snap, "2026-09-19"))])
    h.close()
    assert not (state / "cache.json").exists()
    r = CliRunner().invoke(
        app, ["fix", "-r", str(reg), "--cache-dir", str(state), "--dry-run", "--only", "archive"]
    )
    assert r.exit_code == 1, r.output
    assert f'+    archived: {{url: "{snap}", date: 2026-09-19}}' in r.stdout


def recorded(db: Path, *moves: tuple[str, str], of: tuple[Path, ...] = ()) -> Path:
    """A history whose latest check of each registry in `of` (by default the registry.yaml
    beside it; fix reads only its registry's runs) saw each (old, new) as a permanent redirect."""
    h = History(db)
    for reg in of or (db.parent / "registry.yaml",):
        h.record(
            h.start_run(str(reg), 1.0),
            [
                Observation(
                    WebUrl(canonical_url(old)), "", Outcome.REDIRECT, 200, new, checked_at=1.0
                )
                for old, new in moves
            ],
        )
    h.close()
    return db


def test_two_flow_entries_on_one_line_each_get_their_own_fix(tmp_path: Path) -> None:
    """The move found for the first entry is written on the first, never on its neighbour."""
    reg = tmp_path / "registry.yaml"
    reg.write_text(
        'version: 1\nanchors: [{url: "http://docs.example/a", first_anchored: '
        '2026-09-20, status: new}, {url: "http://docs.example/keep", '
        "first_anchored: 2026-09-20, status: new}]\n",
        encoding="utf-8",
    )
    db = recorded(tmp_path / "h.sqlite", ("http://docs.example/a", "http://docs.example/merged"))
    r = fix(reg, db)
    assert r.exit_code == 0, r.stderr
    doc = yaml.safe_load(reg.read_text("utf-8"))["anchors"]
    assert [(e["url"], e.get("cited_url")) for e in doc] == [
        ("http://docs.example/merged", "http://docs.example/a"),
        ("http://docs.example/keep", None),
    ]


def test_a_move_onto_the_url_of_a_flow_neighbour_is_refused(tmp_path: Path) -> None:
    reg = tmp_path / "registry.yaml"
    text = (
        'version: 1\nanchors: [{url: "http://docs.example/a", first_anchored: 2026-09-20, '
        'status: new}, {url: "http://docs.example/keep", first_anchored: 2026-09-20, '
        "status: new}]\n"
    )
    reg.write_text(text, encoding="utf-8")
    db = recorded(tmp_path / "h.sqlite", ("http://docs.example/a", "http://docs.example/keep"))
    r = fix(reg, db)
    assert r.exit_code == 2 and "would duplicate the entry on line 2" in r.stderr, r.output
    assert reg.read_text("utf-8") == text


def entries(*ids: str) -> str:
    """A block-style registry of these `field: value` identifiers, one entry each."""
    return "version: 1\nanchors:\n" + "".join(
        f"  - {i}\n    first_anchored: 2026-09-20\n    status: new\n" for i in ids
    )


@pytest.mark.parametrize(
    "ids, moves, line, other",
    [
        # two entries redirecting to one new URL: the second would duplicate the first
        (
            ("url: http://docs.example/a", "url: http://docs.example/b"),
            [
                ("http://docs.example/a", "http://docs.example/merged"),
                ("http://docs.example/b", "http://docs.example/merged"),
            ],
            6,
            "line 3",
        ),
        # an arXiv abstract page is the paper the `arxiv:` entry names
        (
            ('arxiv: "2312.07104"', "url: http://blog.example/paper"),
            [("http://blog.example/paper", "https://arxiv.org/abs/2312.07104")],
            6,
            "line 3 (2312.07104)",
        ),
        # a doi.org URL is the `doi:` entry's paper
        (
            ("url: http://blog.example/paper", 'doi: "10.1145/3600006.3613165"'),
            [("http://blog.example/paper", "https://doi.org/10.1145/3600006.3613165")],
            3,
            "line 6",
        ),
    ],
)
def test_a_move_that_would_duplicate_an_entry_refuses_the_run(
    tmp_path: Path, ids: tuple[str, ...], moves: list[tuple[str, str]], line: int, other: str
) -> None:
    reg = tmp_path / "registry.yaml"
    reg.write_text(entries(*ids), encoding="utf-8")
    db = recorded(tmp_path / "h.sqlite", *moves)
    for args in ((), ("--dry-run",)):
        r = fix(reg, db, *args)
        assert r.exit_code == 2, r.output
        assert f"registry.yaml:{line}: moving" in r.stderr
        assert f"would duplicate the entry on {other}" in r.stderr
        assert r.stdout == "" and reg.read_text("utf-8") == entries(*ids)


def test_a_move_onto_a_url_another_move_frees_is_applied(tmp_path: Path) -> None:
    """/a moved on to /b and /old took its place: after the run no two entries share a URL."""
    reg = tmp_path / "registry.yaml"
    reg.write_text(
        entries("url: http://docs.example/a", "url: http://docs.example/old"), encoding="utf-8"
    )
    db = recorded(
        tmp_path / "h.sqlite",
        ("http://docs.example/a", "http://docs.example/b"),
        ("http://docs.example/old", "http://docs.example/a"),
    )
    r = fix(reg, db)
    assert r.exit_code == 0, r.output
    doc = yaml.safe_load(reg.read_text("utf-8"))["anchors"]
    assert [e["url"] for e in doc] == ["http://docs.example/b", "http://docs.example/a"]
    check = CliRunner().invoke(app, ["check", str(reg), "--offline"])
    assert check.exit_code == 0, check.output


def test_a_move_keeps_the_cited_fragment_unless_the_redirect_names_its_own(tmp_path: Path) -> None:
    """As a browser does: the part of the page a briefing pointed at survives the move."""
    reg = tmp_path / "registry.yaml"
    reg.write_text(
        entries(
            'url: "http://docs.example/c#section-2"',
            'url: "http://docs.example/d#old-name"',
            "url: https://github.com/o/r/issues/1#issuecomment-7",
        ),
        encoding="utf-8",
    )
    db = recorded(
        tmp_path / "h.sqlite",
        ("http://docs.example/c", "https://docs.example/c"),
        ("http://docs.example/d", "https://docs.example/d#new-name"),
    )
    h = History(db)  # the API's answer for a transferred issue: its html_url, no fragment
    h.record(
        h.start_run(str(reg), 2.0),
        [
            Observation(
                key_from_text("github:o/r#1"),
                "",
                Outcome.OK,
                200,
                "https://github.com/o/s/issues/1",
                checked_at=2.0,
            )
        ],
    )
    h.close()
    r = fix(reg, db)
    assert r.exit_code == 0, r.output
    doc = yaml.safe_load(reg.read_text("utf-8"))["anchors"]
    assert [(e["url"], e["cited_url"]) for e in doc] == [
        ("https://docs.example/c#section-2", "http://docs.example/c#section-2"),
        ("https://docs.example/d#new-name", "http://docs.example/d#old-name"),
        (
            "https://github.com/o/s/issues/1#issuecomment-7",
            "https://github.com/o/r/issues/1#issuecomment-7",
        ),
    ]


@pytest.mark.parametrize("tool", ["git apply", "patch"])
def test_the_dry_run_diff_applies_and_gives_the_file_fix_writes(tmp_path: Path, tool: str) -> None:
    """CRLF, a tab, a BOM and no final newline: the printed diff is one of the real bytes.
    Without the tool this skips on a developer's machine and fails under CI=true, where
    `.ci/consumers` installs it (a skipped check cannot fail)."""
    import subprocess

    from .consumers.tools import program

    program(tool.split()[0])
    text = (
        "\ufeffversion: 1\r\nanchors:\r\n  - url: http://docs.example/a\t# tabbed comment\r\n"
        "    first_anchored: 2026-09-20\r\n    status: new"
    )
    db = recorded(
        tmp_path / "h.sqlite",
        ("http://docs.example/a", "http://docs.example/merged"),
        of=(tmp_path / "dry" / "registry.yaml", tmp_path / "real" / "registry.yaml"),
    )
    (tmp_path / "dry").mkdir()
    (tmp_path / "real").mkdir()
    for d in ("dry", "real"):
        (tmp_path / d / "registry.yaml").write_bytes(text.encode("utf-8"))
    r = fix(tmp_path / "dry" / "registry.yaml", db, "--dry-run")
    assert r.exit_code == 1, r.output
    assert b"\n\\ No newline at end of file\n" in r.stdout_bytes
    assert fix(tmp_path / "real" / "registry.yaml", db).exit_code == 0
    args = ["git", "apply"] if tool == "git apply" else ["patch", "-p1", "--quiet"]
    env = {**os.environ, "GIT_CEILING_DIRECTORIES": str(tmp_path)}  # no repository around it
    subprocess.run(args, input=r.stdout_bytes, cwd=tmp_path / "dry", env=env, check=True)
    assert (
        (tmp_path / "dry" / "registry.yaml").read_bytes()
        == (tmp_path / "real" / "registry.yaml").read_bytes()
        != text.encode("utf-8")
    )


def test_the_diff_shows_a_bidi_override_in_the_registry_as_an_escape(tmp_path: Path) -> None:
    reg = tmp_path / "registry.yaml"
    reg.write_text(
        entries("url: http://docs.example/a") + '    title: "abc\u202edef"\n', encoding="utf-8"
    )
    db = recorded(tmp_path / "h.sqlite", ("http://docs.example/a", "http://docs.example/merged"))
    r = fix(reg, db, "--dry-run")
    assert r.exit_code == 1, r.output
    assert '     title: "abc\\u202edef"\n' in r.stdout and "\u202e" not in r.stdout


@pytest.mark.parametrize("mark", ["\u061c", "\u2060", "\u2064", "\ufeff", "\U000e0041"])
def test_every_invisible_format_character_in_the_diff_is_shown(tmp_path: Path, mark: str) -> None:
    """Arabic letter mark, word joiners, a BOM mid-line and tag characters hide text on a
    terminal as bidi overrides do; each is shown as an escape (the file's own BOM is kept)."""
    reg = tmp_path / "registry.yaml"
    reg.write_text(
        entries("url: http://docs.example/a") + f'    title: "abc{mark}def"\n', encoding="utf-8"
    )
    db = recorded(tmp_path / "h.sqlite", ("http://docs.example/a", "http://docs.example/merged"))
    r = fix(reg, db, "--dry-run")
    assert r.exit_code == 1, r.output
    assert mark not in r.stdout and ("abc\\u" in r.stdout or "abc\\U" in r.stdout), r.stdout
