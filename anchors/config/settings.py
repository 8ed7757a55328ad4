"""The settings of a run, as one frozen value, and the names the environment gives them.

Where each value may come from (flag, environment, config file) is `trust`'s table; how a file
or variable's text becomes a value is `values`'; `load` merges the sources.
"""

from __future__ import annotations

import dataclasses
import ipaddress
import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from ..defaults import (
    ARXIV_API,
    ARXIV_HTML,
    ARXIV_MAX_SEARCHES,
    ARXIV_MIN_INTERVAL,
    CROSSREF_API,
    DEFAULT_ATTEMPTS,
    DEFAULT_CONCURRENCY,
    DEFAULT_MAX_REDIRECTS,
    DEFAULT_MAX_UNREACHABLE,
    DEFAULT_PENDING_DAYS,
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
from ..errors import UsageError

__all__ = ["CONFIG_ENV", "ENV", "IA_KEY_ENV", "TOKEN_ENV", "Settings", "loopback"]


@dataclass(frozen=True, slots=True)
class Settings:
    concurrency: int = DEFAULT_CONCURRENCY
    per_host: int = DEFAULT_PER_HOST
    timeout: float = DEFAULT_TIMEOUT
    attempts: int = DEFAULT_ATTEMPTS
    retry_after_cap: float = DEFAULT_RETRY_AFTER_CAP
    max_redirects: int = DEFAULT_MAX_REDIRECTS
    #: more than this share of the anchors checked online unanswered is exit 2 (`silence`)
    max_unreachable: float = DEFAULT_MAX_UNREACHABLE
    allow_private: bool = False
    arxiv_api: str = ARXIV_API
    #: where arXiv's HTML full texts are read (a mirror, a test server): the user's alone
    arxiv_html: str = ARXIV_HTML
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
    #: days of observations `check` keeps in the history (0: all); see `History.prune`
    history_days: int = 0
    #: the registry when none is named, relative to the config file that says so
    registry: str | None = None
    #: the living documents the registry feeds (`--document`, `document = [...]`); a flag's
    #: list replaces a file's
    document: tuple[str, ...] = ()
    #: days an entry may wait for its section before it is `overdue`
    pending_days: int = DEFAULT_PENDING_DAYS
    #: where the values came from, nearest first (for error messages and `--verbose` one day)
    sources: tuple[str, ...] = ()
    #: the state places (`cache_dir`, `history`) a flag or the environment named: the user's
    #: own, used even where git cannot say whether their files are committed (`state`)
    chosen: frozenset[str] = frozenset()
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
        test_server = parts.scheme == "http" and loopback(parts.hostname)
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

    def api_token(self) -> str | None:
        """`GITHUB_TOKEN` for the GitHub API, sent only over https (or to a loopback test
        server): a usage error rather than a token in clear text."""
        if self.github_token is None:
            return None
        parts = urlsplit(self.github_api)
        if parts.scheme != "https" and not (parts.scheme == "http" and loopback(parts.hostname)):
            raise UsageError(
                f"github_api {self.github_api}: GITHUB_TOKEN is only sent over https (or to a "
                "loopback test server); use an https URL, or unset GITHUB_TOKEN for this run"
            )
        return self.github_token

    def state_dir(self, registry: Path) -> Path:
        """Cache and history live in `.anchors/` beside the registry unless moved."""
        from ..files.state import folder  # ~1 ms of every start (`--help`) if at the top

        return folder(registry, self.cache_dir)

    def cache_path(self, registry: Path) -> Path:
        """The one rule for where the check cache lives, shared by `check` and `export`."""
        return self.state_dir(registry) / "cache.json"

    def etags_path(self, registry: Path) -> Path:
        """Where GitHub answers' ETags are kept: beside the cache, but read under `--no-cache`
        too (a 304 is a fresh answer), so it travels with the state a workflow keeps."""
        return self.state_dir(registry) / "etags.json"

    def history_path(self, registry: Path) -> Path:
        """The one rule for where the history lives, shared by `check` and `report`."""
        return Path(self.history) if self.history else self.state_dir(registry) / "history.sqlite"

    @property
    def chose_cache(self) -> bool:
        """Whether the cache (and the ETags) sit where a flag or the environment said."""
        return "cache_dir" in self.chosen

    @property
    def chose_history(self) -> bool:
        """Whether the history sits where a flag or the environment said (its own setting,
        else the state folder's)."""
        return ("history" if self.history else "cache_dir") in self.chosen


ENV = {
    "arxiv_api": "ANCHORS_ARXIV_API",
    "arxiv_html": "ANCHORS_ARXIV_HTML",
    "github_api": "ANCHORS_GITHUB_API",
    "doi_api": "ANCHORS_DOI_API",
    "wayback_api": "ANCHORS_WAYBACK_API",
    "archive": "ANCHORS_ARCHIVE",
    "archive_save": "ANCHORS_ARCHIVE_SAVE",
    "save_api": "ANCHORS_SAVE_API",
    "crossref_api": "ANCHORS_CROSSREF_API",
    "history": "ANCHORS_HISTORY",
    "history_days": "ANCHORS_HISTORY_DAYS",
    "cache_dir": "ANCHORS_CACHE_DIR",
    "concurrency": "ANCHORS_CONCURRENCY",
    "per_host": "ANCHORS_PER_HOST",
    "timeout": "ANCHORS_TIMEOUT",
    "retry_after_cap": "ANCHORS_RETRY_AFTER_CAP",
    "allow_private": "ANCHORS_ALLOW_PRIVATE",
    "max_unreachable": "ANCHORS_MAX_UNREACHABLE",
    "arxiv_delay": "ANCHORS_ARXIV_DELAY",
    "registry": "ANCHORS_REGISTRY",
}
#: Not settings, but read from the environment too, so CI can set them once.
CONFIG_ENV = "ANCHORS_CONFIG"
#: The token GitHub's own tools read; raises the API's rate limit from 60 to 5000 an hour.
TOKEN_ENV = "GITHUB_TOKEN"
#: The archive.org S3 keys (access, secret) Save Page Now takes, the names the environment holds.
IA_KEY_ENV = ("ANCHORS_IA_ACCESS_KEY", "ANCHORS_IA_SECRET_KEY")
_KEY = re.compile(r"[!-~]{1,200}")


def loopback(host: str | None) -> bool:
    """`localhost` or a loopback address: where a test server runs."""
    try:
        return host == "localhost" or ipaddress.ip_address(host or "").is_loopback
    except ValueError:
        return False
