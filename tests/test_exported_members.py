"""A cheap guard against accidental API: the public names are exactly the documented ones."""

from __future__ import annotations

import importlib
import pkgutil

import pytest

import anchors

#: the public API (`from anchors import ...`): a name added or dropped is a decision, made here
PUBLIC = {
    "AnchorsError",
    "ArxivId",
    "CheckResult",
    "Citation",
    "Code",
    "Doi",
    "Finding",
    "GithubRef",
    "InvalidId",
    "LinkChecker",
    "MergeResult",
    "NetGuard",
    "Outcome",
    "Registry",
    "Report",
    "Services",
    "Severity",
    "WebUrl",
    "add",
    "build_report",
    "canonical_url",
    "check_offline",
    "check_online",
    "load",
    "merge",
    "parse_anchor",
    "read_briefing",
}
#: the documented modules: these names stay importable from them, whatever moves behind them
DOCUMENTED = {
    "anchors.ids": {
        "ArxivId",
        "Doi",
        "GithubRef",
        "InvalidId",
        "WebUrl",
        "canonical_url",
        "parse_anchor",
    },
    "anchors.extract": {"Citation", "extract", "read_briefing"},
    "anchors.commands": {"add", "check", "export", "fix", "report"},
}


def _import_everything() -> None:
    """What a program that uses several parts of the library has done before it asks a name."""
    for info in pkgutil.walk_packages(anchors.__path__, "anchors."):
        if not info.name.endswith("__main__"):
            importlib.import_module(info.name)


def test_public_names_are_exactly_the_documented_ones() -> None:
    assert set(anchors.__all__) == PUBLIC


@pytest.mark.parametrize("name", sorted(PUBLIC))
def test_every_public_name_is_what_it_says_after_any_import(name: str) -> None:
    _import_everything()
    value = getattr(anchors, name)
    assert getattr(value, "__name__", None) == {"build_report": "build"}.get(name, name), value


def test_documented_modules_keep_their_names() -> None:
    for module, names in DOCUMENTED.items():
        mod = importlib.import_module(module)
        assert names <= set(mod.__all__), module
        if module == "anchors.commands":  # its `add` takes paths; the package's, parsed briefings
            continue
        for name in names & PUBLIC:  # the package gives the same object
            assert getattr(anchors, name) is getattr(mod, name), name


def test_the_commands_are_there_after_any_import() -> None:
    """`anchors.check` is a package and `anchors.export` a module: the functions live in
    `anchors.commands`, where no submodule can shadow them."""
    _import_everything()
    from anchors import commands

    for name in DOCUMENTED["anchors.commands"]:
        assert callable(getattr(commands, name)) and getattr(commands, name).__module__ == (
            "anchors.commands"
        ), name


def test_every_module_declares_all() -> None:
    for info in pkgutil.walk_packages(anchors.__path__, "anchors."):
        if info.name.endswith("__main__"):
            continue
        mod = importlib.import_module(info.name)
        if info.ispkg:
            continue
        assert hasattr(mod, "__all__"), info.name
        for name in mod.__all__:
            assert hasattr(mod, name), f"{info.name}.{name}"
