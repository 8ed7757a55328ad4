"""Named defaults (mostly the network side's), in one place that imports nothing heavy.

The CLI's help, the config loader and the clients all read these, so a default is stated once.
"""

from __future__ import annotations

from . import __version__

__all__ = [
    "ARXIV_API",
    "ARXIV_BATCH",
    "ARXIV_HTML",
    "ARXIV_MAX_SEARCHES",
    "ARXIV_MIN_INTERVAL",
    "ARXIV_TIMEOUT",
    "CROSSREF_API",
    "DEFAULT_ATTEMPTS",
    "DEFAULT_CONCURRENCY",
    "DEFAULT_MAX_REDIRECTS",
    "DEFAULT_MAX_UNREACHABLE",
    "DEFAULT_PENDING_DAYS",
    "DEFAULT_PER_HOST",
    "DEFAULT_RETRY_AFTER_CAP",
    "DEFAULT_TIMEOUT",
    "DISTRIBUTION",
    "DOI_API",
    "GITHUB_API",
    "MAX_ANSWER_BYTES",
    "MAX_PAGE_BYTES",
    "REPORT_WINDOW",
    "SAVE_API",
    "SAVE_MIN_INTERVAL",
    "SAVE_PER_RUN",
    "USER_AGENT",
    "WAYBACK_API",
    "WAYBACK_MIN_INTERVAL",
    "project_url",
]

DEFAULT_CONCURRENCY = 16
DEFAULT_PER_HOST = 4
#: seconds for one request, body included (a total deadline, not per read)
DEFAULT_TIMEOUT = 10.0
DEFAULT_MAX_REDIRECTS = 10
#: tries per URL, the first included
DEFAULT_ATTEMPTS = 3
#: the longest Retry-After honoured; a longer ask is reported rate-limited at once
DEFAULT_RETRY_AFTER_CAP = 30.0
#: the share of the anchors checked online that may get no answer at all before `check` says
#: it could not judge (exit 2): more than this, and the network of the run is the suspect
DEFAULT_MAX_UNREACHABLE = 0.5

ARXIV_API = "https://export.arxiv.org/api/query"
#: arXiv's HTML full texts (LaTeXML), `<root>/<id>v<N>`: read for a figure not in the abstract
ARXIV_HTML = "https://arxiv.org/html"
#: one GET of ~700 IDs is 414 URI Too Long; 100 is what arXiv's own tools use
ARXIV_BATCH = 100
#: arXiv's terms of use: no more than one request every three seconds
ARXIV_MIN_INTERVAL = 3.0
#: seconds for one arXiv request at least, whatever `--timeout` says: a batch of 100 papers (the
#: API) or a paper's full text (the HTML) often takes longer than a page
ARXIV_TIMEOUT = 30.0
#: "did you mean" title searches per run (one request each, only for title mismatches)
ARXIV_MAX_SEARCHES = 10
GITHUB_API = "https://api.github.com"
#: Crossref's REST API, for retractions and corrections (update relations) of DOIs
CROSSREF_API = "https://api.crossref.org"
DOI_API = "https://doi.org"
#: the Wayback Machine's availability API (`check --archive`)
WAYBACK_API = "https://archive.org/wayback/available"
#: one archive request a second at most: the Internet Archive throttles bursts from one client
WAYBACK_MIN_INTERVAL = 1.0
#: Save Page Now 2, new captures with the user's own keys (`check --archive-save`)
SAVE_API = "https://web.archive.org/save"
#: SPN2 allows an authenticated account 7 captures a minute (6 in earlier limits): one every 10 s
SAVE_MIN_INTERVAL = 10.0
#: captures asked for in one run at most; an account may make a few thousand a day
SAVE_PER_RUN = 5

#: the most a service's answer may hold, decoded (an arXiv batch of 100 papers is ~0.5 MB, a
#: GitHub issue a few KB); a bigger one (an endless body, a gzip bomb) is an error, not memory
MAX_ANSWER_BYTES = 16 << 20
#: the most of a fetched page that is read: a cited fragment's page, an arXiv paper's HTML full
#: text (past it, what was not read makes its verdicts unverifiable, never missing)
MAX_PAGE_BYTES = 2 << 20

#: days a registry entry may wait for its section of the living document before it is
#: `overdue` (`--pending-days`)
DEFAULT_PENDING_DAYS = 14

#: the distribution's name on the package index ([project] name; the import package and the
#: command are `anchors`): where the installed metadata is found (tests/test_package.py)
DISTRIBUTION = "citation-anchors"


def project_url(*labels: str) -> str | None:
    """The first of the package's `[project.urls]` named by `labels` (case-insensitive), as its
    installed metadata says: pyproject.toml is the one place these addresses are written."""
    # importlib.metadata is ~10 ms of every start (`--help`): only SARIF and a crash report ask
    from importlib import metadata

    # an editable install's files may not name the package: then the distribution's own name
    names = metadata.packages_distributions().get("anchors") or [DISTRIBUTION]
    for name in names:
        try:
            urls = metadata.metadata(name).get_all("Project-URL") or []
        except metadata.PackageNotFoundError:
            continue
        found = dict(_label_url(str(entry)) for entry in urls)
        for label in labels:
            if found.get(label.lower()):
                return found[label.lower()].rstrip("/")
    return None


def _label_url(entry: str) -> tuple[str, str]:
    label, _, url = entry.partition(",")
    return label.strip().lower(), url.strip()


#: `report`'s default window: two runs of the shipped weekly workflow, since a flaky or a
#: recovered link needs two runs to show (tests/test_workflows.py holds the two together)
REPORT_WINDOW = "14d"

#: how every request anchors sends introduces itself
USER_AGENT = f"anchors/{__version__} (citation link checker; python-httpx)"
