"""The registry keeps the URL the briefing cited; the canonical form is only the key for
duplicates, the cache and the history, and registries written canonically keep working."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from typer.testing import CliRunner

from anchors.cli.app import app
from anchors.ids import canonical_url, cited_url
from anchors.registry.loader import load

from .loopback import LoopbackServer, respond

runner = CliRunner()
PULL = "https://github.com/vllm-project/vllm/pull/9120"


def run(*args: str) -> tuple[int, str, str]:
    r = runner.invoke(app, list(args))
    return r.exit_code, r.stdout, r.stderr


def briefing(tmp_path: Path, day: str, body: str) -> Path:
    p = tmp_path / f"{day}-daily.md"
    p.write_text(f"# 推理日报 ({day})\n\n{body}", encoding="utf-8")
    return p


def urls(reg: Path) -> list[str]:
    return [a.raw_id for a in load(reg).anchors]


def test_only_tracking_parameters_are_dropped() -> None:
    assert (
        cited_url("https://x.example/a/?utm_source=tw&id=3&UTM_Medium=m#sec")
        == "https://x.example/a/?id=3#sec"
    )
    assert cited_url("https://x.example/a?utm_source=tw") == "https://x.example/a"
    assert cited_url("https://x.example/a?fbclid=abc&b=%20x") == "https://x.example/a?b=%20x"
    for same in (
        "http://Host.example/Dir/",
        "https://x.example/?",
        "https://x.example/p?b=2&a=1",
        "https://github.com/o/r/pull/1#issuecomment-5",
    ):
        assert cited_url(same) == same


def test_add_stores_the_url_as_cited(tmp_path: Path) -> None:
    reg = tmp_path / "registry.yaml"
    b = briefing(
        tmp_path,
        "2026-10-01",
        f"| {PULL} | Spec decode fix |\n"
        "| http://docs.example/dir/ | Docs |\n"
        "| https://blog.example.com/Post?utm_source=chat&id=3#results | Post |\n",
    )
    assert run("add", "-r", str(reg), "--today", "2026-12-02", str(b))[0] == 0
    assert urls(reg) == [
        PULL,
        "http://docs.example/dir/",
        "https://blog.example.com/Post?id=3#results",
    ]
    assert "#" in reg.read_text(encoding="utf-8")  # quoted, so the fragment is not a comment
    # re-citing in another form is the same anchor: continued, never a second entry
    again = briefing(
        tmp_path,
        "2026-10-02",
        "| https://github.com/vllm-project/vllm/issues/9120 | Spec decode fix |\n"
        "| http://docs.example/dir | Docs |\n",
    )
    code, out, _ = run("add", "-r", str(reg), "--today", "2026-12-02", "-f", "json", str(again))
    doc = json.loads(out)
    assert code == 0 and doc["summary"]["added"] == 0 and doc["summary"]["continued"] == 2
    assert urls(reg)[:2] == [PULL, "http://docs.example/dir/"]
    assert run("check", "--offline", str(reg), "--today", "2026-12-02")[0] == 0


def test_registries_written_canonically_keep_working(tmp_path: Path) -> None:
    reg = tmp_path / "registry.yaml"
    reg.write_text(
        "version: 1\nanchors:\n"
        "  - url: https://github.com/vllm-project/vllm/issues/9120\n"
        '    first_anchored: 2026-09-01\n    status: new\n    cited_in: ["2026-09-01"]\n'
        "  - url: http://docs.example/dir\n"
        '    first_anchored: 2026-09-01\n    status: new\n    cited_in: ["2026-09-01"]\n',
        encoding="utf-8",
    )
    b = briefing(tmp_path, "2026-10-01", f"| {PULL} | Fix |\n| http://docs.example/dir/ | Docs |\n")
    code, out, _ = run("add", "-r", str(reg), "--today", "2026-12-02", "-f", "json", str(b))
    doc = json.loads(out)
    assert code == 0 and (doc["summary"]["added"], doc["summary"]["continued"]) == (0, 2)
    assert urls(reg) == [
        "https://github.com/vllm-project/vllm/issues/9120",
        "http://docs.example/dir",
    ]


def test_check_fetches_what_was_cited_and_keys_the_history_canonically(tmp_path: Path) -> None:
    async def slash(req, w):
        return await respond(w, 200, b"ok", req=req)

    async def no_slash(req, w):  # what a static site does for a folder
        return await respond(w, 301, b"", {"Location": "/dir/"}, req=req)

    with LoopbackServer({"/dir/": slash, "/dir": no_slash}) as srv:
        cited = f"http://127.0.0.1:{srv.port}/dir/"
        reg = tmp_path / "registry.yaml"
        b = briefing(tmp_path, "2026-10-01", f"| {cited} | Docs |\n")
        assert run("add", "-r", str(reg), "--today", "2026-12-02", str(b))[0] == 0
        assert urls(reg) == [cited]
        code, out, err = run(
            "check",
            str(reg),
            "--allow-private",
            "--no-cache",
            "--today",
            "2026-12-02",
            "-f",
            "json",
        )
        assert code == 0, err
        assert json.loads(out)["findings"] == []  # no "moved permanently … cite the new URL"
        assert srv.counts["/dir/"] >= 1 and srv.counts["/dir"] == 0
    con = sqlite3.connect(tmp_path / ".anchors" / "history.sqlite")
    (target,) = {t for (t,) in con.execute("SELECT target FROM targets")}
    con.close()
    assert target == canonical_url(cited)  # the same key an earlier version recorded
