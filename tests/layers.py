"""The package's layers, lowest first: the one table tests/test_layers.py enforces and
docs/architecture.md is generated from (scripts/gen_docs.py), so the two never differ.

A module belongs to the entry that names it or the package above it most closely; each imports
only from its own layer or a lower one.
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["LAYER_TABLE", "Layer"]


class Layer(NamedTuple):
    name: str
    modules: tuple[str, ...]
    #: what the layer holds and why it stands where it does, for docs/architecture.md
    holds: str


LAYER_TABLE = [
    Layer(
        "core",
        (
            "anchors",
            "anchors.errors",
            "anchors.defaults",
            "anchors.findings",
            "anchors.details",
            "anchors.result",
            "anchors.jsonread",
            "anchors.numbers",
            "anchors.unicodenorm",
            "anchors.catalogue",
            "anchors.files",
            "anchors.config",
            "anchors.options",
            "anchors.titles",
            "anchors.sections",
        ),
        "what every layer shares: the exit-2 exception families, findings, their details and "
        "exit codes, a check's result, named defaults, the bounded readers of untrusted text "
        "(JSON, integers, Unicode), what each code means, the file system under the trust "
        "rules, settings and each command's options built from them, and the rules for titles "
        "and sections",
    ),
    Layer("identifiers", ("anchors.ids",), "one module per kind of key; which URL names which ID"),
    Layer(
        "net",
        ("anchors.net",),
        "HTTP and nothing of citations: everything that asks the network stands on it",
    ),
    Layer(
        "figures",
        ("anchors.figures",),
        "figures and quotes against a source's passages: pure text, read by extraction and the "
        "check",
    ),
    Layer("registry", ("anchors.registry",), "the registry file: model, loader, splice writer"),
    Layer("extraction", ("anchors.extract",), "briefing text to citations, claims and figures"),
    Layer("merge", ("anchors.merging",), "`anchors add`: briefings merged into the registry"),
    Layer("document", ("anchors.document",), "the living document and the registry against it"),
    Layer(
        "history",
        ("anchors.history",),
        "what a run observed and what it means later: the SQLite history, the facts, and the "
        "rules the check and the report share (issue news, same work, the after-check hook)",
    ),
    Layer(
        "resolve",
        ("anchors.resolve",),
        "the services (arXiv, GitHub, DOI, Crossref) and the sources figures are read in",
    ),
    Layer("check", ("anchors.check",), "`anchors check`: answers against the registry, findings"),
    Layer(
        "archive",
        ("anchors.archive",),
        "the check's after-check hook: it builds on the check's contract, never the reverse",
    ),
    Layer(
        "report",
        ("anchors.report", "anchors.export", "anchors.fix"),
        "what the history and the cache say: the weekly report, bibliographies, fixes",
    ),
    Layer("commands", ("anchors.commands",), "the library's commands: what the CLI calls"),
    Layer("render", ("anchors.render",), "every output format, and the one way out"),
    Layer(
        "cli",
        ("anchors.cli", "anchors.__main__"),
        "typer commands: parse, call the library, render, exit code; `python -m anchors`",
    ),
]
