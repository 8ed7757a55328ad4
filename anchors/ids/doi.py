"""DOIs (`10.NNNN/suffix`), and arXiv's own DataCite DOIs, which name an arXiv paper."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar, Literal

from .arxiv import ArxivId
from .kinds import AnchorKind, InvalidId

__all__ = ["Doi"]

_ARXIV_DOI_RE = re.compile(r"^10\.48550/arxiv\.(.+)$", re.IGNORECASE)
# A registrant code may be subdivided (`10.1000.10/123456`, the DOI Handbook's own example).
_DOI_RE = re.compile(r"^10\.[0-9]{4,9}(?:\.[0-9]++)*+/\S+$")
_DOI_URL_ESCAPES = {c: f"%{ord(c):02X}" for c in '%"# ?<>{}^[]`|\\+'}


@dataclass(frozen=True, slots=True)
class Doi:
    """A DOI; DOIs are case-insensitive, so the key is lower-cased."""

    kind: ClassVar[Literal[AnchorKind.DOI]] = AnchorKind.DOI
    id_field: ClassVar[str] = "doi"

    doi: str

    @property
    def key(self) -> str:
        return f"{self.kind.value}:{self.doi.lower()}"

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
        match = _ARXIV_DOI_RE.match(raw)
        if match:  # arXiv's own DataCite DOIs name an arXiv paper
            return ArxivId.parse(match[1])
        if not _DOI_RE.fullmatch(raw):
            raise InvalidId(text, "not a DOI (10.NNNN/suffix)")
        return cls(raw)
