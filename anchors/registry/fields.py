"""Reading one field of a registry entry from its YAML node, and where a node sits in the text.

Each reader takes the entry and the field's value node, sets the entry's attribute, or raises
`FieldError` with what is wrong; the walker turns that into a schema finding for the field.
The identifier fields (`arxiv`, `url`, `doi`) are the walker's, since they decide the key.
"""

from __future__ import annotations

from datetime import date

import yaml

from ..figures.model import Attribution
from ..numbers import whole
from .claims import CLAIM_FIELDS, Claims, StateClaim, Venue
from .model import _Y, Anchor, Span, Status

__all__ = ["READERS", "FieldError", "content_end", "span"]


class FieldError(ValueError):
    """A field whose value is not one the registry can hold."""


def _scalar(node: yaml.Node) -> str:
    if not isinstance(node, yaml.ScalarNode):
        raise FieldError("must be a single value")
    return str(node.value)


def _text(node: yaml.Node) -> str | None:
    if isinstance(node, yaml.ScalarNode) and node.tag == _Y + "null":
        return None
    return _scalar(node)


def _date(node: yaml.Node) -> date:
    text = _scalar(node)
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise FieldError(f"'{text}' is not a date (YYYY-MM-DD)") from None


def _read_title(anchor: Anchor, node: yaml.Node) -> None:
    anchor.title = _text(node)


def _read_title_from(anchor: Anchor, node: yaml.Node) -> None:
    text = _scalar(node)
    if text != "heading":
        raise FieldError(f"'{text}' is not a title source (heading)")
    anchor.title_inferred = True


def _read_section(anchor: Anchor, node: yaml.Node) -> None:
    anchor.section = _text(node)


def _read_notes(anchor: Anchor, node: yaml.Node) -> None:
    anchor.notes = _text(node)


def _read_first(anchor: Anchor, node: yaml.Node) -> None:
    anchor.first_anchored = _date(node)


def _read_status(anchor: Anchor, node: yaml.Node) -> None:
    text = _scalar(node)
    try:
        anchor.status = Status(text)
    except ValueError:
        raise FieldError(f"'{text}' is not a status (new or continued)") from None


def _read_cited(anchor: Anchor, node: yaml.Node) -> None:
    if not isinstance(node, yaml.SequenceNode):
        raise FieldError("must be a list of dates")
    anchor.cited_in = [_date(i) for i in node.value]


def _read_check(anchor: Anchor, node: yaml.Node) -> None:
    text = _scalar(node)
    if text != "skip":
        raise FieldError(f"'{text}' is not a check policy (skip)")
    anchor.skip = True


def _read_accept(anchor: Anchor, node: yaml.Node) -> None:
    if not isinstance(node, yaml.SequenceNode):
        raise FieldError("must be a list of HTTP status codes")
    codes = [whole(_scalar(i), 3) for i in node.value]
    statuses = [c for c in codes if c is not None and 100 <= c <= 599]
    if len(statuses) != len(codes):
        raise FieldError("must be a list of HTTP status codes (100-599)")
    anchor.accept = frozenset(statuses)


def _read_version(anchor: Anchor, node: yaml.Node) -> None:
    text = _scalar(node)
    number = whole(text)
    if number is None or number < 1:
        raise FieldError(f"'{text}' is not a version number (1, 2, ...)")
    anchor.version = number


def _read_cited_url(anchor: Anchor, node: yaml.Node) -> None:
    text = _scalar(node)
    if not text.startswith(("http://", "https://")):
        raise FieldError(f"'{text}' is not an http(s) URL")
    anchor.cited_url = text


def _read_archived(anchor: Anchor, node: yaml.Node) -> None:
    if not isinstance(node, yaml.MappingNode):
        raise FieldError("must be a mapping {url: ..., date: YYYY-MM-DD}")
    got = {k.value: val for k, val in node.value if isinstance(k, yaml.ScalarNode)}
    if set(got) != {"url", "date"}:
        raise FieldError("must have exactly url and date")
    url, when = _scalar(got["url"]), _date(got["date"])
    if not url.startswith(("http://", "https://")):
        raise FieldError(f"url '{url}' is not an http(s) URL")
    anchor.archived = {"url": url, "date": when.isoformat()}


def _read_claims(anchor: Anchor, node: yaml.Node) -> None:
    if not isinstance(node, yaml.SequenceNode):
        raise FieldError("must be a list of {said_on: YYYY-MM-DD, ...} records")
    anchor.claims = [_claim(item) for item in node.value]


def _claim(node: yaml.Node) -> Claims:
    """One record of what a briefing claimed (`registry.claims`)."""
    if not isinstance(node, yaml.MappingNode):
        raise FieldError("each claim must be a mapping {said_on: YYYY-MM-DD, ...}")
    got = {k.value: val for k, val in node.value if isinstance(k, yaml.ScalarNode)}
    unknown = sorted(set(got) - set(CLAIM_FIELDS))
    if unknown:
        raise FieldError(f"unknown claim field '{unknown[0]}' (expected {', '.join(CLAIM_FIELDS)})")
    if "said_on" not in got:
        raise FieldError("a claim needs said_on (the briefing's date)")
    state = _text(got["state"]) if "state" in got else None
    try:
        claimed = StateClaim(state) if state else None
    except ValueError:
        raise FieldError(
            f"'{state}' is not a claimed state (open, closed, merged, fixed)"
        ) from None
    version = _text(got["version"]) if "version" in got else None
    number = whole(version) if version is not None else None
    if version is not None and (number is None or number < 1):
        raise FieldError(f"'{version}' is not a version number (1, 2, ...)")
    path, line = _place(_text(got["at"]) if "at" in got else None)
    venue = _text(got["venue"]) if "venue" in got else None
    figure, quote, by = _attributed(got)
    return Claims(
        title=_text(got["title"]) if "title" in got else None,
        state=claimed,
        state_text=_text(got["words"]) if "words" in got else None,
        date=_date(got["submitted"]) if "submitted" in got else None,
        venue=Venue.parse(venue) if venue else None,
        version=number,
        path=path,
        line=line,
        said_on=_date(got["said_on"]),
        figure=figure,
        quote=quote,
        by=by,
    )


def _attributed(got: dict[str, yaml.Node]) -> tuple[str | None, str | None, Attribution | None]:
    """A figure or quote record's `figure`/`quote` and `by` (`line` or `block`)."""
    figure = _text(got["figure"]) if "figure" in got else None
    quote = _text(got["quote"]) if "quote" in got else None
    if figure is not None and quote is not None:
        raise FieldError("a claim records a figure or a quote, not both")
    by_text = _text(got["by"]) if "by" in got else None
    if (figure is not None or quote is not None) != (by_text is not None):
        raise FieldError("a figure or quote claim needs by (line or block), and by needs one")
    try:
        by = Attribution(by_text) if by_text is not None else None
    except ValueError:
        raise FieldError(f"'{by_text}' is not how a claim is attributed (line, block)") from None
    return figure, quote, by


def _place(at: str | None) -> tuple[str, int | None]:
    """`briefings/e1.md:30` as (file, line); a file alone has no line."""
    if not at:
        return "", None
    head, sep, tail = at.rpartition(":")
    line = whole(tail) if sep else None
    return (head, line) if line is not None else (at, None)


READERS = {
    "claims": _read_claims,
    "cited_url": _read_cited_url,
    "archived": _read_archived,
    "title": _read_title,
    "title_from": _read_title_from,
    "section": _read_section,
    "notes": _read_notes,
    "first_anchored": _read_first,
    "status": _read_status,
    "cited_in": _read_cited,
    "check": _read_check,
    "accept": _read_accept,
    "version": _read_version,
}


def content_end(node: yaml.Node) -> int:
    """End offset of the last value inside a node (block collections end at the next token)."""
    while isinstance(node, (yaml.MappingNode, yaml.SequenceNode)) and not node.flow_style:
        if not node.value:
            break
        last = node.value[-1]
        node = last[1] if isinstance(node, yaml.MappingNode) else last
    return int(node.end_mark.index)


def span(node: yaml.Node, style: str | None = None, end: int | None = None) -> Span:
    return Span(
        node.start_mark.index,
        node.end_mark.index if end is None else end,
        node.start_mark.line + 1,
        style or getattr(node, "style", None),
    )
