"""Who may set what: the one table of what a config file may hold.

Flags and the environment speak for the user; a config file is part of the checked repository,
which a pull request can change, so it is repository policy and no more. A file may narrow or
tune a run (`exclude`, `accept`, limits, delays) and name paths inside its own repository; it may
not name an endpoint (where requests, and with them a token or keys, are sent), relax the address
guard or the share of unanswered anchors that stops a run, or name a path outside the
repository. Every value read from a file passes `from_file`; nothing else decides this.
"""

from __future__ import annotations

from enum import Enum
from pathlib import Path

from ..errors import UsageError
from ..files.repo import RepoFileError, confine, repository_root
from .settings import ENV

__all__ = ["ENDPOINTS", "FILE_RULES", "FileRule", "from_file", "repository_of"]


class FileRule(str, Enum):
    """What a config file may do with one setting."""

    #: tunes or narrows the run; a file may set it
    POLICY = "policy"
    #: a path (or a list of them), relative to the file, that must stay inside the file's
    #: repository
    PATH = "path"
    #: an endpoint: flags and the environment only (a file would choose where requests go)
    ENDPOINT = "endpoint"
    #: relaxes the address guard: flags and the environment only
    GUARD = "guard"
    #: relaxes what makes a run fail (a gate): flags and the environment only
    GATE = "gate"
    #: drops recorded evidence (the history's retention): the environment only
    EVIDENCE = "evidence"


#: Every setting a config file may name, and what it may do with it. A setting missing here is
#: not a file key at all (where the values came from, and the secrets, which only the
#: environment holds).
FILE_RULES: dict[str, FileRule] = {
    "concurrency": FileRule.POLICY,
    "per_host": FileRule.POLICY,
    "timeout": FileRule.POLICY,
    "attempts": FileRule.POLICY,
    "retry_after_cap": FileRule.POLICY,
    "max_redirects": FileRule.POLICY,
    "arxiv_delay": FileRule.POLICY,
    "arxiv_searches": FileRule.POLICY,
    "archive": FileRule.POLICY,
    "wayback_delay": FileRule.POLICY,
    "archive_save": FileRule.POLICY,
    "save_delay": FileRule.POLICY,
    "archive_saves": FileRule.POLICY,
    "exclude": FileRule.POLICY,
    "accept": FileRule.POLICY,
    "cache": FileRule.POLICY,
    "cache_dir": FileRule.PATH,
    "history": FileRule.PATH,
    "history_days": FileRule.EVIDENCE,
    "registry": FileRule.PATH,
    "document": FileRule.PATH,
    "pending_days": FileRule.POLICY,
    "allow_private": FileRule.GUARD,
    "max_unreachable": FileRule.GATE,
    "arxiv_api": FileRule.ENDPOINT,
    "arxiv_html": FileRule.ENDPOINT,
    "github_api": FileRule.ENDPOINT,
    "doi_api": FileRule.ENDPOINT,
    "crossref_api": FileRule.ENDPOINT,
    "wayback_api": FileRule.ENDPOINT,
    "save_api": FileRule.ENDPOINT,
}

#: the settings that name a service's endpoint
ENDPOINTS = tuple(name for name, rule in FILE_RULES.items() if rule is FileRule.ENDPOINT)

_WHY = {
    FileRule.ENDPOINT: "an endpoint decides where requests (and the GitHub token or archive.org "
    "keys with them) are sent",
    FileRule.GUARD: "it lets requests reach loopback and private addresses",
    FileRule.GATE: "raised, it lets a run that could not reach the network pass, which a pull "
    "request could use to turn the check off",
    FileRule.EVIDENCE: "it drops recorded observations, which a pull request could use to "
    "erase the record of a dead link",
}


def _flag(name: str) -> str:
    var = ENV.get(name)
    return f"--{name.replace('_', '-')}" + (f" or {var}" if var else "")


def repository_of(config: Path) -> Path:
    """The repository a config file belongs to: the one its folder is in."""
    return repository_root(config.parent)


def from_file(name: str, value: object, config: Path, root: Path) -> object:
    """`value` (already coerced) for setting `name` read from `config`, if a file may set it.

    A path is made relative to the file's folder and must stay inside `root`, the file's
    repository; UsageError names the file, the key and what to do instead.
    """
    rule = FILE_RULES[name]
    if rule in _WHY:
        raise UsageError(
            f"{config}: {name} may not be set in a config file: {_WHY[rule]}; "
            f"set it with {_flag(name)}"
        )
    if rule is FileRule.PATH:
        paths = value if isinstance(value, tuple) else (value,)
        try:
            kept = tuple(
                str(confine(str(p), config.parent, root, f"{config}: {name}")) for p in paths
            )
        except RepoFileError as exc:
            raise UsageError(str(exc)) from None
        return kept if isinstance(value, tuple) else kept[0]
    return value
