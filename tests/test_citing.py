"""Where a dead URL is cited: the briefing lines, found by the extractor's own rules."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from anchors.extract import extract
from anchors.extract.citing import add_citing_lines, cited_keys
from anchors.findings import Code, Finding

URL = "https://blog.example.org/posts/kv-cache"


def _cited_at(tmp_path: Path, briefing: str) -> list[dict[str, object]]:
    (tmp_path / ".git").mkdir(exist_ok=True)
    (tmp_path / "registry.yaml").write_text("version: 1\nanchors: []\n", encoding="utf-8")
    (tmp_path / "2026-09-24.md").write_text(briefing, encoding="utf-8")
    f = Finding(Code.DEAD_LINK, URL, str(tmp_path / "registry.yaml"), 3, "HTTP 404")
    (got,) = add_citing_lines([f])
    assert f.details == {}  # the finding given is not changed: a new one is returned
    return [w["line"] for w in got.details.get("cited_at", [])]


def test_a_citation_with_tracking_parameters_is_the_same_citation(tmp_path: Path) -> None:
    text = f"# 2026-09-24\n\n- [KV cache]({URL}?utm_source=feed)\n- {URL}/more is another page\n"
    assert _cited_at(tmp_path, text) == [3]


def test_a_url_in_a_code_block_is_not_a_citation(tmp_path: Path) -> None:
    text = f"# 2026-09-24\n\n```\ncurl {URL}\n```\n\n见 {URL}。\n"
    assert _cited_at(tmp_path, text) == [7]


def _briefings() -> list[Path]:
    return sorted((Path(__file__).parent / "data").glob("**/*.md"))


def test_the_citing_scan_finds_what_the_extractor_finds() -> None:
    """`cited_keys` is the extractor's walk without titles and claims: on every real briefing
    and Markdown file we hold, the same (key, line) pairs in the same order."""
    files = _briefings()
    assert len(files) >= 10
    for path in files:
        text = path.read_text(encoding="utf-8")
        whole = [(c.key.key, c.line) for c in extract(text, str(path), date(2026, 9, 25)).citations]
        assert list(cited_keys(text)) == whole, path
        assert whole or "://" not in text, path


def test_the_citing_scan_keeps_table_cells_ignored_anchors_and_comments_apart() -> None:
    text = (
        "# 2026-09-24\n\n"
        "| paper | code |\n|---|---|\n| arXiv:2309.06180 | https://github.com/vllm-project/vllm |\n"
        "<!-- https://hidden.example/x -->\n"
        "<!-- anchors: ignore https://skip.example/y -->\nhttps://skip.example/y\n"
        "two at once: https://a.example/p and https://a.example/p again\n"
    )
    whole = [(c.key.key, c.line) for c in extract(text, "b.md", date(2026, 9, 24)).citations]
    assert list(cited_keys(text)) == whole
    assert [line for _, line in whole] == [5, 5, 9]
