"""atheris fuzz target for the readers of each service's answers: GitHub's issue, repository,
comment and contents JSON; doi.org's CSL-JSON and Crossref's record; arXiv's Atom feed (the
`arxiv` package's parser and anchors' reading of its results); the Wayback Machine's
availability JSON; Save Page Now's job and status JSON. Each answer is a Resolution (or the
client's documented refusal: a wrong `--github-api`, the archive unavailable); its facts can be
recorded (the history and cache write UTF-8 JSON) and judged against an entry.

The answer cap is lowered to 1 MiB here (16 MiB in a run: `MAX_ANSWER_BYTES`: the same code
with a smaller number), and one input in sixteen is repeated to just under or just past it.

    pip install '.[fuzz]' && python fuzz/fuzz_services.py -max_total_time=2400 -max_len=1048576
"""

from __future__ import annotations

import io
import json
import sys
from datetime import date

# aiohttp's parser is not anchors' code: loaded before the instrumented imports
import aiohttp.http_parser  # noqa: F401
import atheris
import httpx
import requests
import urllib3

with atheris.instrument_imports():
    from netfakes import POLICY, Streamed, run, sendable, service_client, survives_a_write

    from anchors.archive.savepagenow import SavePageNow, SaveRefused
    from anchors.archive.wayback import WaybackClient, WaybackError
    from anchors.check import truth
    from anchors.errors import UsageError
    from anchors.findings import Outcome
    from anchors.history.facts import ArxivFacts
    from anchors.ids import parse_anchor
    from anchors.ids.model import AnchorKey, ArxivId
    from anchors.net.fragments import github_target
    from anchors.registry.model import Anchor
    from anchors.resolve.arxiv import ArxivResolver
    from anchors.resolve.base import Mismatch, Resolution
    from anchors.resolve.crossref import CrossrefUpdates
    from anchors.resolve.doi import DoiResolver
    from anchors.resolve.github import GithubResolver
    from anchors.resolve.github_places import GithubPlaces

CAP = 1 << 20
STATUSES = [200, 200, 200, 301, 302, 304, 403, 404, 410, 429, 500]
TYPES = [b"application/json", b"application/vnd.citationstyles.csl+json", b"text/html", b""]
#: how an answer may begin, before the fuzzed bytes: each service's shape
STARTS = [
    b"",
    b'{"html_url": "https://github.com/acme/engine/issues/5", "title": "T", "state": "',
    b'{"full_name": "acme/engine", "archived": ',
    b'{"issue_url": "https://api.github.com/repos/acme/engine/issues/',
    b'{"type": "file", "encoding": "base64", "content": "',
    b'{"title": ["T"], "issued": {"date-parts": [[',
    b'{"message": {"updated-by": [{"type": "retraction", "DOI": "',
    b'{"message": {"relation": {"has-preprint": [{"id-type": "',
    b'{"archived_snapshots": {"closest": {"status": "200", "available": true, "url": "',
    b'{"status": "success", "timestamp": "',
    b'{"job_id": "',
    b"<feed xmlns='http://www.w3.org/2005/Atom'><entry><id>http://arxiv.org/abs/",
]
ISSUE = "https://github.com/acme/engine/issues/5"
REPO = "https://github.com/acme/engine"
DOI = "10.1234/abc"
PAGE = "http://site.example/page"


def _key(text: str) -> AnchorKey:
    key = parse_anchor(text)
    assert key is not None
    return key


KEYS = {k: _key(k) for k in (ISSUE, REPO, DOI)}
ARXIV = ArxivId.parse("2309.06180")
TARGETS = [
    github_target(f"{ISSUE}#issuecomment-7"),
    github_target("https://github.com/acme/engine/blob/main/run.py#L2-L3"),
]


def _routes(answers: dict[str, tuple[int, bytes, bytes]]) -> httpx.MockTransport:
    """Each host its answer (status, Content-Type, body); a Wayback snapshot is there."""

    def answer(request: httpx.Request) -> httpx.Response:
        sendable(request)
        if request.url.path.startswith("/web/"):
            return httpx.Response(200, stream=Streamed(b""), request=request)
        status, kind, body = answers[request.url.host]
        location = {"Location": "http://crossref.example/v1/works/10.1234/abc/transform"}
        headers = {"Content-Type": kind.decode("latin-1"), **(location if status < 400 else {})}
        return httpx.Response(status, headers=headers, stream=Streamed(body), request=request)

    return httpx.MockTransport(answer)


def _judged(got: dict[str, Resolution]) -> None:
    """Each resolution's facts recorded and judged against an entry citing it."""
    for key, r in got.items():
        assert isinstance(r.outcome, Outcome)
        survives_a_write(r.facts)
        Resolution.from_cache(KEYS.get(key, ARXIV).kind, json.loads(json.dumps(r.to_cache())))
        if r.facts is not None:
            a = Anchor(1, "url", key, KEYS.get(key, ARXIV), title="A Paper", notes="closed")
            truth.findings("r.yaml", a, r.facts, truth.claims_of(a))


async def _http(service: int, answers: dict[str, tuple[int, bytes, bytes]]) -> None:
    """The client of `service` (0 GitHub, 1 doi.org, 2 Crossref, 3 the archive) asks."""
    async with service_client(_routes(answers), CAP) as client:
        if service == 0:
            github = GithubResolver(client, "http://api.example", policy=POLICY)
            try:
                _judged(await github.resolve([KEYS[ISSUE], KEYS[REPO]]))  # type: ignore[list-item]
                await GithubPlaces(github.api).check(t for t in TARGETS if t is not None)
            except UsageError:  # not what the GitHub API answers: `--github-api` is wrong
                pass
        elif service in (1, 2):
            crossref = CrossrefUpdates(client, "http://crossref.example", policy=POLICY)
            doi = DoiResolver(client, "http://doi.example", policy=POLICY, crossref=crossref)
            _judged(await doi.resolve([KEYS[DOI]]))  # type: ignore[list-item]
        else:
            await _archive(client)


async def _archive(client: httpx.AsyncClient) -> None:
    wayback = WaybackClient(client, "http://api.example/wayback", interval=0, policy=POLICY)
    try:
        await wayback.closest(PAGE, date(2026, 9, 24))
    except WaybackError:
        pass
    save = SavePageNow(client, "http://api.example/save", keys=("a", "b"), interval=0)
    try:
        await save.submit(PAGE)
    except SaveRefused:
        pass
    await save.status("spn2-abc")


class _Feed(requests.adapters.BaseAdapter):
    """arXiv's API for the `arxiv` package's session: every request answered `body`."""

    def __init__(self, status: int, body: bytes) -> None:
        super().__init__()
        self.status, self.body = status, body

    def send(self, request: requests.PreparedRequest, **kwargs: object) -> requests.Response:
        raw = urllib3.HTTPResponse(
            body=io.BytesIO(self.body),
            headers={"Content-Type": "application/atom+xml"},
            status=self.status,
            preload_content=False,
            decode_content=False,
        )
        return requests.adapters.HTTPAdapter().build_response(request, raw)

    def close(self) -> None:
        return None


def _arxiv(status: int, body: bytes) -> None:
    resolver = ArxivResolver("http://arxiv.example/api/query", delay=0, policy=POLICY, timeout=5)
    session = resolver.client._session
    session.max_bytes = CAP
    session.mount("http://", _Feed(status, body))
    try:
        _judged(resolver._resolve_all({ARXIV.canonical: ARXIV.key}))
        facts = ArxivFacts(title="Another Paper", version=2)
        resolver._follow_all({ARXIV.key: Mismatch(ARXIV, "A Paper", facts)})
    except UsageError:  # a 404 from the query endpoint: `--arxiv-api` is wrong
        pass


def one_input(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    size = fdp.PickValueInList([0] * 30 + [CAP - 1, CAP + 1])
    service = fdp.ConsumeIntInRange(0, 4)
    status = fdp.PickValueInList(STATUSES)
    kind = fdp.PickValueInList(TYPES)
    other = fdp.ConsumeBytes(fdp.ConsumeIntInRange(0, 4096))
    body = fdp.PickValueInList(STARTS) + fdp.ConsumeBytes(fdp.remaining_bytes())
    body = (body * (size // max(len(body), 1) + 1))[:size] if size and body else body
    if service == 4:
        _arxiv(status, body)
        return
    # the service's host answers the fuzzed body; doi.org (when Crossref is fuzzed) another
    hosts = ["api.example", "doi.example", "crossref.example", "api.example"]
    answers = {h: (302, b"application/json", other) for h in hosts}
    answers[hosts[service]] = (status, kind, body)
    run(_http(service, answers))


if __name__ == "__main__":
    atheris.Setup(sys.argv, one_input)
    atheris.Fuzz()
