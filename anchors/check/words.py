"""Whether a briefing's words for an issue and the issue's title say it is another one
(`wrong-target`).

People write the same thing differently: an identifier is read in its parts (`ASGITransport`:
asgi, transport; `py3.10`: py, 3.10), and two words agree when they are forms of one word
(proxy and proxies, typing and type, reload and reloader, auth and authentication). Words that
only say what kind of change it was (fix, chore, minor, tweaks, release) name no issue.

Only a description with no word in common with a title long enough to judge is a wrong target:
a title of three words or fewer ("Transport API", "Treat warnings as errors") names a topic,
and a right description of what the change did often shares none of them; a one-word
description is too short to say anything. Both abstain rather than alarm. Measured on real PR
titles and how changelogs describe them (tests/data/issue_targets.yaml, figures in
tests/test_issue_targets.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import snowballstemmer  # type: ignore[import-untyped]

__all__ = ["MIN_SAID", "MIN_TITLE", "forms_of_one_word", "names_another"]

#: words that say nothing about which issue it is: stop words, GitHub's vocabulary, the kinds of
#: change (conventional-commit types, tracker tags) and of release
_STOP_WORDS = """
    a an the and or of for in on to with from by at as is are be was were it its this that these
    those not no via vs using use when after before into over under up down out
    bug bugs bugfix bugfixes issue issues pr pull request feature fix add support github error
    chore feat docs doc refactor ci build perf style rfc usage misc wip draft
    minor tweak tweaks small various cleanup improve improvement change update
    release prep bump changelog
"""
_STOP = frozenset(_STOP_WORDS.split())
#: (a run of digits is read from its first digit only, `(?<!\d)`: `findall` would read it
#: again from each digit; and a possessive `(…)++` keeps no state per repetition to go back to,
#: which made `1.1.1…` on one long line cost ~35 bytes of memory a character)
_TOKEN_RE = re.compile(r"[A-Za-z][A-Za-z0-9+_]*+(?:\.\d++)*+|(?<!\d)\d++(?:\.\d++)++")
#: an identifier's parts: `ASGITransport` -> ASGI, Transport; `raw_path` -> raw, path
_PART_RE = re.compile(r"(?<!\d)\d++(?:\.\d++)++|[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")
#: the Snowball (Porter 2) English stemmer: forms of one word share its stem
_STEMMER = snowballstemmer.stemmer("english")
#: a stem shorter than this says too little to make two words one
_STEM_MIN = 3
#: a word this long that begins another is its short form (auth, config); two words that share
#: this many first letters are one word in two forms the endings do not cover (encoding, encoder)
_SHORT_FORM = 4
_SAME_START = 5
#: fewest words a description and a title need before "no word in common" means another issue
MIN_SAID = 2
MIN_TITLE = 4


def _stem(word: str) -> str:
    return str(_STEMMER.stemWord(word))


_STOP_STEMS = frozenset(_stem(w) for w in _STOP)


def _words(text: str, ignore: Iterable[str]) -> list[set[str]]:
    """Each word of `text` that can say which issue it is, as its forms (an identifier and its
    parts), lower-cased; a word all of whose forms are stop words is left out."""
    skip = {word.lower() for word in ignore}
    out: list[set[str]] = []
    for token in _TOKEN_RE.findall(text):
        forms = set()
        for part in {token.strip("_"), *_PART_RE.findall(token)}:
            word = part.lower()
            # a version (3.10) is a word; a lone digit or letter is not
            if (
                len(word) > 1
                and not word.isdigit()
                and word not in skip
                and _stem(word) not in _STOP_STEMS
            ):
                forms.add(word)
        if forms:
            out.append(forms)
    return out


def forms_of_one_word(one: str, other: str) -> bool:
    """`typing` and `type`, `proxies` and `proxy`, `auth` and `authentication`; not `requires`
    and `request`."""
    if one == other:
        return True
    short, long = sorted((one, other), key=len)
    if len(short) >= _SHORT_FORM and long.startswith(short):
        return True
    if len(short) >= _SAME_START and one[:_SAME_START] == other[:_SAME_START]:
        return True
    stem = _stem(one)
    return len(stem) >= _STEM_MIN and stem == _stem(other)


def names_another(said: str, title: str, ignore: Iterable[str] = ()) -> bool:
    """True when the words `said` for an issue share no word with its `title` and both are long
    enough for that to mean something (see the module's docstring); `ignore` holds words every
    title of the repository may carry (its owner and name)."""
    ignore = tuple(ignore)
    mine, theirs = _words(said, ignore), _words(title, ignore)
    if len(mine) < MIN_SAID or len(theirs) < MIN_TITLE:
        return False
    return not any(
        forms_of_one_word(a, b) for a in set().union(*mine) for b in set().union(*theirs)
    )
