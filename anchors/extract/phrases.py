"""Claim phrases as people write them: a state, a submission date, a venue, a version.

Each reader takes the text that belongs to one citation and returns the one value it claims,
or None. The words are everyday words ("open", "closed", "merged", "fixed"), so each is a
claim only where it describes the cited thing: next to a reference, after "is"/"still"/"仍",
in brackets, before "issue"/"PR" or a preposition ("merged into main", "fixed in v0.6"). Used
as an adjective ("open source", "closed-form", "merged attention", "fixed point") or as an
imperative ("Open in Colab", "open a PR") it claims nothing. A venue needs its year, a date
needs a word that makes it the submission date.
"""

from __future__ import annotations

import re
from datetime import date

from ..registry.claims import StateClaim, Venue

__all__ = ["date_claim", "state_claim", "venue_claim", "venues_in", "version_claim"]

# -- states ----------------------------------------------------------------------------------

#: forms that claim a state whatever follows them
_STRONG: tuple[tuple[re.Pattern[str], StateClaim], ...] = (
    (
        re.compile(
            r"(?:仍|依然|依旧|还是|目前|当前|现在|仍然)\s*+(?:(?:为|是|处于|保持)\s*+)?[「“\"'`]?open"
            r"|(?:仍|依然|尚|还)\s*+(?:未|没有?)\s*+(?:被\s*+)?"
            r"(?:关闭|修复|合并|合入|解决|close|merge|fix)"
            r"|(?:仍|依然|依旧)\s*+(?:开放|打开|开启|未决)|重新(?:打开|开启)|open\s*+状态"
            r"|(?:(?:still|remains?|remained|stays?)\s++|is\s++(?:(?:still|currently|now)\s++)?"
            r"|are\s++(?:still\s++)?)open(?![\w-])"
            r"|\bnot\s++(?:yet\s++)?(?:been\s++)?(?:closed|merged|fixed|resolved)\b|\bunmerged\b"
            r"|\bunresolved\b|\breopened\b|(?:state|status|状态)\s*+[:：]\s*+open\b",
            re.IGNORECASE,
        ),
        StateClaim.OPEN,
    ),
    (
        re.compile(
            r"已(?:经)?\s*+(?:被\s*+)?(?:合并|合入|merged?)|合并(?:进|入|到)\s*+(?:main|master|主干)"
            r"|\b(?:has|have|had|was|were|got|been|is)\s++(?:been\s++)?(?:merged|landed)\b"
            r"|(?:state|status|状态)\s*+[:：]\s*+merged\b",
            re.IGNORECASE,
        ),
        StateClaim.MERGED,
    ),
    (
        re.compile(
            r"已(?:经)?\s*+(?:被\s*+)?(?:修复|解决|fixed?|resolved?)"
            r"|\b(?:has|have|had|was|were|got|been|is)\s++(?:been\s++)?(?:fixed|resolved)\b"
            r"|(?:state|status|状态)\s*+[:：]\s*+(?:fixed|resolved)\b",
            re.IGNORECASE,
        ),
        StateClaim.FIXED,
    ),
    (
        re.compile(
            r"已(?:经)?\s*+(?:被\s*+)?(?:关闭|关掉|closed?)|被关闭"
            r"|\b(?:has|have|had|was|were|got|been|is)\s++(?:been\s++)?closed\b"
            r"|\bclosed\s++as\s++(?:completed|not\s++planned|duplicate|stale|wontfix)"
            r"|(?:state|status|状态)\s*+[:：]\s*+closed\b",
            re.IGNORECASE,
        ),
        StateClaim.CLOSED,
    ),
)
#: a bare state word: a claim only in the places the module docstring names
_BARE = re.compile(r"(?<![\w-])(open|closed|merged|fixed|resolved|landed)(?![\w-])", re.IGNORECASE)
_BARE_STATE = {
    "open": StateClaim.OPEN,
    "closed": StateClaim.CLOSED,
    "merged": StateClaim.MERGED,
    "landed": StateClaim.MERGED,
    "fixed": StateClaim.FIXED,
    "resolved": StateClaim.FIXED,
}
#: words after a state word that keep it a state ("merged into", "closed as", "open issue")
_AFTER_STATE = frozenset(
    [
        "issue",
        "pr",
        "pull",
        "bug",
        "ticket",
        "in",
        "into",
        "on",
        "by",
        "at",
        "as",
        "via",
        "upstream",
        "since",
        "and",
        "or",
        "but",
        "yet",
        "already",
        "now",
        "today",
        "yesterday",
        "recently",
        "last",
        "earlier",
        "later",
        "before",
        "after",
        "without",
        "for",
    ]
)
#: what a state word describes when it is about the cited thing (one of them: "closed PRs" is
#: about others)
_THING = frozenset(["issue", "pr", "pull", "bug", "ticket"])
#: after "open" these make an imperative ("open a PR", "open the file"), not a state; after
#: "fixed"/"merged"/"closed" a past tense ("Fixed a crash", "merged the patch"), a state
_VERB_AFTER = frozenset(
    ["a", "an", "the", "this", "that", "it", "its", "your", "my", "our", "some", "several", "two"]
)
_OPEN_VERB_AFTER = _VERB_AFTER | {"in", "on", "with"}
#: where a line's first word may stand: after a list marker, `[Tag]`s and a `(scope):` prefix
_LINE_START = re.compile(
    r"\s*+(?:(?:[-*+]|[0-9]{1,3}[.)])\s*+)?(?:\[[^\]\n]{1,40}\]\s*+)*+(?:\([^)\n]{1,30}\):?\s*+)?"
)
_WORD_AFTER = re.compile(r"\s*([A-Za-z][A-Za-z'’]*)")
#: (from the first letter of a word only: `search` would read a word again from each letter)
_WORD_BEFORE = re.compile(r"(?<![A-Za-z])([A-Za-z]++)\s*+$")
#: words before "open" that make it a verb or a name ("to open", "Open in", "OpenAI")
_OPEN_VERB_BEFORE = frozenset(
    ["to", "please", "can", "could", "will", "would", "then", "and", "or", "you", "we"]
)
_NOT_STATE = re.compile(
    r"(?:is|are)\s+open\s+to|open[\s-]*(?:source|sourced|weights?|models?|ai|api|problems?"
    r"|questions?|world|ended|domain|access|set)\b|待核实|是否[^，,。；;\n]*"
    r"|\bwhether\b[^,.;\n]*|\bif\s+(?:it|this|that)\s+(?:is|was|has\s+been)\b[^,.;\n]*",
    re.IGNORECASE,
)


def _bare_states(text: str) -> dict[StateClaim, str]:
    found: dict[StateClaim, str] = {}
    for match in _BARE.finditer(text):
        word = match[1].lower()
        after = _WORD_AFTER.match(text, match.end())
        nxt = (
            after[1].lower() if after and text[match.end() : after.start(1)].strip() == "" else None
        )
        before = _WORD_BEFORE.search(text, 0, match.start())
        prev = before[1].lower() if before else None
        opened = text[max(0, match.start() - 1) : match.start()] in ("(", "[", "（", "【", "`")
        first = _LINE_START.fullmatch(text, text.rfind("\n", 0, match.start()) + 1, match.start())
        if word == "open" and (nxt in _OPEN_VERB_AFTER or prev in _OPEN_VERB_BEFORE):
            continue  # "open a PR", "to open": a verb
        if word == "open" and first and not opened:
            continue  # a line that starts "Open ..." is an instruction
        if word == "open" and prev in ("a", "an", "the") and nxt not in _THING:
            continue  # "an open `<channel>`": something else that is open
        if first and word != "open":
            pass  # a changelog's "- Fixed infinite loop …": the verb, so a state
        elif nxt is not None and nxt not in _AFTER_STATE and nxt not in _VERB_AFTER:
            continue  # an adjective: "merged attention", "fixed point", "closed source"
        found.setdefault(_BARE_STATE[word], match[0])
    return found


def state_claim(text: str) -> tuple[StateClaim, str] | None:
    """The one state a piece of text claims, with its words; None if none or several."""
    cleaned = _NOT_STATE.sub(" ", text)
    found: dict[StateClaim, str] = {}
    for pattern, state in _STRONG:
        if match := pattern.search(cleaned):
            found.setdefault(state, match.group())
    strong = dict(found)
    for state, words in _bare_states(cleaned).items():
        found.setdefault(state, words)
    return _one(strong) or _one(found) or _still_open(strong)


#: words that say a state goes on: "仍 open", "still open"
_CONTINUING_RE = re.compile(r"仍|依然|still|remains?", re.IGNORECASE)


def _still_open(found: dict[StateClaim, str]) -> tuple[StateClaim, str] | None:
    """ "仍 open" / "still open" is said on purpose: it outweighs a state named in passing."""
    words = found.get(StateClaim.OPEN)
    if words and _CONTINUING_RE.match(words):
        return StateClaim.OPEN, words
    return None


def _one(found: dict[StateClaim, str]) -> tuple[StateClaim, str] | None:
    """One state from several words: merged implies closed and fixed; otherwise they must agree."""
    if StateClaim.MERGED in found and set(found) <= {
        StateClaim.MERGED,
        StateClaim.CLOSED,
        StateClaim.FIXED,
    }:
        return StateClaim.MERGED, found[StateClaim.MERGED]
    if set(found) == {StateClaim.FIXED, StateClaim.CLOSED}:
        return StateClaim.FIXED, found[StateClaim.FIXED]
    if len(found) != 1:
        return None
    ((state, words),) = found.items()
    return state, words


# -- dates, venues, versions -----------------------------------------------------------------

_MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]


def _day(n: str) -> str:
    """A written day (`2023-09-12`, `2023/9/12`, `2023年9月12日`) with groups named y/m/d + n."""
    return (
        rf"(?P<y{n}>\d{{4}})[-/.](?P<m{n}>\d{{1,2}})[-/.](?P<d{n}>\d{{1,2}})(?!\d)"
        rf"|(?P<Y{n}>\d{{4}})年(?P<M{n}>\d{{1,2}})月(?P<D{n}>\d{{1,2}})日"
    )


_DAY_EN = r"(?P<de>\d{1,2})\s++(?P<mon>[A-Za-z]{3})[a-z]*+\.?,?\s++(?P<ye>\d{4})"
_DATE_RE = re.compile(
    r"(?:arXiv\s*+(?:v1\s*+)?(?:[:：,，]\s*+)?|(?:submitted|首次提交|提交|发布|posted|v1)"
    rf"\s*+(?:(?:on|于|:|：)\s*+)?)(?:[(（\[]\s*+)?(?:{_day('a')}|{_DAY_EN})"
    rf"|(?:{_day('b')})\s*+(?:提交|submitted|投稿|发布|上传|挂出)",
    re.IGNORECASE,
)


def date_claim(text: str) -> date | None:
    """`arXiv 2026-09-19`, `Submitted on 12 Sep 2023`, `2023-09-12 提交`: the v1 date claimed."""
    for match in _DATE_RE.finditer(text):
        got = {k[0].lower(): v for k, v in match.groupdict().items() if v and k != "mon"}
        year, month, day = got.get("y"), got.get("m"), got.get("d")
        if match["mon"]:
            name = match["mon"][:3].lower()
            if name not in _MONTHS:
                continue
            month = str(_MONTHS.index(name) + 1)
        if year is None or month is None or day is None:
            continue
        try:
            return date(int(year), int(month), int(day))
        except ValueError:
            continue
    return None


_VENUE_NAMES = (
    r"Middleware|EuroSys|ASPLOS|SIGCOMM|SIGMOD|NeurIPS|AISTATS|INFOCOM|MobiCom|MobiSys|SenSys"
    r"|COLING|OOPSLA|PPoPP|MLSys|ICDCS|IPDPS|EMNLP|NAACL|ISSCC|SOSP|OSDI|NSDI|ISCA|MICRO|HPCA"
    r"|HPDC|ICML|ICLR|CVPR|ICCV|ECCV|AAAI|IJCAI|VLDB|FAST|COLM|ICDE|SoCC|PLDI|SIGIR|CIKM|WSDM"
    r"|CoRL|TMLR|JMLR|FPGA|NIPS|ATC|ACL|KDD|DAC|WWW|ICS|CGO|UAI|SC"
)
_ALIASES = {"NIPS": "NeurIPS"}
_VENUE_RE = re.compile(
    r"(?<![A-Za-z])(?P<name>"
    + _VENUE_NAMES
    + r")(?:\s*[’'](?P<yy>\d{2})|\s*(?P<yyyy>(?:19|20)\d{2}))?"
    r"(?![A-Za-z])"
)
#: a venue named as where a paper is not (yet) published
_NOT_VENUE = re.compile(
    r"(?:submitted\s+to|under\s+review\s+(?:at|for)|rejected\s+(?:by|from)|deadline"
    r"|投稿(?:至|到)?|在投|审稿中|截稿)\s*(?:the\s+)?$",
    re.IGNORECASE,
)


def venues_in(text: str) -> list[Venue]:
    """Every venue named in `text`, with its year when one is written next to it."""
    out = []
    for match in _VENUE_RE.finditer(text):
        yy, yyyy = match["yy"], match["yyyy"]
        name = _ALIASES.get(match["name"], match["name"])
        out.append(Venue(name, int(yyyy) if yyyy else 2000 + int(yy) if yy else None))
    return out


def venue_claim(text: str) -> Venue | None:
    """`HPDC'26` → HPDC 2026, `OSDI 2026` → OSDI 2026; a venue needs its year to be a claim,
    and one the paper was only submitted to or rejected from is none."""
    for match in _VENUE_RE.finditer(text):
        if not (match["yy"] or match["yyyy"]) or _NOT_VENUE.search(
            text, max(0, match.start() - 30), match.start()
        ):
            continue
        return venues_in(match.group())[0]
    return None


_VERSION_RE = re.compile(
    r"(?:arXiv\s*+|[0-9]{4}\.[0-9]{4,5}\s*+(?:[（(]\s*+)?)v(?P<v>[0-9]{1,2})(?![0-9.])"
    r"|第\s*+(?P<cn>[0-9])\s*+版",
    re.IGNORECASE,
)


def version_claim(text: str) -> int | None:
    """`arXiv v2`, `2309.06180 (v3)`, `第 2 版`: the version cited, written beside the ID."""
    match = _VERSION_RE.search(text)
    return int(match["v"] or match["cn"]) if match else None
