"""Settings for `check`: flag > environment > config file > default, in that order.

The config file is `anchors.toml` (top-level keys) or the `[tool.anchors]` table of
`pyproject.toml`, looked for in the registry's folder. Keys are the long flag names with
underscores: `concurrency = 32`, `exclude = ["^https://twitter\\.com/"]`, `accept = [403]`.
"""

from __future__ import annotations

import dataclasses
import math
import os
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

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
    WAYBACK_API,
    WAYBACK_MIN_INTERVAL,
)
from .errors import UsageError

__all__ = ["ENV", "Settings", "load_settings"]


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
    crossref_api: str = CROSSREF_API
    #: regular expressions; matching URLs are not checked
    exclude: tuple[str, ...] = ()
    #: HTTP statuses that count as fine for every URL
    accept: frozenset[int] = frozenset()
    cache: bool = True
    cache_dir: str | None = None
    history: str | None = None


ENV = {
    "arxiv_api": "ANCHORS_ARXIV_API",
    "github_api": "ANCHORS_GITHUB_API",
    "doi_api": "ANCHORS_DOI_API",
    "wayback_api": "ANCHORS_WAYBACK_API",
    "archive": "ANCHORS_ARCHIVE",
    "crossref_api": "ANCHORS_CROSSREF_API",
    "history": "ANCHORS_HISTORY",
    "cache_dir": "ANCHORS_CACHE_DIR",
    "concurrency": "ANCHORS_CONCURRENCY",
    "per_host": "ANCHORS_PER_HOST",
    "timeout": "ANCHORS_TIMEOUT",
}
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


def _config_file(folder: Path) -> tuple[str, dict[str, Any]]:
    for name, table in (("anchors.toml", None), ("pyproject.toml", ("tool", "anchors"))):
        p = folder / name
        if not p.is_file():
            continue
        try:
            doc = tomllib.loads(p.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            raise UsageError(f"{p}: not valid TOML ({exc})") from None
        if table:
            for part in table:
                doc = doc.get(part, {}) if isinstance(doc, dict) else {}
            if not doc:
                continue
        return str(p), doc
    return "", {}


def load_settings(registry: Path, flags: dict[str, Any], env: dict[str, str] | None = None) -> Settings:
    """Merge the sources; `flags` holds only the options given on the command line."""
    env = os.environ if env is None else env  # type: ignore[assignment]
    values: dict[str, Any] = {}
    source, doc = _config_file(registry.resolve().parent)
    for k, v in doc.items():
        name = k.replace("-", "_")
        if name not in _FIELDS:
            raise UsageError(f"{source}: unknown setting {k!r}")
        values[name] = _coerce(name, v, source)
    for name, var in ENV.items():
        if env.get(var):
            values[name] = _coerce(name, env[var], var)
    for name, v in flags.items():
        if v is not None:
            values[name] = _coerce(name, v, f"--{name.replace('_', '-')}")
    return Settings(**values)
