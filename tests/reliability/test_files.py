"""Files as they really are: devices, FIFOs, folders, symlinks, owners, read-only, full disks."""

from __future__ import annotations

import os
import shutil
import stat
import threading
from datetime import date
from pathlib import Path

import pytest

from anchors.errors import RegistryError
from anchors.extract import extract
from anchors.merging.merge import add
from anchors.registry import store
from anchors.registry.loader import load

from .envtools import IS_ROOT, TODAY, fill, in_process, one_error_line, powerless, small_tmpfs

DATA = Path(__file__).resolve().parent.parent / "data"
BRIEF = DATA / "briefing-0925.md"

pytestmark = [pytest.mark.reliability(kind="data"), pytest.mark.timeout(60)]


def _reg(folder: Path, name: str = "registry.yaml") -> Path:
    reg = folder / name
    shutil.copy(DATA / "commented.yaml", reg)
    return reg


def _add(reg: Path | str, *more: str) -> object:
    """`anchors add` of BRIEF, in-process: these cases are about the files, not the process."""
    return in_process("add", "-q", "-r", str(reg), "--today", TODAY, str(BRIEF), *more)


@pytest.mark.reliability(kind="input")
def test_device_node_is_never_replaced(tmp_path: Path) -> None:
    """`-r /dev/null` as root; on a private node of the same device, so a regression cannot
    replace the machine's own /dev/null."""
    if not IS_ROOT:
        pytest.skip("only root can make (and would replace) a device node")
    null = tmp_path / "null"
    os.mknod(null, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    one_error_line(_add(null), str(null), "character device")  # type: ignore[arg-type]
    after = os.stat(null)
    assert stat.S_ISCHR(after.st_mode) and after.st_rdev == os.makedev(1, 3)


@pytest.mark.reliability(kind="input")
@pytest.mark.parametrize("kind", ["fifo", "folder"])
def test_fifo_and_folder_registries_are_refused(
    tmp_path: Path, kind: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A FIFO is never written; a read-only command reads one, but a named FIFO that nothing
    writes to is given up on (`pipes.FIFO_WAIT`, shortened here), not waited for forever."""
    from anchors.registry import pipes

    monkeypatch.setattr(pipes, "FIFO_WAIT", 0.2)
    reg = tmp_path / "registry.yaml"
    os.mkfifo(reg) if kind == "fifo" else reg.mkdir()
    written = "cannot be written" if kind == "fifo" else "not a regular file"
    one_error_line(_add(reg), str(reg), written)  # type: ignore[arg-type]
    read = "nothing wrote to" if kind == "fifo" else "not a regular file"
    one_error_line(in_process("check", "--offline", str(reg)), str(reg), read)  # type: ignore[arg-type]
    assert stat.S_ISFIFO(reg.stat().st_mode) if kind == "fifo" else reg.is_dir()


def test_symlinked_registry_is_written_through(tmp_path: Path) -> None:
    real = _reg(tmp_path / "real" if (tmp_path / "real").mkdir() is None else tmp_path)
    link = tmp_path / "registry.yaml"
    link.symlink_to(real)
    p = _add(link)
    assert p.returncode == 0, p.stderr  # type: ignore[attr-defined]
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert "2609.30001" in real.read_text(encoding="utf-8")
    # one lock for link and target: beside the target, none beside the link
    assert (real.parent / ".anchors" / "registry.yaml.lock").exists()
    assert not (tmp_path / ".anchors").exists()


def test_link_and_target_take_the_same_lock(tmp_path: Path) -> None:
    from anchors.files import state

    real = _reg(tmp_path)
    link = tmp_path / "other-name.yaml"
    link.symlink_to(real)
    assert state.lock_path(link) == state.lock_path(real)
    with (
        store.locked(real),
        pytest.raises(RegistryError, match="still locked"),
        store.locked(link, timeout=0.05),
    ):
        pass


def test_mode_owner_and_group_are_kept(tmp_path: Path) -> None:
    reg = _reg(tmp_path)
    os.chmod(reg, 0o640)
    if IS_ROOT:
        os.chown(reg, 1234, 5678)  # the runner's file, written by a root container
    before = reg.stat()
    p = _add(reg)
    assert p.returncode == 0, p.stderr  # type: ignore[attr-defined]
    after = reg.stat()
    assert after.st_ino != before.st_ino  # replaced, not edited in place
    assert stat.S_IMODE(after.st_mode) == 0o640
    assert (after.st_uid, after.st_gid) == (before.st_uid, before.st_gid)


def test_new_registry_gets_the_usual_mode(tmp_path: Path) -> None:
    reg = tmp_path / "registry.yaml"
    assert _add(reg).returncode == 0  # type: ignore[attr-defined]
    umask = os.umask(0o22)
    os.umask(umask)
    assert stat.S_IMODE(reg.stat().st_mode) == 0o644 & ~umask


@pytest.mark.reliability(kind="input")
def test_read_only_registry_is_refused_even_for_root(tmp_path: Path) -> None:
    reg = _reg(tmp_path)
    os.chmod(reg, 0o444)
    before = reg.read_bytes()
    one_error_line(_add(reg), str(reg), "read-only (mode 0444)")  # type: ignore[arg-type]
    assert reg.read_bytes() == before and stat.S_IMODE(reg.stat().st_mode) == 0o444
    assert _add(reg, "--dry-run").returncode == 0  # type: ignore[attr-defined]  # reading is fine


def test_hard_link_keeps_the_old_content_as_documented(tmp_path: Path) -> None:
    reg = _reg(tmp_path)
    other = tmp_path / "copy.yaml"
    os.link(reg, other)
    before = other.read_bytes()
    assert _add(reg).returncode == 0  # type: ignore[attr-defined]
    assert other.read_bytes() == before and reg.read_bytes() != before
    documented = (Path(__file__).parents[2] / "docs" / "registry.md").read_text(encoding="utf-8")
    assert "several **hard links**" in documented


def test_state_lives_in_one_self_ignoring_folder(tmp_path: Path) -> None:
    reg = _reg(tmp_path)
    assert _add(reg).returncode == 0  # type: ignore[attr-defined]
    made = sorted(p.name for p in tmp_path.iterdir() if p.name != ".git")  # a checkout's
    assert made == [".anchors", "registry.yaml"]
    assert (tmp_path / ".anchors" / ".gitignore").read_text(encoding="utf-8").splitlines()[
        -1
    ] == "*"


def test_waiting_for_the_registry_lock_is_bounded_and_announced(tmp_path: Path) -> None:
    reg = _reg(tmp_path)
    said: list[str] = []
    b = extract("| 2609.30001 | T | 本次新增 |\n", "b.md", date(2026, 9, 25))
    with store.locked(reg):
        t = threading.Thread(target=lambda: said.append(repr(_try_add(reg, b, said))))
        t.start()
        t.join(10)
    assert said[0].startswith("waiting up to") and "another anchors is writing" in said[0]
    assert "still locked by another anchors after" in said[1]
    assert "2609.30001" not in reg.read_text(encoding="utf-8")


def _try_add(reg: Path, b: object, said: list[str]) -> object:
    old = store.LOCK_TIMEOUT
    store.LOCK_TIMEOUT = 0.1
    try:
        return add(reg, [b], date(2026, 12, 2), on_wait=said.append)  # type: ignore[list-item]
    except RegistryError as exc:
        return exc
    finally:
        store.LOCK_TIMEOUT = old


@pytest.mark.reliability(kind="env")
def test_lock_path_that_is_a_folder_is_an_error(tmp_path: Path) -> None:
    reg = _reg(tmp_path)
    (tmp_path / ".anchors" / "registry.yaml.lock").mkdir(parents=True)
    one_error_line(_add(reg), "registry.yaml.lock")  # type: ignore[arg-type]


@pytest.mark.reliability(kind="env")
@pytest.mark.slow
def test_lock_file_of_another_user_is_an_error_not_a_wait(tmp_path: Path) -> None:
    from anchors.files import state

    reg = _reg(tmp_path)
    lock = state.lock_path(reg)
    lock.touch(mode=0o644)
    if IS_ROOT:
        os.chown(lock, 1234, 1234)
    os.chmod(tmp_path, 0o777)
    line = one_error_line(
        powerless("add", "-q", "-r", str(reg), "--today", TODAY, str(BRIEF)), "registry.yaml.lock"
    )
    assert "permission denied" in line


@pytest.mark.reliability(kind="env")
@pytest.mark.slow
def test_read_only_folder_add_fails_in_one_line_and_dry_run_works(tmp_path: Path) -> None:
    reg = _reg(tmp_path)
    before = reg.read_bytes()
    os.chmod(reg, 0o666)
    os.chmod(tmp_path, 0o555)
    try:
        one_error_line(
            powerless("add", "-q", "-r", str(reg), "--today", TODAY, str(BRIEF)),
            str(tmp_path),
            "permission denied",
        )
        p = powerless("add", "-q", "--dry-run", "-r", str(reg), "--today", TODAY, str(BRIEF))
        assert p.returncode == 0 and "2609.30001" in p.stdout, p.stderr
    finally:
        os.chmod(tmp_path, 0o755)
    assert reg.read_bytes() == before and not (tmp_path / ".anchors").exists()


@pytest.mark.reliability(kind="env")
def test_full_disk_during_add_leaves_the_registry_and_no_temp_file(tmp_path: Path) -> None:
    with small_tmpfs(tmp_path / "disk") as disk:
        reg = _reg(disk)
        assert _add(reg, "--dry-run").returncode == 0  # type: ignore[attr-defined]
        (disk / ".anchors").mkdir(exist_ok=True)  # the lock fits; the new registry does not
        before = reg.read_bytes()
        fill(disk)
        one_error_line(_add(reg), str(reg), "no space left on device")  # type: ignore[arg-type]
        assert reg.read_bytes() == before
        assert sorted(p.name for p in disk.iterdir()) == [".anchors", "filler", "registry.yaml"]
        assert load(reg).problems == []


def test_state_folder_made_by_many_at_once_is_everyones(tmp_path: Path) -> None:
    """Threads (or processes) creating `.anchors/` together all get it: one whose first look
    found nothing used to call the folder another had just made "not a folder" (the cause of a
    rare failure of the concurrent-`add` test)."""
    from anchors.errors import StorageError
    from anchors.files.state import ensure

    failures = 0
    for n in range(60):
        base = tmp_path / str(n) / ".anchors"
        start, errors = threading.Barrier(8), []

        def make(
            base: Path = base, start: threading.Barrier = start, errors: list[StorageError] = errors
        ) -> None:
            start.wait()
            try:
                ensure(base)
            except StorageError as exc:
                errors.append(exc)

        threads = [threading.Thread(target=make) for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        failures += bool(errors)
        assert (base / ".gitignore").is_file()
    assert failures == 0
    (tmp_path / "file").write_text("x", encoding="utf-8")
    with pytest.raises(StorageError, match="not a folder"):  # a real file is still refused
        ensure(tmp_path / "file")
