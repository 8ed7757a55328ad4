"""A cheap guard against accidental API: the public names are exactly the documented ones."""

from __future__ import annotations

import importlib
import pkgutil

import anchors


def test_all_is_sorted_and_every_name_resolves() -> None:
    assert anchors.__all__ == sorted(anchors.__all__)
    for name in anchors.__all__:
        assert getattr(anchors, name) is not None


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
