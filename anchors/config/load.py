"""Merging the sources: flag > environment > config files > default.

All config files found are merged: a nearer file wins for a single value, `anchors.toml` is
nearer than `pyproject.toml` in the same folder, and lists (`exclude`, `accept`) are joined,
with the environment's and the flags' items added to them. Each file's values pass the trust
table (`trust.from_file`) before they count.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..errors import UsageError
from ..files.repo import inside, repository_root
from .files import config_files, read_table
from .settings import CONFIG_ENV, ENV, IA_KEY_ENV, TOKEN_ENV, Settings
from .trust import FILE_RULES, from_file, repository_of
from .values import coerce, unknown_key

__all__ = ["DEFAULT_REGISTRY", "all_registries", "load_settings", "one_registry"]

#: The registry when neither the command line nor a config file names one.
DEFAULT_REGISTRY = "registry.yaml"
_LISTS = ("exclude", "accept")
#: the state places a flag or the environment may choose (`Settings.chosen`)
_STATE = ("cache_dir", "history")


# Any: a setting's value, coerced to its field's type by name (`values.coerce`), until
# `Settings(**values)` takes it: mypy cannot follow a name to a field's type
def _file_values(path: Path) -> dict[str, Any]:
    values: dict[str, Any] = {}
    root = repository_of(path)
    for key, raw in read_table(path, root).items():
        name = key.replace("-", "_")
        if name not in FILE_RULES:
            raise unknown_key(key, sorted(FILE_RULES), str(path))
        values[name] = from_file(name, coerce(name, raw, str(path)), path, root)
    return values


def _put(values: dict[str, Any], name: str, new: Any) -> None:
    """A single value replaces what was there; a list is joined to it (Any: as above)."""
    old = values.get(name)
    if name not in _LISTS or old is None:
        values[name] = new
    else:
        values[name] = tuple(dict.fromkeys(old + new)) if name == "exclude" else old | new


def _merge(files: list[Path]) -> dict[str, Any]:  # Any: as `_file_values`
    values: dict[str, Any] = {}
    for path in reversed(files):  # farthest first, so nearer files overwrite single values
        for name, value in _file_values(path).items():
            _put(values, name, value)
    return values


def load_settings(
    registry: Path | None,
    flags: Mapping[str, object],
    env: dict[str, str] | None = None,
    config: Path | None = None,
) -> Settings:
    """Merge the sources; `flags` holds only the options given on the command line.

    `config` (or `ANCHORS_CONFIG`) names the one file to read, and nothing is discovered; what
    that file may set is what any config file may (its contents are still a file's).
    """
    env = dict(os.environ) if env is None else env
    config = config or (Path(env[CONFIG_ENV]) if env.get(CONFIG_ENV) else None)
    if config is not None:
        if not config.is_file():
            raise UsageError(f"--config {config}: no such file")
        files = [config]
    else:
        start = registry.resolve().parent if registry is not None else Path.cwd()
        files = config_files(start)
    values = _merge(files)
    given: list[tuple[str, object, str]] = [
        (name, env[var], var) for name, var in ENV.items() if env.get(var)
    ]
    given += [
        (n, v, f"--{n.replace('_', '-')}") for n, v in flags.items() if v not in (None, [], ())
    ]
    for name, raw, source in given:
        _put(values, name, coerce(name, raw, source))
    return Settings(
        **values,
        sources=tuple(str(p) for p in files),
        chosen=frozenset(name for name, _, _ in given if name in _STATE),
        github_token=env.get(TOKEN_ENV) or None,
        ia_keys=_ia_keys(env),
    )


def _ia_keys(env: dict[str, str]) -> tuple[str, str] | None:
    access, secret = (env.get(name, "").strip() for name in IA_KEY_ENV)
    return (access, secret) if access and secret else None


def _default_registry() -> Path:
    """./registry.yaml, if it is a file of this repository: a committed symlink to a file
    elsewhere (a shell start-up file, say) is not written or read unless named."""
    path = Path(DEFAULT_REGISTRY)
    root = repository_root(Path.cwd())
    if os.path.lexists(path) and not inside(path, root):
        raise UsageError(
            f"{DEFAULT_REGISTRY}: leads outside the repository {root} (a symlink); "
            "name it with --registry if it is the registry you mean"
        )
    return path


def all_registries(named: list[Path], config: Path | None = None) -> list[Path]:
    """Every registry named (`check` takes several), else the config's, else ./registry.yaml."""
    if named:
        return named
    configured = load_settings(None, {}, config=config).registry
    return [Path(configured) if configured else _default_registry()]


def one_registry(
    named: list[Path], flags: Mapping[str, object], config: Path | None = None
) -> tuple[Settings, Path]:
    """The settings and the one registry a command works on (`report`, `export`, `fix`, `add`).

    Settings are discovered from the named registry's folder, else from here; with none named,
    the registry is the config's, else ./registry.yaml. Two named is a usage error.
    """
    settings = load_settings(named[0] if named else None, flags, config=config)
    if len(named) > 1:
        raise UsageError("one registry at a time: " + ", ".join(str(p) for p in named))
    if named:
        return settings, named[0]
    return settings, Path(settings.registry) if settings.registry else _default_registry()
