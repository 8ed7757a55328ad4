"""What the link checker says of one URL (`LinkResult`) and counts of what it sent (`Stats`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..findings import Outcome
from .answers import PageReader, Silence

__all__ = ["LinkResult", "Stats"]


@dataclass(frozen=True, slots=True)
class LinkResult:
    url: str
    outcome: Outcome
    status: int | None = None
    #: where a permanent redirect leads (REDIRECT), or the last URL reached
    final_url: str | None = None
    error: str | None = None
    elapsed_ms: int = 0
    requests: int = 0
    #: the failure was the network's silence, not an answer (see anchors.check.recorder)
    silence: Silence | None = None
    #: tries made (each may be several requests: HEAD then GET, redirect hops)
    tries: int = 0
    #: the last answer asked for a wait longer than the retry policy's cap: not waited for
    over_cap: bool = False
    #: what read the final page's body, for a URL given a reader (`check_many(readers=)`)
    page: PageReader | None = None


@dataclass(slots=True)
class Stats:
    """What was sent: the in-flight bound the tests check, and evidence of a network outage."""

    requests: int = 0
    in_flight: int = 0
    max_in_flight: int = 0
    responses: int = 0
    evidence_hosts: set[str] = field(default_factory=set)
