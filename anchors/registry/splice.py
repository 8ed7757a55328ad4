"""Splicing changes into the registry's text: every byte outside an edit is the original's.

Splicing instead of re-dumping keeps comments, key order, quoting, CRLF line endings and a BOM
exactly as a person wrote them, and costs one pass over the text (`store` writes the result).
"""

from __future__ import annotations

from datetime import date
from typing import NamedTuple

from ..errors import RegistryError
from .claims import Claims, claim_yaml
from .model import Anchor, Entry, Registry, Span
from .scalars import quote, reads_back, url_value

__all__ = ["HEADER", "Edit", "render", "set_fields", "splice"]

DQ = '"'
#: what a new registry starts with
HEADER = (
    "# anchors registry: every cited arXiv ID and URL, when it was first anchored, and where.\n"
    "# Edit by hand or with `anchors add BRIEFING`; check with `anchors check`.\n"
    "# Format: docs/registry.md (schema: anchors/schema/registry.schema.json)\n"
)


class Edit(NamedTuple):
    start: int
    end: int
    text: str


def render(reg: Registry, changes: list[Entry]) -> str:
    """The registry text with `changes` applied; every other byte is the original's."""
    edits: list[Edit] = []
    for e in changes:
        if e.existing is not None:
            edits.extend(_field_edits(reg, e))
    new = [e for e in changes if e.existing is None]
    if new:
        edits.extend(_append(reg, new))
    return splice(reg, edits)


def splice(reg: Registry, edits: list[Edit]) -> str:
    """The registry text with `edits` applied; every byte outside them is the original's."""
    text, nl = reg.text, reg.newline
    out, cur = [], 0
    for ed in sorted(edits, key=lambda ed: ed.start):
        if ed.start < cur:
            raise RegistryError(reg.path, "overlapping edits (please report this)")
        out.append(text[cur : ed.start])
        out.append(ed.text.replace("\n", nl))
        cur = ed.end
    out.append(text[cur:])
    return "".join(out)


def _line_end(text: str, pos: int) -> int:
    """Offset just past the line holding `pos` (block scalars end at the next line's start)."""
    if pos > 0 and text[pos - 1] == "\n":
        return pos
    nl = text.find("\n", pos)
    return len(text) if nl < 0 else nl + 1


def _insert_at_line_end(text: str, pos: int, lines: str) -> Edit:
    at = _line_end(text, pos)
    lead = "" if at == 0 or text[at - 1] == "\n" else "\n"
    return Edit(at, at, lead + lines)


def _field_edits(reg: Registry, e: Entry) -> list[Edit]:
    anchor = e.existing
    assert anchor is not None
    text, pad = reg.text, " " * anchor.key_column
    changed = e.changed_fields()
    edits: list[Edit] = []
    missing: list[str] = []
    for name, value in (
        ("status", e.status.value),
        ("first_anchored", e.first_anchored.isoformat()),
    ):
        if name not in changed:
            continue
        sp = anchor.spans.get(name)
        if sp is None:
            missing.append(f"{pad}{name}: {value}\n")
        else:
            edits.append(_value_edit(text, sp, _scalar_like(value, sp)))
    if "cited_in" in changed:
        sp = anchor.spans.get("cited_in")
        if sp is None:
            missing.append(f"{pad}cited_in: {_flow_dates(e.cited_in, DQ)}\n")
        elif sp.style == "block" and sp.items:
            edits.extend(
                _block_items(text, sp, [d for d in e.cited_in if d not in anchor.cited_in])
            )
        else:
            style = sp.items[0][2] if sp.items else DQ
            edits.append(Edit(sp.start, sp.end, _flow_dates(e.cited_in, style)))
    for name in ("title", "section"):
        if name not in changed:
            continue
        sp = anchor.spans.get(name)
        if sp is None:
            missing.append(f"{pad}{name}: {quote(getattr(e, name))}\n")
        else:  # `title:`, `title: ~` or `title: ""`: fill the value where it is
            edits.append(_value_edit(text, sp, quote(getattr(e, name))))
        if name == "title" and e.title_inferred:
            missing.append(f"{pad}title_from: heading\n")
    if "claims" in changed:
        edits += _claim_edits(reg, anchor, e.claims, missing)
    return edits + _add_lines(reg, anchor, missing)


def _claim_edits(
    reg: Registry, anchor: Anchor, new: list[Claims], missing: list[str]
) -> list[Edit]:
    """New claim records after the entry's last one (or a new `claims:` list): additive, so
    every record a person kept or wrote stays byte for byte."""
    records = [claim_yaml(c, quote) for c in new]
    sp = anchor.spans.get("claims")
    if sp is None:
        missing.append(_claims_lines(records, anchor.key_column, anchor.flow))
        return []
    if sp.style == "block" and sp.items:
        start, end, _ = sp.items[-1]
        line_start = reg.text.rfind("\n", 0, start) + 1
        prefix = reg.text[line_start:start]  # e.g. "      - "
        return [_insert_at_line_end(reg.text, end, "".join(f"{prefix}{r}\n" for r in records))]
    if sp.style == "flow" and sp.items:  # `claims: [{...}]`: inside the brackets
        end = sp.items[-1][1]
        return [Edit(end, end, "".join(", " + r for r in records))]
    # `claims:`, `claims: ~` or `claims: []`: the list takes the value's place
    return [_value_edit(reg.text, sp, "[" + ", ".join(records) + "]")]


def _claims_lines(records: list[str], column: int, flow: bool) -> str:
    if flow:
        return "claims: [" + ", ".join(records) + "]\n"
    pad = " " * column
    return f"{pad}claims:\n" + "".join(f"{pad}  - {r}\n" for r in records)


def _add_lines(reg: Registry, anchor: Anchor, missing: list[str]) -> list[Edit]:
    """Insert `name: value` lines after the entry's last line (inside the braces of a flow one)."""
    if missing and anchor.flow:  # inside the braces: `{..., title: "x"}`
        end = anchor.spans["_end"].end - 1
        return [Edit(end, end, "".join(", " + m.strip() for m in missing))]
    if missing:
        return [_insert_at_line_end(reg.text, anchor.spans["_end"].end, "".join(missing))]
    return []


def set_fields(reg: Registry, anchor: Anchor, values: dict[str, str]) -> list[Edit]:
    """Edits giving entry `anchor` these fields (each value already YAML text, e.g. from `quote`).

    A scalar field already written is replaced in place; the others are added after the
    entry's last line. Splice the result with `splice`, as `render` does for `add`.
    """
    edits, missing, pad = [], [], " " * anchor.key_column
    for name, value in values.items():
        if not reads_back(name, value, anchor.flow):
            raise RegistryError(
                reg.path,
                f"refusing to write {name}: {value!r}: it would not read back",
                anchor.line,
            )
        sp = anchor.spans.get(name)
        if sp is None:
            missing.append(f"{pad}{name}: {value}\n")
        else:
            edits.append(_value_edit(reg.text, sp, value))
    return edits + _add_lines(reg, anchor, missing)


def _value_edit(text: str, sp: Span, value: str) -> Edit:
    """Replace a value in place; an empty one (`key:` at the end of its line) gets its space."""
    if sp.start == sp.end:
        i = sp.start
        while i > 0 and text[i - 1] in " \t":
            i -= 1
        lead = ": " if i == 0 or text[i - 1] != ":" else "" if i < sp.start else " "
        return Edit(sp.start, sp.end, lead + value)
    return Edit(sp.start, sp.end, value)


def _scalar_like(value: str, sp: Span) -> str:
    if sp.style == '"':
        return f'"{value}"'
    if sp.style == "'":
        return f"'{value}'"
    return value


def _flow_dates(dates: list[date], style: str | None) -> str:
    mark = style if style in ('"', "'") else ""
    return "[" + ", ".join(f"{mark}{d.isoformat()}{mark}" for d in dates) + "]"


def _block_items(text: str, sp: Span, dates: list[date]) -> list[Edit]:
    assert sp.items
    start, end, style = sp.items[-1]
    line_start = text.rfind("\n", 0, start) + 1
    prefix = text[line_start:start]  # e.g. "      - "
    mark = style if style in ('"', "'") else ""
    lines = "".join(f"{prefix}{mark}{d.isoformat()}{mark}\n" for d in dates)
    return [_insert_at_line_end(text, end, lines)]


def _entry_lines(e: Entry, indent: int) -> str:
    item, pad = " " * indent + "- ", " " * (indent + 2)
    fields: list[tuple[str, str]] = [(e.id_field, _id_value(e))]
    if e.version is not None:
        fields.append(("version", str(e.version)))
    if e.title:
        fields.append(("title", quote(e.title)))
        if e.title_inferred:
            fields.append(("title_from", "heading"))
    fields += [("first_anchored", e.first_anchored.isoformat()), ("status", e.status.value)]
    if e.section:
        fields.append(("section", quote(e.section)))
    fields.append(("cited_in", _flow_dates(e.cited_in, DQ)))
    lines = "".join(f"{item if i == 0 else pad}{k}: {v}\n" for i, (k, v) in enumerate(fields))
    if e.claims:
        lines += _claims_lines([claim_yaml(c, quote) for c in e.claims], indent + 2, False)
    return lines


def _id_value(e: Entry) -> str:
    if e.id_field == "url":
        return url_value(e.raw_id)  # as cited (`merge.cited_id`), not the canonical key
    canonical = getattr(e.key, "canonical", None) or str(e.key)
    return quote(canonical)


def _append(reg: Registry, new: list[Entry]) -> list[Edit]:
    text, seq = reg.text, reg.seq
    body = "".join(_entry_lines(e, reg.item_indent) for e in new)
    if seq is None:  # a new file, or one holding only comments
        head = "" if text else HEADER
        return [_insert_at_line_end(text, len(text), f"{head}version: 1\nanchors:\n{body}")]
    if seq.style == "block" and reg.anchors:
        return [_insert_at_line_end(text, reg.anchors[-1].spans["_end"].end, body)]
    if seq.style == "flow" and reg.anchors:
        raise RegistryError(
            reg.path,
            "the anchors list is written in flow style [...]; "
            "write it as a block list so entries can be added",
            seq.line,
        )
    # `anchors:`, `anchors: ~` or `anchors: []`: drop the empty value, start a block list
    return [Edit(seq.start, seq.end, ""), _insert_at_line_end(text, seq.end, body)]
