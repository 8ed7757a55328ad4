"""Values as a .bib holds them: text made inert for TeX, links and identifiers verbatim.

Text from the network can carry LaTeX (`\\input{...}`, braces, `$`) and characters that
typeset as something else (`--` as a dash, `<` as "¡" under OT1, `|` as a dash, a backtick as
a quote), so text is made inert; URLs, DOIs and arXiv IDs are written as they are (url.sty and
biblatex read them verbatim), with only what a .bib cannot hold percent-encoded.
"""

from __future__ import annotations

import re
from urllib.parse import quote

from .escape import one_line

__all__ = ["balanced", "latex", "quoted", "url_field", "verbatim"]


_TEX = {
    "\\": r"\textbackslash{}",
    "{": r"\textbraceleft{}",
    "}": r"\textbraceright{}",
    "$": r"\$",
    "^": r"\textasciicircum{}",
    "~": r"\textasciitilde{}",
    '"': '{"}',
}
#: under OT1 (pdflatex's default) `<`, `>`, `|` and a backtick print as "¡", "¿", a dash and a
#: quote. bibtex copies text commands as they are; biber decodes them back to the character, so
#: for biblatex they are math symbols and a TS1 glyph, which biber leaves alone
_GLYPHS = {
    "classic": {
        "<": r"\textless{}",
        ">": r"\textgreater{}",
        "|": r"\textbar{}",
        "`": r"\textasciigrave{}",
    },
    "biblatex": {
        "<": r"\ensuremath{<}",
        ">": r"\ensuremath{>}",
        "|": r"\ensuremath{|}",
        "`": r"\UseTextSymbol{TS1}{\textasciigrave}",
    },
}


#: what pybtex's own encoding (latexcodec's `ulatex+utf8`) changes in text once the rest is
#: done, as one table: `str.translate` instead of its lexer, which cost 3/4 of a 100k export
#: (tests/test_export.py::test_latex_encoding_is_pybtexs compares the two)
_PYBTEX = str.maketrans({"#": r"\#", "%": r"\%", "&": r"\&", "_": r"\_"})
#: every character `_latex` rewrites, so text with none of them is returned as it is
_SPECIAL = re.compile(
    r"[\\{}$^~\"<>|`#%&_\x00-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069]|--"
)


def latex(text: str, style: str = "classic") -> str:
    """Text that typesets as itself: TeX's specials as text commands, `--` not a dash, then
    pybtex's own encoding (`%`, `&`, `#`, `_`)."""
    if not _SPECIAL.search(text):
        return text
    glyphs = _GLYPHS[style]
    out = "".join(_TEX.get(ch) or glyphs.get(ch, ch) for ch in one_line(text))
    return out.replace("--", "-{}-").replace("--", "-{}-").translate(_PYBTEX)


#: what a verbatim field cannot hold as itself: a backslash, white space, control characters
_NOT_VERBATIM = re.compile(r"[\\\s\x00-\x1f\x7f-\x9f]")


#: all but braces, which `_balanced` walks alone rather than every character
_NOT_BRACE = re.compile(r"[^{}]+")


def balanced(text: str) -> bool:
    depth = 0
    for ch in _NOT_BRACE.sub("", text):
        depth += (ch == "{") - (ch == "}")
        if depth < 0:
            return False
    return depth == 0


def verbatim(value: str) -> str:
    """A URL or DOI as it is (`%20` stays `%20`, `~` and `_` stay), except what the .bib syntax
    cannot carry: a backslash, white space or a control, and braces that do not balance, are
    percent-encoded, which in a URL means the same."""
    out = _NOT_VERBATIM.sub(lambda match: quote(match[0], safe=""), value)
    return out if balanced(out) else out.replace("{", "%7B").replace("}", "%7D")


def url_field(value: str) -> str:
    r"""A link as `\url{...}` (url.sty's, or hyperref's, which links it), breaking lines at
    slashes. `%` and `#` are escaped: biblatex stores a field in a macro first, and pybtex
    reads LaTeX, where a bare `%` ends the line; hyperref's `\url` reads them back as `%` and
    `#` (url.sty alone prints the backslash, docs/export.md)."""
    return r"\url{" + verbatim(value).replace("%", r"\%").replace("#", r"\#") + "}"


def quoted(value: str) -> str:
    """A field's value as BibTeX reads it back: in quotes, or in braces when it holds a quote
    (pybtex's rule), refused when its braces do not balance (as pybtex refuses it)."""
    if not balanced(value):
        # start-up: pybtex (~75 ms) loads only to refuse a value, as it would
        from pybtex.database.output.bibtex import BibTeXError  # type: ignore[import-untyped]

        raise BibTeXError(f"String has unmatched braces: {value}")
    return f'"{value}"' if '"' not in value else "{" + value + "}"
