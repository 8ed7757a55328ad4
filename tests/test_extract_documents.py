"""What extraction lost on real public documents: an unlabelled BibTeX fence, template URLs in
code, hash-routed pages and arXiv's own `abs/arXiv:ID` spelling. The lines are ours, written
in the shape the documents use."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from typer.testing import CliRunner

from anchors.cli.app import app
from anchors.extract import extract
from anchors.ids import parse_anchor

D = date(2026, 9, 24)


def keys(text: str) -> list[str]:
    return [c.key.key for c in extract(text, "README.md", D).citations]


def test_bibtex_in_an_unlabelled_fence_is_bibtex() -> None:
    text = (
        "## Citation\n\n```\n@inproceedings{lee-etal-2024-probe,\n"
        '    title = "Probing Things Carefully",\n'
        '    doi = "10.18653/v1/2024.findings-acl.456",\n}\n```\n'
    )
    assert keys(text) == ["doi:10.18653/v1/2024.findings-acl.456"]


def test_other_unlabelled_fences_still_hold_no_citations() -> None:
    text = (
        "```\npip install x  # see 2401.00001\n```\n"
        "```\n@media screen {\n  a { color: red }\n}\n```\n"
        "```\n@app.route('/v1')\ndef f(): return 'https://a.example/x'\n```\n"
    )
    assert keys(text) == []


def test_template_urls_are_not_citations() -> None:
    text = (
        "Point the client at `http://localhost:${PORT}/v1` or `http://{host}:{port}/metrics`.\n"
        "In a shell: `curl http://$HOST:PORT/health` and `http://localhost:8000/v1/2401.00001`.\n"
        "The docs live at `https://api.example.com/v1` and https://docs.real.org/guide.\n"
        "Code that cites a paper still does: `https://arxiv.org/abs/2309.06180`.\n"
    )
    b = extract(text, "README.md", D)
    assert b.invalid == []
    assert [c.key.key for c in b.citations] == [
        "url:https://docs.real.org/guide",
        "arxiv:2309.06180",
    ]


def test_add_on_a_readme_with_a_template_url_exits_0(tmp_path: Path) -> None:
    readme = tmp_path / "README-2026-09-24.md"
    readme.write_text(
        "# Tool\n\nStart it and open `http://localhost:${PORT}/ui`.\n"
        "Based on [PagedAttention](https://arxiv.org/abs/2309.06180).\n",
        encoding="utf-8",
    )
    r = CliRunner().invoke(app, ["add", str(readme), "-r", str(tmp_path / "registry.yaml")])
    assert r.exit_code == 0, r.stdout + r.stderr
    assert "invalid" not in r.stdout.lower()


def test_hash_routed_fragments_are_part_of_the_key() -> None:
    text = (
        "- [first thread](https://rust-lang.zulipchat.com/#narrow/stream/131828-t-compiler/"
        "topic/one)\n"
        "- [second thread](https://rust-lang.zulipchat.com/#narrow/stream/131828-t-compiler/"
        "topic/two)\n"
        "- [guide](https://app.example.org/#/guide/install) and "
        "[api](https://app.example.org/#!/api/v2)\n"
        "- [a place](https://docs.real.org/page#install) is the page https://docs.real.org/page\n"
    )
    assert keys(text) == [
        "url:https://rust-lang.zulipchat.com/#narrow/stream/131828-t-compiler/topic/one",
        "url:https://rust-lang.zulipchat.com/#narrow/stream/131828-t-compiler/topic/two",
        "url:https://app.example.org/#/guide/install",
        "url:https://app.example.org/#!/api/v2",
        "url:https://docs.real.org/page",
    ]


def test_two_hash_routed_pages_are_two_entries(tmp_path: Path) -> None:
    b = tmp_path / "notes-2026-09-24.md"
    b.write_text(
        "- [Slow builds](https://rust-lang.zulipchat.com/#narrow/stream/1-a/topic/slow)\n"
        "- [Fast builds](https://rust-lang.zulipchat.com/#narrow/stream/1-a/topic/fast)\n",
        encoding="utf-8",
    )
    reg = tmp_path / "registry.yaml"
    r = CliRunner().invoke(app, ["add", str(b), "-r", str(reg)])
    assert r.exit_code == 0, r.stdout + r.stderr
    text = reg.read_text(encoding="utf-8")
    assert "topic/slow" in text and "topic/fast" in text and "conflict" not in r.stdout


def test_arxiv_abs_urls_with_the_arxiv_prefix_are_arxiv_ids() -> None:
    assert parse_anchor("http://arxiv.org/abs/arXiv:1310.2590").key == "arxiv:1310.2590"
    assert parse_anchor("https://arxiv.org/abs/arxiv:physics/9707012").key == (
        "arxiv:physics/9707012"
    )
    assert keys("See http://arxiv.org/abs/arXiv:1310.2590v2 for the proof.") == ["arxiv:1310.2590"]
