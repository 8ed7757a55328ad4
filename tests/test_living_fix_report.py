"""The living document beyond `check --offline`: `fix --document` follows a renumbering, the
weekly report says what waits for the document, and an online check looks at the document's
links with the registry's, once each, on loopback."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest

from anchors.findings import Outcome
from anchors.history import History, Observation
from anchors.ids.urls import key_from_url
from anchors.render.budget import ISSUE_LIMIT, size

from .loopback import LoopbackServer, respond
from .test_living_document import DOC, ENTRIES, check_json, make_repo, registry_text, run

NOW = "2026-10-01T00:00Z"


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    return make_repo(tmp_path, monkeypatch)


# -- fix --document -------------------------------------------------------------------------


def test_fix_rewrites_the_section_of_a_renumbered_entry_and_nothing_else(repo: Path) -> None:
    reg = repo / "registry.yaml"
    before = reg.read_bytes()
    code, diff, err = run("fix", "--document", "docs/inference.md", "--dry-run")
    assert code == 1, err  # something to fix; no history needed for sections
    assert reg.read_bytes() == before
    changed = [ln for ln in diff.splitlines() if ln[:1] in "+-" and ln[:3] not in ("+++", "---")]
    assert changed == ['-    section: "§1.3 KV Cache"', '+    section: "§1.4 KV Cache"']
    assert "@@ -23,7 +23,7 @@" in diff  # the renumbered entry, lines 23 to 27, and context
    code, out, err = run("fix", "--document", "docs/inference.md")
    assert code == 0 and out == diff, err
    assert reg.read_bytes() == before.replace(
        '"§1.3 KV Cache"'.encode(), '"§1.4 KV Cache"'.encode()
    )
    found = check_json("--document", "docs/inference.md")
    assert "unknown-section" not in {f["code"] for f in found.values()}
    assert run("fix", "--document", "docs/inference.md", "--dry-run")[0] == 0  # nothing left


def test_fix_keeps_the_values_style_and_leaves_a_doubtful_renumbering(repo: Path) -> None:
    reg = repo / "registry.yaml"
    reg.write_text(
        "version: 1\nanchors:\n"
        "  - url: https://example.org/a   # kept\n    first_anchored: 2026-09-24\n"
        "    status: new\n    section: §1.3 KV Cache\n"
        "  - {url: https://example.org/b, first_anchored: 2026-09-24, status: new, "
        "section: '§9 Notes'}\n",
        encoding="utf-8",
    )
    (repo / "docs" / "inference.md").write_text(
        DOC + "\n## §2 Notes\n\n## §3 Notes\n", encoding="utf-8"
    )
    code, _, err = run("fix", "--document", "docs/inference.md", "--only", "section")
    assert code == 0, err
    assert reg.read_text(encoding="utf-8").splitlines()[5] == "    section: §1.4 KV Cache"
    assert "section: '§9 Notes'" in reg.read_text(encoding="utf-8")
    assert "not moved: https://example.org/b" in err and "§2 Notes, §3 Notes" in err


def test_fix_only_section_needs_the_document(repo: Path) -> None:
    code, _, err = run("fix", "--only", "section")
    assert code == 2 and "--document" in err


# -- report --document ----------------------------------------------------------------------


def _history(repo: Path, urls: list[str]) -> None:
    h = History(repo / ".anchors" / "history.sqlite")
    at = datetime(2026, 9, 30, tzinfo=UTC).timestamp()
    run_id = h.start_run(str(repo / "registry.yaml"), at)
    h.record(
        run_id, [Observation(key_from_url(u), u, Outcome.OK, 200, checked_at=at) for u in urls]
    )
    h.finish_run(run_id, True, at)
    h.close()


def test_the_report_lists_what_waits_per_section_oldest_first(repo: Path) -> None:
    _history(repo, [ident for ident, _, _ in ENTRIES if ident.startswith("https://example")])
    code, md, err = run("report", "--now", NOW, "--document", "docs/inference.md")
    assert code == 0, err
    part = md.split("### Waiting for the living document (5)")[1]
    assert "overdue after 14 days" in part
    assert re.findall(r"^#### (.+)$", part, re.MULTILINE) == [
        "§1.1 框架格局",
        "§1.3 KV Cache",
        "§1.4 KV Cache",
        "§2.5 Agents",
    ]
    rows = [ln for ln in part.splitlines() if ln.startswith(("| [", "| `"))]
    cells = [[c.strip() for c in r.strip("|").split("|")] for r in rows]
    assert [(c[0], c[2], c[3], c[4]) for c in cells] == [
        ("[example.org/old](<https://example.org/old>)", "2026-09-01", "30 days", "**overdue**"),
        (
            "[example.org/waiting](<https://example.org/waiting>)",
            "2026-09-24",
            "7 days",
            "not cited yet",
        ),
        (
            "[example.org/renumbered](<https://example.org/renumbered>)",
            "2026-09-24",
            "7 days",
            "renumbered to §1.4 KV Cache",
        ),
        (
            "`github.com/vllm-project/vllm/issues/8242`",
            "2026-09-24",
            "7 days",
            "cited under §1.1 框架格局",
        ),
        (
            "[example.org/proposed](<https://example.org/proposed>)",
            "2026-09-24",
            "7 days",
            "section not written yet",
        ),
    ]
    code, doc, _ = run("report", "--now", NOW, "--document", "docs/inference.md", "-f", "json")
    data = json.loads(doc)
    assert data["documents"] == ["docs/inference.md"] and data["pending_days"] == 14
    assert [(s["section"], [a["anchor"] for a in s["anchors"]]) for s in data["waiting"]] == [
        ("§1.1 框架格局", ["https://example.org/old", "https://example.org/waiting"]),
        ("§1.3 KV Cache", ["https://example.org/renumbered"]),
        ("§1.4 KV Cache", ["https://github.com/vllm-project/vllm/issues/8242"]),
        ("§2.5 Agents", ["https://example.org/proposed"]),
    ]
    old = data["waiting"][0]["anchors"][0]
    assert (old["since"], old["days"], old["code"], old["line"]) == (
        "2026-09-01",
        30,
        "overdue",
        18,
    )
    # without a document the report has no such section, in either format
    assert "Waiting for" not in run("report", "--now", NOW)[1]
    assert "waiting" not in json.loads(run("report", "--now", NOW, "-f", "json")[1])


@pytest.mark.slow
def test_a_long_wait_stays_inside_the_reports_cap(repo: Path) -> None:
    urls = [f"https://example.org/{'段落' * 15}/{i}" for i in range(1500)]
    (repo / "registry.yaml").write_text(
        registry_text([(u, "§1.1 框架格局", "2026-09-24") for u in urls]), encoding="utf-8"
    )
    _history(repo, urls[:3])
    code, md, _ = run("report", "--now", NOW, "--document", "docs/inference.md")
    assert code == 0 and size(md) <= ISSUE_LIMIT
    cut = re.search(r"\*(\d+) more anchors not shown here: see the full report", md)
    assert cut is not None
    shown = md.split("### Waiting for the living document (1500)")[1].count("| [example.org/")
    assert shown > 0 and int(cut[1]) == 1500 - shown
    _, doc, _ = run("report", "--now", NOW, "--document", "docs/inference.md", "-f", "json")
    assert len(json.loads(doc)["waiting"][0]["anchors"]) == 1500


# -- online: the document's links once, with the registry's ----------------------------------


def test_the_documents_links_are_checked_once_each_with_the_registrys(repo: Path) -> None:
    async def site(req, w):  # type: ignore[no-untyped-def]
        return await respond(w, 404 if req.path == "/doc-dead" else 200, b"ok", req=req)

    with LoopbackServer(lambda req: site) as srv:
        shared, reg_only = srv.url("/shared"), srv.url("/reg-only")
        (repo / "registry.yaml").write_text(
            registry_text([(shared, "§1.4 KV Cache", "2026-09-24"), (reg_only, "", "2026-09-24")]),
            encoding="utf-8",
        )
        (repo / "docs" / "inference.md").write_text(
            "## §1.4 KV Cache\n"
            f"- {shared}\n"
            f"- [only here]({srv.url('/doc-only')}#install)\n"
            f"- [again]({srv.url('/doc-only')}#usage)\n"
            f"- {srv.url('/doc-dead')}\n"
            f"- {srv.url('/doc-excluded')}\n",
            encoding="utf-8",
        )
        code, out, err = run(
            "check",
            "--allow-private",
            "--no-cache",
            "--exclude",
            "/doc-excluded$",
            "--document",
            "docs/inference.md",
            "-f",
            "json",
            "--today",
            "2026-10-01",
        )
        counts = dict(srv.counts)
    assert code == 1, err  # the document's dead link is an error, like the registry's
    per_url = counts["/reg-only"]
    assert per_url >= 1
    # the shared URL is asked as often as any one URL is: once, not once per holder; the
    # document's own URL once for its two fragments
    assert counts["/shared"] == counts["/doc-only"] == counts["/doc-dead"] == per_url, counts
    findings = json.loads(out)["findings"]
    dead = [f for f in findings if f["code"] == "dead-link"]
    assert [(f["anchor"], f["file"], f["line"]) for f in dead] == [
        (srv.url("/doc-dead"), "docs/inference.md", 5)
    ]
    assert "cited_at" not in dead[0]  # not annotated a second time at its own line
    unregistered = {(f["anchor"], f["line"]) for f in findings if f["code"] == "unregistered"}
    assert unregistered == {
        (srv.url("/doc-only") + "#install", 3),
        (srv.url("/doc-dead"), 5),
        (srv.url("/doc-excluded"), 6),
    }
    assert "/doc-excluded" not in counts  # --exclude holds for the document's links too
    # the counts are the registry's entries; the document adds none
    assert json.loads(out)["anchors"] == 2 and json.loads(out)["stats"]["excluded"] == 0
