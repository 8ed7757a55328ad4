"""Where a dead URL is cited: the briefing lines, found by the extractor's own rules."""

from __future__ import annotations

from pathlib import Path

from anchors.extract.citing import add_citing_lines
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
