"""Files the checked repository names: found inside it, regular, and read with a bound.

A path written in a config file or in the registry (a citation's source briefing, a document)
comes from whoever wrote the repository, a pull request included, so it is read under one set
of rules, here: it is relative, it stays inside the repository once `..` and symlinks are
resolved, it is a regular file (never a FIFO, a device or `/dev/zero`), and at most `limit`
bytes are read. Flags and the environment speak for the user and may name any path; they do
not come through here.

The repository is the first folder from the file's own folder up that holds `.git`, else that
folder itself (a tarball, a scratch folder): the same root config discovery stops at.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from ..errors import InputError

__all__ = [
    "MAX_BYTES",
    "RepoFileError",
    "confine",
    "inside",
    "read_bytes",
    "read_text",
    "repository_root",
]

#: the default bound on one read: far more than any briefing, config file or document
MAX_BYTES = 4 << 20


class RepoFileError(InputError):
    """A path from the repository that may not be used: outside it, not a regular file, too
    big, or unreadable. `str()` is the one-line `path: why` form."""


def repository_root(start: str | os.PathLike[str]) -> Path:
    """The repository holding the folder `start` (real path): the nearest folder with `.git`,
    else `start` itself."""
    folder = Path(os.path.realpath(start))
    return next((d for d in (folder, *folder.parents) if (d / ".git").exists()), folder)


def inside(path: str | os.PathLike[str], root: Path) -> bool:
    """Whether `path`, with `..` and every symlink resolved, lies in `root` (or is it)."""
    return Path(os.path.realpath(path)).is_relative_to(os.path.realpath(root))


def confine(value: str, base: Path, root: Path, what: str) -> Path:
    """`value` (a path written in a repository file, relative to `base`) as a path, if it stays
    inside `root`; RepoFileError naming `what` (e.g. "anchors.toml: registry") otherwise."""
    if not value.strip() or "\0" in value:
        raise RepoFileError(what, f"{value!r} is not a path")
    if os.path.isabs(value) or value.startswith("~"):
        raise RepoFileError(
            what,
            f"{value!r} is an absolute path; a file in the repository may only name paths "
            "inside it (use a flag or the environment for any other)",
        )
    joined = base / value
    if not inside(joined, root):
        raise RepoFileError(
            what,
            f"{value!r} leads outside the repository {root} (through '..' or a symlink); "
            "a file in the repository may only name paths inside it",
        )
    return joined


def read_bytes(path: str | os.PathLike[str], root: Path, limit: int = MAX_BYTES) -> bytes:
    """At most `limit` bytes of the regular file `path` inside `root`; RepoFileError otherwise
    (a link out of the repository, a FIFO or device, a file over the limit, an I/O error)."""
    shown = str(path)
    if not inside(path, root):
        raise RepoFileError(shown, f"leads outside the repository {root}; not read")
    try:
        # O_NONBLOCK: opening a FIFO must not wait for a writer; a regular file ignores it
        fd = os.open(os.path.realpath(path), os.O_RDONLY | os.O_NONBLOCK | _CLOEXEC)
    except OSError as exc:
        raise RepoFileError(shown, f"cannot read: {_reason(exc)}") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise RepoFileError(shown, "is not a regular file; not read")
        if st.st_size > limit:
            raise RepoFileError(shown, f"{st.st_size} bytes is more than the {limit} read")
        chunks, size = [], 0
        while size <= limit:  # the file may grow after fstat: the bound holds on what is read
            chunk = os.read(fd, min(1 << 16, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:
            raise RepoFileError(shown, f"more than the {limit} bytes read")
        return b"".join(chunks)
    except OSError as exc:
        raise RepoFileError(shown, f"cannot read: {_reason(exc)}") from None
    finally:
        os.close(fd)


def read_text(
    path: str | os.PathLike[str], root: Path, limit: int = MAX_BYTES, errors: str = "replace"
) -> str:
    """`read_bytes` decoded as UTF-8 (undecodable bytes replaced unless `errors` says)."""
    return read_bytes(path, root, limit).decode("utf-8", errors)


_CLOEXEC = getattr(os, "O_CLOEXEC", 0)


def _reason(exc: OSError) -> str:
    if exc.errno == errno.ENOENT:
        return "no such file"
    return (exc.strerror or str(exc)).lower()
