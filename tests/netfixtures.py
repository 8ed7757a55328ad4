"""Network test plumbing: cassette bookkeeping and a loopback server fixture."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from .cassettes import CASSETTES, used
from .loopback import LoopbackServer


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error) -> None:  # type: ignore[no-untyped-def]
    """Under pytest-xdist: the cassettes a worker used count for the whole run."""
    used.update(Path(p) for p in node.workeroutput.get("cassettes_used", ()))


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Fail a full run that left a cassette unused, so cassettes never rot unnoticed."""
    cfg = session.config
    if hasattr(cfg, "workeroutput"):  # an xdist worker: the controller judges the whole run
        cfg.workeroutput["cassettes_used"] = sorted(str(p) for p in used)
        return
    partial = (
        cfg.option.keyword
        or cfg.option.markexpr
        or cfg.option.collectonly
        or any("::" in a or a.endswith(".py") for a in cfg.args)
    )
    if partial or exitstatus != 0:
        return
    unused = sorted(
        p.relative_to(CASSETTES).as_posix() for p in CASSETTES.rglob("*.yaml") if p not in used
    )
    if unused:
        session.exitstatus = 1
        reporter = cfg.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None:
            reporter.write_line(f"unused cassettes (delete them or test them): {unused}", red=True)


@pytest.fixture
def loopback() -> Iterator[type[LoopbackServer]]:
    """The server class; tests start it with their own routes in a `with` block."""
    yield LoopbackServer
