"""What each command was asked for: one frozen value per command, built once by the CLI from
its flags (or by a program), and read by `commands`; the settings under it come from here too.

The settings a command runs with merge flags, the environment and config files in
`config.load_settings`, where the trust table (`config.trust`) decides what a repository's
file may set: every command's settings are asked for here, so no command reads them another way.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from .config import Settings, all_registries, load_settings, one_registry
from .errors import UsageError
from .findings import Code

if TYPE_CHECKING:  # a type only: the fixer is imported by `anchors fix` alone (start-up)
    from .fix import FixKind

__all__ = [
    "SETTING_NAMES",
    "AddOptions",
    "CheckOptions",
    "ExportOptions",
    "FixOptions",
    "Flags",
    "OneRegistry",
    "ReportOptions",
    "setting_flags",
]

#: settings given as flags: (setting, value) pairs; a None value is a flag not given
Flags = tuple[tuple[str, object], ...]

#: what `flags` may name: every setting a flag, the environment or a config file can give (not
#: where the values came from, nor the secrets, which only the environment holds)
SETTING_NAMES = frozenset(f.name for f in dataclasses.fields(Settings)) - {
    "sources",
    "chosen",
    "github_token",
    "ia_keys",
}


def setting_flags(given: Mapping[str, object] | Iterable[tuple[str, object]] | None) -> Flags:
    """`given` as `Flags`, each name a setting: a misspelt one is a UsageError, never ignored."""
    pairs = tuple((given.items() if isinstance(given, Mapping) else given) or ())
    unknown = sorted({name for name, _ in pairs} - SETTING_NAMES)
    if unknown:
        known = ", ".join(sorted(SETTING_NAMES))
        raise UsageError(f"unknown setting {unknown[0]!r} (settings: {known})")
    return pairs


@dataclass(frozen=True, slots=True)
class OneRegistry:
    """The one registry `add`, `report`, `export` or `fix` works on, and its settings."""

    path: Path
    settings: Settings

    @classmethod
    def find(
        cls,
        named: Iterable[Path] = (),
        config: Path | None = None,
        flags: Mapping[str, object] | Iterable[tuple[str, object]] | None = None,
    ) -> OneRegistry:
        """The settings from the config files, then the environment, then `flags`; the
        registry named, else the config's, else ./registry.yaml (two named: a UsageError)."""
        settings, path = one_registry(list(named), dict(setting_flags(flags)), config)
        return cls(path, settings)


@dataclass(frozen=True, slots=True)
class CheckOptions:
    """What one `anchors check` was asked for; frozen, so no step can change it for the next."""

    today: date
    offline: bool = False
    #: report only these finding codes (`--only`); None: all
    codes: frozenset[Code] | None = None
    #: briefings whose claims are compared too (`--briefing`)
    briefings: tuple[Path, ...] = ()
    no_cache: bool = False
    #: git ref for `--changed-since`: only anchors added or changed since are checked online
    changed_since: str | None = None
    #: only these anchor keys (`export --refresh`); None: every anchor
    only_keys: frozenset[str] | None = None
    #: `--config`: the one file to read settings from
    config: Path | None = None
    #: the command-line flags given, as (setting, value); each registry's settings merge them
    flags: Flags = ()
    #: the registries named (arguments and `--registry`); none: the config's, else ./registry.yaml
    registries: tuple[Path, ...] = ()

    def __post_init__(self) -> None:
        setting_flags(self.flags)

    def settings(self, registry: Path) -> Settings:
        """The settings for one registry: its own config files, then the environment, then flags."""
        return load_settings(registry, dict(self.flags), config=self.config)

    def registry_paths(self) -> list[Path]:
        """Every registry to check: those named, else the config's, else ./registry.yaml."""
        return all_registries(list(self.registries), self.config)


@dataclass(frozen=True, slots=True)
class AddOptions:
    """What one `anchors add` was asked for."""

    #: `--registry`: created if missing
    registry: OneRegistry
    briefings: tuple[Path, ...]
    #: `--date`: the briefings' date, over the one their title or file name gives
    briefing_date: date | None = None
    today: date = field(default_factory=date.today)
    dry_run: bool = False
    #: `--check`: the CI gate; writes nothing, like `dry_run`
    gate: bool = False

    @property
    def writes(self) -> bool:
        """Whether the merge is saved: neither `--dry-run` nor `--check`."""
        return not (self.dry_run or self.gate)


@dataclass(frozen=True, slots=True)
class ReportOptions:
    """What one `anchors report` was asked for."""

    registry: OneRegistry
    #: the window's length, ending `now`
    since: timedelta = timedelta(days=7)
    #: the window's end; None: the moment the report is made
    now: datetime | None = None


@dataclass(frozen=True, slots=True)
class ExportOptions:
    """What one `anchors export` was asked for."""

    registry: OneRegistry
    #: `--section`: by number or name; None: every section, grouped
    section: str | None = None
    #: only anchors cited within this long before `today`
    since: timedelta | None = None
    #: only `new` or `continued` anchors
    status: str | None = None
    #: `--refresh`: first look up what the cache lacks (online)
    refresh: bool = False
    today: date = field(default_factory=date.today)


@dataclass(frozen=True, slots=True)
class FixOptions:
    """What one `anchors fix` was asked for."""

    registry: OneRegistry
    #: print the diff, write nothing
    dry_run: bool = False
    #: `--only`: these kinds of fix; None: every kind
    only: frozenset[FixKind] | None = None
