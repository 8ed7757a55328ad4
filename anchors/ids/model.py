"""Identifiers: arXiv IDs, GitHub issue/PR references, DOIs and canonical URLs.

Raw strings stop here: `parse_anchor` turns any citation text into a frozen key object or raises
`InvalidId` with a reason a person can act on. Nothing here looks at the clock; callers pass
`today` to `is_future`. Rules follow arXiv's identifier help page and arxiv-base's validation.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from urllib.parse import parse_qsl, quote, unquote, urlencode, urlsplit, urlunsplit

__all__ = [
    "AnchorKey",
    "ArxivId",
    "Doi",
    "GithubRef",
    "InvalidId",
    "OLD_ARCHIVES",
    "WebUrl",
    "canonical_url",
    "cited_url",
    "is_future",
]


class InvalidId(ValueError):
    """A citation that looks like an identifier but is not a valid one."""

    def __init__(self, text: str, reason: str) -> None:
        super().__init__(f"{text}: {reason}")
        self.text = text
        self.reason = reason


# Archives that exist in old-scheme IDs, with the first and last YYMM they were used
# (arXiv taxonomy definitions). A trailing None means the archive still takes old IDs up to 0703.
OLD_ARCHIVES: dict[str, tuple[str, str]] = {
    "acc-phys": ("9411", "9609"), "adap-org": ("9303", "9912"), "alg-geom": ("9202", "9712"),
    "ao-sci": ("9502", "9609"), "astro-ph": ("9204", "0703"), "atom-ph": ("9509", "9609"),
    "bayes-an": ("9506", "9611"), "chao-dyn": ("9301", "9912"), "chem-ph": ("9403", "9609"),
    "cmp-lg": ("9404", "9809"), "comp-gas": ("9302", "9912"), "cond-mat": ("9204", "0703"),
    "cs": ("9301", "0703"), "dg-ga": ("9406", "9712"), "funct-an": ("9204", "9712"),
    "gr-qc": ("9207", "0703"), "hep-ex": ("9404", "0703"), "hep-lat": ("9202", "0703"),
    "hep-ph": ("9203", "0703"), "hep-th": ("9108", "0703"), "math": ("9202", "0703"),
    "math-ph": ("9609", "0703"), "mtrl-th": ("9411", "9609"), "nlin": ("9301", "0703"),
    "nucl-ex": ("9412", "0703"), "nucl-th": ("9210", "0703"), "patt-sol": ("9302", "9912"),
    "physics": ("9610", "0703"), "plasm-ph": ("9509", "9609"), "q-alg": ("9412", "9712"),
    "q-bio": ("0309", "0703"), "quant-ph": ("9412", "0703"), "solv-int": ("9304", "9912"),
    "supr-con": ("9411", "9609"),
}
# Only these archives carried a two-letter subject class (`math.GT/0309136`).
_SUBJECT_CLASS_ARCHIVES = frozenset({"math", "cs", "nlin", "q-bio"})

# ASCII digits only: `\d` would also take Arabic-Indic or full-width digits, which arXiv never issues.
_NEW_RE = re.compile(r"(?P<yymm>[0-9]{4})\.(?P<num>[0-9]+)(?:[vV](?P<v>[0-9]+))?")
_OLD_RE = re.compile(
    r"(?P<arch>[A-Za-z]+(?:-[A-Za-z]+)?)(?:\.(?P<sc>[A-Za-z]{2}))?/(?P<yymm>[0-9]{4})(?P<num>[0-9]+)"
    r"(?:[vV](?P<v>[0-9]+))?"
)
_PREFIX_RE = re.compile(r"^(?:arxiv:|arXiv:|ARXIV:|Arxiv:)\s*")
_ARXIV_DOI_RE = re.compile(r"^10\.48550/arxiv\.(.+)$", re.IGNORECASE)
# A registrant code may be subdivided (`10.1000.10/123456`, the DOI Handbook's own example).
_DOI_RE = re.compile(r"^10\.[0-9]{4,9}(?:\.[0-9]+)*/\S+$")
_GITHUB_TEXT_RE = re.compile(r"^([A-Za-z0-9](?:[A-Za-z0-9-]{0,38}))/([A-Za-z0-9_.-]{1,100})#([0-9]{1,9})$")
_DOI_URL_ESCAPES = {c: f"%{ord(c):02X}" for c in '%"# ?<>{}^[]`|\\+'}
_FIRST_NEW_SCHEME = 704  # April 2007
_FIVE_DIGIT_FROM = 1501  # January 2015


@dataclass(frozen=True, slots=True)
class ArxivId:
    """An arXiv identifier; `canonical` never carries a version, `version` keeps the one cited."""

    canonical: str
    yymm: str
    version: int | None = None

    @property
    def key(self) -> str:
        return f"arxiv:{self.canonical}"

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
        m = _NEW_RE.fullmatch(raw)
        if m:
            return cls._new(text, m)
        m = _OLD_RE.fullmatch(raw)
        if m:
            return cls._old(text, m)
        raise InvalidId(text, "not an arXiv identifier (YYMM.NNNNN or archive/YYMMNNN)")

    @classmethod
    def _new(cls, text: str, m: re.Match[str]) -> ArxivId:
        yymm, num = m["yymm"], m["num"]
        _check_month(text, yymm)
        if int(yymm) < _FIRST_NEW_SCHEME:
            raise InvalidId(text, f"new-style IDs start in 0704 (April 2007), not {yymm}")
        digits = 5 if int(yymm) >= _FIVE_DIGIT_FROM else 4
        if len(num) != digits:
            era = "from 1501" if digits == 5 else "from 0704 to 1412"
            raise InvalidId(text, f"IDs {era} have {digits} digits after the dot, not {len(num)}")
        if int(num) == 0:
            raise InvalidId(text, "sequence number 0 does not exist")
        return cls(f"{yymm}.{num}", yymm, _version(text, m["v"]))

    @classmethod
    def _old(cls, text: str, m: re.Match[str]) -> ArxivId:
        arch, sc, yymm, num = m["arch"].lower(), m["sc"], m["yymm"], m["num"]
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
        return cls(f"{arch}/{yymm}{num}", yymm, _version(text, m["v"]))


def _check_month(text: str, yymm: str) -> None:
    if not 1 <= int(yymm[2:]) <= 12:
        raise InvalidId(text, f"month {yymm[2:]} in {yymm} does not exist")


def _version(text: str, v: str | None) -> int | None:
    if v is None:
        return None
    if int(v) == 0 or v.startswith("0"):
        raise InvalidId(text, f"version v{v} does not exist (versions start at v1)")
    return int(v)


def _ordinal(yymm: str) -> int:
    """Months since 1900, so that old-scheme `9108` sorts before `0703`."""
    yy, mm = int(yymm[:2]), int(yymm[2:])
    return ((1900 if yy >= 91 else 2000) + yy - 1900) * 12 + mm


def is_future(arxiv_id: ArxivId, today: date) -> bool:
    """True when the ID's month is after `today`'s month: arXiv cannot have issued it yet."""
    return (arxiv_id.year, arxiv_id.month) > (today.year, today.month)


@dataclass(frozen=True, slots=True)
class GithubRef:
    """A GitHub issue or pull request. Issues and PRs share one number space per repository."""

    owner: str
    repo: str
    number: int

    @property
    def key(self) -> str:
        return f"github:{self.owner.lower()}/{self.repo.lower()}#{self.number}"

    @property
    def url(self) -> str:
        return f"https://github.com/{self.owner}/{self.repo}/issues/{self.number}"

    def __str__(self) -> str:
        return f"{self.owner}/{self.repo}#{self.number}"

    @classmethod
    def parse(cls, text: str) -> GithubRef:
        m = _GITHUB_TEXT_RE.fullmatch(text.strip())
        if not m:
            raise InvalidId(text, "not a GitHub reference (owner/repo#N)")
        return cls.checked(m[1], m[2], int(m[3]), text)

    @classmethod
    def checked(cls, owner: str, repo: str, number: int, text: str) -> GithubRef:
        """A reference GitHub could have issued: numbers start at 1, `.`/`..` are no repository,
        a repository name never ends in `.git` and a user name never in `-`."""
        if set(repo) <= {"."} or repo.lower().endswith(".git"):
            raise InvalidId(text, f"'{repo}' is not a repository name")
        if owner.endswith("-"):
            raise InvalidId(text, f"'{owner}' is not a GitHub user or organisation name")
        if number < 1:
            raise InvalidId(text, "GitHub issue and pull request numbers start at 1")
        return cls(owner, repo, number)


@dataclass(frozen=True, slots=True)
class Doi:
    """A DOI; DOIs are case-insensitive, so the key is lower-cased."""

    doi: str

    @property
    def key(self) -> str:
        return f"doi:{self.doi.lower()}"

    @property
    def encoded(self) -> str:
        """The DOI as a URL path: hex-encoded as the DOI Handbook's URL presentation rules say
        (mandatory `% " # space ?`, recommended `< > { } ^ [ ] ` | \\ +`; `/` kept)."""
        return "".join(_DOI_URL_ESCAPES.get(c, c) for c in self.doi)

    @property
    def url(self) -> str:
        return f"https://doi.org/{self.encoded}"

    def __str__(self) -> str:
        return self.doi

    @classmethod
    def parse(cls, text: str) -> Doi | ArxivId:
        raw = text.strip()
        if raw.lower().startswith("doi:"):
            raw = raw[4:].strip()
        m = _ARXIV_DOI_RE.match(raw)
        if m:  # arXiv's own DataCite DOIs name an arXiv paper
            return ArxivId.parse(m[1])
        if not _DOI_RE.fullmatch(raw):
            raise InvalidId(text, "not a DOI (10.NNNN/suffix)")
        return cls(raw)


@dataclass(frozen=True, slots=True)
class WebUrl:
    """Any other http(s) URL, compared in canonical form."""

    url: str

    @property
    def key(self) -> str:
        return f"url:{self.url}"

    def __str__(self) -> str:
        return self.url


AnchorKey = ArxivId | GithubRef | Doi | WebUrl

_TRACKING_PARAMS = frozenset({"fbclid", "gclid", "dclid", "msclkid", "mc_cid", "mc_eid", "yclid"})
_DEFAULT_PORTS = {"http": 80, "https": 443}


def canonical_url(url: str) -> str:
    """Normalise a URL for duplicate detection; raises InvalidId for non-URLs."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError as exc:
        raise InvalidId(url, f"not a valid URL ({exc})") from None
    scheme = parts.scheme.lower()
    host = (parts.hostname or "").lower().rstrip(".")
    if scheme not in ("http", "https") or not host:
        raise InvalidId(url, "not an http(s) URL with a host")
    netloc = f"[{host}]" if ":" in host else host
    if port is not None and port != _DEFAULT_PORTS[scheme]:
        netloc += f":{port}"
    if parts.username or parts.password:
        raise InvalidId(url, "URLs with credentials are not anchors")
    path = quote(unquote(parts.path), safe="/:@!$&'()*+,;=-._~%")
    path = path.rstrip("/") or "/"
    query = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True)
             if not k.lower().startswith("utm_") and k.lower() not in _TRACKING_PARAMS]
    return urlunsplit((scheme, netloc, path, urlencode(query), ""))


def _tracking(name: str) -> bool:
    n = unquote(name.replace("+", " ")).lower()
    return n.startswith("utm_") or n in _TRACKING_PARAMS


def cited_url(url: str) -> str:
    """The URL as cited, minus what is provably noise: `utm_*` and click-ID parameters.

    Everything else (case, a trailing slash, `/pull/` rather than `/issues/`, the fragment, the
    order and encoding of other parameters) is kept byte for byte: the registry stores what the
    briefing cited, and `canonical_url` is only the key for duplicates, the cache and history.
    """
    url = url.strip()
    head, hash_, fragment = url.partition("#")
    base, q, query = head.partition("?")
    if not q:
        return url
    params = query.split("&")
    kept = [p for p in params if not (p and _tracking(p.split("=", 1)[0]))]
    if len(kept) == len(params):
        return url
    return base + ("?" + "&".join(kept) if any(kept) else "") + hash_ + fragment


