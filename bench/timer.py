"""One timer for every bench: wall, CPU and peak RSS of a command's own process.

Why not `wait4` on the child directly: on Linux a process's `ru_maxrss` keeps the high-water
mark of the memory it had *before* `exec`, and Python's `subprocess` starts children with
`vfork` (or `fork`), so a child's figure is floored at the bench parent's own RSS. A bench
parent that generated a 100k registry or runs a loopback server for 8,000 URLs (hundreds of
MB) then reported that figure for every command it timed (a 400 MiB parent made `python -c pass`
read 410 MiB; its VmHWM was 10.7 MB).

So the command runs under a trampoline: a bare interpreter (`-I -S`: no site, a few MB) that
forks and execs it, waits for it with `wait4` and writes that usage back through a pipe. The
command's peak RSS is then floored only at the trampoline's few MB (`floor_kib()`), and its CPU
and wall exclude the trampoline's own start.

    from timer import measure
    m = measure([sys.executable, "-c", "pass"])   # m.wall, m.cpu (s), m.rss_kib, m.exit
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

# argv: write-fd, timeout seconds (0 = none), command...
_TRAMPOLINE = """\
import os, signal, sys, time
w, limit, cmd = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3:]
t0 = time.monotonic()
pid = os.fork()
if pid == 0:
    os.close(w)
    try:
        os.execvp(cmd[0], cmd)
    finally:
        os._exit(127)
if limit:
    signal.signal(signal.SIGALRM, lambda *_: os.kill(pid, signal.SIGKILL))
    signal.setitimer(signal.ITIMER_REAL, limit)
_, status, ru = os.wait4(pid, 0)
wall = time.monotonic() - t0
os.write(w, ("%r %r %r %r %d %d" % (t0, wall, ru.ru_utime, ru.ru_stime, ru.ru_maxrss,
                                os.waitstatus_to_exitcode(status))).encode())
"""


@dataclass
class Measured:
    started: float  # time.monotonic() when the command was forked (one clock for all processes)
    wall: float  # seconds, fork to reaping
    cpu: float  # user + system seconds of the command (and any children it waited for)
    rss_kib: int  # peak RSS of the command's process (KiB)
    exit: int  # exit code, or -signal
    out: bytes  # its stdout, when asked for (`capture=True`)


def measure(
    cmd: list[str],
    *,
    timeout: float = 0,
    cwd: Path | str | None = None,
    env: Mapping[str, str] | None = None,
    capture: bool = False,
) -> Measured:
    """Run `cmd` once (stdout kept only with `capture`, stderr dropped) and measure it.
    At `timeout` seconds (0: none) the command is killed (`exit` is then -9)."""
    r, w = os.pipe()
    with tempfile.TemporaryFile() as out_file:
        try:
            p = subprocess.Popen(
                [sys.executable, "-I", "-S", "-c", _TRAMPOLINE, str(w), str(timeout), *cmd],
                stdout=out_file if capture else subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                cwd=cwd,
                env=None if env is None else dict(env),
                pass_fds=(w,),
            )
        finally:
            os.close(w)
        with os.fdopen(r, "rb") as report:
            text = report.read().decode()
        p.wait()
        if not text:
            raise RuntimeError(f"the trampoline failed for {cmd[:3]} (exit {p.returncode})")
        started, wall, utime, stime, rss, code = text.split()
        out_file.seek(0)
        return Measured(
            float(started),
            float(wall),
            float(utime) + float(stime),
            int(rss),
            int(code),
            out_file.read() if capture else b"",
        )


def floor_kib() -> int:
    """The least peak RSS `measure` can report: what the trampoline's forked child holds
    before it execs (a command smaller than this reads as this)."""
    return measure(["true"]).rss_kib


if __name__ == "__main__":
    # The check of the bug this module exists for: a big parent, a small child.
    ballast = bytearray(400 * 1024 * 1024)
    for i in range(0, len(ballast), 4096):
        ballast[i] = 1
    p = subprocess.Popen([sys.executable, "-c", "pass"])
    _, _, usage = os.wait4(p.pid, 0)
    m = measure([sys.executable, "-c", "pass"])
    print(
        f"parent with 400 MiB: `python -c pass` peak RSS by wait4 on the child "
        f"{usage.ru_maxrss / 1024:.0f} MB, by this timer {m.rss_kib / 1024:.1f} MB "
        f"(floor {floor_kib() / 1024:.1f} MB)"
    )
