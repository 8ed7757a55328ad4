"""Renderers: one function per output format, each taking a result and returning text.

Only this package turns untrusted strings into output, always through `escape`.
"""

from __future__ import annotations

from enum import Enum

__all__ = ["OutputFormat"]


class OutputFormat(str, Enum):
    TEXT = "text"
    JSON = "json"
    GITHUB = "github"
    MARKDOWN = "markdown"
