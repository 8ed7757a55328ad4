"""The splice, as a property: for any registry in the documented shape and any briefing, `add`
writes a registry that loads, has no duplicate keys, keeps every untouched line byte for byte,
and holds exactly the merge computed on the loaded data."""

from __future__ import annotations

import json
import tempfile
from datetime import date, timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from anchors.extract import Briefing, Citation
from anchors.ids import ArxivId
from anchors.merging.merge import add, merge
from anchors.registry.loader import load, parse_text
from anchors.registry.model import Registry

from ..examples import examples

pytestmark = [pytest.mark.reliability(kind="data"), pytest.mark.timeout(120)]

TODAY = date(2026, 12, 2)
TITLES = [
    "KV Cache: Compression",
    "a # b",
    'He said "hi"',
    "中文标题 §1",
    "it's",
    "plain words",
    "- dash first",
    "[bracket]",
    "x: y, z",
]
SECTIONS = ["§1.3 KV Cache", "§2 Kernels", "§1.2: odd"]
DAYS = [date(2026, 9, 1) + timedelta(days=i) for i in range(28)]


def _scalar(s: str, style: str) -> str:
    plain_ok = s == s.strip() and not any(c in s for c in ":#'\"[]{},&*!|>%@`") and s[0] not in "-?"
    if style == "plain" and plain_ok:
        return s
    if style == "single":
        return "'" + s.replace("'", "''") + "'"
    return json.dumps(s, ensure_ascii=False)


empty_text = st.sampled_from(["", " ~", ' ""', " ''", " null"])  # `title:` etc. with no value


@st.composite
def text_field(draw: st.DrawFn, values: list[str]) -> str | None:
    """A title/section line value: absent (None), empty in some spelling, or a written value."""
    kind = draw(st.sampled_from(["absent", "empty", "value"]))
    if kind == "absent":
        return None
    if kind == "empty":
        return draw(empty_text)
    return " " + _scalar(
        draw(st.sampled_from(values)), draw(st.sampled_from(["plain", "double", "single"]))
    )


def _date(d: date, style: str) -> str:
    return {"plain": d.isoformat(), "double": f'"{d}"', "single": f"'{d}'"}[style]


@st.composite
def entry(draw: st.DrawFn, n: int, indent: int) -> str:
    comment = st.sampled_from(["", "", "  # note"])
    q = draw(st.sampled_from(["plain", "double", "single"]))
    first = draw(st.sampled_from(DAYS))
    cited = sorted(set(draw(st.lists(st.sampled_from(DAYS), max_size=3)) + [first]))
    fields = [
        ("arxiv", f'"2609.{10000 + n:05d}"'),
        ("title", draw(text_field(TITLES))),
        ("first_anchored", " " + _date(first, q)),
        ("status", " " + draw(st.sampled_from(["new", "continued"]))),
        ("section", draw(text_field(SECTIONS))),
    ]
    body = [(k, v if k != "arxiv" else " " + v) for k, v in fields if v is not None]
    cited_style = draw(st.sampled_from(["flow", "block", "block-flush", "absent"]))
    if draw(st.booleans()) and cited_style != "block" and cited_style != "block-flush":
        items = [f"{k}:{v or ' ~'}" for k, v in body]  # `{k:, ...}` is not YAML
        if cited_style == "flow":
            items.append(f"cited_in: [{', '.join(_date(d, q) for d in cited)}]")
        return " " * indent + "- {" + ", ".join(items) + "}" + draw(comment) + "\n"
    pad = " " * (indent + 2)
    lines = [f"{k}:{v}{draw(comment)}" for k, v in body]
    if cited_style == "flow":
        lines.append(f"cited_in: [{', '.join(_date(d, q) for d in cited)}]{draw(comment)}")
    elif cited_style.startswith("block"):
        dash = pad + ("  " if cited_style == "block" else "")
        lines.append("cited_in:" + "".join(f"\n{dash}- {_date(d, q)}" for d in cited))
    if draw(st.booleans()):
        lines.append("notes: |\n" + pad + "  Checked by hand.\n" + pad + "  Two lines.")
    return " " * indent + "- " + ("\n" + pad).join(lines) + "\n"


@st.composite
def registry(draw: st.DrawFn) -> bytes:
    indent = draw(st.sampled_from([0, 2, 4]))
    ids = draw(st.lists(st.integers(0, 30), unique=True, max_size=8))
    parts = [
        draw(st.sampled_from(["", "# team registry\n"])),
        "version: 1\n",
        "anchors:" + draw(st.sampled_from(["", "  # the list"])) + "\n",
    ]
    for n in ids:
        parts.append(draw(st.sampled_from(["", "\n", " " * indent + "# a comment\n"])))
        parts.append(draw(entry(n, indent)))
    text = "".join(parts)
    if draw(st.booleans()):
        text = text.replace("\n", "\r\n")
    return (b"\xef\xbb\xbf" if draw(st.booleans()) else b"") + text.encode("utf-8")


@st.composite
def briefing(draw: st.DrawFn) -> Briefing:
    when = draw(st.sampled_from(DAYS))
    cites = []
    for line, n in enumerate(draw(st.lists(st.integers(0, 40), max_size=8)), 1):
        key = ArxivId.parse(f"2609.{10000 + n:05d}")
        claimed = draw(st.one_of(st.none(), st.sampled_from([d for d in DAYS if d <= when])))
        cites.append(
            Citation(
                key,
                key.canonical,
                "b.md",
                line,
                primary=draw(st.booleans()),
                title=draw(st.one_of(st.none(), st.sampled_from(TITLES))),
                section=draw(st.one_of(st.none(), st.sampled_from(SECTIONS))),
                claimed_date=claimed,
            )
        )
    return Briefing("b.md", when, cites)


def _facts(reg: Registry) -> dict[str, tuple[object, ...]]:
    return {
        a.key.key: (
            a.first_anchored,
            a.status,
            sorted(set(a.cited_in)),
            a.title or None,
            a.section or None,
        )
        for a in reg.anchors
        if a.key is not None
    }


def _touched_lines(reg: Registry, result: object) -> set[int]:
    """Line numbers (1-based) the merge may rewrite: the changed fields of changed entries."""
    out: set[int] = set()
    for e in result.changes:  # type: ignore[attr-defined]
        a = e.existing
        if a is None:
            continue
        if a.flow:
            out.add(a.line)
            continue
        for name in e.changed_fields():
            sp = a.spans.get(name)
            if sp is not None:
                out.update(range(sp.line, reg.text.count("\n", 0, sp.end) + 2))
    return out


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=registry(), b=briefing())
@pytest.mark.slow
def test_add_splices_exactly_the_merge(data: bytes, b: Briefing) -> None:
    before = parse_text(data, "registry.yaml")
    assert before.problems == [], before.problems  # the generator writes the documented shape
    expected = merge(before, [b], TODAY)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "registry.yaml"
        path.write_bytes(data)
        result = add(path, [b], TODAY)
        out = path.read_bytes()
        again = add(path, [b], TODAY)
        assert path.read_bytes() == out and not again.written  # idempotent
    after = parse_text(out, "registry.yaml")
    assert after.problems == [], (out.decode("utf-8-sig"), after.problems)  # loads, no dup keys
    assert out.startswith(b"\xef\xbb\xbf") == data.startswith(b"\xef\xbb\xbf")
    new_text = after.text
    if "\r\n" in before.text:
        assert "\n" not in new_text.replace("\r\n", "")
    # every line the merge had no reason to touch is still there, byte for byte, in order
    touched = _touched_lines(before, result)
    old_lines = before.text.splitlines(True)
    kept = [ln for i, ln in enumerate(old_lines, 1) if i not in touched]
    it = iter(new_text.splitlines(True))
    missing = [
        ln
        for ln in kept
        if not any(ln == got or (ln == old_lines[-1] and got.startswith(ln)) for got in it)
    ]
    assert not missing, (missing, new_text)
    # and the file now holds the merge computed on the loaded data, nothing else
    facts, was = _facts(after), _facts(before)
    assert len(after.anchors) == len(before.anchors) + len(expected.added)
    for key, e in expected.entries.items():
        assert facts[key] == (
            e.first_anchored,
            e.status,
            sorted(set(e.cited_in)),
            e.title or None,
            e.section or None,
        ), key
    for key, fact in was.items():
        if key not in expected.entries:
            assert facts[key] == fact


def test_empty_title_and_null_section_are_filled_in_place(tmp_path: Path) -> None:
    reg = tmp_path / "registry.yaml"
    reg.write_text(
        'version: 1\nanchors:\n  - arxiv: "2609.30001"\n    title:\n'
        "    first_anchored: 2026-09-20\n    status: new\n    section: ~  # later\n"
        '    cited_in: ["2026-09-20"]\n',
        encoding="utf-8",
    )
    b = Briefing(
        "b.md",
        date(2026, 9, 26),
        [
            Citation(
                ArxivId.parse("2609.30001"), "2609.30001", "b.md", 1, True, "The Title", "§1.3 KV"
            )
        ],
    )
    add(reg, [b], TODAY)
    text = reg.read_text(encoding="utf-8")
    assert text.count("title:") == 1 and text.count("section:") == 1, text
    assert '    title: "The Title"\n' in text and '    section: "§1.3 KV"  # later\n' in text
    loaded = load(reg)
    assert loaded.problems == [] and loaded.anchors[0].title == "The Title"
