"""What `wrong-target` takes for another issue: pairs a briefing writer would call right stay
quiet, pairs with a wrong number are still caught (anchors/check/words.py).

Each rule has a pair that raised a false alarm before it and a pair it still (or now) catches,
run through the check's own finding; the descriptions are ours, in the shapes changelogs and
briefings use (tests/data/issue_targets.yaml measures the rules on real pairs).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from anchors.check.issues import target_findings
from anchors.extract.claims import Claims
from anchors.findings import Code
from anchors.history.facts import IssueFacts
from anchors.ids import parse_anchor
from anchors.registry.model import Anchor

from .claimfakes import Issue, cli, fake_services

URL = "https://github.com/example-org/webkit-client/pull/412"


def wrong_target(said: str, title: str) -> bool:
    a = Anchor(line=1, id_field="url", raw_id=URL)
    a.key = parse_anchor(URL)
    got = target_findings("r.yaml", a, IssueFacts(title=title, is_pull=True), Claims(title=said))
    assert {f.code for f in got} <= {Code.WRONG_TARGET}
    return bool(got)


@pytest.mark.parametrize(
    "said, title, wrong",
    [
        # a title of three words or fewer names a topic; what the change did may share none
        ("Python 3.13 added to the tested versions", "Treat warnings as errors", False),
        ("Dropped the unix socket option from Client", "Pool interface rework", False),
        ("Python 3.13 added to the tested versions", "Cache compiled route patterns per app", True),
        # a one-word description says too little to contradict anything
        ("Documentation", "Rewrite the quickstart guide for async clients", False),
        ("Documentation typos", "Rewrite the quickstart guide for async clients", True),
    ],
)
def test_too_short_to_judge_abstains(said: str, title: str, wrong: bool) -> None:
    assert wrong_target(said, title) is wrong


@pytest.mark.parametrize(
    "said, title, wrong",
    [
        # forms of one word: typing and type, proxies and proxy
        ("Replace typing imports everywhere", "Tighten type annotations in modules", False),
        ("Proxies read from the environment", "Honour the proxy environment variables", False),
        # words that begin alike but are two words are no match: config is not conflict
        ("Config read from the home folder", "Conflict markers rejected in lock files", True),
    ],
)
def test_forms_of_one_word(said: str, title: str, wrong: bool) -> None:
    assert wrong_target(said, title) is wrong


@pytest.mark.parametrize(
    "said, title, wrong",
    [
        # a kind of change (chore, minor, bump, release) names no issue: sharing it is no match
        ("Minor cleanup of proxy settings", "Minor speedup parsing large cookie headers", True),
        ("chore: pin the lint tools in the dev extras", "chore: speed up cookie jar lookups", True),
        # ... and a title made of little else is too short to judge
        ("Minimum Python version is now 3.10", "chore: prep release v2.10.0", False),
        ("Crash on incompatible dependency changes", "pyproject: constrain urllib3", False),
    ],
)
def test_kinds_of_change_name_no_issue(said: str, title: str, wrong: bool) -> None:
    assert wrong_target(said, title) is wrong


def test_word_forms() -> None:
    from anchors.check.words import forms_of_one_word

    assert forms_of_one_word("typing", "type") and forms_of_one_word("proxies", "proxy")
    assert forms_of_one_word("auth", "authentication") and forms_of_one_word("reload", "reloader")
    assert forms_of_one_word("queries", "query") and forms_of_one_word("encoding", "encoder")
    assert not forms_of_one_word("requires", "request")
    assert forms_of_one_word("proc", "process")  # a short form
    assert not forms_of_one_word("config", "conflict")


# -- `- Fix X ([#N](url))`: a line that cites its PR by number says what it is ----------------

PR = "https://github.com/example-org/webkit-client/pull/{}"


def test_a_line_citing_by_number_is_compared_through_add_and_check(tmp_path: Path) -> None:
    b = tmp_path / "changes.md"
    b.write_text(
        "# Changes (2026-09-24)\n\n"
        f"- Fix the connection pool leak on timeouts ([#412]({PR.format(412)}))\n"
        f"- Connection pool no longer leaks sockets ([#413]({PR.format(413)}))\n",
        encoding="utf-8",
    )
    reg = tmp_path / "registry.yaml"
    assert cli("add", str(b), "-r", str(reg))[0] == 0
    issues = {
        "example-org/webkit-client#412": Issue("Render cookie tables in the docs theme", pull=True),
        "example-org/webkit-client#413": Issue("Close pooled sockets after a timeout", pull=True),
    }
    with fake_services(issues, {}) as srv:
        code, out, err = cli(
            "check", str(reg), "--github-api", srv.url(""), "--no-cache", "-f", "json"
        )
    assert code in (0, 1), out + err
    wrong = [f for f in json.loads(out)["findings"] if f["code"] == "wrong-target"]
    assert [(f["anchor"].rsplit("/", 1)[1], f["claimed"]) for f in wrong] == [
        ("412", "Fix the connection pool leak on timeouts")
    ]


@pytest.mark.parametrize(
    "line, said",
    [
        ("- Fix the pool leak ([#412]({u}))", "Fix the pool leak"),
        ("* `ASGITransport` app type. [PR #412](<{u}>)", "ASGITransport app type"),
        # a line naming another PR or issue describes neither
        ("- Fix the pool leak ([#412]({u}), [#415](" + PR.format(415) + "))", None),
        ("- Fix the pool leak ([#412]({u})), a regression from #399", None),
        # not a list item, or a link whose text is more than the number
        ("Fix the pool leak ([#412]({u}))", None),
        ("- Fix the pool leak ([see #412]({u}))", None),
    ],
)
def test_what_a_line_citing_by_number_says(line: str, said: str | None) -> None:
    from anchors.extract.claims import described

    url = PR.format(412)
    assert described(line.format(u=url), url, 412) == said
