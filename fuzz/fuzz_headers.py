"""atheris fuzz target for response headers: any status line's headers a server gets through
aiohttp's parser, read by the link checker (Location, Retry-After, Content-Type and its
charset, Content-Encoding, a bot challenge's marks) and by every service client through the
bounded client (rebuilt from the header bytes; Location, Retry-After, GitHub's rate-limit
headers and ETag). Any answer is a verdict or an httpx error the callers handle; nothing else
may escape, and no verdict may be a crash. (No reader parses a `Link` header today.)

    pip install '.[fuzz]' && python fuzz/fuzz_headers.py -max_total_time=2400 -max_len=1048576
"""

from __future__ import annotations

import gzip
import sys
from datetime import date

# aiohttp's parser is not anchors' code: loaded before the instrumented imports
import aiohttp.http_parser  # noqa: F401
import atheris
import httpx

with atheris.instrument_imports():
    from netfakes import POLICY, answers, run, service_client, survives_a_write, wire_headers

    from anchors.archive.savepagenow import SavePageNow, SaveRefused
    from anchors.archive.wayback import WaybackClient, WaybackError
    from anchors.check.cited import Cited, CitedPlaces
    from anchors.errors import UsageError
    from anchors.findings import Outcome
    from anchors.ids import parse_anchor
    from anchors.ids.model import Doi, GithubRef
    from anchors.net.bounded import AnswerTooLarge
    from anchors.net.links import LinkChecker
    from anchors.net.netguard import NetGuard, StaticResolver
    from anchors.net.retry import parse_retry_after
    from anchors.registry.model import Anchor
    from anchors.resolve.doi import DoiResolver
    from anchors.resolve.github import GithubResolver

STATUSES = [200, 204, 301, 302, 303, 304, 307, 308, 401, 403, 404, 410, 429, 500, 503, 999]
PAGE = "http://site.example/page"
GUARD = NetGuard(StaticResolver({}))
ISSUE = parse_anchor("https://github.com/acme/engine/issues/5")
DOI = parse_anchor("doi:10.1234/abc")
assert isinstance(ISSUE, GithubRef) and isinstance(DOI, Doi)


async def _link(transport: httpx.MockTransport) -> None:
    """The link checker's GET of a page cited with a fragment, and its HEAD of another."""
    checker = LinkChecker(transport, GUARD, policy=POLICY, max_redirects=3, timeout=5)
    places = CitedPlaces(html={PAGE: [Cited(PAGE, "intro", Anchor(1))]})
    reader = places.reader(PAGE)
    assert reader is not None
    checker.readers = {PAGE: reader}
    read = await checker.check(PAGE)
    plain = await checker.check("http://site.example/other")
    for r in (read, plain):
        assert isinstance(r.outcome, Outcome)
        assert r.final_url is None or r.final_url.startswith(("http://", "https://")), r
    if read.page is not None:
        assert set(read.page.verdicts()) == {"intro"}  # type: ignore[attr-defined]


async def _services(transport: httpx.MockTransport) -> None:
    """GitHub, a DOI (and Crossref), the Wayback Machine and Save Page Now, through the
    bounded client, each answered the same."""
    async with service_client(transport, 1 << 20) as client:
        try:
            got = await GithubResolver(client, "http://api.example", policy=POLICY).resolve([ISSUE])
            survives_a_write(got[ISSUE.key].facts)
        except UsageError:  # not what the GitHub API answers: `--github-api` is wrong
            pass
        doi = DoiResolver(client, "http://doi.example", policy=POLICY)
        survives_a_write((await doi.resolve([DOI]))[DOI.key].facts)
        wayback = WaybackClient(
            client, "http://wayback.example/available", interval=0, policy=POLICY
        )
        try:
            await wayback.closest(PAGE, date(2026, 9, 24))
        except WaybackError:
            pass
        save = SavePageNow(client, "http://save.example", keys=("a", "b"), interval=0)
        try:
            await save.submit(PAGE)
            await save.status("spn2-abc")
        except SaveRefused:
            pass
        try:
            resp = await client.get("http://api.example/x")
            parse_retry_after(resp.headers.get("retry-after"))
        except (httpx.HTTPError, AnswerTooLarge):
            pass


#: header names anchors reads, and some it does not (a fuzzed name is tried too)
NAMES = [
    b"Location",
    b"Content-Type",
    b"Content-Encoding",
    b"Retry-After",
    b"ETag",
    b"cf-mitigated",
    b"x-ratelimit-remaining",
    b"x-ratelimit-reset",
    b"x-ratelimit-resource",
    b"Content-Length",
    b"Transfer-Encoding",
    b"Set-Cookie",
    b"Link",
    b"X-Note",
]
#: how a value may begin, before the fuzzed bytes
STARTS = [
    b"",
    b"text/html; charset=",
    b"application/json",
    b"gzip",
    b"deflate",
    b"http://",
    b"/",
    b"//",
    b'W/"',
    b"0",
    b"Mon, 01 Jan 2001 00:00:00 GMT",
    b"challenge",
]
#: how a body may look (`{}`-shaped answers reach the services' JSON readers)
BODIES = [b"", b"<html><body><h2 id='intro'>x</h2>", b'{"title": "t", "state": "open"}']


def _head(fdp: atheris.FuzzedDataProvider) -> bytes:
    lines = []
    for _ in range(fdp.ConsumeIntInRange(0, 12)):
        if fdp.ConsumeBool():
            name = fdp.PickValueInList(NAMES)
        else:
            name = fdp.ConsumeBytes(fdp.ConsumeIntInRange(1, 24))
        value = fdp.PickValueInList(STARTS) + fdp.ConsumeBytes(fdp.ConsumeIntInRange(0, 20_000))
        lines.append(name + b": " + value)
    return b"\r\n".join(lines)


def one_input(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    status = fdp.PickValueInList(STATUSES)
    raw = wire_headers(status, _head(fdp))
    if raw is None:
        return
    body = fdp.PickValueInList(BODIES) + fdp.ConsumeBytes(fdp.remaining_bytes())
    if any(k.lower() == b"content-encoding" and b"gzip" in v for k, v in raw):
        body = gzip.compress(body, 1)
    transport = answers(status, raw, body)
    run(_link(transport))
    run(_services(transport))


if __name__ == "__main__":
    atheris.Setup(sys.argv, one_input)
    atheris.Fuzz()
