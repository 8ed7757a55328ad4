"""`same-work`: an arXiv preprint and its published DOI both registered, linked by the answers
already fetched (arXiv's DOI through the CLI, Crossref's `has-preprint` through the resolver),
and `export` keeping both keys, each entry naming the other."""

from __future__ import annotations

import asyncio
import json
from datetime import date
from pathlib import Path
from urllib.parse import unquote

import httpx
from typer.testing import CliRunner

from anchors.check.run import Services, check_online
from anchors.cli.app import app
from anchors.export import select
from anchors.net.cache import Cache
from anchors.registry.loader import load
from anchors.resolve.crossref import CrossrefUpdates
from anchors.resolve.doi import DoiResolver

from .claimfakes import Paper, fake_services
from .loopback import LoopbackServer, Request, respond

LORA = "2106.09685"
PUBLISHED = "10.1145/3600006.3613165"
CSL = {
    "type": "paper-conference",
    "DOI": PUBLISHED,
    "title": "LoRA: Low-Rank Adaptation of Large Language Models",
    "container-title": "Proceedings of a Conference",
    "author": [{"given": "Edward", "family": "Hu"}],
    "issued": {"date-parts": [[2023, 10]]},
}


def _entry(field: str, value: str) -> str:
    return (
        f'  - {field}: "{value}"\n    first_anchored: 2026-09-24\n'
        '    status: new\n    cited_in: ["2026-09-24"]\n'
    )


def _registry(tmp_path: Path) -> Path:
    reg = tmp_path / "registry.yaml"
    reg.write_text(
        "version: 1\nanchors:\n"
        + _entry("arxiv", LORA)
        + _entry("arxiv", "2309.06180")
        + _entry("doi", PUBLISHED),
        encoding="utf-8",
    )
    return reg


def _run(*args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(app, list(args))
    return r.exit_code, r.stdout, r.stderr


def test_a_preprint_and_its_published_version_are_one_work(tmp_path: Path) -> None:
    reg = _registry(tmp_path)
    papers = {
        LORA: Paper(
            "LoRA: Low-Rank Adaptation of Large Language Models", "2021-06-17", doi=PUBLISHED
        ),
        "2309.06180": Paper("Efficient Memory Management for LLM Serving", "2023-09-12"),
    }
    with fake_services({}, papers, {PUBLISHED: CSL}) as srv:
        code, out, err = _run(
            "check",
            str(reg),
            "--allow-private",
            "--arxiv-api",
            srv.url("/api/query"),
            "--arxiv-delay",
            "0",
            "--doi-api",
            srv.url(""),
            "-f",
            "json",
            "--today",
            "2026-12-02",
        )
    assert code == 0, out + err
    found = [f for f in json.loads(out)["findings"] if f["code"] == "same-work"]
    assert len(found) == 1
    [f] = found
    assert (f["anchor"], f["line"], f["severity"]) == (LORA, 3, "info")
    assert (f["other"], f["other_line"], f["said_by"]) == (PUBLISHED, 11, "arXiv")
    assert f"one work with {PUBLISHED} (line 11)" in f["message"]

    # export keeps both keys, each entry naming the other
    code, bib, err = _run("export", str(reg), "-f", "bibtex", "--bib-style", "biblatex")
    assert code == 0, err
    entries = bib.split("\n@")
    [pub] = [e for e in entries if e.startswith("inproceedings{doi-")]
    assert 'eprint = "2106.09685"' in pub and 'eprinttype = "arxiv"' in pub
    [pre] = [e for e in entries if "arxiv.org/abs/2106.09685" in e]
    assert f'doi = "{PUBLISHED}"' in pre and 'eprint = "2106.09685"' in pre
    code, classic, _ = _run("export", str(reg), "-f", "bibtex")
    [pub_classic] = [e for e in classic.split("\n@") if "doi.org/10.1145" in e]
    assert "arXiv:2106.09685" in pub_classic  # its note names the preprint
    code, csl, _ = _run("export", str(reg), "-f", "csl-json")
    items = {i["custom"]["anchor"]: i for i in json.loads(csl)}
    assert items[f"arxiv:{LORA}"]["DOI"] == PUBLISHED


def test_crossref_naming_the_preprint_is_enough(tmp_path: Path) -> None:
    """arXiv gives no DOI here; the DOI's Crossref record names the preprint (`has-preprint`,
    by its arXiv DOI): one work all the same, from answers the check fetches anyway."""
    record = {
        "status": "ok",
        "message": {
            "DOI": PUBLISHED,
            "relation": {
                "has-preprint": [
                    {"id-type": "doi", "id": f"10.48550/arXiv.{LORA}", "asserted-by": "subject"}
                ]
            },
        },
    }

    def answer(request: httpx.Request) -> httpx.Response:
        if request.url.host == "doi.org":
            to = f"https://api.crossref.org/v1/works/{PUBLISHED}/transform"
            return httpx.Response(302, headers={"location": to})
        if request.url.path.endswith("/transform"):
            return httpx.Response(200, json=CSL)
        return httpx.Response(200, json=record)

    reg, cache = _registry(tmp_path), Cache(tmp_path / "cache.json")

    async def go():
        async with httpx.AsyncClient(transport=httpx.MockTransport(answer)) as c:
            doi = DoiResolver(c, crossref=CrossrefUpdates(c))
            services = Services(arxiv=_Arxiv(), doi=doi)
            return await check_online(load(reg), date(2026, 12, 2), services, cache=cache)

    found = [f for f in asyncio.run(go()).findings if f.code.value == "same-work"]
    assert [(f.anchor, f.details["other"], f.details["said_by"]) for f in found] == [
        (LORA, PUBLISHED, "Crossref")
    ]
    items = {it.anchor: it for it in select(reg, tmp_path / "cache.json")}
    assert items[LORA].doi == PUBLISHED and items[PUBLISHED].eprint == LORA
    assert items["2309.06180"].doi is None


def _doi_and_crossref(record: dict) -> LoopbackServer:
    """doi.org on loopback sending the DOI to Crossref's transform (as the real one does for a
    Crossref DOI), and Crossref's REST API under `/crossref` answering `record` for it."""

    async def handler(req: Request, w: asyncio.StreamWriter) -> bool:
        path = unquote(req.path)
        json_type = {"Content-Type": "application/json"}
        if path == f"/{PUBLISHED}":
            to = f"/crossref/v1/works/{PUBLISHED}/transform"
            return await respond(w, 302, b"", {"Location": to}, req=req)
        if path == f"/crossref/v1/works/{PUBLISHED}/transform":
            return await respond(w, 200, json.dumps(CSL).encode(), json_type, req=req)
        if path == f"/crossref/works/{PUBLISHED}":
            return await respond(w, 200, json.dumps(record).encode(), json_type, req=req)
        return await respond(w, 404, b'{"message": "Not Found"}', json_type, req=req)

    return LoopbackServer(lambda req: handler)


def test_crossref_naming_the_preprint_through_the_cli(tmp_path: Path) -> None:
    """arXiv gives no DOI; the work's Crossref record, read because doi.org sent the DOI to
    Crossref, names the preprint by its arXiv DOI: `same-work`, said by Crossref."""
    record = {
        "status": "ok",
        "message": {
            "DOI": PUBLISHED,
            "relation": {
                "is-preprint-of": [],
                "has-preprint": [{"id-type": "doi", "id": f"10.48550/arXiv.{LORA}"}],
            },
        },
    }
    reg = _registry(tmp_path)
    papers = {
        LORA: Paper("LoRA: Low-Rank Adaptation of Large Language Models", "2021-06-17"),
        "2309.06180": Paper("Efficient Memory Management for LLM Serving", "2023-09-12"),
    }
    with fake_services({}, papers) as arxiv, _doi_and_crossref(record) as doi:
        code, out, err = _run(
            "check",
            str(reg),
            "--allow-private",
            "--arxiv-api",
            arxiv.url("/api/query"),
            "--arxiv-delay",
            "0",
            "--doi-api",
            doi.url(""),
            "--crossref-api",
            doi.url("/crossref"),
            "-f",
            "json",
            "--today",
            "2026-12-02",
        )
        asked = dict(doi.counts)
    assert code == 0, out + err
    assert asked.get(f"/crossref/works/{PUBLISHED}") == 1
    [f] = [f for f in json.loads(out)["findings"] if f["code"] == "same-work"]
    assert (f["anchor"], f["line"], f["other"], f["said_by"]) == (LORA, 3, PUBLISHED, "Crossref")


class _Arxiv:
    """Every paper there, none with a DOI."""

    async def resolve(self, keys):  # type: ignore[no-untyped-def]
        from anchors.findings import Outcome
        from anchors.history.facts import ArxivFacts
        from anchors.resolve.base import Resolution

        return {k.key: Resolution(Outcome.OK, ArxivFacts(title="T", version=1)) for k in keys}

    async def follow_up(self, wanted):  # type: ignore[no-untyped-def]
        return {}
