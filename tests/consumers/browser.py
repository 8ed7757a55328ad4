"""Headless Chromium as a test harness: a page runs a script that leaves its findings as JSON
in `<pre id="result">`, and Chromium prints the page when its scripts are done.

No request leaves the machine: every host name maps to "not found" and Chromium's background
services (updates, sync, safe browsing, metrics) are off; pages load local files only.
"""

from __future__ import annotations

import html
import json
import re
import subprocess
from pathlib import Path
from typing import Any

from .tools import program

_FLAGS = [
    "--headless",
    "--no-sandbox",  # CI runs as root
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--allow-file-access-from-files",
    "--host-resolver-rules=MAP * ~NOTFOUND",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-extensions",
    "--disable-default-apps",
    "--disable-domain-reliability",
    "--disable-client-side-phishing-detection",
    "--no-first-run",
    "--no-pings",
    "--metrics-recording-only",
    "--virtual-time-budget=30000",
]
_RESULT = re.compile(r'<pre id="result">(.*?)</pre>', re.DOTALL)


def run_page(page: str, folder: Path) -> Any:
    """Open `page` (HTML) from `folder` and return what its script left in `#result`."""
    chromium = program("chromium", "chromium-browser", "google-chrome")
    path = folder / "page.html"
    path.write_text(page, encoding="utf-8")
    out = subprocess.run(
        [chromium, *_FLAGS, f"--user-data-dir={folder / 'profile'}", "--dump-dom", path.as_uri()],
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    m = _RESULT.search(out.stdout)
    assert m is not None, (
        f"chromium printed no result (exit {out.returncode}): {out.stderr[-2000:]}"
    )
    text = html.unescape(m[1])
    assert not text.startswith("ERROR"), text
    return json.loads(text)
