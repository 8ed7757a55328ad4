"""A registry and a check cache holding every kind of entry an export writes, with the
metadata the services give (bibliographic facts of real works), and the titles that are not
LaTeX-inert as they come from GitHub and blogs."""

from __future__ import annotations

from pathlib import Path

from anchors.net.cache import Cache

HOSTILE = "`--swap-space` <tips> ignored | fp8_e4m3 on @vllm-team"
SYMBOLS = "Serving at 4% & 60%: a #1 guide ~ with $x^2$ {braces} and a \\textbf{command}"
#: the DOI arXiv's record of 2309.06180 gives for its published version (SOSP '23)
PUBLISHED_AS = "10.1145/3600006.3613165"
SNAPSHOT = "https://web.archive.org/web/20260901080000/https://blog.example/a_b%20c?x=1&y=2#part"

REGISTRY = f"""version: 1
anchors:
  - url: https://doi.org/10.1038/s41586-021-03819-2
    first_anchored: 2026-09-20
    status: new
    section: "§1.1 框架格局"
    cited_in: ["2026-09-20"]
  - url: https://doi.org/10.1145/3600006.3613165
    first_anchored: 2026-09-20
    status: continued
    section: "§1.3 KV Cache"
    cited_in: ["2026-09-20", "2026-09-24"]
  - arxiv: "astro-ph/0601001"
    first_anchored: 2026-09-20
    status: new
    cited_in: ["2026-09-20"]
  - arxiv: "2309.06180v2"
    first_anchored: 2026-09-21
    status: new
    section: "§1.3 KV Cache"
    cited_in: ["2026-09-21"]
  - url: https://github.com/vllm-project/vllm/issues/8242
    first_anchored: 2026-09-22
    status: new
    section: "§1.4 推理可靠性与可观测性"
    cited_in: ["2026-09-22"]
  - url: "https://blog.example/2026/serving-guide_part-1"
    title: "{SYMBOLS.replace(chr(92), chr(92) * 2)}"
    first_anchored: 2026-09-23
    status: new
    cited_in: ["2026-09-23"]
    archived: {{url: "{SNAPSHOT}", date: "2026-09-01"}}
  - url: https://cloud.example/blog/products/compute/a-rather-long-path-without-any-slash-in-it-at-all-to-break
    first_anchored: 2026-09-24
    status: new
    cited_in: ["2026-09-24"]
"""

CACHE = {
    "doi:10.1038/s41586-021-03819-2": {
        "outcome": "ok",
        "title": "Highly accurate protein structure prediction with AlphaFold",
        "authors": ["John Jumper", "Richard Evans", "Łukasz Kaiser", "José García-López"],
        "published": "2021-07-15",
        "journal_ref": "Nature",
        "volume": "596",
        "issue": "7873",
        "page": "583-589",
        "work_type": "article-journal",
    },
    "doi:10.1145/3600006.3613165": {
        "outcome": "ok",
        "title": "Efficient Memory Management for Large Language Model Serving with PagedAttention",
        "authors": ["Woosuk Kwon", "Zhuohan Li", "Ion Stoica"],
        "published": "2023-10-23",
        "journal_ref": "Proceedings of the 29th Symposium on Operating Systems Principles",
        "page": "611-626",
        "work_type": "paper-conference",
    },
    "arxiv:astro-ph/0601001": {
        "outcome": "ok",
        "title": "The Optical Gravitational Lensing Experiment",
        "authors": ["A. Udalski"],
        "published": "2006-01-01",
        "journal_ref": "ActaAstron.56:1-50,2006",
        "version": 1,
    },
    "arxiv:2309.06180": {
        "outcome": "ok",
        "title": "Efficient Memory Management for Large Language Model Serving with PagedAttention",
        "authors": ["Woosuk Kwon", "Zhuohan Li"],
        "published": "2023-09-12",
        "version": 2,
        "doi": PUBLISHED_AS,  # arXiv's record names the published version (<arxiv:doi>)
    },
    "github:vllm-project/vllm#8242": {"outcome": "ok", "title": HOSTILE, "state": "open"},
}


def library(folder: Path) -> Path:
    """The registry, with its cache where `export` looks (`.anchors/` beside it)."""
    reg = folder / "registry.yaml"
    reg.write_text(REGISTRY, encoding="utf-8")
    cache = Cache(folder / ".anchors" / "cache.json")
    for key, data in CACHE.items():
        cache.put(key, data)
    (folder / ".anchors").mkdir(exist_ok=True)
    cache.save()
    return reg
