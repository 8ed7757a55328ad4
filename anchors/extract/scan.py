"""Finding anchors in one piece of Markdown: URLs where the link syntax says they end, then IDs.

Where a URL ends depends on what holds it. Inside a Markdown link target `](…)`, a link
reference definition, an autolink `<…>` or an HTML attribute the syntax decides: full-width
punctuation there is part of the URL (`…/wiki/使用图形界面（macOS）` is one page), and a closing
bracket ends it only when unbalanced. A bare URL in prose ends at whitespace, full-width
punctuation, quotes, an unbalanced bracket or trailing punctuation. After each URL the scan goes
on right where that URL ended, so glued links (`![](a)![](b)`, `…)或参考这个[PR](…)`) are all found.
Every pattern is linear, so pathological input costs time in proportion to its length.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..ids import parse_anchor
from ..ids.model import OLD_ARCHIVES, AnchorKey, GithubRef, InvalidId

__all__ = ["DIGIT_RE", "Hit", "scan"]

# Characters that end a bare URL: whitespace, full-width punctuation, quotes and angle brackets.
_URL_STOP = "\\s<>\"'`|（）【】，。；、：「」『』《》！？…“”‘’"
_BARE_URL_RE = re.compile(rf"[^{_URL_STOP}]+")
_URL_START_RE = re.compile(r"https?://", re.IGNORECASE)
_URL_TRAIL = ".,;:!?*_~"
_REF_DEF_RE = re.compile(r"[ \t]{0,3}\[[^\]]{1,999}\]:[ \t]*")
_ATTR_BEFORE_RE = re.compile(r"(?:href|src)\s*=\s*$", re.IGNORECASE)
_LINK_TITLE_RE = re.compile(r"[ \t]+(?:\"[^\"]*\"|'[^']*'|\([^()]*\))[ \t]*\)")
_HTML_TEXT_RE = re.compile(r"[^>]{0,300}>([^<]{1,300})</a\s*>", re.IGNORECASE)
_ISSUE_AFTER_RE = re.compile(
    r"\s*+[（(\[]\s*+GitHub\s++(?:Issue|PR|Pull Request|#)\s*+(?:#\s*+)?([0-9]{1,18})(?![0-9])",
    re.IGNORECASE,
)
_REPO_ROOT_RE = re.compile(r"https?://(?:www\.)?github\.com/[^/]+/[^/]+/?", re.IGNORECASE)
_A = "A-Za-z0-9"
_TOKEN_RE = re.compile(
    rf"(?P<prefixed>(?i:arxiv):\s*(?P<pid>[A-Za-z.\-]*/?[0-9][0-9A-Za-z.]*))"
    rf"|(?<![{_A}./_-])(?P<card>[0-9]{{1,5}})-(?P<cyymm>[0-9]{{4}})[-.](?P<cnum>[0-9]{{4,5}})(?![{_A}])"
    rf"|(?<![{_A}./_-])(?P<new>[0-9]{{4}}\.[0-9]{{4,5}}(?:v[0-9]+)?)(?![{_A}_]|\.[0-9])"
    rf"|(?<![{_A}./_-])(?P<old>[a-z]+(?:-[a-z]+)?(?:\.[A-Z]{{2}})?/[0-9]{{7}}(?:v[0-9]+)?)(?![{_A}])"
    # DOI suffixes: the usual characters, a `#` inside one (`10.1006/rwei.1999#.0001`, the DOI
    # Handbook's example), plus the `<952::AID-MRM16>` parts of old SICI DOIs
    rf"|(?<![{_A}/])(?P<doi>10\.[0-9]{{4,9}}(?:\.[0-9]++)*+/"
    rf"(?:[-._;()/:{_A}]++|#(?=[-._]*+[{_A}])|<[0-9][^\s<>]{{0,80}}>)++)"
    rf"|(?<![{_A}/._-])(?P<gh>[{_A}][{_A}-]{{0,38}}/[{_A}_.-]{{1,100}}#[0-9]{{1,9}})(?![{_A}])"
)
# Full-width digits and full stop, as Chinese input methods type them, read as the ASCII they
# spell (`２６０９.１８０６３` is 2609.18063); one character for one, so positions do not move.
# Other non-ASCII digits (Arabic-Indic, Devanagari, …) are never read as part of an ID.
_FULLWIDTH = str.maketrans({**{chr(0xFF10 + i): str(i) for i in range(10)}, "．": "."})
#: A link target longer than this is not one; the scan falls back to bare-URL rules, which keeps
#: pathological lines (`[x](https://a/（` ten thousand times) linear.
_MAX_DESTINATION = 4096
DIGIT_RE = re.compile(r"[0-9０-９]")
#: template syntax no real URL holds: `${PORT}`, `{{host}}`, `{id}`, `$HOST`, a port that is a word
_TEMPLATE_RE = re.compile(
    r"\$\{|\{\{|\{[A-Za-z_][\w.-]*\}|\$[A-Za-z_]|^[a-z]+://[^/?#]*:(?![0-9]*(?:[/?#]|$))",
    re.IGNORECASE,
)
_HOST_RE = re.compile(r"[a-z]+://(?:[^/?#@]*@)?(\[[^\]]*\]|[^/?#:]*)", re.IGNORECASE)
_LOCAL_HOSTS = frozenset({"localhost", "0.0.0.0", "[::1]", "[::]"})
#: RFC 2606/6761 names that never hold a public page
_RESERVED_SUFFIXES = (".localhost", ".example", ".test", ".invalid", ".local")
_TICKS_RE = re.compile(r"`+")
_OPENERS = {")": "(", "）": "（", "]": "[", "}": "{"}


@dataclass(frozen=True, slots=True)
class Hit:
    """One citation found in a piece of text: valid (`key`) or not (`reason`)."""

    start: int
    end: int
    raw: str
    key: AnchorKey | None = None
    reason: str | None = None
    #: False for paper-card names (`1489-2609-25053`), which cite an ID but never list it
    listable: bool = True
    #: the text of the Markdown or HTML link whose target this URL is
    link_text: str | None = None


def scan(text: str) -> list[Hit]:
    """Every URL, arXiv ID, DOI and GitHub reference in `text`, in order of position."""
    hits: list[Hit] = []
    masked = text
    if "://" in text:
        found = _urls(text)
        hits = [hit for hit in found if not _placeholder(text, hit)]
        pieces, at = [], 0
        for hit in found:  # a placeholder URL's digits are no ID either
            pieces += [text[at : hit.start], " " * (hit.end - hit.start)]
            at = hit.end
        masked = "".join(pieces) + text[at:]
    if DIGIT_RE.search(masked):
        hits.extend(_tokens(text, masked.translate(_FULLWIDTH)))
        hits.sort(key=lambda hit: hit.start)
    return hits


def _placeholder(text: str, hit: Hit) -> bool:
    """A template URL (`http://localhost:${PORT}`, `https://{host}/v1`, `http://$HOST:PORT`)
    names no page anywhere; in inline code a local or reserved example host is a placeholder
    for the reader's own server too. Neither is a citation, valid or not."""
    if _TEMPLATE_RE.search(hit.raw):
        return True
    if "`" not in text or not any(a <= hit.start < b for a, b in code_spans(text)):
        return False
    host = _HOST_RE.match(hit.raw)
    name = host[1].lower().rstrip(".") if host else ""
    return (
        name in _LOCAL_HOSTS
        or name.startswith("127.")
        or name.endswith(_RESERVED_SUFFIXES)
        or name.split(".")[-2:-1] == ["example"]
    )


def code_spans(text: str) -> list[tuple[int, int]]:
    """The (start, end) of each inline code span's content: a run of backticks up to the next
    run of the same length (CommonMark); one pass over the runs."""
    spans: list[tuple[int, int]] = []
    opened: re.Match[str] | None = None
    for run in _TICKS_RE.finditer(text):
        if opened is None:
            opened = run
        elif len(run.group()) == len(opened.group()):
            spans.append((opened.end(), run.start()))
            opened = None
    return spans


def _urls(text: str) -> list[Hit]:
    out: list[Hit] = []
    pos = 0
    while (match := _URL_START_RE.search(text, pos)) is not None:
        start = match.start()
        end, link_text = _url_end(text, start)
        pos = max(end, match.end())
        if end <= match.end():
            continue
        out.append(_url_hit(text, start, end, link_text))
    return out


def _url_hit(text: str, start: int, end: int, link_text: str | None) -> Hit:
    raw = text[start:end]
    try:
        key = parse_anchor(raw)
        after = _ISSUE_AFTER_RE.match(text, end)
        if after and _REPO_ROOT_RE.fullmatch(raw):
            owner, repo = raw.rstrip("/").split("/")[-2:]
            key = GithubRef.checked(owner, repo, int(after[1]), raw)
    except InvalidId as exc:
        return Hit(start, end, raw, reason=exc.reason, link_text=link_text)
    return Hit(start, end, raw, key, link_text=link_text)


def _url_end(text: str, start: int) -> tuple[int, str | None]:
    """Where the URL at `start` ends, and the link text when it is a link's target."""
    before = text[max(0, start - 3) : start]
    if before.endswith("]("):
        end = _destination_end(text, start)
        if end < len(text) and (text[end] == ")" or _LINK_TITLE_RE.match(text, end)):
            return end, _markdown_link_text(text, start - 2)
    elif before.endswith("](<"):  # CommonMark: an angle-bracket destination may hold spaces
        if (closed := _delimited_end(text, start, ">", spaces=True)) is not None:
            return closed, _markdown_link_text(text, start - 3)
    elif before.endswith("<"):
        if (closed := _delimited_end(text, start, ">")) is not None:
            return closed, None
    elif before[-1:] in ('"', "'") and _ATTR_BEFORE_RE.search(text, max(0, start - 40), start - 1):
        if (closed := _delimited_end(text, start, before[-1])) is not None:
            match = _HTML_TEXT_RE.match(text, closed + 1)
            return closed, match[1] if match else None
    elif _REF_DEF_RE.fullmatch(text, 0, start):
        return _destination_end(text, start), None
    return _bare_end(text, start), None


def _destination_end(text: str, start: int) -> int:
    """A CommonMark link destination: up to whitespace or an unbalanced `)`; full-width
    parentheses are kept when balanced and end it when not."""
    depth = {"(": 0, "（": 0}
    i, n = start, min(len(text), start + _MAX_DESTINATION)
    while i < n:
        char = text[i]
        if char.isspace() or char == "\x00" or text.startswith("](", i):
            break  # `](` opens the next link: this target never closed
        if char == "\\" and i + 1 < n:
            i += 2
            continue
        if char in depth:
            depth[char] += 1
        elif char in ")）":
            opener = _OPENERS[char]
            if depth[opener] == 0:
                break
            depth[opener] -= 1
        i += 1
    return i


def _delimited_end(text: str, start: int, closer: str, spaces: bool = False) -> int | None:
    """The index of `closer` when the URL runs to it without whitespace; else None."""
    for i in range(start, min(len(text), start + 8192)):
        char = text[i]
        if char == closer:
            return i
        if (char.isspace() and not (spaces and char == " ")) or char in "<>":
            return None
    return None


def _bare_end(text: str, start: int) -> int:
    match = _BARE_URL_RE.match(text, start)
    url = match.group() if match else ""
    return start + len(_trim_url(url))


def _trim_url(url: str) -> str:
    """Cut at the first unbalanced closing bracket, then drop trailing punctuation."""
    depth = {"(": 0, "[": 0, "{": 0}
    for i, ch in enumerate(url):
        if ch in depth:
            depth[ch] += 1
        elif ch in ")]}":
            opener = _OPENERS[ch]
            if depth[opener] == 0:
                return url[:i].rstrip(_URL_TRAIL)
            depth[opener] -= 1
    return url.rstrip(_URL_TRAIL)


def _markdown_link_text(text: str, close: int) -> str | None:
    """The text between the `[` matching the `]` at `close` and it (looking back 300 chars)."""
    depth = 0
    for at in range(close - 1, max(-1, close - 300), -1):
        char = text[at]
        if char == "]":
            depth += 1
        elif char == "[":
            if depth == 0:
                return text[at + 1 : close]
            depth -= 1
    return None


def _tokens(text: str, masked: str) -> list[Hit]:
    out: list[Hit] = []
    for match in _TOKEN_RE.finditer(masked):
        ident, start, end = match.group(), match.start(), match.end()
        if match["card"]:
            ident = f"{match['cyymm']}.{match['cnum']}"
        elif match["prefixed"]:
            ident = match["pid"].rstrip(".")
            end = match.start("pid") + len(ident)
        elif match["doi"]:
            ident = _trim_doi(ident)
            end = start + len(ident)
        elif match["old"] and match["old"].split("/")[0].split(".")[0] not in OLD_ARCHIVES:
            continue
        raw = text[start:end]
        try:
            out.append(Hit(start, end, raw, parse_anchor(ident), listable=not match["card"]))
        except InvalidId as exc:
            out.append(Hit(start, end, raw, reason=exc.reason))
    return out


def _trim_doi(doi: str) -> str:
    """Drop trailing sentence punctuation and a closing parenthesis the DOI did not open."""
    while doi and (doi[-1] in ".,;:" or (doi[-1] == ")" and doi.count("(") < doi.count(")"))):
        doi = doi[:-1]
    return doi
