"""Settings for every command: flag > environment > config files > default, in that order.

Config files are `anchors.toml` (top-level keys) and the `[tool.anchors]` table of
`pyproject.toml`. Without `--config`, they are looked for from the registry's folder (or the
working directory) up to the repository root (the first folder holding `.git`; only the start
folder outside a repository), as ruff and pytest do. All found are merged: a nearer file wins
for a single value, `anchors.toml` is nearer than `pyproject.toml` in the same folder, and lists
(`exclude`, `accept`) are joined. Keys are the long flag names: `concurrency = 32`,
`exclude = ["^https://twitter\\.com/"]`, `accept = [403]`, `registry = "data/registry.yaml"`.
"""

from __future__ import annotations

import dataclasses
import ipaddress
import math
import os
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from .defaults import (
    ARXIV_API,
    ARXIV_MAX_SEARCHES,
    ARXIV_MIN_INTERVAL,
    CROSSREF_API,
    DEFAULT_ATTEMPTS,
    DEFAULT_CONCURRENCY,
    DEFAULT_MAX_REDIRECTS,
    DEFAULT_PER_HOST,
    DEFAULT_RETRY_AFTER_CAP,
    DEFAULT_TIMEOUT,
    DOI_API,
    GITHUB_API,
    SAVE_API,
    SAVE_MIN_INTERVAL,
    SAVE_PER_RUN,
    WAYBACK_API,
    WAYBACK_MIN_INTERVAL,
)
from .errors import UsageError

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


@dataclass(frozen=True, slots=True)
class Settings:
    concurrency: int = DEFAULT_CONCURRENCY
    per_host: int = DEFAULT_PER_HOST
    timeout: float = DEFAULT_TIMEOUT
    attempts: int = DEFAULT_ATTEMPTS
    retry_after_cap: float = DEFAULT_RETRY_AFTER_CAP
    max_redirects: int = DEFAULT_MAX_REDIRECTS
    allow_private: bool = False
    arxiv_api: str = ARXIV_API
    #: seconds between arXiv API requests; lower it only for a mirror or a test server
    arxiv_delay: float = ARXIV_MIN_INTERVAL
    #: "did you mean" title searches per run; 0 turns them off
    arxiv_searches: int = ARXIV_MAX_SEARCHES
    github_api: str = GITHUB_API
    doi_api: str = DOI_API
    #: look up Wayback snapshots for URL anchors (`--archive`, `archive = true`)
    archive: bool = False
    wayback_api: str = WAYBACK_API
    #: seconds between requests to the archive (config file only; lower it for a mirror)
    wayback_delay: float = WAYBACK_MIN_INTERVAL
    #: ask Save Page Now for a capture of URLs the archive has none of (`--archive-save`;
    #: implies `archive`; needs the user's keys in the environment)
    archive_save: bool = False
    save_api: str = SAVE_API
    #: seconds between capture requests (config file only): SPN2's per-minute limit
    save_delay: float = SAVE_MIN_INTERVAL
    #: captures asked for in one run at most (config file only)
    archive_saves: int = SAVE_PER_RUN
    crossref_api: str = CROSSREF_API
    #: regular expressions; matching URLs are not checked
    exclude: tuple[str, ...] = ()
    #: HTTP statuses that count as fine for every URL
    accept: frozenset[int] = frozenset()
    cache: bool = True
    cache_dir: str | None = None
    history: str | None = None
    #: the registry when none is named, relative to the config file that says so
    registry: str | None = None
    #: where the values came from, nearest first (for error messages and `--verbose` one day)
    sources: tuple[str, ...] = ()
    #: from `GITHUB_TOKEN` only (a secret never sits in a committed config file); not in repr
    github_token: str | None = dataclasses.field(default=None, repr=False)
    #: archive.org S3 keys (access, secret) from `IA_KEY_ENV` only, for Save Page Now; not in repr
    ia_keys: tuple[str, str] | None = dataclasses.field(default=None, repr=False)

    @property
    def archiving(self) -> bool:
        """Snapshots are looked up with `--archive`, and before any capture is asked for."""
        return self.archive or self.archive_save

    def save_keys(self) -> tuple[str, str]:
        """The keys `--archive-save` sends, and only to an https endpoint (or to loopback),
        no faster than SPN2 allows; every problem is a usage error naming no key."""
        if self.ia_keys is None:
            raise UsageError(
                "--archive-save: Save Page Now needs your archive.org keys in "
                f"{IA_KEY_ENV[0]} and {IA_KEY_ENV[1]} "
                "(from https://archive.org/account/s3.php)"
            )
        for name, key in zip(IA_KEY_ENV, self.ia_keys):
            if not _KEY.fullmatch(key) or (name == IA_KEY_ENV[0] and ":" in key):
                raise UsageError(
                    f"{name}: not an archive.org key (printable ASCII, no spaces"
                    f"{'' if name != IA_KEY_ENV[0] else ', no colon'})"
                )
        parts = urlsplit(self.save_api)
        test_server = parts.scheme == "http" and _loopback(parts.hostname)
        if parts.scheme != "https" and not test_server:
            raise UsageError(
                f"save_api {self.save_api}: the archive.org keys are only sent "
                "over https (or to a loopback test server)"
            )
        if self.save_delay < SAVE_MIN_INTERVAL and not test_server:
            raise UsageError(
                f"save_delay = {self.save_delay:g}: Save Page Now allows 7 captures "
                f"a minute; {SAVE_MIN_INTERVAL:g} s at least (lower only for a "
                "loopback test server)"
            )
        return self.ia_keys

    def state_dir(self, registry: Path) -> Path:
        """Cache and history live in `.anchors/` beside the registry unless moved."""
        from .state import folder

        return folder(registry, self.cache_dir)

    def cache_path(self, registry: Path) -> Path:
        """The one rule for where the check cache lives, shared by `check`, `export` and `fix`."""
        return self.state_dir(registry) / "cache.json"

    def history_path(self, registry: Path) -> Path:
        """The one rule for where the history lives, shared by `check` and `report`."""
        return Path(self.history) if self.history else self.state_dir(registry) / "history.sqlite"


ENV = {
    "arxiv_api": "ANCHORS_ARXIV_API",
    "github_api": "ANCHORS_GITHUB_API",
    "doi_api": "ANCHORS_DOI_API",
    "wayback_api": "ANCHORS_WAYBACK_API",
    "archive": "ANCHORS_ARCHIVE",
    "archive_save": "ANCHORS_ARCHIVE_SAVE",
    "save_api": "ANCHORS_SAVE_API",
    "crossref_api": "ANCHORS_CROSSREF_API",
    "history": "ANCHORS_HISTORY",
    "cache_dir": "ANCHORS_CACHE_DIR",
    "concurrency": "ANCHORS_CONCURRENCY",
    "per_host": "ANCHORS_PER_HOST",
    "timeout": "ANCHORS_TIMEOUT",
    "retry_after_cap": "ANCHORS_RETRY_AFTER_CAP",
    "allow_private": "ANCHORS_ALLOW_PRIVATE",
    "arxiv_delay": "ANCHORS_ARXIV_DELAY",
    "registry": "ANCHORS_REGISTRY",
}
#: Not settings, but read from the environment too, so CI can set them once.
CONFIG_ENV = "ANCHORS_CONFIG"
#: The token GitHub's own tools read; raises the API's rate limit from 60 to 5000 an hour.
TOKEN_ENV = "GITHUB_TOKEN"
#: The archive.org S3 keys (access, secret) Save Page Now takes, the names the environment holds.
IA_KEY_ENV = ("ANCHORS_IA_ACCESS_KEY", "ANCHORS_IA_SECRET_KEY")
#: Settings no config file may hold: where they came from, and the secrets.
_NOT_IN_FILES = frozenset({"sources", "github_token", "ia_keys"})
#: Settings only the command line or the environment may set: where the archive.org keys go (a
#: changed config file in a pull request must not send them to a host of its choosing).
_NOT_FROM_FILES = {
    "save_api": "the endpoint that receives your archive.org keys is set only "
    "with --save-api or ANCHORS_SAVE_API"
}
_KEY = re.compile(r"[!-~]{1,200}")
_LISTS = ("exclude", "accept")
_FIELDS = {f.name: f for f in dataclasses.fields(Settings)}
_MAY_BE_ZERO = frozenset({"arxiv_searches"})


def _coerce(name: str, value: Any, source: str) -> Any:
    default = getattr(Settings(), name)
    try:
        if isinstance(default, bool):
            if isinstance(value, str):
                return value.lower() in ("1", "true", "yes", "on")
            return bool(value)
        if isinstance(default, int):
            out: Any = int(value)
            if out < (0 if name in _MAY_BE_ZERO else 1):
                raise ValueError
            return out
        if isinstance(default, float):
            out = float(value)
            if not math.isfinite(out) or out < 0:  # NaN compares false with everything
                raise ValueError
            return out
        if isinstance(default, tuple):
            items = [value] if isinstance(value, str) else list(value)
            for p in items:
                re.compile(p)
            return tuple(str(p) for p in items)
        if isinstance(default, frozenset):
            items = value.split(",") if isinstance(value, str) else list(value)
            return frozenset(int(i) for i in items)
        return str(value)
    except (TypeError, ValueError, re.error):
        raise UsageError(f"{source}: {name} = {value!r} is not a valid value") from None


def _read(p: Path, table: tuple[str, ...] | None) -> dict[str, Any]:
    try:
        doc: Any = tomllib.loads(p.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise UsageError(f"{p}: not valid TOML ({exc})") from None
    for part in table or ():
        doc = doc.get(part, {}) if isinstance(doc, dict) else {}
    if not isinstance(doc, dict):
        raise UsageError(f"{p}: [tool.anchors] is not a table")
    return doc


def _table_for(p: Path) -> tuple[str, ...] | None:
    return ("tool", "anchors") if p.name == "pyproject.toml" else None


def config_files(start: Path) -> list[Path]:
    """Config files from `start` up to the repository root, nearest first."""
    folders = [start, *start.parents]
    root = next((i for i, f in enumerate(folders) if (f / ".git").exists()), None)
    found = []
    for folder in folders[: 1 if root is None else root + 1]:
        for name in ("anchors.toml", "pyproject.toml"):
            p = folder / name
            if p.is_file() and (name == "anchors.toml" or _read(p, _table_for(p))):
                found.append(p)
    return found


def _file_values(p: Path) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for k, v in _read(p, _table_for(p)).items():
        name = k.replace("-", "_")
        if name in _NOT_FROM_FILES:
            raise UsageError(f"{p}: {k} may not be set in a config file: {_NOT_FROM_FILES[name]}")
        if name not in _FIELDS or name in _NOT_IN_FILES:
            raise UsageError(f"{p}: unknown setting {k!r}")
        values[name] = _coerce(name, v, str(p))
        if name == "registry":
            values[name] = str(p.parent / values[name])
    return values


def _merge(files: list[Path]) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for p in reversed(files):  # farthest first, so nearer files overwrite single values
        for name, v in _file_values(p).items():
            if name in _LISTS and name in values:
                v = (
                    tuple(dict.fromkeys(values[name] + v))
                    if name == "exclude"
                    else values[name] | v
                )
            values[name] = v
    return values


def load_settings(
    registry: Path | None,
    flags: dict[str, Any],
    env: dict[str, str] | None = None,
    config: Path | None = None,
) -> Settings:
    """Merge the sources; `flags` holds only the options given on the command line.

    `config` (or `ANCHORS_CONFIG`) names the one file to read, and nothing is discovered.
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
    for name, var in ENV.items():
        if env.get(var):
            values[name] = _coerce(name, env[var], var)
    for name, v in flags.items():
        if v is not None:
            values[name] = _coerce(name, v, f"--{name.replace('_', '-')}")
    return Settings(
        **values,
        sources=tuple(str(p) for p in files),
        github_token=env.get(TOKEN_ENV) or None,
        ia_keys=_ia_keys(env),
    )


def _ia_keys(env: dict[str, str]) -> tuple[str, str] | None:
    access, secret = (env.get(name, "").strip() for name in IA_KEY_ENV)
    return (access, secret) if access and secret else None


def _loopback(host: str | None) -> bool:
    try:
        return host == "localhost" or ipaddress.ip_address(host or "").is_loopback
    except ValueError:
        return False


#: The registry when neither the command line nor a config file names one.
DEFAULT_REGISTRY = "registry.yaml"


def all_registries(named: list[Path], config: Path | None = None) -> list[Path]:
    """Every registry named (`check` takes several), else the config's, else ./registry.yaml."""
    if named:
        return named
    return [Path(load_settings(None, {}, config=config).registry or DEFAULT_REGISTRY)]


def one_registry(
    named: list[Path], flags: dict[str, Any], config: Path | None = None
) -> tuple[Settings, Path]:
    """The settings and the one registry a command works on (`report`, `export`, `fix`, `add`).

    Settings are discovered from the named registry's folder, else from here; with none named,
    the registry is the config's, else ./registry.yaml. Two named is a usage error.
    """
    settings = load_settings(named[0] if named else None, flags, config=config)
    if len(named) > 1:
        raise UsageError("one registry at a time: " + ", ".join(str(p) for p in named))
    return settings, named[0] if named else Path(settings.registry or DEFAULT_REGISTRY)
