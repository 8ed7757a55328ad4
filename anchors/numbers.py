"""Whole numbers written in files and answers: read only once they are known to be short.

`int()` raises ValueError on a string of more than 4,300 digits (Python's guard against
quadratic conversion), and `str.isdigit()` is true of digits `int()` refuses (`²`) or reads in
another script (`١٢`). A number a file or a server wrote is read here: ASCII digits only, at
most `digits` of them; anything else is None, for the caller to report as the value it is.
"""

from __future__ import annotations

__all__ = ["whole"]


def whole(text: str, digits: int = 18) -> int | None:
    """The value of `text` when it is 1 to `digits` ASCII digits; None otherwise."""
    if 0 < len(text) <= digits and text.isascii() and text.isdigit():
        return int(text)
    return None
