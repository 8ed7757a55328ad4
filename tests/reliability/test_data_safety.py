"""Nothing is lost: killed writes, concurrent adds, hand-written registries, bad registries."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from datetime import date
from pathlib import Path

import pytest

from anchors.extract import extract, read_briefing
from anchors.merging.merge import add
from anchors.registry.loader import load
from anchors.registry.store import CHECKPOINTS

from .envtools import in_process

DATA = Path(__file__).resolve().parent.parent / "data"
CORPUS = sorted((DATA / "corpus").glob("*.yaml"))
TODAY = "2026-12-02"
ANCHORS = [sys.executable, "-m", "anchors"]

pytestmark = [pytest.mark.reliability(kind="data"), pytest.mark.timeout(120)]


@pytest.mark.parametrize("point", CHECKPOINTS)
def test_killed_mid_write_leaves_old_or_new(tmp_path: Path, point: str) -> None:
    reg = tmp_path / "registry.yaml"
    shutil.copy(DATA / "commented.yaml", reg)
    old = reg.read_bytes()
    cmd = [*ANCHORS, "add", "-q", "-r", str(reg), "--today", TODAY, str(DATA / "briefing-0925.md")]
    p = subprocess.run(
        cmd,
        env={**os.environ, "ANCHORS_TEST_KILL_AT": point},
        capture_output=True,
        check=False,
        timeout=60,
    )
    assert p.returncode == -9  # SIGKILL: no cleanup ran
    now = reg.read_bytes()
    if point == "after-rename":
        assert now != old and load(reg).problems == []
    else:
        assert now == old
    again = in_process(*cmd[len(ANCHORS) :])  # the next add still works
    assert again.returncode == 0, again.stderr
    assert load(reg).problems == []


def _briefing(tmp_path: Path, i: int) -> Path:
    p = tmp_path / f"2026-09-{10 + i:02d}-b{i}.md"
    rows = "\n".join(
        f"| 2609.{30000 + i * 10 + j:05d} | Paper {i}-{j} | 本次新增 |" for j in range(5)
    )
    p.write_text(f"| 2609.19969 | Shared | 高 |\n{rows}\n", encoding="utf-8")
    return p


@pytest.mark.slow
def test_eight_concurrent_adds_all_land(tmp_path: Path) -> None:
    reg = tmp_path / "registry.yaml"
    cmd = [*ANCHORS, "add", "-q", "-r", str(reg), "--today", TODAY]
    procs = [
        subprocess.Popen(
            [*cmd, str(_briefing(tmp_path, i))], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        for i in range(8)
    ]
    for p in procs:
        _, err = p.communicate(timeout=60)
        assert p.returncode == 0, err
    loaded = load(reg)
    keys = [a.key.key for a in loaded.anchors if a.key]
    assert len(keys) == len(set(keys)) == 41  # 8 x 5 new + the shared one: none lost, none twice
    shared = loaded.by_key()["arxiv:2609.19969"]
    assert len(shared.cited_in) == 8 and shared.first_anchored == date(2026, 9, 10)


def test_threads_in_one_process_also_serialise(tmp_path: Path) -> None:
    reg = tmp_path / "registry.yaml"
    briefings = [read_briefing(_briefing(tmp_path, i)) for i in range(4)]
    with ThreadPoolExecutor(4) as pool:
        list(pool.map(lambda b: add(reg, [b], date(2026, 12, 2)), briefings))
    assert len(load(reg).anchors) == 21


_MERGE_KEYS = ("status:", "first_anchored:", "cited_in:", "{arxiv:")


@pytest.mark.parametrize("path", CORPUS, ids=[p.name for p in CORPUS])
def test_hand_written_registries_survive_byte_for_byte(tmp_path: Path, path: Path) -> None:
    reg = tmp_path / path.name
    shutil.copy(path, reg)
    before = reg.read_bytes()
    b = extract(
        "| 2609.19969 | DeepSeek-V4.1-Flash: KV Cache Compression | 9-20锚定 → §1.3 KV Cache |\n"
        "| 2609.30001 | A New Paper | 本次新增 |",
        "b.md",
        date(2026, 9, 25),
    )
    add(reg, [b], date(2026, 12, 2))
    after = reg.read_bytes()
    assert after[:3] == before[:3]  # a BOM stays a BOM
    old, new = before.decode("utf-8-sig"), after.decode("utf-8-sig")
    # every line a person wrote that the merge had no reason to touch is still there, in order
    kept = [ln for ln in old.splitlines(True) if not any(k in ln for k in _MERGE_KEYS)]
    it = iter(new.splitlines(True))
    assert all(any(ln == out for out in it) for ln in kept), "a hand-written line was changed"
    changed = [ln for ln in old.splitlines(True) if ln not in new.splitlines(True)]
    assert all(any(k in ln for k in _MERGE_KEYS) for ln in changed), changed
    if "\r\n" in old:
        assert "\n" not in new.replace("\r\n", "")
    loaded = load(reg)
    assert loaded.problems == []
    a = loaded.by_key()["arxiv:2609.19969"]
    assert a.first_anchored == date(2026, 9, 20) and date(2026, 9, 25) in a.cited_in
    assert "arxiv:2609.30001" in loaded.by_key()
    again = reg.read_bytes()
    add(reg, [b], date(2026, 12, 2))
    assert reg.read_bytes() == again  # idempotent


BAD = {
    "duplicate-keys": (
        'version: 1\nanchors:\n  - arxiv: "2609.19969"\n    status: new\n    status: new\n',
        5,
    ),
    "unquoted-id": (
        (
            "version: 1\nanchors:\n  - arxiv: 2609.10000\n"
            "    first_anchored: 2026-09-21\n    status: new\n"
        ),
        3,
    ),
    "wrong-types": (
        (
            'version: 1\nanchors:\n  - arxiv: "2609.19969"\n    title: [a, b]\n'
            "    first_anchored: 2026-09-21\n    status: new\n"
        ),
        4,
    ),
    "unknown-field": (
        (
            'version: 1\nanchors:\n  - arxiv: "2609.19969"\n    titel: x\n'
            "    first_anchored: 2026-09-21\n    status: new\n"
        ),
        4,
    ),
    "merge-key": (
        'version: 1\nbase: &b {status: new}\nanchors:\n  - <<: *b\n    arxiv: "2609.19969"\n',
        2,
    ),
    "billion-laughs": (
        "version: 1\na: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
        + "".join(
            f"{c}: &{c} [*{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}]\n"
            for p, c in zip("abcdefgh", "bcdefghi")
        )
        + "anchors: *i\n",
        2,
    ),
    "python-object": (
        "version: 1\nanchors:\n  - !!python/object/apply:os.system [echo pwned]\n",
        3,
    ),
    "not-yaml": ("version: 1\nanchors: [\n  - {\n", 3),
    "nul-byte": ("version: 1\n\x00anchors:\n", 2),
}


@pytest.mark.reliability(kind="input")
@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_registries_are_refused_with_file_and_line(tmp_path: Path, name: str) -> None:
    text, line = BAD[name]
    reg = tmp_path / "registry.yaml"
    reg.write_bytes(text.encode("utf-8"))
    brief = tmp_path / "2026-09-25.md"
    brief.write_text("| 2609.30001 | T | 本次新增 |\n", encoding="utf-8")
    p = in_process("add", "-r", str(reg), str(brief), "--today", TODAY)
    err = p.stderr
    assert p.returncode == 2, err
    assert f"{reg}:{line}:" in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert reg.read_bytes() == text.encode("utf-8")
    assert not (tmp_path / "pwned").exists()


@pytest.mark.reliability(kind="input")
def test_fifty_megabyte_registry_is_refused(tmp_path: Path) -> None:
    reg = tmp_path / "registry.yaml"
    with open(reg, "wb") as f:
        f.write(b"version: 1\nanchors:\n")
        f.write(b"# padding\n" * (5 * 1024 * 1024))
    p = in_process("check", "--offline", str(reg))
    assert p.returncode == 2 and "bytes is more than" in p.stderr and "Traceback" not in p.stderr


@pytest.mark.slow
def test_two_checks_at_once_share_history_and_cache_safely(tmp_path: Path) -> None:
    import asyncio
    import sqlite3

    from anchors.net.cache import Cache

    from ..loopback import LoopbackServer, respond

    async def slowish(req, w):
        await asyncio.sleep(0.02)
        return await respond(w, 404 if "dead" in req.path else 200, b"", req=req)

    with LoopbackServer(lambda req: slowish) as srv:
        reg = tmp_path / "registry.yaml"
        reg.write_text(
            "version: 1\nanchors:\n"
            + "".join(
                f"  - url: {srv.url(f'/{k}/{i}')}\n"
                "    first_anchored: 2026-09-24\n    status: new\n"
                for i in range(30)
                for k in (("dead",) if i % 10 == 0 else ("ok",))
            ),
            encoding="utf-8",
        )
        cmd = [
            *ANCHORS,
            "check",
            str(reg),
            "--allow-private",
            "-q",
            "--format",
            "json",
            "--no-cache",
        ]
        codes, errors = [], []
        for cache_flag in ("--no-cache", "--quiet"):  # then two that write the cache at once
            cmd[-1] = cache_flag
            procs = [
                subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
                for _ in range(2)
            ]
            for p in procs:
                errors.append(p.communicate(timeout=60)[1])
                codes.append(p.returncode)
    assert codes == [1, 1, 1, 1], errors  # 3 dead links each time, no crash, no lock error
    db = sqlite3.connect(tmp_path / ".anchors" / "history.sqlite")
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert db.execute("SELECT count(*), sum(complete) FROM runs").fetchone() == (4, 4)
    assert db.execute("SELECT count(*) FROM observations").fetchone()[0] >= 2 * 30 + 2 * 3
    db.close()
    assert len(Cache(tmp_path / ".anchors" / "cache.json").entries) == 27  # the live links
