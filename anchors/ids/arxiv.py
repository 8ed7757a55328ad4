"""arXiv identifiers, old scheme (`hep-th/9901001`, 1991 to March 2007) and new (`2309.06180`).

The rules follow arXiv's identifier help page and arxiv-base's validation: a malformed ID says
why, so a person can fix the citation. Nothing here looks at the clock; callers pass `today` to
`is_future`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from typing import ClassVar, Literal

from ..numbers import whole
from .kinds import AnchorKind, InvalidId

__all__ = ["OLD_ARCHIVES", "ArxivId", "is_future", "issued_after"]

# Archives that exist in old-scheme IDs, with the first and last YYMM they were used
# (arXiv taxonomy definitions). A trailing None means the archive still takes old IDs up to 0703.
OLD_ARCHIVES: dict[str, tuple[str, str]] = {
    "acc-phys": ("9411", "9609"),
    "adap-org": ("9303", "9912"),
    "alg-geom": ("9202", "9712"),
    "ao-sci": ("9502", "9609"),
    "astro-ph": ("9204", "0703"),
    "atom-ph": ("9509", "9609"),
    "bayes-an": ("9506", "9611"),
    "chao-dyn": ("9301", "9912"),
    "chem-ph": ("9403", "9609"),
    "cmp-lg": ("9404", "9809"),
    "comp-gas": ("9302", "9912"),
    "cond-mat": ("9204", "0703"),
    "cs": ("9301", "0703"),
    "dg-ga": ("9406", "9712"),
    "funct-an": ("9204", "9712"),
    "gr-qc": ("9207", "0703"),
    "hep-ex": ("9404", "0703"),
    "hep-lat": ("9202", "0703"),
    "hep-ph": ("9203", "0703"),
    "hep-th": ("9108", "0703"),
    "math": ("9202", "0703"),
    "math-ph": ("9609", "0703"),
    "mtrl-th": ("9411", "9609"),
    "nlin": ("9301", "0703"),
    "nucl-ex": ("9412", "0703"),
    "nucl-th": ("9210", "0703"),
    "patt-sol": ("9302", "9912"),
    "physics": ("9610", "0703"),
    "plasm-ph": ("9509", "9609"),
    "q-alg": ("9412", "9712"),
    "q-bio": ("0309", "0703"),
    "quant-ph": ("9412", "0703"),
    "solv-int": ("9304", "9912"),
    "supr-con": ("9411", "9609"),
}
# Only these archives carried a two-letter subject class (`math.GT/0309136`).
_SUBJECT_CLASS_ARCHIVES = frozenset({"math", "cs", "nlin", "q-bio"})

# ASCII digits only: `\d` would also take Arabic-Indic or full-width digits, which arXiv never
# issues.
_NEW_RE = re.compile(r"(?P<yymm>[0-9]{4})\.(?P<num>[0-9]+)(?:[vV](?P<v>[0-9]+))?")
_OLD_RE = re.compile(
    r"(?P<arch>[A-Za-z]+(?:-[A-Za-z]+)?)(?:\.(?P<sc>[A-Za-z]{2}))?/(?P<yymm>[0-9]{4})(?P<num>[0-9]+)"
    r"(?:[vV](?P<v>[0-9]+))?"
)
_PREFIX_RE = re.compile(r"^(?:arxiv:|arXiv:|ARXIV:|Arxiv:)\s*")
_FIRST_NEW_SCHEME = 704  # April 2007
_FIVE_DIGIT_FROM = 1501  # January 2015


@dataclass(frozen=True, slots=True)
class ArxivId:
    """An arXiv identifier; `canonical` never carries a version, `version` keeps the one cited."""

    kind: ClassVar[Literal[AnchorKind.ARXIV]] = AnchorKind.ARXIV
    #: the registry field an entry of this kind is written under
    id_field: ClassVar[str] = "arxiv"

    canonical: str
    yymm: str
    version: int | None = None

    @property
    def key(self) -> str:
        return f"{self.kind.value}:{self.canonical}"

    @property
    def url(self) -> str:
        return f"https://arxiv.org/abs/{self.canonical}"

    @property
    def old_scheme(self) -> bool:
        """`archive/YYMMNNN` (1991 to March 2007) rather than `YYMM.NNNNN`."""
        return "/" in self.canonical

    @property
    def year(self) -> int:
        """Old-scheme years 91-99 are the 1990s; new-scheme IDs began in 2007, so `9912.12345`
        is December 2099 (arXiv's identifier scheme runs to 2099 before it must change)."""
        yy = int(self.yymm[:2])
        return (1900 if self.old_scheme and yy >= 91 else 2000) + yy

    @property
    def month(self) -> int:
        return int(self.yymm[2:])

    def __str__(self) -> str:
        return self.canonical if self.version is None else f"{self.canonical}v{self.version}"

    @classmethod
    def parse(cls, text: str) -> ArxivId:
        """Parse a bare ID (`2609.18063v2`, `arXiv:hep-th/9901001`, `math.GT/0309136`)."""
        raw = _PREFIX_RE.sub("", text.strip())
        if any(c.isdigit() and not c.isascii() for c in raw):
            raise InvalidId(text, "arXiv IDs are written in ASCII digits (0-9) only")
        match = _NEW_RE.fullmatch(raw)
        if match:
            return cls._new(text, match)
        match = _OLD_RE.fullmatch(raw)
        if match:
            return cls._old(text, match)
        raise InvalidId(text, "not an arXiv identifier (YYMM.NNNNN or archive/YYMMNNN)")

    @classmethod
    def _new(cls, text: str, match: re.Match[str]) -> ArxivId:
        yymm, num = match["yymm"], match["num"]
        _check_month(text, yymm)
        if int(yymm) < _FIRST_NEW_SCHEME:
            raise InvalidId(text, f"new-style IDs start in 0704 (April 2007), not {yymm}")
        digits = 5 if int(yymm) >= _FIVE_DIGIT_FROM else 4
        if len(num) != digits:
            era = "from 1501" if digits == 5 else "from 0704 to 1412"
            raise InvalidId(text, f"IDs {era} have {digits} digits after the dot, not {len(num)}")
        if int(num) == 0:
            raise InvalidId(text, "sequence number 0 does not exist")
        return cls(f"{yymm}.{num}", yymm, _version(text, match["v"]))

    @classmethod
    def _old(cls, text: str, match: re.Match[str]) -> ArxivId:
        arch, sc, yymm, num = match["arch"].lower(), match["sc"], match["yymm"], match["num"]
        span = OLD_ARCHIVES.get(arch)
        if span is None:
            raise InvalidId(text, f"'{arch}' is not an arXiv archive")
        if sc is not None and (arch not in _SUBJECT_CLASS_ARCHIVES or not sc.isupper()):
            raise InvalidId(text, f"'{arch}.{sc}' is not a subject class")
        _check_month(text, yymm)
        yy = int(yymm[:2])
        if not (yy >= 91 or yy <= 7):
            raise InvalidId(text, f"old-style IDs run from 91 to 07, not year {yymm[:2]}")
        if _ordinal(yymm) > _ordinal("0703"):
            raise InvalidId(text, "old-style IDs end in 0703; later papers have YYMM.NNNNN IDs")
        if not _ordinal(span[0]) <= _ordinal(yymm) <= _ordinal(span[1]):
            raise InvalidId(text, f"archive {arch} took papers from {span[0]} to {span[1]} only")
        if len(num) != 3:
            raise InvalidId(text, f"old-style IDs have 3 digits after YYMM, not {len(num)}")
        if int(num) == 0:
            raise InvalidId(text, "sequence number 000 does not exist")
        return cls(f"{arch}/{yymm}{num}", yymm, _version(text, match["v"]))


def _check_month(text: str, yymm: str) -> None:
    if not 1 <= int(yymm[2:]) <= 12:
        raise InvalidId(text, f"month {yymm[2:]} in {yymm} does not exist")


def _version(text: str, version: str | None) -> int | None:
    if version is None:
        return None
    number = whole(version, 9)
    if number is None or number == 0 or version.startswith("0"):
        shown = version if len(version) <= 12 else f"{version[:12]}… ({len(version)} digits)"
        raise InvalidId(text, f"version v{shown} does not exist (versions start at v1)")
    return number


def _ordinal(yymm: str) -> int:
    """Months since 1900, so that old-scheme `9108` sorts before `0703`."""
    yy, mm = int(yymm[:2]), int(yymm[2:])
    return ((1900 if yy >= 91 else 2000) + yy - 1900) * 12 + mm


def is_future(arxiv_id: ArxivId, today: date) -> bool:
    """True when the ID's month is after `today`'s month: arXiv cannot have issued it yet."""
    return issued_after(arxiv_id, today)


def issued_after(arxiv_id: ArxivId, day: date) -> bool:
    """True when the ID's month is after `day`'s month: the one rule behind future-id (against
    today) and later-than-briefing (against a briefing's date or a first_anchored date)."""
    return (arxiv_id.year, arxiv_id.month) > (day.year, day.month)
