"""Briefing text to citations: every arXiv ID, DOI, GitHub reference and URL, with its line.

Briefings are Markdown written in Chinese or English and pasted from chat, so the scanner is
regex-based and forgiving: URLs stop at full-width punctuation, table rows carry their own
status and section, and an increment heading titles the URLs below it. Every pattern is linear
(no nested quantifiers), so pathological input costs time in proportion to its length.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from enum import Enum
from pathlib import Path

from .errors import BriefingError
from .ids import OLD_ARCHIVES, AnchorKey, ArxivId, GithubRef, InvalidId, parse_anchor
from .registry import Status

__all__ = [
    "MAX_BRIEFING_BYTES",
    "Briefing",
    "Citation",
    "InvalidCitation",
    "TitleSource",
    "briefing_date",
    "extract",
    "read_briefing",
]

MAX_BRIEFING_BYTES = 4 * 1024 * 1024

# Characters that end a URL: whitespace, full-width punctuation, quotes and angle brackets.
_URL_STOP = "\\s<>\"'`|（）【】，。；、：「」『』《》！？…“”‘’"
_URL_RE = re.compile(rf"https?://[^{_URL_STOP}]+")
_URL_TRAIL = ".,;:!?*_~"
_ISSUE_AFTER_RE = re.compile(r"\s*[（(\[]\s*GitHub\s+(?:Issue|PR|Pull Request|#)\s*#?\s*(\d+)",
                             re.IGNORECASE)
_A = "A-Za-z0-9"
_TOKEN_RE = re.compile(
    rf"(?P<prefixed>(?i:arxiv):\s*(?P<pid>[A-Za-z.\-]*/?[0-9][0-9A-Za-z.]*))"
    rf"|(?<![{_A}./_-])(?P<card>\d{{1,5}})-(?P<cyymm>\d{{4}})[-.](?P<cnum>\d{{4,5}})(?![{_A}])"
    rf"|(?<![{_A}./_-])(?P<new>\d{{4}}\.\d{{4,5}}(?:v\d+)?)(?![{_A}_]|\.\d)"
    rf"|(?<![{_A}./_-])(?P<old>[a-z]+(?:-[a-z]+)?(?:\.[A-Z]{{2}})?/\d{{7}}(?:v\d+)?)(?![{_A}])"
    rf"|(?<![{_A}/])(?P<doi>10\.\d{{4,9}}/[-._;()/:{_A}]+)"
    rf"|(?<![{_A}/._-])(?P<gh>[{_A}][{_A}-]{{0,38}}/[{_A}_.-]{{1,100}}#\d{{1,9}})(?![{_A}])"
)
_HEADING_RE = re.compile(
    r"^\s*(?:(?P<hashes>#{1,6}\s+)?(?P<prefix>增量\s*\d+\s*[：:]|(?:Increment|Item)\s*\d+\s*[：:]"
    r"|[一二三四五六七八九十]+、)|#{1,6}\s)\s*(?P<title>.*)$", re.IGNORECASE)
_SECTION_RE = re.compile(r"§\s*\d+(?:\.\d+)*[^（(，,；;|→\n·]*")
_SECTION_LINE_RE = re.compile(r"(?:建议归入章节|归入章节|suggested section|section)\s*[：:]",
                              re.IGNORECASE)
_LABEL_RE = re.compile(r"^\s*(?:[-*+]\s*)?(?:\*\*)?([^：:|]{0,24})(?:\*\*)?[：:]\s*")
_LINK_LABEL_RE = re.compile(r"url|arxiv|链接|link|doi", re.IGNORECASE)
_ARROW_SECTION_RE = re.compile(r"→\s*§.*")
_LIST_RE = re.compile(r"^\s*[-*+]\s+")
_DATE_CLAIM_RE = re.compile(
    r"(?:(?P<y>\d{4})-)?(?P<m>\d{1,2})-(?P<d>\d{1,2})\s*锚定"
    r"|anchored\s+(?:on\s+)?(?:(?P<y2>\d{4})-)?(?P<m2>\d{1,2})-(?P<d2>\d{1,2})", re.IGNORECASE)
_NEW_RE = re.compile(r"本次新增|newly anchored|\bnew anchor\b", re.IGNORECASE)
_CONT_RE = re.compile(r"续立|续用|续锚|\bcontinued\b", re.IGNORECASE)
_FILE_DATE_RE = re.compile(r"(?<!\d)(\d{4}-\d{2}-\d{2})(?!\d)")
_TITLE_DATE_RE = re.compile(r"[（(]\s*(\d{4}-\d{2}-\d{2})\s*[）)]")
_GLOSS_RE = re.compile(r"\s+[·•]\s+|\s*[（(][^（）()]*⭐[^（）()]*[）)]\s*$")


class TitleSource(str, Enum):
    """Where a citation's title came from; only a title written for the citation can conflict.

    A heading titles every URL below it, so re-citing a URL under a new day's heading must not
    read as a disagreement about its title; a table cell, link text or the text after an ID is
    what the author wrote for this very citation.
    """

    CELL = "cell"  # the table cell after the cited ID
    LINK_TEXT = "link-text"  # [text](url)
    AFTER_ID = "after-id"  # `- 2609.18063 Title` in a list
    HEADING = "heading"  # inferred: the increment heading above the citation

    @property
    def written(self) -> bool:
        return self is not TitleSource.HEADING


@dataclass(frozen=True, slots=True)
class Citation:
    """One valid citation as written in a briefing."""

    key: AnchorKey
    raw: str
    path: str
    line: int
    #: True in a citation-bearing place: a table row's first cell, a `URL：` line, a list item
    primary: bool = False
    title: str | None = None
    section: str | None = None
    claim: Status | None = None
    claimed_date: date | None = None
    #: None when there is no title
    title_source: TitleSource | None = None

    @property
    def written_title(self) -> str | None:
        """The title if the author wrote it for this citation (not inferred from a heading)."""
        return self.title if self.title_source is not None and self.title_source.written else None


@dataclass(frozen=True, slots=True)
class InvalidCitation:
    raw: str
    path: str
    line: int
    reason: str


@dataclass(slots=True)
class Briefing:
    path: str
    date: date
    citations: list[Citation] = field(default_factory=list)
    invalid: list[InvalidCitation] = field(default_factory=list)


def read_briefing(path: str | Path, date_override: date | None = None) -> Briefing:
    """Read, decode and extract one briefing; unusable files raise BriefingError."""
    p = str(path)
    try:
        with open(path, "rb") as fh:
            data = fh.read(MAX_BRIEFING_BYTES + 1)
    except OSError as exc:
        raise BriefingError(p, f"cannot read: {exc.strerror}") from None
    if len(data) > MAX_BRIEFING_BYTES:
        raise BriefingError(p, f"larger than {MAX_BRIEFING_BYTES // (1024 * 1024)} MiB; "
                            "is this really a briefing?")
    if b"\x00" in data:
        raise BriefingError(p, "not a text file (NUL byte)", data[: data.index(b"\x00")].count(b"\n") + 1)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise BriefingError(p, "not UTF-8 text", data[: exc.start].count(b"\n") + 1) from None
    when = date_override or briefing_date(text, p)
    if when is None:
        raise BriefingError(p, "no date in its title or file name; pass --date YYYY-MM-DD")
    return extract(text, p, when)


def briefing_date(text: str, path: str) -> date | None:
    """The date in the title line (`…(2026-09-24)`), else in the file name."""
    for line in text.splitlines()[:5]:
        m = _TITLE_DATE_RE.search(line)
        if m and (d := _iso(m[1])):
            return d
    m = _FILE_DATE_RE.search(Path(path).name)
    return _iso(m[1]) if m else None


def _iso(s: str) -> date | None:
    try:
        return date.fromisoformat(s)
    except ValueError:
        return None


@dataclass(slots=True)
class _Block:
    title: str | None = None
    section: str | None = None


def extract(text: str, path: str, when: date) -> Briefing:
    out = Briefing(path, when)
    lines = text.splitlines()
    blocks = _blocks(lines)
    for i, line in enumerate(lines):
        if "://" not in line and not any(c.isdigit() for c in line):
            continue
        block = blocks[i]
        if line.lstrip().startswith("|"):
            _table_row(out, line, i + 1, block)
        else:
            _prose(out, line, i + 1, block)
    return out


def _blocks(lines: list[str]) -> list[_Block]:
    """The heading block each line belongs to, with the block's suggested section."""
    result: list[_Block] = []
    cur = _Block()
    for line in lines:
        m = _HEADING_RE.match(line)
        if m and not line.lstrip().startswith("|"):
            cur = _Block(_clean_title(m["title"]))
        elif cur.section is None and _SECTION_LINE_RE.search(line):
            cur.section = _section(line)
        result.append(cur)
    return result


def _table_row(out: Briefing, line: str, lineno: int, block: _Block) -> None:
    cells = [c.strip() for c in line.strip().strip("|").split("|")]
    if all(set(c) <= set("-: ") for c in cells):
        return
    claim, claimed = _claim(line, out.date, strict=False)
    section = _section(line) or block.section
    for n, cell in enumerate(cells):
        for key, raw, listable in _scan(out, cell, lineno):
            primary = n == 0 and listable
            title, source = None, TitleSource.CELL
            if primary and n + 1 < len(cells):
                title = _clean_title(cells[n + 1]) or None
            elif not isinstance(key, ArxivId):
                title, source = block.title, TitleSource.HEADING
            out.citations.append(Citation(key, raw, out.path, lineno, primary, title, section,
                                          claim, claimed, source if title else None))


def _prose(out: Briefing, line: str, lineno: int, block: _Block) -> None:
    found = _scan(out, line, lineno)
    if not found:
        return
    label = _LABEL_RE.match(line)
    labelled = bool(label and _LINK_LABEL_RE.search(label[1])
                    and line[label.end():].startswith(found[0][1]))
    listed = _LIST_RE.match(line)
    claim, claimed = _claim(line, out.date, strict=True)
    arrow = _ARROW_SECTION_RE.search(line)
    section = _section(arrow.group()) if arrow else None
    for idx, (key, raw, listable) in enumerate(found):
        primary = listable and (labelled or bool(
            listed and idx == 0 and line[listed.end():].startswith(raw)))
        if isinstance(key, ArxivId):
            title, source = None, TitleSource.AFTER_ID
            if listed and primary:
                rest = line[listed.end() + len(raw):].strip(" -—:：|")
                title = _clean_title(rest) or None
        else:
            title, source = block.title, TitleSource.HEADING
        out.citations.append(Citation(key, raw, out.path, lineno, primary, title,
                                      section or block.section, claim, claimed,
                                      source if title else None))


def _scan(out: Briefing, text: str, lineno: int) -> list[tuple[AnchorKey, str, bool]]:
    """Citations in one piece of text, in order, each with whether it may be primary.

    Paper-card names (`1489-2609-25053`) cite an ID but never list it, so they are mentions.
    Invalid citations go to `out.invalid`.
    """
    found: list[tuple[int, AnchorKey, str, bool]] = []
    masked = text
    if "://" in text:
        for m in _URL_RE.finditer(text):
            raw = _trim_url(m.group())
            end = m.start() + len(raw)
            masked = masked[: m.start()] + " " * len(raw) + masked[end:]
            after = _ISSUE_AFTER_RE.match(text, end)
            try:
                key = parse_anchor(raw)
                if after and _is_repo_root(raw):
                    parts = raw.rstrip("/").split("/")
                    key = GithubRef(parts[-2], parts[-1], int(after[1]))
            except InvalidId as exc:
                out.invalid.append(InvalidCitation(raw, out.path, lineno, exc.reason))
                continue
            found.append((m.start(), key, raw, True))
    for m in _TOKEN_RE.finditer(masked):
        raw = m.group()
        if m["card"]:
            ident = f"{m['cyymm']}.{m['cnum']}"
        elif m["prefixed"]:
            ident = m["pid"].rstrip(".")
            raw = raw.rstrip(".")
        elif m["doi"]:
            ident = raw = raw.rstrip(".,;:)")
        elif m["old"] and m["old"].split("/")[0].split(".")[0] not in OLD_ARCHIVES:
            continue
        else:
            ident = raw
        try:
            key = parse_anchor(ident)
        except InvalidId as exc:
            out.invalid.append(InvalidCitation(raw, out.path, lineno, exc.reason))
            continue
        found.append((m.start(), key, raw, not m["card"]))
    found.sort(key=lambda t: t[0])
    return [(k, r, listable) for _, k, r, listable in found]


def _trim_url(url: str) -> str:
    """Cut at the first unbalanced closing bracket, then drop trailing punctuation."""
    depth = {")": 0, "]": 0, "}": 0}
    for i, ch in enumerate(url):
        if ch in _OPENERS:
            depth[_OPENERS[ch]] += 1
        elif ch in depth:
            if depth[ch] == 0:
                url = url[:i]
                break
            depth[ch] -= 1
    return url.rstrip(_URL_TRAIL)


_OPENERS = {"(": ")", "[": "]", "{": "}"}


def _is_repo_root(url: str) -> bool:
    m = re.fullmatch(r"https?://(?:www\.)?github\.com/[^/]+/[^/]+/?", url, re.IGNORECASE)
    return m is not None


def _claim(text: str, when: date, strict: bool) -> tuple[Status | None, date | None]:
    """Status and first-anchored date a line claims; prose with mixed claims claims nothing."""
    claimed = None
    m = _DATE_CLAIM_RE.search(text)
    if m:
        y, mo, d = (m["y"] or m["y2"]), int(m["m"] or m["m2"]), int(m["d"] or m["d2"])
        claimed = _claimed_date(when, int(y) if y else None, mo, d)
    is_new, is_cont = bool(_NEW_RE.search(text)), bool(_CONT_RE.search(text)) or claimed is not None
    if is_new and is_cont:
        if strict:
            return None, None
        return (Status.NEW, None) if claimed is None else (Status.CONTINUED, claimed)
    if is_new:
        return Status.NEW, None
    if is_cont:
        return Status.CONTINUED, claimed
    return None, None


def _claimed_date(when: date, year: int | None, month: int, day: int) -> date | None:
    """`9-22锚定` in a briefing of 2026-09-24 is 2026-09-22; `12-30` in January is last year."""
    try:
        if year is not None:
            return date(year, month, day)
        d = date(when.year, month, day)
        return d if d <= when else date(when.year - 1, month, day)
    except ValueError:
        return None


def _section(text: str) -> str | None:
    m = _SECTION_RE.search(text)
    if not m:
        return None
    return re.sub(r"\s+", " ", m.group().replace("§ ", "§")).strip(" *-—:：") or None


def _clean_title(text: str) -> str:
    text = text.replace("**", "").replace("`", "").strip()
    m = _GLOSS_RE.search(text)
    if m:
        text = text[: m.start()]
    return text.strip(" -—:：")

