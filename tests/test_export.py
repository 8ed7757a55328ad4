"""`anchors export`: per-section bibliographies from the registry and the check cache."""

from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from pybtex.database import parse_string
from typer.testing import CliRunner

from anchors.cli.app import app

from .examples import examples
from .loopback import LoopbackServer, respond

ROOT = Path(__file__).resolve().parent.parent
BUNDLED = ROOT / "registry.yaml"
CSL_SCHEMA = json.loads((Path(__file__).parent / "data" / "csl-data.json").read_text("utf-8"))
FIX = Path(__file__).parent / "data" / "fixtures"


def run(*args: str, env: dict[str, str] | None = None):
    return CliRunner().invoke(app, ["export", *args], env=env)


def test_bundled_registry_one_section_as_markdown() -> None:
    r = run("-r", str(BUNDLED), "--section", "§1.3")
    assert r.exit_code == 0, r.stderr
    lines = [ln for ln in r.stdout.splitlines() if ln.startswith("- ")]
    assert len(lines) == 3 and "exported 3 anchors" in r.stderr
    assert lines[0].startswith(
        "- **Edge0: Serving 35B MoEs from SSD with Trained Routing "
        "Prediction**. arXiv:2609.18063. <https://arxiv.org/abs/2609.18063>."
    )
    assert "First anchored 2026-09-24 (new); cited in 2026-09-24." in lines[0]
    assert "###" not in r.stdout  # one section: ready to paste under its heading
    # "§1.3" is not "§1.30", which no entry is in: exit 2 (tests/test_export_section.py)
    assert run("-r", str(BUNDLED), "--section", "§1.30").exit_code == 2


def test_all_sections_grouped_in_document_order() -> None:
    r = run("-r", str(BUNDLED))
    heads = re.findall(r"^### (.+)$", r.stdout, re.MULTILINE)
    assert heads[:3] == ["§1.1 框架格局", "§1.3 KV Cache", "§1.4 推理可靠性与可观测性"]
    assert heads[-1] == "(no section)"


def test_bibtex_keys_are_stable_and_parse_back() -> None:
    a = run("-r", str(BUNDLED), "-f", "bibtex").stdout
    b = run("-r", str(BUNDLED), "-f", "bibtex").stdout
    assert a == b
    bib = parse_string(a, "bibtex")
    keys = list(bib.entries)
    assert len(keys) == len(set(keys)) == 43
    assert "arxiv-2609.18063" in keys and "gh-vllm-project-vllm-8242" in keys
    e = bib.entries["arxiv-2609.18063"]
    assert e.fields["howpublished"] == "arXiv:2609.18063"
    full = parse_string(
        run("-r", str(BUNDLED), "-f", "bibtex", "--bib-style", "biblatex").stdout, "bibtex"
    )
    assert list(full.entries) == keys  # one key per entry in either family
    e = full.entries["arxiv-2609.18063"]
    assert e.fields["eprint"] == "2609.18063" and e.fields["eprinttype"] == "arxiv"
    assert re.fullmatch(r"url-huggingface\.co-[0-9a-f]{8}", next(k for k in keys if "hugging" in k))


def test_bibtex_key_survives_a_retitle_and_reorder(tmp_path: Path) -> None:
    def reg(title: str, first: str, second: str) -> str:
        entries = {
            "a": f'  - arxiv: "2309.06180"\n    title: "{title}"\n',
            "b": "  - url: https://example.org/x\n",
        }
        body = "".join(
            entries[k] + "    first_anchored: 2026-09-20\n    status: new\n"
            for k in (first, second)
        )
        return "version: 1\nanchors:\n" + body

    p = tmp_path / "registry.yaml"
    p.write_text(reg("vLLM", "a", "b"), encoding="utf-8")
    one = set(parse_string(run("-r", str(p), "-f", "bibtex").stdout, "bibtex").entries)
    p.write_text(reg("Efficient Memory Management", "b", "a"), encoding="utf-8")
    two = set(parse_string(run("-r", str(p), "-f", "bibtex").stdout, "bibtex").entries)
    assert (
        one
        == two
        == {
            "arxiv-2309.06180",
            "url-example.org-"
            + __import__("hashlib").sha1(b"https://example.org/x").hexdigest()[:8],
        }
    )


def test_hostile_titles_are_inert_in_every_format(tmp_path: Path) -> None:
    p = tmp_path / "registry.yaml"
    evil = r"a}b{ \\input{/etc/passwd} $x$ ~ ^ \" @everyone <script>"
    p.write_text(
        f'version: 1\nanchors:\n  - url: https://example.org/x\n    title: "{evil}"\n'
        "    first_anchored: 2026-09-20\n    status: new\n",
        encoding="utf-8",
    )
    bib = run("-r", str(p), "-f", "bibtex").stdout
    assert "\\input" not in bib and "$x$" not in bib
    title = (
        parse_string(bib, "bibtex")
        .entries[
            "url-example.org-"
            + __import__("hashlib").sha1(b"https://example.org/x").hexdigest()[:8]
        ]
        .fields["title"]
    )
    assert title.count("{") == title.count("}")
    md = run("-r", str(p)).stdout
    assert "<script>" not in md and "@everyone" not in md


def arxiv_and_github(req):
    async def handler(req, w):
        if req.path.startswith("/api/query"):
            return await respond(
                w,
                200,
                (FIX / "arxiv-api-found.xml").read_bytes(),
                {"Content-Type": "application/atom+xml"},
                req=req,
            )
        if req.path == "/repos/PyGithub/PyGithub/issues/28":
            return await respond(
                w,
                200,
                (FIX / "github-issue.json").read_bytes(),
                {"Content-Type": "application/json"},
                req=req,
            )
        return await respond(w, 404, b"", req=req)

    return handler


@pytest.fixture
def papers(tmp_path: Path) -> Path:
    p = tmp_path / "registry.yaml"
    p.write_text(
        "version: 1\nanchors:\n"
        '  - arxiv: "2309.06180"\n    title: "vLLM PagedAttention"\n'
        "    first_anchored: 2026-09-20\n    status: continued\n"
        '    section: "§1.3 KV Cache"\n    cited_in: ["2026-09-20", "2026-09-24"]\n'
        '  - arxiv: "2312.07104"\n    first_anchored: 2026-09-24\n    status: new\n'
        '    section: "§1.10 Serving"\n    cited_in: ["2026-09-24"]\n'
        "  - url: https://github.com/PyGithub/PyGithub/issues/28\n"
        '    first_anchored: 2026-09-24\n    status: new\n    section: "§1.3 KV Cache"\n'
        '    cited_in: ["2026-09-24"]\n',
        encoding="utf-8",
    )
    return p


def test_refresh_then_offline_csl_json_validates_against_the_csl_schema(papers: Path) -> None:
    with LoopbackServer(arxiv_and_github) as srv:
        # endpoints come from the environment (a config file may not name one)
        (papers.parent / "anchors.toml").write_text("arxiv_delay = 0\n", encoding="utf-8")
        apis = {"ANCHORS_ARXIV_API": srv.url("/api/query"), "ANCHORS_GITHUB_API": srv.url("")}
        r = run("-r", str(papers), "--refresh", "-f", "csl-json", "--today", "2026-09-30", env=apis)
        assert r.exit_code == 0, r.stderr
        asked = sum(srv.counts.values())
    # one arXiv batch, one GitHub issue, and one title search: "vLLM PagedAttention" is not
    # 2309.06180's title, so check asks arXiv which paper it names (one request per mismatch)
    assert asked == 3
    # the server is gone: a plain export reads the cache only
    r = run("-r", str(papers), "-f", "csl-json", "--today", "2026-09-30")
    doc = json.loads(r.stdout)
    jsonschema.Draft7Validator(CSL_SCHEMA).validate(doc)
    vllm = doc[0]
    assert vllm["id"] == "arxiv-2309.06180" and vllm["type"] == "article"
    # a word title-casing would change is marked as written (CSL's nocase)
    assert vllm["title"] == (
        "Efficient Memory Management for Large Language Model Serving with "
        '<span class="nocase">PagedAttention</span>'
    )
    assert vllm["author"][0] == {"family": "Kwon", "given": "Woosuk"}
    assert vllm["issued"] == {"date-parts": [[2023, 9, 12]]}
    assert vllm["number"] == "2309.06180" and vllm["version"] == "1"
    assert vllm["custom"]["cited_in"] == ["2026-09-20", "2026-09-24"]
    assert [d["id"] for d in doc] == [
        "arxiv-2309.06180",
        "gh-pygithub-pygithub-28",
        "arxiv-2312.07104",
    ]  # §1.3 before §1.10
    assert doc[1]["title"] == 'Issue created by <span class="nocase">PyGithub</span>'
    # what is asked for, and nothing else
    new = json.loads(
        run(
            "-r",
            str(papers),
            "-f",
            "csl-json",
            "--status",
            "new",
            "--since",
            "3d",
            "--today",
            "2026-09-26",
        ).stdout
    )
    assert [d["id"] for d in new] == ["gh-pygithub-pygithub-28", "arxiv-2312.07104"]
    bib = parse_string(
        run("-r", str(papers), "-f", "bibtex", "--section", "§1.10").stdout, "bibtex"
    )
    e = bib.entries["arxiv-2312.07104"]
    assert [str(p) for p in e.persons["author"]][:2] == ["Zheng, Lianmin", "Yin, Liangsheng"]
    assert e.fields["year"] == "2023" and e.fields["howpublished"] == "arXiv:2312.07104v2"


def test_a_csl_item_the_schema_refuses_is_caught() -> None:
    """The schema test can fail: an item without its required id is invalid."""
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft7Validator(CSL_SCHEMA).validate([{"type": "article"}])
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft7Validator(CSL_SCHEMA).validate([{"id": "x", "type": "preprint-ish"}])


@pytest.mark.parametrize(
    "args, message",
    [
        (["--format", "ris"], "'ris' is not one of 'markdown', 'bibtex', 'csl-json'"),
        (["--status", "old"], "--status 'old' is not a status"),
        (["--since", "soon"], "is not a duration"),
    ],
)
def test_bad_arguments_are_one_line_and_exit_2(args: list[str], message: str) -> None:
    r = run("-r", str(BUNDLED), *args)
    assert r.exit_code == 2 and message in r.stderr and "Traceback" not in r.stderr


def test_documented_examples_are_real_output() -> None:
    page = (ROOT / "docs" / "commands.md").read_text(encoding="utf-8")
    readme = page.split("\n## anchors export\n", 1)[1].split("\n## ", 1)[0]
    md = run("-r", str(BUNDLED), "--section", "§1.3").stdout.strip()
    bib = run("-r", str(BUNDLED), "--section", "§1.3", "-f", "bibtex").stdout.split("\n\n")[0]
    assert f"```markdown\n{md}\n```" in readme and f"```bibtex\n{bib.strip()}\n```" in readme


def test_a_doi_link_is_hex_encoded_in_every_format(tmp_path: Path) -> None:
    """A `#` in a DOI is part of it: an unencoded one would link to another DOI."""
    reg = tmp_path / "registry.yaml"
    reg.write_text(
        'version: 1\nanchors:\n  - doi: "10.1006/rwei.1999#.0001"\n'
        "    first_anchored: 2026-09-20\n    status: new\n",
        encoding="utf-8",
    )
    for fmt, good in (
        ("markdown", "<https://doi.org/10.1006/rwei.1999%23.0001>"),
        # in \\url{} the % is escaped: hyperref reads `\\%23` as `%23`
        ("bibtex", "\\url{https://doi.org/10.1006/rwei.1999\\%23.0001}"),
        ("csl-json", '"URL": "https://doi.org/10.1006/rwei.1999%23.0001"'),
    ):
        out = CliRunner().invoke(app, ["export", "-r", str(reg), "-f", fmt]).stdout
        assert good in out, (fmt, out)
        assert "doi.org/10.1006/rwei.1999#" not in out, (fmt, out)


def _registry(tmp_path: Path, *ids: str, name: str = "registry.yaml") -> Path:
    p = tmp_path / name
    p.write_text(
        "version: 1\nanchors:\n"
        + "".join(f"  - {i}\n    first_anchored: 2026-09-20\n    status: new\n" for i in ids),
        encoding="utf-8",
    )
    return p


LOOKALIKES = (
    "url: https://github.com/foo-bar/baz/issues/1",
    "url: https://github.com/foo/bar-baz/issues/1",
    'doi: "10.5555/abc_def"',
    'doi: "10.5555/abc-def"',
)


def test_identifiers_that_spell_alike_get_distinct_keys_in_every_format(tmp_path: Path) -> None:
    """`foo-bar/baz#1` and `foo/bar-baz#1` (or `abc_def` and `abc-def`) are two entries: the
    earlier keeps v0.2.0's key, the later carries the hash of its anchor key."""
    reg = _registry(tmp_path, *LOOKALIKES)
    r = run("-r", str(reg), "-f", "bibtex")
    keys = list(parse_string(r.stdout, "bibtex").entries)
    assert len(keys) == len(set(keys)) == 4 and "exported 4 anchors" in r.stderr
    assert "citation key" not in r.stderr  # resolved, not a clash
    ids = [d["id"] for d in json.loads(run("-r", str(reg), "-f", "csl-json").stdout)]
    assert ids == keys
    assert keys[0] == "gh-foo-bar-baz-1" and re.fullmatch(r"gh-foo-bar-baz-1--[0-9a-f]{8}", keys[1])
    assert keys[2] == "doi-10.5555-abc-def" and re.fullmatch(
        r"doi-10\.5555-abc-def--[0-9a-f]{8}", keys[3]
    )
    # the documented example (docs/commands.md): 10.5555/abc_def after 10.5555/abc-def
    swapped = _registry(tmp_path, 'doi: "10.5555/abc-def"', 'doi: "10.5555/abc_def"', name="b.yaml")
    assert list(parse_string(run("-r", str(swapped), "-f", "bibtex").stdout, "bibtex").entries) == [
        "doi-10.5555-abc-def",
        "doi-10.5555-abc-def--1231e01d",
    ]


@pytest.mark.parametrize("entry", LOOKALIKES)
def test_a_key_does_not_change_when_a_lookalike_is_added(tmp_path: Path, entry: str) -> None:
    """`add` appends: an entry's key stays as it was when lookalikes come after it."""

    def csl(reg: Path) -> list[dict[str, str]]:
        return list(json.loads(run("-r", str(reg), "-f", "csl-json").stdout))

    [alone] = csl(_registry(tmp_path, entry, name="one.yaml"))
    later = [e for e in LOOKALIKES if e != entry]
    every = csl(_registry(tmp_path, entry, *later, name="all.yaml"))
    assert [d["id"] for d in every if d["URL"] == alone["URL"]] == [alone["id"]]
    assert "--" not in alone["id"]


#: identifiers as briefings cite them, and the key v0.2.0 (`bc9deee`) exported for each
V020_KEYS = {
    'doi: "10.1038/s41586-021-03819-2"': "doi-10.1038-s41586-021-03819-2",
    'doi: "10.18653/v1/2020.acl-main.1"': "doi-10.18653-v1-2020.acl-main.1",
    'doi: "10.1007/978-3-030-58452-8_13"': "doi-10.1007-978-3-030-58452-8-13",
    'doi: "10.1145/3600006.3613165"': "doi-10.1145-3600006.3613165",
    'doi: "10.1109/CVPR.2016.90"': "doi-10.1109-cvpr.2016.90",
    'doi: "10.1093/nar/gkab1112"': "doi-10.1093-nar-gkab1112",
    "url: https://github.com/openai/openai-python/issues/123": "gh-openai-openai-python-123",
    "url: https://github.com/huggingface/text-generation-inference/pull/1": (
        "gh-huggingface-text-generation-inference-1"
    ),
    "url: https://github.com/vllm-project/vllm/pull/8242": "gh-vllm-project-vllm-8242",
    "url: https://github.com/PyGithub/PyGithub/issues/28": "gh-pygithub-pygithub-28",
    'arxiv: "2309.06180"': "arxiv-2309.06180",
    'arxiv: "astro-ph/0601001"': "arxiv-astro-ph-0601001",
    'arxiv: "hep-th/9901001v2"': "arxiv-hep-th-9901001",
    "url: https://www.lmsys.org/blog/2026-08-17-advanced-cuda-graph": "url-www.lmsys.org-e6f2b010",
    "url: https://huggingface.co/blog/some_post": "url-huggingface.co-50a511a1",
}


def test_keys_are_those_of_v0_2_0(tmp_path: Path) -> None:
    """Users' `\\cite{}` keys from v0.2.0 keep working: no identifier's key changed."""
    reg = _registry(tmp_path, *V020_KEYS)
    for fmt in ("bibtex", "csl-json"):
        out = run("-r", str(reg), "-f", fmt).stdout
        keys = (
            list(parse_string(out, "bibtex").entries)
            if fmt == "bibtex"
            else [d["id"] for d in json.loads(out)]
        )
        assert keys == list(V020_KEYS.values()), fmt


def test_a_section_export_gives_the_keys_of_the_full_export(tmp_path: Path) -> None:
    """Lookalikes are told apart over the whole registry, not the entries exported."""
    reg = _registry(
        tmp_path,
        'doi: "10.5555/abc-def"\n    section: "§1 A"',
        'doi: "10.5555/abc_def"\n    section: "§2 B"',
    )
    full = list(parse_string(run("-r", str(reg), "-f", "bibtex").stdout, "bibtex").entries)
    two = list(
        parse_string(
            run("-r", str(reg), "-f", "bibtex", "--section", "§2").stdout, "bibtex"
        ).entries
    )
    assert two == full[1:] == ["doi-10.5555-abc-def--1231e01d"]


def _same_short_hash(host: str) -> tuple[str, str]:
    """Two web pages of one host whose SHA-1s share the first 8 hex digits (a birthday search)."""
    import hashlib

    seen: dict[str, str] = {}
    for i in range(1 << 20):
        url = f"https://{host}/p{i}"
        h = hashlib.sha1(url.encode()).hexdigest()[:8]
        if h in seen:
            return seen[h], url
        seen[h] = url
    raise AssertionError("no collision found")


def test_two_pages_that_share_a_hash_by_chance_are_both_written(tmp_path: Path) -> None:
    """Two pages of one host whose 8 hex agree are lookalikes like any other: the earlier keeps
    the key, the later carries the hash of its anchor key."""
    a, b = _same_short_hash("example.org")
    reg = _registry(tmp_path, f"url: {a}", f"url: {b}")
    r = run("-r", str(reg), "-f", "bibtex")
    assert r.exit_code == 0, r.stderr
    bib = parse_string(r.stdout, "bibtex")
    assert len(bib.entries) == 2 and "exported 2 anchors" in r.stderr
    first, second = bib.entries
    assert first == "url-example.org-" + __import__("hashlib").sha1(a.encode()).hexdigest()[:8]
    assert re.fullmatch(re.escape(first) + "--[0-9a-f]{8}", second)
    ids = [d["id"] for d in json.loads(run("-r", str(reg), "-f", "csl-json").stdout)]
    assert ids == [first, second]


@pytest.mark.parametrize(
    "cited, moved",
    [
        (
            "https://www.lmsys.org/blog/2026-08-17-advanced-cuda-graph",  # a permanent redirect
            "https://lmsys.org/blog/2026-08-17-advanced-cuda-graph/",
        ),
        (
            "https://github.com/old-owner/repo/issues/7",  # a transferred issue / renamed owner
            "https://github.com/new-owner/repo/issues/7",
        ),
    ],
)
def test_a_key_survives_fix_moving_the_entry(tmp_path: Path, cited: str, moved: str) -> None:
    """`fix` writes the new URL and keeps the cited one as `cited_url`; `\\cite{}` must not
    break."""
    reg = _registry(tmp_path, f"url: {cited}")
    before = list(parse_string(run("-r", str(reg), "-f", "bibtex").stdout, "bibtex").entries)
    reg.write_text(
        reg.read_text("utf-8").replace(f"url: {cited}", f"url: {moved}\n    cited_url: {cited}"),
        encoding="utf-8",
    )
    r = run("-r", str(reg), "-f", "bibtex", "--bib-style", "biblatex")
    bib = parse_string(r.stdout, "bibtex")
    assert list(bib.entries) == before
    assert (
        bib.entries[before[0]].fields["url"].startswith(moved.rstrip("/"))
    )  # links to the new URL
    assert [d["id"] for d in json.loads(run("-r", str(reg), "-f", "csl-json").stdout)] == before


def test_a_moved_entry_and_an_entry_for_its_old_url_are_both_written(tmp_path: Path) -> None:
    """Both claim the key of the old URL: the later one gets a longer key, with a warning."""
    reg = _registry(
        tmp_path,
        "url: https://example.org/new\n    cited_url: https://example.org/old",
        "url: https://example.org/old",
    )
    r = run("-r", str(reg), "-f", "bibtex")
    keys = list(parse_string(r.stdout, "bibtex").entries)
    assert len(keys) == 2 and keys[1].startswith(keys[0] + "-"), keys
    assert "is also the key of the entry on line 3" in r.stderr


def test_urls_are_verbatim_in_bibtex(tmp_path: Path) -> None:
    """url/doi are verbatim fields: `~`, `_`, `%20`, `&` stay as they are, or the link breaks."""
    urls = (
        "https://www.cs.example.edu/~alice/paper_v2.pdf",
        "https://example.org/a%20b?x=1&y=2",
        "https://github.com/o/r/issues/1#issuecomment-9_x",
    )
    reg = _registry(tmp_path, *(f"url: {u}" for u in urls), 'doi: "10.1000/a_b%c&d~e"')
    out = run("-r", str(reg), "-f", "bibtex", "--bib-style", "biblatex").stdout
    for u in urls:
        assert f'url = "{u}"' in out, out
    assert 'doi = "10.1000/a_b%c&d~e"' in out
    fields = [e.fields for e in parse_string(out, "bibtex").entries.values()]
    assert [f["url"] for f in fields[:3]] == list(urls)
    # classic styles print a link from `\url{}`, where only % and # are escaped (hyperref
    # reads them back); `~`, `_` and `&` stay as they are
    classic_bib = parse_string(run("-r", str(reg), "-f", "bibtex").stdout, "bibtex")
    classic = [e.fields for e in classic_bib.entries.values()]
    assert [f["howpublished"] for f in classic][:3] == [
        "\\url{https://www.cs.example.edu/~alice/paper_v2.pdf}",
        "\\url{https://example.org/a\\%20b?x=1&y=2}",
        "\\url{https://github.com/o/r/issues/1\\#issuecomment-9_x}",
    ]


def test_what_a_bib_cannot_hold_in_a_url_is_percent_encoded(tmp_path: Path) -> None:
    """An unbalanced brace or a backslash from the network is percent-encoded, never escaped:
    the .bib still parses and the link still means the same."""
    reg = _registry(
        tmp_path,
        'url: "https://github.com/o/r/issues/1#a{b"',
        'doi: "10.1000/x}{\\\\y"',
        'doi: "10.1000/{balanced}"',
    )
    r = run("-r", str(reg), "-f", "bibtex", "--bib-style", "biblatex")
    assert r.exit_code == 0, r.stderr
    fields = [e.fields for e in parse_string(r.stdout, "bibtex").entries.values()]
    assert fields[0]["url"] == "https://github.com/o/r/issues/1#a%7Bb"
    assert [f["doi"] for f in fields[1:]] == ["10.1000/x%7D%7B%5Cy", "10.1000/{balanced}"]


def _with_authors(tmp_path: Path, authors: list[object]) -> Path:
    """A registry of one arXiv anchor whose cached metadata (as `check` stores it) has `authors`."""
    from anchors.net.cache import Cache

    reg = _registry(tmp_path, 'arxiv: "2312.07104"')
    cache = Cache(tmp_path / ".anchors" / "cache.json")
    cache.put("arxiv:2312.07104", {"outcome": "ok", "title": "T", "authors": authors})
    cache.save()
    return reg


ODD_NAMES: list[object] = [
    "Smith, Jr., John, III",
    "Alice and Bob",
    "Bob AND",
    "others",
    "and",
    ", John",
    "a{b",
    "}x{",
    "Li, Fei-Fei",
    "van der Berg, J.",
    "   ",
    "O\\'Brien\\and Co",
    42,
]


def test_odd_author_names_never_crash_and_stay_one_author_each(tmp_path: Path) -> None:
    """Names come from the network: each is one author, in BibTeX and CSL-JSON alike."""
    reg = _with_authors(tmp_path, [*ODD_NAMES, "Kwon, Woosuk"])
    r = run("-r", str(reg), "-f", "bibtex")
    assert r.exit_code == 0 and "Traceback" not in r.stderr, r.stderr
    people = [
        str(p)
        for p in parse_string(r.stdout, "bibtex").entries["arxiv-2312.07104"].persons["author"]
    ]
    named = [n for n in ODD_NAMES if isinstance(n, str) and n.strip()] + ["Kwon, Woosuk"]
    assert len(people) == len(named)  # one per non-blank name, none split, none lost
    assert people[0] == "{Smith, Jr., John, III}" and people[1] == "{Alice and Bob}"
    assert people[-1] == "Kwon, Woosuk" and "Berg, J." in people[9]
    r = run("-r", str(reg), "-f", "csl-json")
    assert r.exit_code == 0, r.stderr
    doc = json.loads(r.stdout)
    jsonschema.Draft7Validator(CSL_SCHEMA).validate(doc)
    names = doc[0]["author"]
    assert len(names) == len(named)
    assert names[0] == {"literal": "Smith, Jr., John, III"}
    assert names[1] == {"literal": "Alice and Bob"}
    assert names[-1] == {"family": "Kwon", "given": "Woosuk"}
    assert run("-r", str(reg)).exit_code == 0


@given(st.lists(st.text(min_size=1, max_size=30).filter(str.strip), max_size=6))
@settings(max_examples=150, deadline=None)
@pytest.mark.slow
def test_any_author_list_exports_one_author_per_name(authors: list[str]) -> None:
    from anchors.export import ExportItem
    from anchors.render.bib import bibtex
    from anchors.render.csl import csl_json

    item = ExportItem(
        key="arxiv:2312.07104",
        cite_key="k",
        kind="arxiv",
        anchor="2312.07104",
        url="https://arxiv.org/abs/2312.07104",
        title="T",
        authors=tuple(authors),
        published=None,
        container=None,
        doi=None,
        arxiv_id="2312.07104",
        version=None,
        first_anchored=None,
        status=None,
        section=None,
        cited_in=(),
    )
    entry = parse_string(bibtex([item]), "bibtex").entries["k"]
    assert len(entry.persons.get("author", [])) == len(authors)
    doc = csl_json([item])
    jsonschema.Draft7Validator(CSL_SCHEMA).validate(doc)
    assert len(doc[0].get("author", [])) == len(authors)


SPELLINGS = ("§1.3 KV Cache", "§ 1.3 KV Cache", "§1.3\u3000KV Cache", "§\uff11.\uff13 KV Cache")


def test_one_section_however_spelt_is_one_heading_in_document_order(tmp_path: Path) -> None:
    """Spaced, ideographic-space and full-width spellings of §1.3 KV Cache are one section: one
    heading (normalised), in the registry's order, before §1.10; `--section` finds them all."""
    reg = tmp_path / "registry.yaml"
    body = "".join(
        f"  - url: https://example.org/{i}\n    first_anchored: 2026-09-20\n"
        f'    status: new\n    section: "{s}"\n'
        for i, s in enumerate(("§1.10 Serving", *SPELLINGS, "§1.30 Other"))
    )
    reg.write_text("version: 1\nanchors:\n" + body, encoding="utf-8")
    md = run("-r", str(reg)).stdout
    assert re.findall(r"^### (.+)$", md, re.MULTILINE) == [
        "§1.3 KV Cache",
        "§1.10 Serving",
        "§1.30 Other",
    ]
    listed = re.findall(r"<https://example\.org/(\d)>", md)
    assert listed == ["1", "2", "3", "4", "0", "5"]
    for wanted in ("§1.3", "§ 1.3", "§\uff11.\uff13", "§1.3\u3000KV Cache", "§1.3 kv cache"):
        out = run("-r", str(reg), "--section", wanted).stdout
        assert re.findall(r"<https://example\.org/(\d)>", out) == ["1", "2", "3", "4"], wanted


def _sections_registry(tmp_path: Path, *sections: str) -> Path:
    reg = tmp_path / "registry.yaml"
    reg.write_text(
        "version: 1\nanchors:\n"
        + "".join(
            f"  - url: https://example.org/{i}\n    first_anchored: 2026-09-20\n"
            f'    status: new\n    section: "{s}"\n'
            for i, s in enumerate(sections)
        ),
        encoding="utf-8",
    )
    return reg


def test_two_sections_of_one_number_are_two_headings(tmp_path: Path) -> None:
    """After a renumbering `§1.3 KV Cache` and `§1.3 Speculative decoding` are two sections:
    each its own heading, in number order; a bare `§1.3` selects both, a full name one."""
    reg = _sections_registry(
        tmp_path,
        "§1.10 Later",
        "§1.3 Speculative decoding",
        "§1.3 KV Cache",
        "§ 1.3 Speculative  decoding",
        "§1.3",
    )
    md = run("-r", str(reg)).stdout
    assert re.findall(r"^### (.+)$", md, re.MULTILINE) == [
        "§1.3",
        "§1.3 KV Cache",
        "§1.3 Speculative decoding",
        "§1.10 Later",
    ]
    assert re.findall(r"<https://example\.org/(\d)>", md) == ["4", "2", "1", "3", "0"]

    def picked(wanted: str) -> list[str]:
        return re.findall(
            r"<https://example\.org/(\d)>", run("-r", str(reg), "--section", wanted).stdout
        )

    assert picked("§1.3 KV Cache") == ["2"]
    assert picked("§1.3 Speculative decoding") == ["1", "3"]
    assert sorted(picked("§1.3")) == ["1", "2", "3", "4"]


def test_a_name_that_starts_with_a_number_is_kept_as_written(tmp_path: Path) -> None:
    """Only `§` makes a section number: `2024 roadmap` and `1. Introduction` are names, after
    the numbered sections."""
    reg = _sections_registry(tmp_path, "2024 roadmap", "1. Introduction", "§2 Methods", "Appendix")
    md = run("-r", str(reg)).stdout
    assert re.findall(r"^### (.+)$", md, re.MULTILINE) == [
        "§2 Methods",
        "1. Introduction",
        "2024 roadmap",
        "Appendix",
    ]
    out = run("-r", str(reg), "--section", "2024 roadmap").stdout
    assert re.findall(r"<https://example\.org/(\d)>", out) == ["0"]
    assert "§2024" not in run("-r", str(reg), "-f", "csl-json").stdout


def test_since_7d_is_seven_days_up_to_today_and_nothing_after(tmp_path: Path) -> None:
    reg = tmp_path / "registry.yaml"
    cited = {
        "eight-days": "2026-09-23",
        "seven-days": "2026-09-24",
        "today": "2026-09-30",
        "after-today": "2026-10-02",
    }
    reg.write_text(
        "version: 1\nanchors:\n"
        + "".join(
            f"  - url: https://example.org/{name}\n"
            "    first_anchored: 2026-09-01\n    status: new\n"
            f'    cited_in: ["{day}"]\n'
            for name, day in cited.items()
        ),
        encoding="utf-8",
    )
    out = run("-r", str(reg), "--since", "7d", "--today", "2026-09-30").stdout
    assert re.findall(r"<https://example\.org/([a-z-]+)>", out) == ["seven-days", "today"]
    out = run("-r", str(reg), "--since", "1d", "--today", "2026-09-30").stdout
    assert re.findall(r"<https://example\.org/([a-z-]+)>", out) == ["today"]


def test_an_archived_link_ends_where_its_url_ends(tmp_path: Path) -> None:
    """A `>`, `]` or `)` in the snapshot URL cannot close the Markdown link and open another."""
    from urllib.parse import unquote

    snap = (
        "https://web.archive.org/web/20260101000000/"
        "https://example.org/page>x](javascript:alert(1))"
    )
    reg = _registry(
        tmp_path,
        f'url: https://example.org/page\n    archived: {{url: "{snap}", date: 2026-01-01}}',
        "url: https://github.com/o/r/issues/1#issuecomment-9",
    )
    md = run("-r", str(reg)).stdout
    links = re.findall(r"\[archived 2026-01-01\]\(<([^<>\s()\[\]]*)>\)", md)
    assert [unquote(u) for u in links] == [snap], md
    assert "](javascript:" not in md
    assert "<https://github.com/o/r/issues/1#issuecomment-9>" in md  # a fragment is the URL's


def _gfm_autolinks(md: str) -> list[str]:
    """What GitHub's autolink extension would link in `md`, besides the `<...>` links we write:
    a bare `http://`/`https://`/`ftp://` URL or `www.` name whose `:` or `.` is not escaped
    (cmark-gfm extensions/autolink.c; a backslash escape is consumed before it looks)."""
    return re.findall(r"(?:https?|ftp)://\S*|www\.\S*", re.sub(r"<https?://[^<>\s]*>", "", md))


def test_urls_in_network_titles_do_not_become_links_on_github(tmp_path: Path) -> None:
    title = "Evil (http://evil.example) www.evil.example see https://x.example/a, ftp://f.example"
    reg = _registry(
        tmp_path,
        f'url: https://example.org/x\n    title: "{title}"',
        "url: https://github.com/o/r/issues/1",
    )  # untitled: its URL names it
    md = run("-r", str(reg)).stdout
    assert _gfm_autolinks(md) == [], md
    # and they read as written: the escapes render as the bare characters
    assert "http\\://evil.example" in md and "www\\.evil.example" in md
    assert _gfm_autolinks("a http://evil.example b www.evil.example") != []  # the check can fail


def test_a_link_is_the_url_the_registry_writes(tmp_path: Path) -> None:
    """The page the briefing pointed at: its #fragment, trailing slash and query kept, not the
    canonical key's spelling of it."""
    reg = tmp_path / "registry.yaml"
    urls = [
        "https://docs.example/c#section-2",
        "https://docs.example/guide/",
        "https://docs.example/search?q=kv+cache",
    ]
    reg.write_text(
        "version: 1\nanchors:\n"
        + "".join(
            f'  - url: "{u}"\n    first_anchored: 2026-09-20\n    status: new\n' for u in urls
        ),
        encoding="utf-8",
    )
    md = CliRunner().invoke(app, ["export", "-r", str(reg)]).stdout
    csl = json.loads(CliRunner().invoke(app, ["export", "-r", str(reg), "-f", "csl-json"]).stdout)
    assert [it["URL"] for it in csl] == urls
    for u in urls:
        assert f"<{u}>" in md, md


def test_a_heading_is_never_a_bibliographic_title(tmp_path: Path) -> None:
    """Two unrelated pages under one heading got the heading as their title; the resolved
    title comes first, then a title written for the citation."""
    from anchors.net.cache import Cache

    reg = _registry(
        tmp_path,
        'url: https://a.example/one\n    title: "TGI 进入维护模式"\n    title_from: heading',
        'url: https://b.example/two\n    title: "TGI 进入维护模式"\n    title_from: heading',
        'url: https://c.example/three\n    title: "A title the briefing wrote"',
        'arxiv: "2309.06180"\n    title: "vLLM paper"',
    )
    cache = Cache(tmp_path / ".anchors" / "cache.json")
    cache.put("arxiv:2309.06180", {"outcome": "ok", "title": "Efficient Memory Management"})
    cache.save()
    titles = {
        d["URL"]: d.get("title") for d in json.loads(run("-r", str(reg), "-f", "csl-json").stdout)
    }
    assert titles == {
        "https://a.example/one": None,
        "https://b.example/two": None,
        "https://c.example/three": "A title the briefing wrote",
        "https://arxiv.org/abs/2309.06180": "Efficient Memory Management",
    }
    bib = parse_string(run("-r", str(reg), "-f", "bibtex").stdout, "bibtex")
    assert [e.fields.get("title") for e in bib.entries.values()] == [
        None,
        None,
        "{A title the briefing wrote}",
        "{Efficient Memory Management}",
    ]
    assert "维护" not in run("-r", str(reg), "-f", "bibtex").stdout


def test_an_anchor_check_found_gone_is_exported_with_a_warning(tmp_path: Path) -> None:
    from anchors.findings import Outcome
    from anchors.history import History, Observation
    from anchors.ids import parse_anchor

    def seen(anchor: str, outcome: Outcome, status: int, error: str | None = None) -> Observation:
        return Observation(
            parse_anchor(anchor), anchor, outcome, status, error=error, checked_at=1_790_000_000.0
        )

    reg = _registry(
        tmp_path,
        "url: https://a.example/gone",
        "url: https://a.example/fine",
        'arxiv: "2309.99999"',
    )
    h = History(tmp_path / ".anchors" / "history.sqlite")
    run_id = h.start_run(str(reg), 1_790_000_000.0)
    h.record(
        run_id,
        [
            seen("https://a.example/gone", Outcome.DEAD, 404, "HTTP 404"),
            seen("https://a.example/fine", Outcome.OK, 200),
            seen("2309.99999", Outcome.DEAD, 200, "arXiv has no 2309.99999"),
        ],
    )
    h.finish_run(run_id, True, 1_790_000_000.0)
    h.close()
    r = run("-r", str(reg), "-f", "bibtex")
    assert r.exit_code == 0 and len(parse_string(r.stdout, "bibtex").entries) == 3
    warned = [ln for ln in r.stderr.splitlines() if "found gone" in ln]
    assert len(warned) == 2
    assert (
        f"{reg}:3: https://a.example/gone was found gone by the latest check (HTTP 404, 2026-09-21)"
        in warned[0]
    )
    assert f"{reg}:9: 2309.99999" in warned[1] and "arXiv has no 2309.99999" in warned[1]


def test_a_journal_doi_exports_its_journal_volume_issue_and_pages(tmp_path: Path) -> None:
    """`@article` got `booktitle` (bibtex drops it, pybtex refuses the bibliography), and
    Crossref's volume, issue and pages were dropped in both formats."""
    from anchors.net.cache import Cache

    reg = _registry(tmp_path, 'doi: "10.1038/s41586-021-03819-2"', 'arxiv: "astro-ph/0601001"')
    cache = Cache(tmp_path / ".anchors" / "cache.json")
    cache.put(
        "doi:10.1038/s41586-021-03819-2",
        {
            "outcome": "ok",
            "title": "Protein structure",
            "authors": ["John Jumper"],
            "published": "2021-07-15",
            "journal_ref": "Nature",
            "volume": "596",
            "issue": "7873",
            "page": "583-589",
            "work_type": "article-journal",
        },
    )
    cache.put(
        "arxiv:astro-ph/0601001",
        {"outcome": "ok", "title": "OGLE", "journal_ref": "ActaAstron.56:1-50,2006"},
    )
    cache.save()
    bib = parse_string(run("-r", str(reg), "-f", "bibtex").stdout, "bibtex")
    article, paper = bib.entries.values()
    assert article.type == "article" and "booktitle" not in article.fields
    assert {k: article.fields[k] for k in ("journal", "volume", "number", "pages")} == {
        "journal": "Nature",
        "volume": "596",
        "number": "7873",
        "pages": "583--589",
    }
    # a journal reference is free text about the paper, not a journal field on @misc
    assert paper.type == "misc" and "journal" not in paper.fields
    assert paper.fields["note"] == "Published in ActaAstron.56:1-50,2006"
    csl = json.loads(run("-r", str(reg), "-f", "csl-json").stdout)
    assert {k: csl[0][k] for k in ("type", "container-title", "volume", "issue", "page")} == {
        "type": "article-journal",
        "container-title": "Nature",
        "volume": "596",
        "issue": "7873",
        "page": "583-589",
    }
    assert (
        "container-title" not in csl[1] and csl[1]["note"] == "Published in ActaAstron.56:1-50,2006"
    )


def test_bookkeeping_is_not_printed_and_adds_no_character(tmp_path: Path) -> None:
    """`note` carried "first anchored …; §1.1 框架格局", printed by every style, and the section's
    Chinese made an all-English entry fail pdflatex."""
    p = tmp_path / "registry.yaml"
    p.write_text(
        'version: 1\nanchors:\n  - arxiv: "2309.06180"\n    title: "An English title"\n'
        '    first_anchored: 2026-09-20\n    status: new\n    section: "§1.1 框架格局"\n'
        '    cited_in: ["2026-09-20"]\n',
        encoding="utf-8",
    )
    for style in ("classic", "biblatex"):
        out = run("-r", str(p), "-f", "bibtex", "--bib-style", style).stdout
        assert out.isascii(), out
        entry = next(iter(parse_string(out, "bibtex").entries.values()))
        assert "note" not in entry.fields
        assert entry.fields["annote"] == "first anchored 2026-09-20; new; cited in 2026-09-20"
    csl = json.loads(run("-r", str(p), "-f", "csl-json").stdout)[0]
    assert "note" not in csl and csl["custom"]["section"] == "§1.1 框架格局"


def _pybtex_encoded(text: str, style: str) -> str:
    """The old way to the same text: TeX's specials and the style's glyphs as text commands,
    `--` broken, then pybtex's own encoding, latexcodec's `ulatex+utf8`, over the result."""
    import codecs

    import latexcodec  # noqa: F401 (registers the codec)

    from anchors.render import bibvalues
    from anchors.render.escape import one_line

    glyphs = bibvalues._GLYPHS[style]
    t = "".join(bibvalues._TEX.get(ch) or glyphs.get(ch, ch) for ch in one_line(text))
    t = t.replace("--", "-{}-").replace("--", "-{}-")
    return str(codecs.encode(t, "ulatex+utf8"))


@settings(max_examples=examples(400), deadline=None)
@given(st.text(), st.sampled_from(["classic", "biblatex"]))
@example("a::b", "classic")  # `::` is broken for CI logs, never inside a .bib value
@example("a::b%", "biblatex")
def test_latex_encoding_is_pybtexs(text: str, style: str) -> None:
    """The .bib writer encodes text with one `str.translate` table where pybtex ran
    latexcodec's lexer over every value (3/4 of a 100k export): the same text comes out."""
    from anchors.render.bibvalues import latex

    assert latex(text, style) == _pybtex_encoded(text, style)
