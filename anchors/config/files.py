"""Finding and reading config files: `anchors.toml` and `pyproject.toml`'s `[tool.anchors]`.

Without `--config` they are looked for from the registry's folder (or the working directory)
up to the repository root (the first folder holding `.git`; only the start folder outside a
repository), as ruff and pytest do. They are repository files, read as every repository file
is (`files.repo`: a regular file inside the repository, a bounded read).
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from ..errors import UsageError
from ..files.repo import RepoFileError, read_text, repository_root

__all__ = ["MAX_CONFIG_BYTES", "NAMES", "config_files", "read_table"]

#: the files looked for in each folder, nearer first
NAMES = ("anchors.toml", "pyproject.toml")
#: a config file is a few lines; a pyproject.toml a few hundred
MAX_CONFIG_BYTES = 1 << 20


def _table_for(path: Path) -> tuple[str, ...]:
    return ("tool", "anchors") if path.name == "pyproject.toml" else ()


def read_table(path: Path, root: Path | None = None) -> dict[str, object]:
    """The settings table of config file `path` (top level, or `[tool.anchors]`); `root` is the
    repository the file must lie in (default: its own folder's)."""
    try:
        text = read_text(
            path, root or repository_root(path.parent), MAX_CONFIG_BYTES, errors="strict"
        )
        doc: object = tomllib.loads(text)
    except RepoFileError as exc:
        raise UsageError(str(exc)) from None
    except UnicodeDecodeError:
        raise UsageError(f"{path}: not valid TOML (not UTF-8 text)") from None
    except tomllib.TOMLDecodeError as exc:
        raise UsageError(f"{path}: not valid TOML ({exc})") from None
    except ValueError:  # tomllib's int() of an integer of more than 4,300 digits
        raise UsageError(f"{path}: not valid TOML (a number too long to read)") from None
    except RecursionError:  # 5,000 nested arrays: tomllib recurses once a level
        raise UsageError(f"{path}: not valid TOML (nested too deeply)") from None
    for part in _table_for(path):
        doc = doc.get(part, {}) if isinstance(doc, dict) else {}
    if not isinstance(doc, dict):
        raise UsageError(f"{path}: [tool.anchors] is not a table")
    return {str(key): value for key, value in doc.items()}


def config_files(start: Path) -> list[Path]:
    """Config files from `start` up to the repository root, nearest first."""
    folders = [start, *start.parents]
    root = next((i for i, f in enumerate(folders) if (f / ".git").exists()), None)
    found = []
    for folder in folders[: 1 if root is None else root + 1]:
        for name in NAMES:
            path = folder / name
            present = (
                path.is_file() or path.is_symlink()
            )  # a link to a device is refused, not skipped
            if present and (name == "anchors.toml" or read_table(path)):
                found.append(path)
    return found
