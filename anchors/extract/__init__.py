"""Briefing text to citations: every arXiv ID, DOI, GitHub reference and URL, with its line.

The public names live in `citations`; `scan` finds anchors in text, `layout` says which lines
hold citations, `place` which heading, section and claim a line gives its citations,
`titling`/`plaintext` where a title comes from, `claims` what a line asserts.
"""

from __future__ import annotations

from .citations import *
from .citations import __all__ as __all__
