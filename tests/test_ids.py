from __future__ import annotations

from datetime import date

import pytest

from anchors.ids import (
    ArxivId,
    Doi,
    GithubRef,
    InvalidId,
    WebUrl,
    canonical_url,
    is_future,
    parse_anchor,
)


@pytest.mark.parametrize(
    ("text", "canonical", "version"),
    [
        ("2609.18063", "2609.18063", None),
        ("2609.18063v2", "2609.18063", 2),
        ("arXiv:2609.18063", "2609.18063", None),
        ("arxiv:2609.18063v12", "2609.18063", 12),
        ("https://arxiv.org/abs/2609.18063", "2609.18063", None),
        ("https://arxiv.org/abs/2609.18063v3", "2609.18063", 3),
        ("http://www.arxiv.org/pdf/2609.18063", "2609.18063", None),
        ("https://arxiv.org/pdf/2609.18063v1.pdf", "2609.18063", 1),
        ("https://arxiv.org/html/2609.18063v1", "2609.18063", 1),
        ("https://export.arxiv.org/abs/2609.18063", "2609.18063", None),
        ("https://arxiv.org/abs/2609.18063?context=cs.LG#section", "2609.18063", None),
        ("https://www.alphaxiv.org/overview/2609.18063v2", "2609.18063", 2),
        ("https://huggingface.co/papers/2609.18063", "2609.18063", None),
        ("10.48550/arXiv.2609.18063", "2609.18063", None),
        ("https://doi.org/10.48550/arXiv.2609.18063", "2609.18063", None),
        ("hep-th/9901001", "hep-th/9901001", None),
        ("math.GT/0309136", "math/0309136", None),
        ("arXiv:math.CA/0611800v2", "math/0611800", 2),
        ("https://arxiv.org/abs/hep-th/9901001v1", "hep-th/9901001", 1),
        ("0704.0001", "0704.0001", None),
        ("1412.9999", "1412.9999", None),
        ("1501.00001", "1501.00001", None),
    ],
)
def test_every_arxiv_form_canonicalises(text: str, canonical: str, version: int | None) -> None:
    key = parse_anchor(text)
    assert isinstance(key, ArxivId)
    assert key.canonical == canonical
    assert key.version == version


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("0703.1234", "start in 0704"),
        ("0612.12345", "start in 0704"),
        ("1412.12345", "4 digits"),
        ("1501.0001", "5 digits"),
        ("1706.3762", "5 digits"),
        ("0808.05394", "4 digits"),
        ("2613.00001", "month 13"),
        ("2600.00001", "month 00"),
        ("2609.00000", "sequence number 0"),
        ("2609.18063v0", "v0"),
        ("foo-bar/9901001", "not an arXiv archive"),
        ("hep-th/0801001", "run from 91 to 07"),
        ("hep-th/0704001", "end in 0703"),
        ("hep-th/9107001", "archive hep-th took papers from 9108"),
        ("hep-th.GT/9901001", "not a subject class"),
        ("math.gt/0309136", "not a subject class"),
        ("stat/0601001", "not an arXiv archive"),
        ("astro-ph/0601", "not an arXiv identifier"),
        ("12345", "not an arXiv identifier"),
    ],
)
def test_invalid_ids_say_why(text: str, reason: str) -> None:
    with pytest.raises(InvalidId) as exc:
        ArxivId.parse(text)
    assert reason in exc.value.reason


def test_future_is_relative_to_today() -> None:
    key = ArxivId.parse("2612.00001")
    assert not is_future(key, date(2026, 12, 1))
    assert is_future(key, date(2026, 11, 30))
    assert not is_future(ArxivId.parse("hep-th/9901001"), date(2026, 1, 1))


def test_old_style_year_mapping() -> None:
    assert ArxivId.parse("hep-th/9108001").year == 1991
    assert ArxivId.parse("astro-ph/0601001").year == 2006


@pytest.mark.parametrize(
    ("url", "key"),
    [
        ("https://github.com/vllm-project/vllm/issues/8242", "github:vllm-project/vllm#8242"),
        ("https://github.com/vllm-project/vllm/pull/8242", "github:vllm-project/vllm#8242"),
        (
            "https://GitHub.com/VLLM-Project/vLLM/issues/8242#issuecomment-1",
            "github:vllm-project/vllm#8242",
        ),
        ("vllm-project/vllm#8242", "github:vllm-project/vllm#8242"),
        ("https://doi.org/10.1145/3600006.3613165", "doi:10.1145/3600006.3613165"),
        ("10.1145/3600006.3613165", "doi:10.1145/3600006.3613165"),
    ],
)
def test_github_and_doi_keys(url: str, key: str) -> None:
    assert parse_anchor(url).key == key


def test_issue_and_pull_are_one_anchor() -> None:
    a = parse_anchor("https://github.com/o/r/issues/5")
    b = parse_anchor("https://github.com/o/r/pull/5")
    assert isinstance(a, GithubRef) and a == b


@pytest.mark.parametrize(
    ("raw", "canonical"),
    [
        ("HTTPS://Example.COM:443/a/b/?utm_source=x&q=1#frag", "https://example.com/a/b?q=1"),
        ("http://example.com:80", "http://example.com/"),
        ("https://example.com/", "https://example.com/"),
        ("https://example.com:8443/x", "https://example.com:8443/x"),
        ("https://example.com/a?fbclid=1&utm_medium=y", "https://example.com/a"),
    ],
)
def test_url_canonicalisation(raw: str, canonical: str) -> None:
    assert canonical_url(raw) == canonical
    assert canonical_url(canonical) == canonical


def test_plain_urls_are_web_urls() -> None:
    key = parse_anchor("https://www.lmsys.org/blog/2026-08-17-advanced-cuda-graph/")
    assert isinstance(key, WebUrl)
    assert key.key == "url:https://www.lmsys.org/blog/2026-08-17-advanced-cuda-graph"


@pytest.mark.parametrize(
    "bad", ["ftp://example.com/x", "https://", "mailto:a@b.c", "https://u:p@h.com/"]
)
def test_non_http_urls_are_invalid(bad: str) -> None:
    with pytest.raises(InvalidId):
        parse_anchor(bad)


def test_doi_parse_rejects_non_doi() -> None:
    with pytest.raises(InvalidId):
        Doi.parse("10.12/x")


# --- Issue 11: identifier rules against arXiv's scheme, the DOI Handbook and GitHub -----------


@pytest.mark.parametrize(
    ("url", "canonical"),
    [
        ("https://browse.arxiv.org/pdf/2609.18063v2.pdf", "2609.18063"),
        ("https://browse.arxiv.org/abs/2609.18063", "2609.18063"),
        ("https://www.arxiv.org/abs/2609.18063", "2609.18063"),
        ("http://export.arxiv.org/abs/hep-th/9901001", "hep-th/9901001"),
        ("https://arxiv.org/ftp/arxiv/papers/2609/2609.18063.pdf", "2609.18063"),
        ("https://arxiv.org/ftp/hep-th/papers/9901/9901001.pdf", "hep-th/9901001"),
        ("https://arxiv.org/format/2609.18063", "2609.18063"),
        ("https://arxiv.org/src/2609.18063v1", "2609.18063"),
        ("https://arxiv.org/src/2609.18063v1/anc/table.csv", "2609.18063"),
        ("https://arxiv.org/pdf/2609.18063", "2609.18063"),
        ("https://arxiv.org/pdf/hep-th/9901001v2", "hep-th/9901001"),
        ("https://arxiv.org/e-print/2609.18063", "2609.18063"),
        ("https://arxiv.org/tb/2609.18063", "2609.18063"),
        ("https://ar5iv.labs.arxiv.org/html/2609.18063", "2609.18063"),
        ("https://alphaxiv.org/abs/2609.18063", "2609.18063"),
        ("https://www.alphaxiv.org/pdf/2609.18063v1", "2609.18063"),
        ("https://huggingface.co/papers/2609.18063", "2609.18063"),
    ],
)
def test_every_arxiv_host_and_article_path(url: str, canonical: str) -> None:
    key = parse_anchor(url)
    assert isinstance(key, ArxivId) and key.canonical == canonical


@pytest.mark.parametrize(
    "url",
    [
        "https://arxiv.org/tb/recent",
        "https://arxiv.org/list/cs.LG/recent",
        "https://arxiv.org/a/smith_j_1",
        "https://info.arxiv.org/help/arxiv_identifier.html",
        "https://arxiv.org/abs",
        "https://doi.org/10/gf4gqc",
        "https://www.doi.org/factsheets/DOIKeyFacts.html",
        "https://dx.doi.org/",
        "https://huggingface.co/papers/trending",
    ],
)
def test_site_pages_are_urls_not_invalid_ids(url: str) -> None:
    assert isinstance(parse_anchor(url), WebUrl)


def test_malformed_id_on_an_article_path_is_still_invalid() -> None:
    with pytest.raises(InvalidId, match="5 digits"):
        parse_anchor("https://arxiv.org/abs/2609.1806")
    with pytest.raises(InvalidId, match="not an arXiv archive"):
        parse_anchor("https://arxiv.org/abs/foo-bar/9901001")


def test_new_scheme_years_91_to_99_are_2091_to_2099() -> None:
    key = ArxivId.parse("9912.12345")
    assert key.year == 2099
    assert is_future(key, date(2026, 12, 3))
    assert ArxivId.parse("hep-th/9912001").year == 1999


@pytest.mark.parametrize(
    "text",
    [
        "https://arxiv.org/abs/gr-qc/۹۷۰۶123",
        "gr-qc/۹۷۰۶123",
        "２６０９.１８０６３",
        "2609.１8063",
        "https://arxiv.org/abs/２６０９.１８０６３",
        "०७०४.0001",
    ],
)
def test_non_ascii_digits_are_never_an_id(text: str) -> None:
    with pytest.raises(InvalidId) as exc:
        parse_anchor(text)
    assert "ASCII" in exc.value.reason or "not an arXiv identifier" in exc.value.reason


def test_non_ascii_digits_in_github_and_doi_urls_are_not_ids() -> None:
    assert isinstance(parse_anchor("https://github.com/o/r/issues/٣"), WebUrl)
    with pytest.raises(InvalidId):
        Doi.parse("10.١٢٣٤/x")


@pytest.mark.parametrize(
    ("doi", "url"),
    [
        ("10.1006/rwei.1999#.0001", "https://doi.org/10.1006/rwei.1999%23.0001"),
        ("10.1000/456#789", "https://doi.org/10.1000/456%23789"),  # the Handbook's example
        ("10.1000/a%b", "https://doi.org/10.1000/a%25b"),
        ('10.1000/"q"?x y', "https://doi.org/10.1000/%22q%22%3Fx%20y"),
        (
            "10.1002/(SICI)1097-4571(199806)49:8<693::AID-ASI4>3.0.CO;2-0",
            "https://doi.org/10.1002/(SICI)1097-4571(199806)49:8%3C693::AID-ASI4%3E3.0.CO;2-0",
        ),
        ("10.1000/a+b|c", "https://doi.org/10.1000/a%2Bb%7Cc"),
    ],
)
def test_doi_urls_are_percent_encoded_as_the_handbook_says(doi: str, url: str) -> None:
    assert Doi(doi).url == url


def test_encoded_doi_url_round_trips() -> None:
    d = Doi("10.1006/rwei.1999#.0001")
    back = parse_anchor(d.url)
    assert back == d


@pytest.mark.parametrize(
    "text",
    [
        "10.1000.10/123456",
        "https://doi.org/10.1000.10/123456",
        "10.1000.10.2/abc",
        "10.1002/(SICI)1522-2594(199911)42:5<952::AID-MRM16>3.0.CO;2-S",
    ],
)
def test_subdivided_registrants_and_sici_dois_are_dois(text: str) -> None:
    key = parse_anchor(text)
    assert isinstance(key, Doi)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("foo/..#222", "not a repository"),
        ("foo/.#222", "not a repository"),
        ("o/r#0", "start at 1"),
        ("https://github.com/o/r/issues/0", "start at 1"),
        ("https://github.com/o/../pull/3", "not a repository"),
    ],
)
def test_impossible_github_references_are_rejected(text: str, reason: str) -> None:
    with pytest.raises(InvalidId) as exc:
        parse_anchor(text)
    assert reason in exc.value.reason


def test_dotted_repository_names_are_fine() -> None:
    assert parse_anchor("o/.github#1").key == "github:o/.github#1"
    assert parse_anchor("o/a.b#1").key == "github:o/a.b#1"
    assert parse_anchor("foo/...#123").key == "github:foo/...#123"  # GitHub reserves . and ..


# Vectors from arXiv's own code (arXiv/arxiv-base, arxiv/identifier/tests.py and
# test_arxiv_identifier.py). Its parser is deliberately loose; anchors follows the scheme on
# info.arxiv.org/help/arxiv_identifier, so the two vectors that break it are refused with a reason.
@pytest.mark.parametrize(
    ("text", "canonical", "year", "month"),
    [
        ("math/9901123", "math/9901123", 1999, 1),
        ("hep-ex/9901123", "hep-ex/9901123", 1999, 1),
        ("gr-qc/9901123", "gr-qc/9901123", 1999, 1),
        ("math.NA/9901123", "math/9901123", 1999, 1),
        ("cs.DB/9901123", "cs/9901123", 1999, 1),
        ("gr-qc/9901123v3", "gr-qc/9901123", 1999, 1),
        ("1202.1234", "1202.1234", 2012, 2),
        ("1202.1234v1", "1202.1234", 2012, 2),
        ("physics/0303098", "physics/0303098", 2003, 3),
        ("https://arxiv.org/abs/physics/0303098/", "physics/0303098", 2003, 3),
        ("https://arxiv.org/abs/physics/0303098/static/icon.png", "physics/0303098", 2003, 3),
    ],
)
def test_arxiv_base_vectors(text: str, canonical: str, year: int, month: int) -> None:
    key = parse_anchor(text)
    assert isinstance(key, ArxivId)
    assert (key.canonical, key.year, key.month) == (canonical, year, month)


@pytest.mark.parametrize(
    ("text", "reason"),
    [("1203.12345", "4 digits"), ("1203.12345v12", "4 digits"), ("hep-ph/1203.12345v12", "")],
)
def test_arxiv_base_vectors_outside_the_scheme_are_refused(text: str, reason: str) -> None:
    with pytest.raises(InvalidId) as exc:
        ArxivId.parse(text)
    assert reason in exc.value.reason
