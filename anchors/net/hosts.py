"""What a link check run knows about each host: its slots, its pauses, its failures.

Kept apart from the checker so the rules about a host read in one place:
- at most `per_host` requests to a host at once (a semaphore held only while a request runs);
- a host that answers the first requests of three URLs in a row with `Retry-After` is limiting
  us, not one URL: every URL of it waits out the pause (`not_before`), not only the one that
  was told. (A retry told to wait again says nothing new: it is the same URL's limit, so it
  neither counts nor breaks the run);
- a host that failed at the network level three times in a row gets no more retries (one try
  per URL), so a dead host costs one request per URL, not `attempts`.
Waits use the retry policy's sleep and clock, so tests run them in virtual time. (Which checks
are resting, and so free their host's turn, is the scheduler's: anchors.net.batch.)
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from .retry import RetryPolicy

__all__ = ["HOST_FAILURE_LIMIT", "HOST_PAUSE_AFTER", "Host", "Hosts"]

#: after this many network failures in a row, a host gets one try per URL and no retries
HOST_FAILURE_LIMIT = 3
#: after this many URLs in a row are first answered with Retry-After, the pause applies to every
#: URL of the host
HOST_PAUSE_AFTER = 3


@dataclass(slots=True)
class Host:
    sem: asyncio.Semaphore
    #: no request to this host before this instant (the policy's clock)
    not_before: float = 0.0
    failures: int = 0  # network failures in a row
    limited: int = 0  # URLs in a row whose first answer carried Retry-After


class Hosts:
    def __init__(self, per_host: int, policy: RetryPolicy) -> None:
        self.per_host = per_host
        self.policy = policy
        self._hosts: dict[str, Host] = {}

    def get(self, name: str) -> Host:
        host = self._hosts.get(name)
        if host is None:
            host = self._hosts[name] = Host(asyncio.Semaphore(self.per_host))
        return host

    def pause_left(self, host: Host) -> float:
        """Seconds left of a pause the host asked of all its URLs (0: none is running)."""
        return host.not_before - self.policy.clock() if host.not_before else 0.0

    def failing(self, name: str) -> bool:
        """The host failed at the network level too often in a row to be worth a retry."""
        host = self._hosts.get(name)
        return host is not None and host.failures >= HOST_FAILURE_LIMIT

    def note(
        self,
        host: Host,
        *,
        responded: bool,
        failed: bool,
        retry_after: float | None,
        retry: bool = False,
    ) -> None:
        """What one request to `host` said about it (`retry`: a URL's second or later try)."""
        if responded:
            host.failures = 0
        elif failed:
            host.failures += 1
        if retry_after is None:
            host.limited = 0
        elif not retry:
            host.limited += 1
        if (
            host.limited >= HOST_PAUSE_AFTER
            and retry_after is not None
            and retry_after <= self.policy.retry_after_cap
        ):
            # the host keeps asking for pauses: it limits us, not one URL, so hold all its URLs
            host.not_before = max(host.not_before, self.policy.clock() + retry_after)
