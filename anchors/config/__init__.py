"""Settings for every command: flag > environment > config files > default, in that order.

Config files are `anchors.toml` (top-level keys) and the `[tool.anchors]` table of
`pyproject.toml`, discovered from the registry's folder up to the repository root (`files`).
Keys are the long flag names: `concurrency = 32`, `exclude = ["^https://twitter\\.com/"]`,
`accept = [403]`, `registry = "data/registry.yaml"`. A config file belongs to the repository,
so what it may set is limited by one table (`trust`): no endpoints, no relaxing the address
guard, no paths outside the repository; flags and the environment may set anything.
"""

from __future__ import annotations

from .files import config_files
from .load import DEFAULT_REGISTRY, all_registries, load_settings, one_registry
from .settings import CONFIG_ENV, ENV, IA_KEY_ENV, TOKEN_ENV, Settings

__all__ = [
    "CONFIG_ENV",
    "DEFAULT_REGISTRY",
    "ENV",
    "IA_KEY_ENV",
    "TOKEN_ENV",
    "Settings",
    "all_registries",
    "config_files",
    "load_settings",
    "one_registry",
]
