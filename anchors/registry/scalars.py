"""YAML scalars the registry writers produce: quoted so that YAML reads back exactly the text.

`add` and `fix` write values that came from briefings, the network and the cache (titles, cited
URLs, a 301's `Location`, a snapshot's date). Each is written double-quoted with escapes, or plain
only when no YAML reader could take it for anything else; `reads_back` is the last look before a
value from outside is spliced in.
"""

from __future__ import annotations

import yaml

__all__ = ["like", "quote", "reads_back", "url_value"]


def url_value(url: str) -> str:
    """A URL as a YAML value in a block entry, plain only when YAML cannot read it otherwise:
    printable ASCII starting with a letter, no indicator characters, and no `:` at the end
    (`https://example.com/a:` would start a mapping); quoted otherwise. (Inside a flow entry
    `{...}` a `?` or `:` also ends a plain value: quote there.)"""
    safe = (
        url[:1].isalpha()
        and all("!" <= c <= "~" for c in url)
        and not any(c in url for c in "#'\"{}[],&*!|>%@`")
        and not url.endswith(":")
    )
    return url if safe else quote(url)


def like(value: str, style: str | None, flow: bool = False) -> str:
    """`value` written as the scalar it replaces was (`style`: its span's, "" or None for
    plain): plain where that was plain and YAML reads it back as the same text (inside a flow
    entry `{...}` when `flow`), double-quoted otherwise. What `fix` writes for a `section:`."""
    if not style and value == value.strip() and all(map(_printable, value)):
        text = f"{{k: {value}}}\n" if flow else f"k: {value}\n"
        try:
            if yaml.load(text, Loader=yaml.CSafeLoader) == {"k": value}:
                return value
        except yaml.YAMLError:
            pass
    return quote(value)


def reads_back(name: str, value: str, flow: bool = False) -> bool:
    """Whether `name: value` reads back as one value (a scalar, or a mapping of scalars such
    as `archived`) on a line of its own, or inside a flow entry `{...}` when `flow`: text from
    the network or a cache must never add keys or entries to the registry."""
    for text in (f"{{{name}: {value}}}\n" if flow else f"{name}: {value}\n",):
        try:
            node = yaml.compose(text, Loader=yaml.CSafeLoader)
        except yaml.YAMLError:
            node = None
        pairs = node.value if isinstance(node, yaml.MappingNode) else []
        inner = pairs[0][1] if len(pairs) == 1 else None
        flat = isinstance(inner, yaml.ScalarNode) or (
            isinstance(inner, yaml.MappingNode)
            and all(
                isinstance(k, yaml.ScalarNode) and isinstance(v, yaml.ScalarNode)
                for k, v in inner.value
            )
        )
        if not flat:
            return False
    return True


_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\t": "\\t", "\r": "\\r"}


def quote(text: str) -> str:
    """A YAML double-quoted scalar that reads back as exactly `text`."""
    out = ['"']
    for ch in text:
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif _printable(ch):
            out.append(ch)
        else:
            cp = ord(ch)
            out.append(
                f"\\x{cp:02x}" if cp < 0x100 else f"\\u{cp:04x}" if cp < 0x10000 else f"\\U{cp:08x}"
            )
    out.append('"')
    return "".join(out)


def _printable(ch: str) -> bool:
    cp = ord(ch)
    if cp in (0x85, 0x2028, 0x2029, 0xFEFF):
        return False
    return (
        0x20 <= cp <= 0x7E
        or 0xA0 <= cp <= 0xD7FF
        or 0xE000 <= cp <= 0xFFFD
        or 0x10000 <= cp <= 0x10FFFF
    )
