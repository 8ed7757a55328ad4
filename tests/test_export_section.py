"""`export --section` by number or by name, and a section nothing is in is exit 2, listing the
registry's sections (it used to export 0 anchors, exit 0, for `1.3`, `§1`, `KV Cache` and
`§1.3 KV` when the entries said `§1.3 KV Cache`)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from anchors.cli.app import app

SECTIONS = (
    "§1.3 KV Cache",
    "§1.3 KV Cache",
    "§1.1 框架格局",
    "§1.30 Other",
    "§10 Later",
    "§2.1 Tooling",
    "Notes from the field",
)


def _registry(tmp_path: Path) -> Path:
    reg = tmp_path / "registry.yaml"
    reg.write_text(
        "version: 1\nanchors:\n"
        + "".join(
            f"  - url: https://example.org/{i}\n    first_anchored: 2026-09-20\n"
            f'    status: {"continued" if i == 1 else "new"}\n    section: "{s}"\n'
            for i, s in enumerate(SECTIONS)
        ),
        encoding="utf-8",
    )
    return reg


def _export(reg: Path, *args: str) -> Any:
    return CliRunner().invoke(app, ["export", "-r", str(reg), *args])


def _picked(r: Any) -> list[str]:
    return re.findall(r"<https://example\.org/(\d)>", r.stdout)


@pytest.mark.parametrize(
    ("wanted", "picked"),
    [
        ("§1.3 KV Cache", ["0", "1"]),
        ("1.3", ["0", "1"]),  # a number without its `§`
        ("§1.3", ["0", "1"]),  # not §1.30
        ("KV Cache", ["0", "1"]),  # a name, whatever its number
        ("kv cache", ["0", "1"]),
        ("§1.3 KV", ["0", "1"]),  # a number and the first words of its name
        ("KV", ["0", "1"]),
        ("框架格局", ["2"]),
        ("§1", ["2", "0", "1", "3"]),  # the chapter and its subsections, in document order
        ("1", ["2", "0", "1", "3"]),
        ("§2", ["5"]),
        ("Notes", ["6"]),
    ],
)
def test_a_section_by_number_or_name(tmp_path: Path, wanted: str, picked: list[str]) -> None:
    r = _export(_registry(tmp_path), "--section", wanted)
    assert r.exit_code == 0, r.output
    assert _picked(r) == picked
    assert f"exported {len(picked)} anchor" in r.stderr


def test_a_chapter_is_exported_under_its_sections_headings(tmp_path: Path) -> None:
    r = _export(_registry(tmp_path), "--section", "§1")
    assert re.findall(r"^### (.+)$", r.stdout, re.MULTILINE) == [
        "§1.1 框架格局",
        "§1.3 KV Cache",
        "§1.30 Other",
    ]
    one = _export(_registry(tmp_path), "--section", "1.3")
    assert "###" not in one.stdout  # one section: ready to paste under its heading


@pytest.mark.parametrize(
    ("wanted", "hint"),
    [
        ("§1.3 Speculative", None),
        ("§3", None),
        ("KV Cahce", "§1.3 KV Cache"),
        ("§1.3 KV Caches", "§1.3 KV Cache"),
        ("Tooling notes", "§2.1 Tooling"),
    ],
)
def test_a_section_nothing_is_in_is_exit_2_listing_the_sections(
    tmp_path: Path, wanted: str, hint: str | None
) -> None:
    reg = _registry(tmp_path)
    r = _export(reg, "--section", wanted, "-o", str(tmp_path / "out.md"))
    assert r.exit_code == 2 and r.stdout == "", r.output
    [line] = r.stderr.splitlines()
    assert line.startswith(f"anchors: error: --section {wanted!r}: no entry of {reg}")
    assert (
        "its sections: §1.1 框架格局, §1.3 KV Cache, §1.30 Other, §2.1 Tooling, §10 Later, "
        "Notes from the field" in line
    )
    assert (f"did you mean {hint!r}?" in line) if hint else ("did you mean" not in line)
    assert not (tmp_path / "out.md").exists()


def test_a_registry_without_sections_says_so(tmp_path: Path) -> None:
    reg = tmp_path / "registry.yaml"
    reg.write_text(
        "version: 1\nanchors:\n  - url: https://example.org/0\n    first_anchored: 2026-09-20\n"
        "    status: new\n",
        encoding="utf-8",
    )
    r = _export(reg, "--section", "§1.3")
    assert r.exit_code == 2 and "has a section" in r.stderr


def test_a_section_with_nothing_left_after_the_other_filters_is_an_empty_export(
    tmp_path: Path,
) -> None:
    """The section exists; `--status continued` leaves none of §2.1: that is an answer, exit 0."""
    r = _export(_registry(tmp_path), "--section", "§2.1", "--status", "continued")
    assert r.exit_code == 0 and "exported 0 anchors" in r.stderr
