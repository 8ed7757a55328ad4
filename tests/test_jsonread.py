"""The one reader of untrusted JSON: too deep is a ValueError, never a RecursionError."""

from __future__ import annotations

import pytest

from anchors.jsonread import MAX_DEPTH, JSONError, loads


@pytest.mark.parametrize(
    "text",
    ["[" * 100_000, "[" * 5_000 + "]" * 5_000, '{"a":' * 2_000 + "1" + "}" * 2_000],
    ids=["unclosed", "closed", "objects"],
)
def test_json_nested_past_the_bound_is_refused_as_unreadable(text: str) -> None:
    with pytest.raises(ValueError, match="nested deeper"):
        loads(text)
    with pytest.raises(JSONError):
        loads(text.encode())


def test_json_at_the_bound_reads_and_brackets_in_strings_do_not_count() -> None:
    assert loads("[" * MAX_DEPTH + "]" * MAX_DEPTH) is not None
    assert loads(b'{"t": "' + b"[" * 10_000 + b'"}') == {"t": "[" * 10_000}
    assert loads('["\\"[[[["]') == ['"[[[[']


@pytest.mark.parametrize("data", [b"\xff\xfe", b'{"a": ', b""])
def test_bytes_that_are_not_utf8_json_are_one_error(data: bytes) -> None:
    with pytest.raises(JSONError):
        loads(data)


def test_an_integer_too_long_for_int_is_unreadable_json() -> None:
    """json.loads raises a plain ValueError past 4,300 digits, not JSONDecodeError."""
    with pytest.raises(JSONError):
        loads("[" + "1" * 5_000 + "]")


def test_a_lone_surrogate_escape_is_read_as_a_replacement_character() -> None:
    """`\\ud800` alone is JSON but no character: kept, the first UTF-8 write of it crashed (the
    history, the cache). A pair is one character, as ever."""
    got = loads(b'{"t": "Eng\\ud800ine", "\\udc00": ["\\ud83d\\ude00", "\\uDBFF"]}')
    assert got == {"t": "Eng\ufffdine", "\ufffd": ["\U0001f600", "\ufffd"]}
    assert loads('"\\ud800"') == "\ufffd"
