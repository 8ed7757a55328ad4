"""Making untrusted text (titles from the network, briefing text) inert in each output format.

Every renderer passes foreign strings through one of these; nothing else may print them.
"""

from __future__ import annotations

import re
from urllib.parse import quote

__all__ = [
    "annotation",
    "diff_lines",
    "inert",
    "inert_json",
    "markdown",
    "markdown_code",
    "markdown_url",
    "one_line",
    "plain",
]

# C0/C1 controls (ANSI escape sequences start with ESC), bidi overrides and zero-width marks.
_CONTROL_RE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069]")
# Parentheses only matter after `]`, which is escaped, so "(new)" stays as written.
_MD_SPECIAL_RE = re.compile(r"([\\`*_{}\[\]<>#+!|~])")
_MENTION_RE = re.compile(r"@(?=[A-Za-z0-9])")
# NOTE: GitHub links issue references in rendered Markdown text after cmark-gfm has parsed it:
# `#123`, `GH-123` and `owner/repo#123`, each posting a cross-reference into that tracker. A
# backslash before `#` does not stop it (github/cmark-gfm#181: the escape is gone by then); a
# word joiner between `#` (or `GH-`) and the number does, as after `@`, and reads the same.
_REFERENCE_RE = re.compile(r"(?<=#)(?=[0-9])|(?<=\bGH-)(?=[0-9])", re.IGNORECASE)
# NOTE: GitHub's autolink extension links bare `http://`, `https://`, `ftp://` URLs when the
# inline parser reaches their `:`, and `www.` names when it reaches the `w` they begin with
# (github/cmark-gfm extensions/autolink.c: url_match, www_match). A backslash escape is consumed
# before the parser sees either character, and renders as the bare character, so `http\://` and
# `www\.` read as written and link nowhere. (E-mail autolinks are found after parsing, on the
# text; the word joiner after `@` already breaks those.)
_AUTOLINK_RE = re.compile(r":(?=//)|(?<=www)\.", re.IGNORECASE)


# NOTE: the Actions runner acts on a line of a step's output (stdout or stderr) that starts with
# `::` after leading spaces, and on one holding the legacy `##[` anywhere (actions/runner,
# src/Runner.Common/ActionCommand.cs: TryParseV2, TryParse). A zero-width non-joiner between the
# two characters leaves the text as it reads and the runner blind.
_COMMAND_RE = re.compile(r":(?=:)|#(?=#\[)")


def inert(text: str) -> str:
    """`text` with every `::` and `##[` broken: the workflow-command neutraliser, for any string
    from a file or the network on its way to a stream (`plain` includes it)."""
    return _COMMAND_RE.sub("\\g<0>\u200c", text)


def inert_json(text: str) -> str:
    """JSON text with `##[` written `#\\u0023[`: the same string to every JSON reader, no
    command to the runner (in JSON `#` only ever occurs inside strings, and no line starts
    with `::`)."""
    return text.replace("##[", "#\\u0023[")


def plain(text: str) -> str:
    """One line with no control characters and no workflow command: safe for a terminal once
    rich markup is escaped, and for a CI log."""
    return inert(one_line(text))


def one_line(text: str) -> str:
    """One line with no control characters. A field of a file format whose lines never start
    with a value (a .bib entry's `title = {…}`) needs no more; a zero-width non-joiner there
    would reach TeX as a character pdflatex does not know."""
    one = text.replace("\r\n", " ").replace("\n", " ").replace("\t", " ")
    return _CONTROL_RE.sub("", one)


# what `diff_lines` shows as an escape: `_CONTROL_RE`'s characters (so a lone CR, which would
# overwrite the line on a terminal), the line and paragraph separators, and every invisible
# format character (bidi marks incl. U+061C, word joiners, a BOM mid-line, tag characters)
_DIFF_CONTROL_RE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e"
    "\u2060-\u2064\u2066-\u2069\ufeff\U000e0000-\U000e007f]"
)


def diff_lines(text: str) -> str:
    """A unified diff of the registry (which shows cited titles), safe for a terminal and
    still one `patch` applies: the file's line structure is kept as it is (LF, the CR of a
    CRLF, tabs), and any other control character is shown as an escape (`\\x85`, `\\u202e`).

    The registry is YAML, which allows no C0 or C1 control but the tab, CR, LF and NEL, so an
    escape only ever stands for NEL, a lone CR, or a bidi or zero-width mark: a reader sees it.
    A line that the Actions runner would act on (`##[`, or `::` first) has those characters
    broken as `inert` breaks them: the only lines a patch would not apply to unchanged.
    """
    out = []
    for line in text.split("\n"):
        body, cr = (line[:-1], "\r") if line.endswith("\r") else (line, "")
        # the file's own BOM (right after the diff's marker of its first line) is kept
        bom = "\ufeff" if body[1:2] == "\ufeff" and body[:1] in " +-" else ""
        body = body[:1] + body[2:] if bom else body
        line = (
            _DIFF_CONTROL_RE.sub(_escaped, body[:1])
            + bom
            + _DIFF_CONTROL_RE.sub(_escaped, body[1:])
            + cr
        )
        out.append(inert(line) if "##[" in line or line.lstrip().startswith("::") else line)
    return "\n".join(out)


def _escaped(match: re.Match[str]) -> str:
    cp = ord(match.group())
    return f"\\x{cp:02x}" if cp < 0x100 else f"\\u{cp:04x}" if cp < 0x10000 else f"\\U{cp:08x}"


def markdown(text: str) -> str:
    """Inline Markdown that renders as the literal text: no HTML, links (autolinks included),
    tables, @mentions or issue references (`#1`, `GH-1`, `owner/repo#1`)."""
    escaped = _MD_SPECIAL_RE.sub(r"\\\1", plain(text))
    escaped = _AUTOLINK_RE.sub(r"\\\g<0>", escaped.replace("&", "&amp;"))
    # A word joiner after @ stops GitHub from notifying a user or team; after `#` or `GH-`,
    # from linking (and cross-referencing) an issue.
    return _REFERENCE_RE.sub("\u2060", _MENTION_RE.sub("@\u2060", escaped))


def markdown_code(text: str) -> str:
    """Text shown as inline code, for URLs and IDs; backticks cannot close the span."""
    code = plain(text).replace("`", "'").replace("|", "%7C")
    return f"`{code}`"


#: URL characters that cannot end, break or re-open a Markdown link destination, kept as they are
_URL_SAFE = ":/?#&=%~.-_+,;@!$'*"


def markdown_url(url: str) -> str:
    """A link destination (`[text](here)` or `<here>`) that ends where the URL ends: anything
    else (`(`, `)`, `<`, `>`, `[`, `]`, spaces, backslashes, controls, non-ASCII) is
    percent-encoded, which names the same resource. `#` stays: it is the URL's fragment."""
    return quote(url, safe=_URL_SAFE)


def annotation(text: str) -> str:
    """A GitHub workflow-command message: `%`, CR and LF escaped as the runner expects."""
    out = plain(text)
    return (
        out.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A").replace("::", ":\u200c:")
    )
