"""GitHub issue and pull-request references (`owner/repo#N`, or their URLs)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar, Literal
from urllib.parse import urlsplit

from .kinds import AnchorKind, InvalidId

__all__ = ["GithubRef", "repo_of_url", "repo_under"]

_GITHUB_TEXT_RE = re.compile(
    r"^([A-Za-z0-9](?:[A-Za-z0-9-]{0,38}))/([A-Za-z0-9_.-]{1,100})#([0-9]{1,9})$"
)
_REPO_URL_RE = re.compile(
    r"https?://(?:www\.)?github\.com/([A-Za-z0-9][A-Za-z0-9-]{0,38})/"
    r"([A-Za-z0-9_.-]{1,100}?)(?:\.git)?/?",
    re.IGNORECASE,
)


def repo_of_url(url: str) -> tuple[str, str] | None:
    """(owner, repo) for a repository's own page; None for anything else (a file, an issue)."""
    match = _REPO_URL_RE.fullmatch(url)
    return (match[1], match[2]) if match else None


def repo_under(url: str) -> tuple[str, str] | None:
    """(owner, repo), lower-cased, of any github.com page under a repository (its root, issues,
    files): two of these differing is what makes a move a rename or a transfer."""
    split = urlsplit(url)
    parts = split.path.strip("/").split("/")
    if split.hostname not in ("github.com", "www.github.com") or len(parts) < 2:
        return None
    return parts[0].lower(), parts[1].lower()


@dataclass(frozen=True, slots=True)
class GithubRef:
    """A GitHub issue or pull request. Issues and PRs share one number space per repository."""

    kind: ClassVar[Literal[AnchorKind.GITHUB]] = AnchorKind.GITHUB
    #: cited and stored as its URL (`url: https://github.com/o/r/issues/N`)
    id_field: ClassVar[str] = "url"

    owner: str
    repo: str
    number: int

    @property
    def key(self) -> str:
        return f"{self.kind.value}:{self.owner.lower()}/{self.repo.lower()}#{self.number}"

    @property
    def url(self) -> str:
        return f"https://github.com/{self.owner}/{self.repo}/issues/{self.number}"

    def __str__(self) -> str:
        return f"{self.owner}/{self.repo}#{self.number}"

    @classmethod
    def parse(cls, text: str) -> GithubRef:
        match = _GITHUB_TEXT_RE.fullmatch(text.strip())
        if not match:
            raise InvalidId(text, "not a GitHub reference (owner/repo#N)")
        return cls.checked(match[1], match[2], int(match[3]), text)

    @classmethod
    def checked(cls, owner: str, repo: str, number: int, text: str) -> GithubRef:
        """A reference GitHub could have issued: numbers start at 1, `.` and `..` are no
        repository (the only names GitHub reserves: `...` is one), a repository name never ends
        in `.git` and a user name never in `-`."""
        if repo in (".", "..") or repo.lower().endswith(".git"):
            raise InvalidId(text, f"'{repo}' is not a repository name")
        if owner.endswith("-"):
            raise InvalidId(text, f"'{owner}' is not a GitHub user or organisation name")
        if number < 1:
            raise InvalidId(text, "GitHub issue and pull request numbers start at 1")
        return cls(owner, repo, number)
